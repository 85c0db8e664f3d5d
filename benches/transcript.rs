//! Moving a conversation between dialects (issue 41), next to its floor: a 100-message OpenAI
//! Chat history with 40 calls, as JSON text, moved to Anthropic (`Transcript::read`, then
//! `render`, then the messages written out as JSON), against parsing the same text into
//! `serde_json::Value` and writing it back. Target: at most 2x the floor. `read` and `render`
//! time the two halves on parsed messages, `clone` a deep copy of them, for where the time goes.

use criterion::{criterion_group, criterion_main, Criterion};
use serde_json::{json, Value};
use std::hint::black_box;
use toolnexus::transcript::Transcript;
use toolnexus::Dialect;

/// 20 rounds of a question, a turn of two calls, their two results and an answer: 100 messages,
/// 40 calls.
fn history() -> String {
    let mut messages = Vec::new();
    for round in 0..20 {
        messages.push(json!({"role": "user", "content": format!("What about city {round}?")}));
        let calls: Vec<Value> = (0..2)
            .map(|i| {
                json!({"id": format!("call_{round}_{i}"), "type": "function", "function": {
                    "name": "get_weather",
                    "arguments": format!("{{\"city\":\"City {round}\",\"day\":{i}}}")}})
            })
            .collect();
        messages.push(json!({"role": "assistant", "content": null, "tool_calls": calls}));
        for i in 0..2 {
            messages.push(
                json!({"role": "tool", "tool_call_id": format!("call_{round}_{i}"),
                "content": format!("sunny, {} °C", 10 + i)}),
            );
        }
        messages.push(json!({"role": "assistant", "content": format!("City {round} is sunny.")}));
    }
    serde_json::to_string(&messages).unwrap()
}

fn floor(text: &str) -> String {
    let messages: Vec<Value> = serde_json::from_str(text).unwrap();
    serde_json::to_string(&messages).unwrap()
}

fn moved(text: &str) -> String {
    let messages: Vec<Value> = serde_json::from_str(text).unwrap();
    let transcript = Transcript::read(Dialect::OpenAiChat, &messages).unwrap();
    let moved = transcript.render(Dialect::Anthropic);
    serde_json::to_string(&moved.messages).unwrap()
}

fn transcript(c: &mut Criterion) {
    let text = history();
    let out: Vec<Value> = serde_json::from_str(&moved(&text)).unwrap();
    assert_eq!(
        out.len(),
        80,
        "a round's two tool messages are one Anthropic user message"
    );
    let mut group = c.benchmark_group("transcript/chat_to_anthropic");
    group.bench_function("floor", |b| b.iter(|| floor(black_box(&text))));
    group.bench_function("transcript", |b| b.iter(|| moved(black_box(&text))));
    let messages: Vec<Value> = serde_json::from_str(&text).unwrap();
    group.bench_function("read", |b| {
        b.iter(|| Transcript::read(Dialect::OpenAiChat, black_box(&messages)).unwrap())
    });
    let t = Transcript::read(Dialect::OpenAiChat, &messages).unwrap();
    group.bench_function("render", |b| {
        b.iter(|| black_box(&t).render(Dialect::Anthropic))
    });
    group.bench_function("clone", |b| b.iter(|| black_box(&messages).clone()));
    group.finish();
}

criterion_group!(benches, transcript);
criterion_main!(benches);
