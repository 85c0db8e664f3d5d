//! A streamed response of 400 text events, read by a `StreamTurn` (SSE framing, JSON, the
//! dialect's accumulator, text events, the final turn), next to its floor: hand-written code
//! that splits the body into lines and parses each event's JSON with `serde_json::from_slice`,
//! which any streaming client must do anyway. Both read the body in 1 KiB chunks as a network
//! gives it (the floor joins them first; ours is fed them one by one). Per-event cost is the
//! time divided by the 400 events: the ratio is the same.
//!
//! On a loaded machine wall-clock ratios drift by tens of percent between the two runs, so the
//! bench can also run one side alone, for an instruction count that load does not change:
//! `STREAM_BENCH_ONLY=floor|stream_turn:DIALECT:TURNS` (DIALECT as in the group names) runs
//! that many turns and exits; `scripts/stream_instructions.sh` counts them under callgrind.

use criterion::{criterion_group, Criterion, Throughput};
use serde_json::{json, Value};
use std::hint::black_box;
use toolnexus::stream::{StreamEvent, StreamTurn};
use toolnexus::{Dialect, RunOptions, Toolkit};

const EVENTS: usize = 400;
const CHUNK: usize = 1024;

/// Text pieces as models write them: a word or two, some with multi-byte characters.
fn piece(i: usize) -> String {
    const WORDS: [&str; 8] = [
        " the", " weather", " in", " Paris", " is", " sunny,", " 18°C", " —",
    ];
    WORDS[i % WORDS.len()].to_owned()
}

/// The SSE body of a text-only streamed response of `dialect`, with `EVENTS` text events.
fn body(dialect: Dialect) -> Vec<u8> {
    let mut events: Vec<(Option<&str>, Value)> = Vec::new();
    match dialect {
        Dialect::OpenAiChat => {
            let chunk = |delta: Value, finish: Value| {
                json!({"id": "chatcmpl-B1", "object": "chat.completion.chunk", "created": 1764489600,
                       "model": "gpt-4o-2024-08-06", "system_fingerprint": "fp_abc",
                       "choices": [{"index": 0, "delta": delta, "logprobs": null, "finish_reason": finish}]})
            };
            events.push((
                None,
                chunk(json!({"role": "assistant", "content": ""}), Value::Null),
            ));
            for i in 0..EVENTS {
                events.push((None, chunk(json!({"content": piece(i)}), Value::Null)));
            }
            events.push((None, chunk(json!({}), "stop".into())));
        }
        Dialect::OpenAiResponses => {
            let response = json!({"id": "resp_1", "object": "response", "status": "in_progress", "output": []});
            events.push((
                Some("response.created"),
                json!({"type": "response.created", "sequence_number": 0, "response": response}),
            ));
            events.push((Some("response.output_item.added"), json!({"type": "response.output_item.added", "sequence_number": 1,
                "output_index": 0, "item": {"id": "msg_1", "type": "message", "status": "in_progress", "role": "assistant", "content": []}})));
            events.push((Some("response.content_part.added"), json!({"type": "response.content_part.added", "sequence_number": 2,
                "output_index": 0, "item_id": "msg_1", "content_index": 0, "part": {"type": "output_text", "text": "", "annotations": []}})));
            let mut text = String::new();
            for i in 0..EVENTS {
                text.push_str(&piece(i));
                events.push((Some("response.output_text.delta"), json!({"type": "response.output_text.delta",
                    "sequence_number": 3 + i, "output_index": 0, "item_id": "msg_1", "content_index": 0,
                    "delta": piece(i), "logprobs": []})));
            }
            let message = json!({"id": "msg_1", "type": "message", "status": "completed", "role": "assistant",
                "content": [{"type": "output_text", "text": text, "annotations": []}]});
            events.push((
                Some("response.output_item.done"),
                json!({"type": "response.output_item.done",
                "sequence_number": 1000, "output_index": 0, "item": message}),
            ));
            events.push((Some("response.completed"), json!({"type": "response.completed", "sequence_number": 1001,
                "response": {"id": "resp_1", "object": "response", "status": "completed", "output": [message]}})));
        }
        Dialect::Anthropic => {
            events.push((Some("message_start"), json!({"type": "message_start", "message": {"id": "msg_1",
                "type": "message", "role": "assistant", "model": "claude-sonnet-4-5", "content": [],
                "stop_reason": null, "stop_sequence": null, "usage": {"input_tokens": 10, "output_tokens": 1}}})));
            events.push((
                Some("content_block_start"),
                json!({"type": "content_block_start", "index": 0,
                "content_block": {"type": "text", "text": ""}}),
            ));
            for i in 0..EVENTS {
                events.push((
                    Some("content_block_delta"),
                    json!({"type": "content_block_delta", "index": 0,
                    "delta": {"type": "text_delta", "text": piece(i)}}),
                ));
            }
            events.push((
                Some("content_block_stop"),
                json!({"type": "content_block_stop", "index": 0}),
            ));
            events.push((Some("message_delta"), json!({"type": "message_delta",
                "delta": {"stop_reason": "end_turn", "stop_sequence": null}, "usage": {"output_tokens": 400}})));
            events.push((Some("message_stop"), json!({"type": "message_stop"})));
        }
        Dialect::Cohere => {
            events.push((
                Some("message-start"),
                json!({"type": "message-start", "id": "r1",
                "delta": {"message": {"role": "assistant", "content": [], "tool_plan": "",
                    "tool_calls": [], "citations": []}}}),
            ));
            events.push((
                Some("content-start"),
                json!({"type": "content-start", "index": 0,
                "delta": {"message": {"content": {"type": "text", "text": ""}}}}),
            ));
            for i in 0..EVENTS {
                events.push((
                    Some("content-delta"),
                    json!({"type": "content-delta", "index": 0,
                    "delta": {"message": {"content": {"text": piece(i)}}}}),
                ));
            }
            events.push((
                Some("content-end"),
                json!({"type": "content-end", "index": 0}),
            ));
            events.push((
                Some("message-end"),
                json!({"type": "message-end", "delta": {
                "finish_reason": "COMPLETE", "usage": {"billed_units": {"input_tokens": 10,
                "output_tokens": 400}, "tokens": {"input_tokens": 20, "output_tokens": 400}}}}),
            ));
        }
        _ => {
            for i in 0..EVENTS {
                let mut candidate = json!({"content": {"parts": [{"text": piece(i)}], "role": "model"}, "index": 0});
                if i + 1 == EVENTS {
                    candidate["finishReason"] = "STOP".into();
                }
                events.push((None, json!({"candidates": [candidate],
                    "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": i, "totalTokenCount": 10 + i},
                    "modelVersion": "gemini-2.5-flash", "responseId": "r1"})));
            }
        }
    }
    let mut body = String::new();
    for (name, data) in events {
        if let Some(name) = name {
            body.push_str(&format!("event: {name}\n"));
        }
        body.push_str(&format!("data: {data}\n\n"));
    }
    if dialect == Dialect::OpenAiChat {
        body.push_str("data: [DONE]\n\n");
    }
    body.into_bytes()
}

/// The floor: join the chunks, split lines, parse every `data:` line's JSON.
fn floor(chunks: &[&[u8]]) -> usize {
    let body = chunks.concat();
    let mut parsed = 0;
    for line in body.split(|&b| b == b'\n') {
        let Some(data) = line.strip_prefix(b"data: ") else {
            continue;
        };
        if data == b"[DONE]" {
            continue;
        }
        let value: Value = serde_json::from_slice(data).expect("JSON");
        black_box(&value);
        parsed += 1;
    }
    parsed
}

/// Ours: every chunk fed to a `StreamTurn`, its text events taken, the turn finished.
async fn ours(toolkit: &Toolkit, dialect: Dialect, chunks: &[&[u8]]) -> usize {
    let mut turn = StreamTurn::new(toolkit, dialect, RunOptions::default());
    let mut texts = 0;
    for chunk in chunks {
        for event in turn.feed_bytes(chunk) {
            if let StreamEvent::Text(text) = event {
                black_box(&text);
                texts += 1;
            }
        }
    }
    let turn = turn.finish().await.expect("a complete stream");
    black_box(&turn);
    texts
}

fn stream(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .expect("a Tokio runtime");
    let toolkit = Toolkit::new();
    for (label, dialect) in [
        ("openai_chat", Dialect::OpenAiChat),
        ("openai_responses", Dialect::OpenAiResponses),
        ("anthropic", Dialect::Anthropic),
        ("gemini", Dialect::Gemini),
        ("cohere", Dialect::Cohere),
    ] {
        let body = body(dialect);
        let chunks: Vec<&[u8]> = body.chunks(CHUNK).collect();
        assert!(floor(&chunks) >= EVENTS, "{label}");
        assert_eq!(
            rt.block_on(ours(&toolkit, dialect, &chunks)),
            EVENTS,
            "{label}"
        );

        let mut group = c.benchmark_group(format!("stream/{label}"));
        group.throughput(Throughput::Elements(EVENTS as u64));
        group.bench_function("floor", |b| b.iter(|| floor(black_box(&chunks))));
        group.bench_function("stream_turn", |b| {
            b.to_async(&rt)
                .iter(|| ours(&toolkit, dialect, black_box(&chunks)))
        });
        group.finish();
    }
}

/// `STREAM_BENCH_ONLY=SIDE:DIALECT:TURNS`: run one side alone (see the module docs).
fn only(spec: &str) {
    let mut parts = spec.split(':');
    let (side, label, turns) = (parts.next(), parts.next(), parts.next());
    let dialect = match label {
        Some("openai_chat") => Dialect::OpenAiChat,
        Some("openai_responses") => Dialect::OpenAiResponses,
        Some("anthropic") => Dialect::Anthropic,
        Some("gemini") => Dialect::Gemini,
        Some("cohere") => Dialect::Cohere,
        _ => panic!("STREAM_BENCH_ONLY: unknown dialect in {spec:?}"),
    };
    let turns: usize = turns.and_then(|t| t.parse().ok()).unwrap_or(20);
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .expect("a Tokio runtime");
    let toolkit = Toolkit::new();
    let body = body(dialect);
    let chunks: Vec<&[u8]> = body.chunks(CHUNK).collect();
    for _ in 0..turns {
        match side {
            Some("floor") => black_box(floor(black_box(&chunks))),
            Some("stream_turn") => {
                black_box(rt.block_on(ours(&toolkit, dialect, black_box(&chunks))))
            }
            // Only the set-up, to subtract.
            _ => 0,
        };
    }
}

/// A quick tool for the withheld-id streams.
#[toolnexus::tool]
fn quick() -> String {
    String::new()
}

/// An OpenAI Chat stream of `calls` calls whose first call begins without its id, which comes
/// only after every other call is complete: each must wait until place 0's id is known
/// (issue 39: the waiting calls were rescanned on every signal, cubic in the calls).
fn withheld_body(calls: usize) -> Vec<u8> {
    let delta = |call: Value| json!({"choices": [{"index": 0, "delta": {"tool_calls": [call]}, "finish_reason": null}]});
    let mut body = String::new();
    let first =
        json!({"index": 0, "type": "function", "function": {"name": "quick", "arguments": ""}});
    body.push_str(&format!("data: {}\n\n", delta(first)));
    for i in 1..calls {
        let call = json!({"index": i, "id": format!("call_{i}"), "type": "function",
            "function": {"name": "quick", "arguments": "{}"}});
        body.push_str(&format!("data: {}\n\n", delta(call)));
    }
    let named = json!({"index": 0, "id": "call_0", "function": {"arguments": "{}"}});
    body.push_str(&format!("data: {}\n\n", delta(named)));
    let end = json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]});
    body.push_str(&format!("data: {end}\n\ndata: [DONE]\n\n"));
    body.into_bytes()
}

/// Reads a withheld-id stream and finishes it (every call runs).
async fn withheld(toolkit: &Toolkit, body: &[u8]) -> usize {
    let mut turn = StreamTurn::new(toolkit, Dialect::OpenAiChat, RunOptions::default());
    let events = turn.feed_bytes(body).len();
    let turn = turn.finish().await.expect("a complete stream");
    black_box(&turn);
    events
}

/// Judging repeated ids is linear in the calls: read `withheld/1000` against `withheld/500`
/// (about 2x when linear; it was about 8x, cubic).
fn withheld_ids(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .expect("a Tokio runtime");
    let toolkit = Toolkit::new().with(Quick).expect("a tool");
    let mut group = c.benchmark_group("stream/withheld");
    group.sample_size(20);
    for calls in [500, 1000] {
        let body = withheld_body(calls);
        let turn = rt.block_on(async {
            let mut turn = StreamTurn::new(&toolkit, Dialect::OpenAiChat, RunOptions::default());
            turn.feed_bytes(&body);
            turn.finish().await.expect("a complete stream")
        });
        assert_eq!(turn.results.len(), calls);
        assert!(turn.results.iter().all(|r| !r.is_error), "every id is new");
        group.bench_function(calls.to_string(), |b| {
            b.to_async(&rt)
                .iter(|| withheld(&toolkit, black_box(&body)))
        });
    }
    group.finish();
}

criterion_group!(benches, stream, withheld_ids);

fn main() {
    if let Ok(spec) = std::env::var("STREAM_BENCH_ONLY") {
        return only(&spec);
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
