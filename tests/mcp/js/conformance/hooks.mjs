// The resolve hook of register.mjs: `fs` imported by the conformance suite's own code becomes
// fs_shim.mjs; every other import resolves as usual.
const shim = new URL("./fs_shim.mjs", import.meta.url).href;

export async function resolve(specifier, context, nextResolve) {
  const fromSuite = context.parentURL?.includes("/@modelcontextprotocol/conformance/");
  if (fromSuite && (specifier === "fs" || specifier === "node:fs")) {
    return { url: shim, shortCircuit: true };
  }
  return nextResolve(specifier, context);
}
