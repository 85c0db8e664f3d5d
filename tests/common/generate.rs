//! Valid streams generated for every dialect, for property tests (issue 24): up to 8 calls
//! whose argument pieces interleave at random where the format allows it (Chat `index`es,
//! Responses `output_index`es), split into random pieces (empty ones included), the response
//! sent whole next to them, and a body cut into random chunks down to 1 byte.

#![allow(dead_code)] // each test binary uses its own part

use std::sync::{Arc, Mutex};

use serde_json::{json, Value};
use toolnexus::{Dialect, NativeTool, Toolkit};

/// A small deterministic generator (splitmix64), so one seed is one whole case.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    pub fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
}

/// One call of the generated response.
pub struct Call {
    pub name: &'static str,
    pub id: String,
    pub arguments: Value,
}

/// `count` calls of the `tools`, each with its own arguments (`i` is its place).
pub fn calls(rng: &mut Rng, count: usize, tools: &[&'static str]) -> Vec<Call> {
    let alphabet = [
        "a", "Z", " ", "\"", "\\", "é", "😀", "{", "}", ":", ",", "\n", "0",
    ];
    (0..count)
        .map(|i| {
            let text: String = (0..rng.below(12))
                .map(|_| alphabet[rng.below(alphabet.len())])
                .collect();
            let mut arguments = json!({"i": i, "text": text});
            if rng.chance(50) {
                arguments["n"] = json!(rng.below(1000) as i64 - 500);
            }
            if rng.chance(30) {
                arguments["nested"] = json!({"list": [1, {"k": "v"}], "flag": true});
            }
            Call {
                name: tools[rng.below(tools.len())],
                id: format!("call_{i}"),
                arguments,
            }
        })
        .collect()
}

/// `text` cut at random character boundaries into 1 to 6 pieces, sometimes with empty ones.
pub fn pieces(rng: &mut Rng, text: &str) -> Vec<String> {
    let bounds: Vec<usize> = (0..=text.len())
        .filter(|&i| text.is_char_boundary(i))
        .collect();
    let mut cuts: Vec<usize> = (0..rng.below(6))
        .map(|_| bounds[rng.below(bounds.len())])
        .collect();
    cuts.sort_unstable();
    let mut out = Vec::new();
    let mut from = 0;
    for cut in cuts.into_iter().chain([text.len()]) {
        out.push(text[from..cut].to_owned());
        from = cut;
    }
    out
}

/// The per-call event sequences merged in a random order that keeps each call's own order,
/// and lets call `i` begin only after call `i - 1` has begun (indexes appear in order).
pub fn interleave<T>(rng: &mut Rng, mut lanes: Vec<std::collections::VecDeque<T>>) -> Vec<T> {
    let mut out = Vec::new();
    let mut begun = 0;
    loop {
        let open: Vec<usize> = (0..lanes.len().min(begun + 1))
            .filter(|&i| !lanes[i].is_empty())
            .collect();
        let Some(&lane) = open.get(rng.below(open.len().max(1))) else {
            return out;
        };
        begun = begun.max(lane + 1);
        out.extend(lanes[lane].pop_front());
    }
}

pub fn chat(rng: &mut Rng, calls: &[Call]) -> Vec<Value> {
    let lanes = calls
        .iter()
        .enumerate()
        .map(|(i, call)| {
            let text = call.arguments.to_string();
            let mut lane: std::collections::VecDeque<Value> = pieces(rng, &text)
                .into_iter()
                .map(|piece| json!({"index": i, "function": {"arguments": piece}}))
                .collect();
            lane.push_front(json!({"index": i, "id": call.id, "type": "function",
                "function": {"name": call.name, "arguments": ""}}));
            lane
        })
        .collect();
    let deltas = interleave(rng, lanes);
    let mut events = vec![
        json!({"id": "c", "object": "chat.completion.chunk", "model": "m",
        "choices": [{"index": 0, "delta": {"role": "assistant", "content": null}}]}),
    ];
    let mut i = 0;
    while i < deltas.len() {
        // Sometimes two pieces (of one call or of two) share a chunk.
        let take = if i + 1 < deltas.len() && rng.chance(20) {
            2
        } else {
            1
        };
        events.push(
            json!({"id": "c", "object": "chat.completion.chunk", "model": "m",
            "choices": [{"index": 0, "delta": {"tool_calls": deltas[i..i + take]}}]}),
        );
        i += take;
    }
    events.push(
        json!({"id": "c", "object": "chat.completion.chunk", "model": "m",
        "choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}),
    );
    events
}

pub fn responses(rng: &mut Rng, calls: &[Call]) -> Vec<Value> {
    let item = |i: usize, arguments: &str, status: &str| {
        let call = &calls[i];
        json!({"type": "function_call", "id": format!("fc_{i}"), "call_id": call.id,
            "name": call.name, "arguments": arguments, "status": status})
    };
    let lanes = calls
        .iter()
        .enumerate()
        .map(|(i, call)| {
            let text = call.arguments.to_string();
            let mut lane = std::collections::VecDeque::new();
            lane.push_back(
                json!({"type": "response.output_item.added", "output_index": i,
                "item": item(i, "", "in_progress")}),
            );
            for piece in pieces(rng, &text) {
                lane.push_back(json!({"type": "response.function_call_arguments.delta",
                    "output_index": i, "item_id": format!("fc_{i}"), "delta": piece}));
            }
            lane.push_back(json!({"type": "response.function_call_arguments.done",
                "output_index": i, "item_id": format!("fc_{i}"), "arguments": text}));
            lane.push_back(
                json!({"type": "response.output_item.done", "output_index": i,
                "item": item(i, &text, "completed")}),
            );
            lane
        })
        .collect();
    let mut events = vec![json!({"type": "response.created",
        "response": {"id": "r", "object": "response", "status": "in_progress", "output": []}})];
    events.extend(interleave(rng, lanes));
    let output: Vec<Value> = (0..calls.len())
        .map(|i| item(i, &calls[i].arguments.to_string(), "completed"))
        .collect();
    events.push(json!({"type": "response.completed",
        "response": {"id": "r", "object": "response", "status": "completed", "output": output}}));
    events
}

pub fn anthropic(rng: &mut Rng, calls: &[Call]) -> Vec<Value> {
    let mut events = vec![json!({"type": "message_start", "message": {"id": "m",
        "type": "message", "role": "assistant", "content": [], "stop_reason": null}})];
    for (i, call) in calls.iter().enumerate() {
        events.push(
            json!({"type": "content_block_start", "index": i, "content_block":
            {"type": "tool_use", "id": call.id, "name": call.name, "input": {}}}),
        );
        for piece in pieces(rng, &call.arguments.to_string()) {
            events.push(json!({"type": "content_block_delta", "index": i,
                "delta": {"type": "input_json_delta", "partial_json": piece}}));
        }
        events.push(json!({"type": "content_block_stop", "index": i}));
    }
    events.push(json!({"type": "message_delta", "delta": {"stop_reason": "tool_use"}}));
    events.push(json!({"type": "message_stop"}));
    events
}

/// `ConverseStream`'s events as JSON (each the one member boto3 hands out): a text block, then
/// the calls' blocks one after another.
pub fn bedrock(rng: &mut Rng, calls: &[Call]) -> Vec<Value> {
    let mut events = vec![json!({"messageStart": {"role": "assistant"}})];
    let offset = 1;
    events.push(
        json!({"contentBlockDelta": {"contentBlockIndex": 0, "delta": {"text": "Let me see."}}}),
    );
    events.push(json!({"contentBlockStop": {"contentBlockIndex": 0}}));
    for (i, call) in calls.iter().enumerate() {
        let index = i + offset;
        events.push(json!({"contentBlockStart": {"contentBlockIndex": index,
            "start": {"toolUse": {"toolUseId": call.id, "name": call.name}}}}));
        for piece in pieces(rng, &call.arguments.to_string()) {
            events.push(json!({"contentBlockDelta": {"contentBlockIndex": index,
                "delta": {"toolUse": {"input": piece}}}}));
        }
        events.push(json!({"contentBlockStop": {"contentBlockIndex": index}}));
    }
    events.push(json!({"messageStop": {"stopReason": "tool_use"}}));
    events.push(
        json!({"metadata": {"usage": {"inputTokens": 1, "outputTokens": 2, "totalTokens": 3},
        "metrics": {"latencyMs": 5}}}),
    );
    events
}

/// Cohere v2 Chat's events: a tool plan in pieces, then the calls one after another (each
/// `tool-call-start`, its argument pieces, `tool-call-end`), then `message-end`.
pub fn cohere(rng: &mut Rng, calls: &[Call]) -> Vec<Value> {
    let mut events = vec![json!({"type": "message-start", "id": "r",
        "delta": {"message": {"role": "assistant"}}})];
    for piece in pieces(rng, "I will record them.") {
        events.push(json!({"type": "tool-plan-delta", "delta": {"message": {"tool_plan": piece}}}));
    }
    for (index, call) in calls.iter().enumerate() {
        events.push(
            json!({"type": "tool-call-start", "index": index, "delta": {"message": {
            "tool_calls": {"id": call.id, "type": "function",
                           "function": {"name": call.name, "arguments": ""}}}}}),
        );
        for piece in pieces(rng, &call.arguments.to_string()) {
            events.push(
                json!({"type": "tool-call-delta", "index": index, "delta": {"message": {
                "tool_calls": {"function": {"arguments": piece}}}}}),
            );
        }
        events.push(json!({"type": "tool-call-end", "index": index}));
    }
    events.push(json!({"type": "message-end", "delta": {"finish_reason": "TOOL_CALL"}}));
    events
}

pub fn gemini(rng: &mut Rng, calls: &[Call]) -> Vec<Value> {
    // Parts come whole; the calls are spread over one or more chunks (`parts` before `role`,
    // as the API sends them).
    let mut events = Vec::new();
    let mut i = 0;
    while i < calls.len() {
        let take = 1 + rng.below(calls.len() - i);
        let parts: Vec<Value> = calls[i..i + take]
            .iter()
            .map(|c| json!({"functionCall": {"id": c.id, "name": c.name, "args": c.arguments}}))
            .collect();
        events.push(json!({"candidates": [{"content": {"parts": parts, "role": "model"}}]}));
        i += take;
    }
    events.push(
        json!({"candidates": [{"content": {"role": "model", "parts": []},
        "finishReason": "STOP"}]}),
    );
    events
}

/// The response sent whole, as the stream adds up to it.
pub fn whole(dialect: Dialect, calls: &[Call]) -> Value {
    match dialect {
        Dialect::OpenAiChat => json!({"id": "c", "object": "chat.completion", "model": "m",
            "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
                "role": "assistant", "content": null, "tool_calls": calls.iter().map(|c| json!({
                    "id": c.id, "type": "function",
                    "function": {"name": c.name, "arguments": c.arguments.to_string()}}))
                    .collect::<Vec<_>>()}}]}),
        Dialect::OpenAiResponses => json!({"id": "r", "object": "response", "status": "completed",
            "output": calls.iter().enumerate().map(|(i, c)| json!({"type": "function_call",
                "id": format!("fc_{i}"), "call_id": c.id, "name": c.name,
                "arguments": c.arguments.to_string(), "status": "completed"}))
                .collect::<Vec<_>>()}),
        Dialect::Anthropic => json!({"id": "m", "type": "message", "role": "assistant",
            "stop_reason": "tool_use", "content": calls.iter().map(|c| json!({
                "type": "tool_use", "id": c.id, "name": c.name, "input": c.arguments}))
                .collect::<Vec<_>>()}),
        Dialect::Bedrock => json!({"output": {"message": {"role": "assistant",
            "content": std::iter::once(json!({"text": "Let me see."})).chain(calls.iter().map(|c| json!({"toolUse":
                {"toolUseId": c.id, "name": c.name, "input": c.arguments}})))
                .collect::<Vec<_>>()}}, "stopReason": "tool_use",
            "usage": {"inputTokens": 1, "outputTokens": 2, "totalTokens": 3},
            "metrics": {"latencyMs": 5}}),
        Dialect::Cohere => json!({"id": "r", "finish_reason": "TOOL_CALL", "message": {
            "role": "assistant", "tool_plan": "I will record them.",
            "tool_calls": calls.iter().map(|c| json!({"id": c.id, "type": "function",
                "function": {"name": c.name, "arguments": c.arguments.to_string()}}))
                .collect::<Vec<_>>()}}),
        _ => json!({"candidates": [{"content": {
            "parts": calls.iter().map(|c| json!({"functionCall":
                {"id": c.id, "name": c.name, "args": c.arguments}}))
                .collect::<Vec<_>>(), "role": "model"}, "finishReason": "STOP"}]}),
    }
}

/// The events of a stream of `calls` in `dialect`.
pub fn events(dialect: Dialect, rng: &mut Rng, calls: &[Call]) -> Vec<Value> {
    match dialect {
        Dialect::OpenAiChat => chat(rng, calls),
        Dialect::OpenAiResponses => responses(rng, calls),
        Dialect::Anthropic => anthropic(rng, calls),
        Dialect::Bedrock => bedrock(rng, calls),
        Dialect::Cohere => cohere(rng, calls),
        _ => gemini(rng, calls),
    }
}

/// `body` cut into random chunks, a third of them 1 byte long.
pub fn chunks(rng: &mut Rng, body: &[u8]) -> Vec<Vec<u8>> {
    let mut chunks = Vec::new();
    let mut rest = body;
    while !rest.is_empty() {
        let size = if rng.chance(30) { 1 } else { 1 + rng.below(64) };
        let (chunk, after) = rest.split_at(size.min(rest.len()));
        chunks.push(chunk.to_vec());
        rest = after;
    }
    chunks
}

/// The dialects the generator writes, by number.
pub fn dialect(i: usize) -> Dialect {
    [
        Dialect::OpenAiChat,
        Dialect::OpenAiResponses,
        Dialect::Anthropic,
        Dialect::Gemini,
        Dialect::Bedrock,
        Dialect::Cohere,
    ][i]
}

/// Every run of a [`recording`] toolkit's tools: the tool and the arguments it received.
pub type Runs = Arc<Mutex<Vec<(String, Value)>>>;

/// A toolkit of `tools`, each logging its runs with the arguments it received (so a test judges
/// a stream by what the tools saw) and answering with them.
pub fn recording(tools: &[&'static str]) -> (Toolkit, Runs) {
    let runs: Runs = Arc::default();
    let mut toolkit = Toolkit::new();
    for &name in tools {
        let runs = Arc::clone(&runs);
        let tool = NativeTool::of(
            name,
            "Records its runs",
            json!({"type": "object"}),
            move |args: Value| {
                runs.lock().unwrap().push((name.to_owned(), args.clone()));
                async move { args.to_string() }
            },
        )
        .unwrap();
        toolkit.add(tool).unwrap();
    }
    (toolkit, runs)
}
