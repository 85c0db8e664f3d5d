#!/usr/bin/env bash
# Compile cost of `#[tool]`, as ratios to a floor. Generates two crates with the same N tools
# (varied signatures: strings, integers, options, a nested struct, an enum, async and plain fns,
# several return types), both depending on `toolnexus` by path:
#   - tools: N `#[tool]` fns and a `Toolkit` that registers them;
#   - floor: the same N fns written without any tool library: per fn a
#     `#[derive(Deserialize, JsonSchema)]` argument struct, plus a `match` dispatcher over JSON
#     text and a list of the schemas (what a hand-written integration compiles anyway).
# For each, in debug: `touch src/lib.rs && cargo build` (incremental, as cargo defaults) and the
# same with CARGO_INCREMENTAL=0 (the whole crate recompiled), each the median of 5 runs; and the
# number of code symbols in the crate's rlib (generated code, which noise does not move).
# Prints a Markdown table of both crates and their ratios.
#
# Usage: scripts/compile_cost.sh [N_TOOLS]    (default 50; the work dir is target/compile-cost)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
n=${1:-50}
work=$root/target/compile-cost
mkdir -p "$work"
export CARGO_TARGET_DIR=$work/target
# The parent workspace's own settings must not leak in; each generated crate is its own workspace.

gen() { # gen DIR NAME WITH_MACRO
    local dir=$1 name=$2 macro=$3
    mkdir -p "$dir/src"
    cat >"$dir/Cargo.toml" <<MANIFEST
[package]
name = "$name"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
toolnexus = { path = "$root/toolnexus" }

[workspace]
MANIFEST
    python3 "$root/scripts/compile_cost_gen.py" "$dir/src/lib.rs" "$n" "$macro"
}

median5() { # median of 5 wall times of a command, in seconds
    local runs=()
    for _ in 1 2 3 4 5; do
        local start end
        start=$(date +%s.%N)
        "$@" >/dev/null 2>&1
        end=$(date +%s.%N)
        runs+=("$(python3 -c "print(f'{$end - $start:.3f}')")")
    done
    printf '%s\n' "${runs[@]}" | sort -n | sed -n 3p
}

measure() { # measure NAME WITH_MACRO -> prints "incr noincr symbols first"
    local name=$1 macro=$2 dir=$work/$1
    gen "$dir" "$name" "$macro"
    local start end first
    start=$(date +%s.%N)
    (cd "$dir" && cargo build --quiet)
    end=$(date +%s.%N)
    first=$(python3 -c "print(f'{$end - $start:.1f}')")
    local src=$dir/src/lib.rs
    touched() { touch "$src"; (cd "$dir" && cargo build --quiet); }
    touched_noincr() { touch "$src"; (cd "$dir" && CARGO_INCREMENTAL=0 cargo build --quiet); }
    local incr noincr symbols
    incr=$(median5 touched)
    noincr=$(median5 touched_noincr)
    symbols=$(nm --defined-only "$CARGO_TARGET_DIR"/debug/deps/lib"$name"-*.rlib 2>/dev/null |
        grep -c ' [tTwW] ' || true)
    echo "$incr $noincr $symbols $first"
}

echo "building $n-tool crates under $work ..." >&2
# A fresh target dir, so the first build compiles every dependency.
rm -rf "$CARGO_TARGET_DIR"
read -r ti tn ts tfirst < <(measure compile_cost_tools 1)
read -r fi fn fs _ < <(measure compile_cost_floor 0)
ratio() { python3 -c "print(f'{$1 / $2:.2f}×')"; }
echo
echo "| debug build, $n tools | touch + build (incremental) | the same, \`CARGO_INCREMENTAL=0\` | code symbols in the rlib |"
echo "|---|---|---|---|"
echo "| floor: hand-written derives, \`match\` dispatcher, schema list | ${fi} s | ${fn} s | ${fs} |"
echo "| \`#[tool]\` fns + a \`Toolkit\` | ${ti} s | ${tn} s | ${ts} |"
echo "| ratio | $(ratio "$ti" "$fi") | $(ratio "$tn" "$fn") | $(ratio "$ts" "$fs") |"
echo
echo "First build of the \`#[tool]\` crate in a fresh target dir (toolnexus and every dependency): ${tfirst} s."
echo
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(rustc --version)"
