#!/usr/bin/env bash
# Runs each fuzz target for a while on the stable toolchain (cargo-fuzz needs nightly flags;
# RUSTC_BOOTSTRAP=1 allows them). Usage: scripts/fuzz.sh [seconds per target, default 60] [target...]
# Seeds: the round-trip fixtures for `responses`, a few argument shapes for `arguments` and
# `strict_nulls` (OpenAI strict-mode pruning of nested, recursive arguments), and one streamed
# body per dialect for `stream` (first byte: the chunk size the target cuts the rest into).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
secs=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(arguments responses strict_nulls stream)
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked
cd "$root/fuzz"
mkdir -p corpus/responses corpus/arguments corpus/strict_nulls corpus/stream
cp "$root"/tests/fixtures/roundtrip/*.json corpus/responses/
printf '%s' '{"sku":"a","qty":1,"tags":[],"address":{"street":"x"}}' > corpus/arguments/order
printf '%s' '{"sku":"a","qty":300,"tags":[1],"address":{"street":"x","zip":"1"}}' > corpus/arguments/bad
printf '%s' '{"boom":[{"a":null}]}' > corpus/arguments/boom
printf '%s' '{"filter":{"op":"and","filters":[{"op":"or","filters":[{"op":"eq","field":"a","value":null,"hint":null}]}]},"limit":null,"note":null}' > corpus/strict_nulls/filter
printf '%s' '{"node":{"a":null,"next":{"a":null,"list":[null,{"a":null,"next":null}]}}}' > corpus/strict_nulls/cyclic
printf '%s' '{"city":null,"days":null,"tags":[{"k":null},{"k":"x"}],"maybe":null}' > corpus/strict_nulls/flat
# Streamed bodies: a text delta and two calls (one split over two chunks), then the ending.
printf '\007%s' 'data: {"choices":[{"index":0,"delta":{"role":"assistant","content":"hi"}}]}

data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c1","type":"function","function":{"name":"order","arguments":"{\"sku\":\"a\","}}]}}]}

data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"\"qty\":1,\"tags\":[],\"address\":{\"street\":\"x\"}}"}}]}}]}

data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"id":"c2","type":"function","function":{"name":"echo","arguments":"{}"}}]}}]}

data: {"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}

data: [DONE]

' > corpus/stream/chat
printf '\013%s' 'event: response.output_item.added
data: {"type":"response.output_item.added","output_index":0,"item":{"type":"function_call","id":"fc1","call_id":"c1","name":"echo","arguments":""}}

event: response.function_call_arguments.delta
data: {"type":"response.function_call_arguments.delta","output_index":0,"item_id":"fc1","delta":"{\"a\":"}

event: response.function_call_arguments.done
data: {"type":"response.function_call_arguments.done","output_index":0,"item_id":"fc1","arguments":"{\"a\":1}"}

event: response.output_item.done
data: {"type":"response.output_item.done","output_index":0,"item":{"type":"function_call","id":"fc1","call_id":"c1","name":"echo","arguments":"{\"a\":1}","status":"completed"}}

event: response.completed
data: {"type":"response.completed","response":{"id":"r1","status":"completed","output":[{"type":"function_call","id":"fc1","call_id":"c1","name":"echo","arguments":"{\"a\":1}","status":"completed"}]}}

' > corpus/stream/responses
printf '\021%s' 'event: message_start
data: {"type":"message_start","message":{"id":"m1","type":"message","role":"assistant","content":[],"stop_reason":null}}

event: content_block_start
data: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}

event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"ok"}}

event: content_block_stop
data: {"type":"content_block_stop","index":0}

event: content_block_start
data: {"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"t1","name":"fails","input":{}}}

event: content_block_delta
data: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"x\": 1}"}}

event: content_block_stop
data: {"type":"content_block_stop","index":1}

event: message_delta
data: {"type":"message_delta","delta":{"stop_reason":"tool_use"}}

event: message_stop
data: {"type":"message_stop"}

' > corpus/stream/anthropic
printf '\005%s' 'data: {"candidates":[{"content":{"role":"model","parts":[{"text":"let me"}]}}]}

data: {"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"name":"echo","args":{"a":2.0}}},{"functionCall":{"name":"order","args":{"sku":"a"}}}]},"finishReason":"STOP"}]}

' > corpus/stream/gemini
for t in "${targets[@]}"; do
  echo "== fuzz $t for ${secs}s"
  RUSTC_BOOTSTRAP=1 cargo fuzz run "$t" "corpus/$t" -- -max_total_time="$secs" -rss_limit_mb=2048 -max_len=65536 2>&1 |
    grep -E "^(#[0-9]+ +(DONE|INITED)|Done|==[0-9]+==ERROR|SUMMARY|.*panicked)" || true
  [ -z "$(ls artifacts/"$t" 2>/dev/null)" ] || { echo "findings in fuzz/artifacts/$t"; exit 1; }
done
