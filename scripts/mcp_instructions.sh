#!/usr/bin/env bash
# Counts instructions under callgrind for the two MCP paths, each next to its floor, from the
# same bench binary (tests/mcp/benches/mcp.rs, `MCP_BENCH_ONLY`), on one thread: ratios machine
# load does not change, next to the wall-clock ones of `cargo bench -p toolnexus-mcp-tests`.
# - serve: `tools/call` served by `McpServer` (a toolkit) against an rmcp `#[tool_router]`
#   server, both in this process behind the same rmcp client over an in-process pipe;
# - call: an MCP tool called through a `Toolkit` against the same call with rmcp's client; the
#   fixture server is a child process, so only the client side (this process) is counted.
# Then the interleaved wall-clock medians of both (500-call rounds, floor and ours in turn).
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
echo "| per call | floor (instructions) | toolnexus | ratio |"
echo "|---|---|---|---|"
for path in serve call; do
  base=$(count "$path-setup"); floor=$(count "$path-floor"); ours=$(count "$path-toolkit")
  python3 -c "b,f,o,n=$base,$floor,$ours,$calls; print(f'| $path | {(f-b)/n:,.0f} | {(o-b)/n:,.0f} | {(o-b)/(f-b):.2f}x |')"
done
for path in serve call; do MCP_BENCH_ONLY="$path-interleaved:21" "$bin"; done
