#!/usr/bin/env bash
# The scale-out measurement of issue 32: INSTANCES stateless server processes behind nginx (from
# Debian, on 127.0.0.1 only), CLIENTS clients calling `echo` for SECONDS, one instance killed
# halfway; first our server, then an rmcp `#[tool_router]` server in the same run. Prints one
# JSON line per server (calls/s, p50/p99, and how the calls ended: none may pass TIMEOUT_MS)
# and the ratio. Usage: scripts/mcp_scale.sh [INSTANCES] [CLIENTS] [SECONDS] [PROFILE]
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
  local servers=() upstream="" port pid
  for i in $(seq "$instances"); do
    "$bin/scale_server" "$1" 127.0.0.1:0 >"$work/$1-$i.url" &
    pid=$!; pids+=("$pid"); servers+=("$pid")
    until [ -s "$work/$1-$i.url" ]; do sleep 0.05; done
    upstream+="server $(sed 's|http://||; s|/mcp||' "$work/$1-$i.url") max_fails=1 fail_timeout=30s;"
  done
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  mkdir -p "$work/nginx-$1"
  cat >"$work/nginx-$1/nginx.conf" <<CONF
worker_processes 1;
error_log $work/nginx-$1/error.log warn;
pid $work/nginx-$1/nginx.pid;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path $work/nginx-$1; proxy_temp_path $work/nginx-$1;
  fastcgi_temp_path $work/nginx-$1; uwsgi_temp_path $work/nginx-$1; scgi_temp_path $work/nginx-$1;
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
  nginx -c "$work/nginx-$1/nginx.conf" -g 'daemon off; master_process off;' &
  pid=$!; pids+=("$pid")
  sleep 0.5
  (sleep $((seconds / 2)); kill -9 "${servers[0]}") &
  "$bin/mcp_load" "http://127.0.0.1:$port/mcp" "$clients" "$seconds" "$timeout_ms" | sed "s/^/{\"server\":\"$1\",/; s/,{/,/"
  kill "$pid" "${servers[@]}" 2>/dev/null || true
}

ours=$(run ours); echo "$ours"
rmcp=$(run rmcp); echo "$rmcp"
python3 -c "import json,sys; a,b=json.loads(sys.argv[1]),json.loads(sys.argv[2]); print(json.dumps({'ratio_calls_per_s': round(a['calls_per_s']/b['calls_per_s'],3)}))" "$ours" "$rmcp"
