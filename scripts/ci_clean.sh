#!/usr/bin/env bash
# Removes everything a CI run (.ci/run under CI=true) creates inside its clone, so a run leaves
# nothing behind on the machine: a full disk stops builds, commits and even the clean-up.
# .ci/run calls it from its EXIT trap (pass, fail or interrupt); tests/meta/ci.rs runs both.
#
#   the cargo target dir  target/, or $CARGO_TARGET_DIR when it lies inside the clone
#                         (one elsewhere is the caller's, kept warm); holds target/minimal-versions
#                         and trybuild's target/tests too
#   .venv/, .venv.lock    the providers' SDKs (scripts/venv.sh)
#   .mcp-peers/, .mcp-peers.lock  the npm MCP peers (scripts/mcp_peers.sh)
#   .ci-tmp/              the run's TMPDIR: the nginx scratch of the scale-out test
#                         (toolnexus-nginx-*), the MCP tests' files, Python's and node's temp files
#
# Run in a developer's own work tree (no CI), .ci/run never calls it: builds stay warm.
set -uo pipefail
root=$(cd "${1:-$(dirname "$0")/..}" && pwd -P)

target=${CARGO_TARGET_DIR:-$root/target}
case $target in /*) ;; *) target=$root/$target ;; esac
if [ -e "$target" ]; then
  target=$(cd "$target" && pwd -P)
  case $target in
    "$root") echo "ci_clean: kept $target (the clone itself)" >&2 ;;
    "$root"/*) rm -rf -- "$target" ;;
    *) echo "ci_clean: kept $target (CARGO_TARGET_DIR, outside the clone)" >&2 ;;
  esac
fi
rm -rf -- "$root/.venv" "$root/.venv.lock" "$root/.mcp-peers" "$root/.mcp-peers.lock" "$root/.ci-tmp"
