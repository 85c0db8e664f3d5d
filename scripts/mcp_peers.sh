#!/usr/bin/env bash
# Installs the npm MCP peers the interop tests run against (pinned in scripts/mcp-peers/, with
# their lock file) into .mcp-peers/ (gitignored). Idempotent and safe to call concurrently: the
# tests call it themselves, so a plain `cargo test --workspace` works on a fresh machine.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dir="$root/.mcp-peers"
lock="$root/scripts/mcp-peers/package-lock.json"
up_to_date() { [ -x "$dir/node_modules/.bin/mcp-server-everything" ] && cmp -s "$lock" "$dir/package-lock.json"; }
up_to_date && exit 0
mkdir -p "$dir"
exec 9>"$dir.lock"
flock 9
up_to_date && exit 0
cp "$root/scripts/mcp-peers/package.json" "$lock" "$dir/"
(cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
echo "MCP peers ready: $dir" >&2
