#!/usr/bin/env bash
# Creates (or refreshes) .venv with the providers' official SDKs, pinned in requirements-sdk.txt.
# Tests that validate our JSON with those SDKs run `.venv/bin/python`; .ci/run calls this first.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
venv="$root/.venv"
req="$root/scripts/requirements-sdk.txt"
stamp="$venv/.requirements-sdk.txt"
if [ -x "$venv/bin/python" ] && cmp -s "$req" "$stamp"; then
  exit 0
fi
python3 -m venv "$venv"
"$venv/bin/pip" install --quiet --disable-pip-version-check -r "$req"
cp "$req" "$stamp"
echo "venv ready: $venv"
