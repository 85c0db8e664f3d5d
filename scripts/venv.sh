#!/usr/bin/env bash
# Creates (or refreshes) .venv with the providers' official SDKs, pinned in requirements-sdk.txt.
# Idempotent and safe to call concurrently: the SDK tests call it themselves, so a plain
# `cargo test --workspace` works on a fresh machine; .ci/run calls it first.
# TOOLNEXUS_PYTHON names the interpreter that creates the venv (default: python3).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
venv="$root/.venv"
req="$root/scripts/requirements-sdk.txt"
stamp="$venv/.requirements-sdk.txt"
up_to_date() { [ -x "$venv/bin/python" ] && cmp -s "$req" "$stamp"; }
up_to_date && exit 0
exec 9>"$root/.venv.lock"
flock 9
up_to_date && exit 0
rm -rf "$venv"
"${TOOLNEXUS_PYTHON:-python3}" -m venv "$venv"
"$venv/bin/pip" install --quiet --disable-pip-version-check -r "$req"
cp "$req" "$stamp"
echo "venv ready: $venv" >&2
