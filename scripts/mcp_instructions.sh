#!/usr/bin/env bash
# Counts instructions under callgrind for `tools/call` served by `McpServer` (a toolkit) next to
# an rmcp `#[tool_router]` server with the same tool, both driven by the same rmcp client over an
# in-process pipe on one thread (tests/mcp/benches/mcp.rs, `MCP_BENCH_ONLY`): a ratio machine
# load does not change, next to the wall-clock one of `cargo bench -p toolnexus-mcp-tests`.
# Usage: scripts/mcp_instructions.sh [calls, default 2000]. Needs valgrind.
set -euo pipefail
cd "$(dirname "$0")/.."
calls=${1:-2000}
cargo bench -p toolnexus-mcp-tests --bench mcp --no-run >&2
bin=$(ls -t target/release/deps/mcp-* | grep -v '\.d$' | head -1)
count() {
  MCP_BENCH_ONLY="$1:$calls" valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" 2>&1 |
    awk '/Collected/ {print $4}'
}
base=$(count setup); floor=$(count floor); ours=$(count toolkit)
python3 -c "b,f,o,n=$base,$floor,$ours,$calls; print('| tools/call, per call | rmcp #[tool_router] (instructions) | McpServer | ratio |'); print('|---|---|---|---|'); print(f'| echo | {(f-b)/n:,.0f} | {(o-b)/n:,.0f} | {(o-b)/(f-b):.2f}x |')"
