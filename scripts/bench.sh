#!/usr/bin/env bash
# Runs every criterion bench, then prints each measurement next to its floor as a ratio.
# Usage: scripts/bench.sh [criterion filter]   (e.g. scripts/bench.sh render/gemini)
# Ratios come from one run on one machine; absolute times are in target/criterion/.
set -euo pipefail
cd "$(dirname "$0")/.."
rm -rf target/criterion
cargo bench --workspace --benches -- --warm-up-time 1 --measurement-time 3 "$@" >&2
python3 scripts/bench_table.py target/criterion
