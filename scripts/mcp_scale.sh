#!/usr/bin/env bash
# The scale-out measurement of issue 32: INSTANCES stateless server processes behind nginx (from
# Debian, on 127.0.0.1 only), CLIENTS clients calling `echo` for SECONDS, one instance killed
# halfway; first our server, then an rmcp `#[tool_router]` server in the same run. Prints one
# JSON line per server and round (calls/s, p50/p99, and how the calls ended: none may pass
# TIMEOUT_MS) and the ratio. ROUNDS (2) rounds. Usage: scripts/mcp_scale.sh [INSTANCES] [CLIENTS] [SECONDS] [PROFILE]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
instances=${1:-3} clients=${2:-50} seconds=${3:-10} profile=${4:-release} timeout_ms=5000
command -v nginx >/dev/null || { echo "needs nginx (Debian: apt-get install nginx-light)" >&2; exit 1; }
flag=$([ "$profile" = release ] && echo --release || true)
(cd "$root" && cargo build -q $flag -p toolnexus-mcp-tests --bin scale_server --bin mcp_load)
bin="$root/target/$([ "$profile" = release ] && echo release || echo debug)"
work=$(mktemp -d)
pids=()
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT

run() { # $1: ours | rmcp
  local servers=() upstream="" port pid dir
  dir=$(mktemp -d "$work/$1.XXXX")
  for i in $(seq "$instances"); do
    "$bin/scale_server" "$1" 127.0.0.1:0 >"$dir/$i.url" &
    pid=$!; pids+=("$pid"); servers+=("$pid")
    until [ -s "$dir/$i.url" ]; do sleep 0.05; done
    upstream+="server $(sed 's|http://||; s|/mcp||' "$dir/$i.url") max_fails=1 fail_timeout=30s;"
  done
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  mkdir -p "$dir"
  cat >"$dir/nginx.conf" <<CONF
worker_processes 1;
error_log $dir/error.log warn;
pid $dir/nginx.pid;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path $dir; proxy_temp_path $dir;
  fastcgi_temp_path $dir; uwsgi_temp_path $dir; scgi_temp_path $dir;
  upstream mcp { $upstream keepalive 64; }
  server {
    listen 127.0.0.1:$port;
    location /mcp {
      proxy_pass http://mcp; proxy_http_version 1.1; proxy_set_header Connection "";
      proxy_set_header Host \$host;
      proxy_buffering off; proxy_connect_timeout 1s; proxy_read_timeout 5s;
      proxy_next_upstream error timeout;
    }
  }
}
CONF
  nginx -c "$dir/nginx.conf" -g 'daemon off; master_process off;' &
  pid=$!; pids+=("$pid")
  sleep 0.5
  (sleep $((seconds / 2)); kill -9 "${servers[0]}") &
  "$bin/mcp_load" "http://127.0.0.1:$port/mcp" "$clients" "$seconds" "$timeout_ms" | sed "s/^/{\"server\":\"$1\",/; s/,{/,/"
  kill "$pid" "${servers[@]}" 2>/dev/null || true
}

# Rounds alternate which server goes first, so a machine busy with something else weighs on
# both; the ratio is of the summed calls/s.
rounds=${ROUNDS:-2} results=()
for round in $(seq "$rounds"); do
  if [ $((round % 2)) -eq 1 ]; then order="ours rmcp"; else order="rmcp ours"; fi
  for which in $order; do line=$(run "$which"); echo "$line"; results+=("$line"); done
done
printf '%s\n' "${results[@]}" | python3 -c '
import json, sys
runs = [json.loads(l) for l in sys.stdin if l.strip()]
rate = lambda s: sum(r["calls_per_s"] for r in runs if r["server"] == s)
hung = sum(r["timeouts"] for r in runs)
print(json.dumps({"ratio_calls_per_s": round(rate("ours") / rate("rmcp"), 3), "hung_calls": hung}))'
