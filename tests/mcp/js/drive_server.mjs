// Drives a toolnexus MCP server with the official TypeScript MCP SDK's client (what Claude
// Desktop and Cursor are built on) and prints what it saw as one JSON report: over stdio when
// argv[3] is a program (started with the rest of argv, the way Claude Desktop starts a
// server), over streamable HTTP when it is a URL. argv[2] is the node_modules directory of
// scripts/mcp_peers.sh. Nothing here judges; the Rust test asserts on the report.
import path from "node:path";
import { pathToFileURL } from "node:url";

const [modules, target, ...rest] = process.argv.slice(2);
const sdk = (file) =>
  import(pathToFileURL(path.join(modules, "@modelcontextprotocol/sdk/dist/esm", file)).href);
const { Client } = await sdk("client/index.js");

let transport;
if (target.startsWith("http")) {
  const { StreamableHTTPClientTransport } = await sdk("client/streamableHttp.js");
  transport = new StreamableHTTPClientTransport(new URL(target));
} else {
  const { StdioClientTransport } = await sdk("client/stdio.js");
  transport = new StdioClientTransport({ command: target, args: rest, stderr: "ignore" });
}

const client = new Client({ name: "toolnexus-ts-driver", version: "1.0.0" });
await client.connect(transport);
const report = {
  server: client.getServerVersion()?.name,
  tools_capability: client.getServerCapabilities()?.tools !== undefined,
};

let cursor;
let pages = 0;
const names = [];
do {
  const page = await client.listTools(cursor ? { cursor } : {});
  pages += 1;
  for (const tool of page.tools) {
    names.push(tool.name);
    if (tool.name === "echo" || tool.name === "extra_0") report[`${tool.name}_tool`] = tool;
  }
  cursor = page.nextCursor;
} while (cursor);
report.pages = pages;
report.names = names;

const call = async (name, args) => {
  const result = await client.callTool({ name, arguments: args });
  return { is_error: Boolean(result.isError), content: result.content };
};
report.echo = await call("echo", { text: "hello" });
report.add = await call("add", { a: 2, b: 40 });
report.chart = await call("chart", {});
report.fail = await call("fail", { reason: "on purpose" });
report.bad_arguments = await call("add", { a: "two" });
try {
  await client.callTool({ name: "no_such_tool", arguments: {} });
  report.unknown = "no error";
} catch (error) {
  report.unknown = { code: error.code, message: error.message };
}
const texts = Array.from({ length: 10 }, (_, i) => `concurrent ${i}`);
const answers = await Promise.all(texts.map((text) => call("echo", { text })));
report.concurrent = answers.map((a) => a.content[0].text);
report.boom = await call("boom", {});
report.after_boom = await call("echo", { text: "still here" });

await client.close();
console.log(JSON.stringify(report));
