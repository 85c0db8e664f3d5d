#!/usr/bin/env bash
# Counts the instructions of benches/stream.rs's two sides under callgrind, per dialect: a ratio
# that machine load does not change (wall-clock ratios on a busy machine drift between runs).
# Usage: scripts/stream_instructions.sh [turns, default 20]. Needs valgrind.
set -euo pipefail
cd "$(dirname "$0")/.."
turns=${1:-20}
cargo bench -p toolnexus-suite --bench stream --no-run >&2
bin=$(ls -t target/release/deps/stream-* | grep -v '\.d$' | head -1)
count() {
  STREAM_BENCH_ONLY="$1:$2:$turns" valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" 2>&1 |
    awk '/Collected/ {print $4}'
}
echo "| dialect | floor (instructions) | stream_turn | ratio |"
echo "|---|---|---|---|"
for d in openai_chat openai_responses anthropic gemini cohere; do
  base=$(count setup "$d"); floor=$(count floor "$d"); ours=$(count stream_turn "$d")
  python3 -c "b,f,o=$base,$floor,$ours; print(f'| $d | {f-b:,} | {o-b:,} | {(o-b)/(f-b):.2f}x |')"
done
