#!/usr/bin/env bash
# Installs nginx (Debian's nginx-light) for the MCP scale-out test (tests/mcp/tests/scale.rs,
# scripts/mcp_scale.sh) when it is missing. Idempotent; .ci/run calls it, since under CI the
# test is required. The test starts nginx itself, in the foreground on 127.0.0.1; the package's
# own service is not used.
set -euo pipefail
if command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ]; then
  exit 0
fi
if [ "$(id -u)" != 0 ]; then
  echo "nginx is missing: install it with 'sudo apt-get install nginx-light'" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# Where no init system runs, the package's attempt to start its service may fail; the binary
# is what the test needs, so a failed start does not fail the install.
apt-get install -y -qq --no-install-recommends nginx-light >/dev/null || [ -x /usr/sbin/nginx ]
[ -x /usr/sbin/nginx ] || { echo "nginx did not install" >&2; exit 1; }
echo "nginx ready: /usr/sbin/nginx" >&2
