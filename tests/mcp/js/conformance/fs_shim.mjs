// Node's `fs`, plus the `globSync` Node 20 lacks (see register.mjs).
import fs from "node:fs";

export * from "node:fs";
export default fs;
export function globSync() {
  throw new Error("fs.globSync is not available on this Node (only the suite's tier-check uses it)");
}
