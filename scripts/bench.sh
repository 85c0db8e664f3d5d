#!/usr/bin/env bash
# Runs every criterion bench (benches/*.rs), then prints each measurement next to its floor as a
# Markdown ratio table, with the targets of issue 14 and the machine it ran on.
#
# Usage: scripts/bench.sh [criterion filter]   (e.g. scripts/bench.sh dispatch)
#
# Ratios come from one run on one machine: compare them, not absolute times across machines.
# Absolute times and criterion's own reports are in target/criterion/. About 4 minutes on 2 cores
# after the build (warm-up 1 s and measurement 2 s per bench).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo bench -p toolnexus-suite --benches --no-run >&2
rm -rf target/criterion
cargo bench -p toolnexus-suite --benches -- --warm-up-time 1 --measurement-time 2 "$@" >&2
python3 scripts/bench_table.py target/criterion
echo
echo "Machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(rustc --version | cut -d' ' -f1-2)."
echo "Command: scripts/bench.sh"
