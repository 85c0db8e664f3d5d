// Runs the official MCP conformance suite (pinned in scripts/mcp-peers/) on Node 20, which has no
// `fs.globSync`: the suite imports it by name but calls it only in `tier-check`, which we never
// run. This hook hands the suite's own `fs` import a module that is Node's `fs` plus a
// `globSync` that says so if it is ever called; nothing else is touched, and on a Node that has
// `globSync` the real one is used.
//   node --import ./register.mjs .mcp-peers/node_modules/@modelcontextprotocol/conformance/dist/index.js …
import { register } from "node:module";
import fs from "node:fs";

if (typeof fs.globSync !== "function") {
  register("./hooks.mjs", import.meta.url);
}
