#!/usr/bin/env bash
# Counts instructions under callgrind for the call path and the render path, each next to its
# floor from the same bench binary: ratios that machine load does not change (wall-clock ratios
# on a shared machine drift between runs, and at 1000 tools wall time also sees memory layout).
# The streamed-response counts are scripts/stream_instructions.sh. Needs valgrind.
# Usage: scripts/instructions.sh
set -euo pipefail
cd "$(dirname "$0")/.."
cargo bench -p toolnexus-suite --bench dispatch --bench render --no-run >&2
latest() { ls -t target/release/deps/"$1"-* | grep -v '\.d$' | head -1; }
count() { # VAR=SPEC BINARY
  env "$1=$2" valgrind --tool=callgrind --callgrind-out-file=/dev/null "$3" 2>&1 |
    awk '/Collected/ {print $4}'
}
row() { # LABEL VAR BINARY FLOOR OURS OPERATIONS SPEC-SUFFIX
  local base floor ours
  base=$(count "$2" "setup:$7" "$3"); floor=$(count "$2" "$4:$7" "$3"); ours=$(count "$2" "$5:$7" "$3")
  python3 -c "b,f,o,n=$base,$floor,$ours,$6; print(f'| $1 | {(f-b)/n:,.0f} | {(o-b)/n:,.0f} | {(o-b)/(f-b):.2f}x |')"
}
echo "| per operation | floor (instructions) | toolnexus | ratio |"
echo "|---|---|---|---|"
calls=20000
row "dispatch, \`execute_json\` of \`get_weather\`" DISPATCH_BENCH_ONLY "$(latest dispatch)" floor toolkit $calls $calls
for tools in 100 1000; do
  rounds=$((20000 / tools))
  row "\`to_openai()\` to bytes, $tools tools" RENDER_BENCH_ONLY "$(latest render)" floor to_openai $rounds "$tools:$rounds"
done
