#!/usr/bin/env bash
# Runs each fuzz target for a while on the stable toolchain (cargo-fuzz needs nightly flags;
# RUSTC_BOOTSTRAP=1 allows them). Usage: scripts/fuzz.sh [seconds per target, default 60] [target...]
# Seeds: the round-trip fixtures for `responses`, a few argument shapes for `arguments` and
# `strict_nulls` (OpenAI strict-mode pruning of nested, recursive arguments).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
secs=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(arguments responses strict_nulls)
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked
cd "$root/fuzz"
mkdir -p corpus/responses corpus/arguments corpus/strict_nulls
cp "$root"/tests/fixtures/roundtrip/*.json corpus/responses/
printf '%s' '{"sku":"a","qty":1,"tags":[],"address":{"street":"x"}}' > corpus/arguments/order
printf '%s' '{"sku":"a","qty":300,"tags":[1],"address":{"street":"x","zip":"1"}}' > corpus/arguments/bad
printf '%s' '{"boom":[{"a":null}]}' > corpus/arguments/boom
printf '%s' '{"filter":{"op":"and","filters":[{"op":"or","filters":[{"op":"eq","field":"a","value":null,"hint":null}]}]},"limit":null,"note":null}' > corpus/strict_nulls/filter
printf '%s' '{"node":{"a":null,"next":{"a":null,"list":[null,{"a":null,"next":null}]}}}' > corpus/strict_nulls/cyclic
printf '%s' '{"city":null,"days":null,"tags":[{"k":null},{"k":"x"}],"maybe":null}' > corpus/strict_nulls/flat
for t in "${targets[@]}"; do
  echo "== fuzz $t for ${secs}s"
  RUSTC_BOOTSTRAP=1 cargo fuzz run "$t" "corpus/$t" -- -max_total_time="$secs" -rss_limit_mb=2048 -max_len=65536 2>&1 |
    grep -E "^(#[0-9]+ +(DONE|INITED)|Done|==[0-9]+==ERROR|SUMMARY|.*panicked)" || true
  [ -z "$(ls artifacts/"$t" 2>/dev/null)" ] || { echo "findings in fuzz/artifacts/$t"; exit 1; }
done
