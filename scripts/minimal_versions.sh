#!/usr/bin/env bash
# Checks that the published crates build with the lowest versions their manifests allow
# (`cargo update -Z direct-minimal-versions` on a stable toolchain through RUSTC_BOOTSTRAP=1), so
# a version requirement such as `serde_json = "1.0.x"` is one that really works.
#
# Works in a temporary copy of the tree whose workspace holds only the two published crates (the
# examples' and tests' dependencies are not what a user of toolnexus gets), so the real
# Cargo.lock is never touched. Its target dir is target/minimal-versions, reused between runs.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
copy=$(mktemp -d)
trap 'rm -rf "$copy"' EXIT
git ls-files -z --cached --others --exclude-standard | tar --null -T - -cf - | tar -C "$copy" -xf -
cd "$copy"
{
    printf '[workspace]\nmembers = ["toolnexus", "toolnexus-macros"]\nresolver = "2"\n\n'
    # The shared package settings and dependency versions, without the root package.
    awk '/^\[workspace\.package\]/ { keep = 1 } /^\[package\]/ { keep = 0 } keep' "$root/Cargo.toml"
} >Cargo.toml
RUSTC_BOOTSTRAP=1 cargo update -Z direct-minimal-versions --quiet
export CARGO_TARGET_DIR=$root/target/minimal-versions
# Every feature, so optional dependencies (tracing) are held to their lowest versions too.
cargo check --quiet -p toolnexus -p toolnexus-macros --all-features
cargo tree -p toolnexus --depth 1 -e normal --prefix none | sed 1d | sort | sed 's/^/  /'
echo "minimal versions: toolnexus and toolnexus-macros build"
