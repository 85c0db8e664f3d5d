//! Property test (issue 24): valid streams generated for the four dialects, judged by what the
//! tools saw. Up to 8 calls whose argument pieces interleave at random where the format allows it
//! (Chat `index`es, Responses `output_index`es), split into random pieces (empty ones included)
//! and the body cut into random chunks down to 1 byte. The tools record every run and the
//! arguments it received. Asserted: every call that starts has exactly its final arguments,
//! runs once, starts once; eager and non-eager reading give the same `Turn`, and it is the
//! `Turn` that `respond` gives for the same response sent whole.

use std::sync::{Arc, Mutex};

use proptest::prelude::*;
use serde_json::{json, Value};
use toolnexus::stream::{StreamEvent, StreamTurn, Turn};
use toolnexus::{Arguments, Dialect, NativeTool, RunOptions, Toolkit};

use crate::common::block_on;
use crate::common::stream::sse;

const TOOLS: [&str; 3] = ["rec_a", "rec_b", "rec_c"];

/// A small deterministic generator (splitmix64), so one seed is one whole case.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
}

/// One call of the generated response.
struct Call {
    name: &'static str,
    id: String,
    arguments: Value,
}

fn calls(rng: &mut Rng, count: usize) -> Vec<Call> {
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
                name: TOOLS[rng.below(TOOLS.len())],
                id: format!("call_{i}"),
                arguments,
            }
        })
        .collect()
}

/// `text` cut at random character boundaries into 1 to 6 pieces, sometimes with empty ones.
fn pieces(rng: &mut Rng, text: &str) -> Vec<String> {
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
fn interleave<T>(rng: &mut Rng, mut lanes: Vec<std::collections::VecDeque<T>>) -> Vec<T> {
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

fn chat(rng: &mut Rng, calls: &[Call]) -> Vec<Value> {
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

fn responses(rng: &mut Rng, calls: &[Call]) -> Vec<Value> {
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

fn anthropic(rng: &mut Rng, calls: &[Call]) -> Vec<Value> {
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
fn bedrock(rng: &mut Rng, calls: &[Call]) -> Vec<Value> {
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

fn gemini(rng: &mut Rng, calls: &[Call]) -> Vec<Value> {
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
fn whole(dialect: Dialect, calls: &[Call]) -> Value {
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
        _ => json!({"candidates": [{"content": {
            "parts": calls.iter().map(|c| json!({"functionCall":
                {"id": c.id, "name": c.name, "args": c.arguments}}))
                .collect::<Vec<_>>(), "role": "model"}, "finishReason": "STOP"}]}),
    }
}

type Runs = Arc<Mutex<Vec<(String, Value)>>>;

/// The three recording tools: each run is logged with the arguments it received, and answers
/// with them.
fn recording() -> (Toolkit, Runs) {
    let runs: Runs = Arc::default();
    let mut toolkit = Toolkit::new();
    for name in TOOLS {
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

/// What a turn says, for comparing two turns.
fn summary(turn: &Turn) -> String {
    format!(
        "{:?}\n{:?}\n{}\n{}",
        turn.calls,
        turn.results,
        serde_json::to_string(&turn.model_turn).unwrap(),
        serde_json::to_string(&turn.result_messages).unwrap()
    )
}

fn arguments_of(arguments: &Arguments) -> Value {
    match arguments {
        Arguments::Text(text) => serde_json::from_str(text).unwrap(),
        Arguments::Value(value) => value.clone(),
        Arguments::Absent => json!({}),
    }
}

/// Reads `body` cut into random chunks, through `StreamTurn::read` (a body stream) or
/// `feed_bytes` (chunks fed by hand), and returns the turn, the events and the runs. With
/// `feed_bytes` and eager execution off, the calls run inside `finish`, whose events are not
/// returned: `None` then.
fn read(
    dialect: Dialect,
    body: &[u8],
    rng: &mut Rng,
    eager: bool,
) -> (Turn, Option<Vec<StreamEvent>>, Vec<(String, Value)>) {
    let (toolkit, runs) = recording();
    let mut chunks = Vec::new();
    let mut rest = body;
    while !rest.is_empty() {
        let size = if rng.chance(30) { 1 } else { 1 + rng.below(64) };
        let (chunk, after) = rest.split_at(size.min(rest.len()));
        chunks.push(chunk.to_vec());
        rest = after;
    }
    let by_hand = rng.chance(50);
    let yields: Vec<bool> = chunks.iter().map(|_| rng.chance(20)).collect();
    let (turn, events) = block_on(async {
        let mut turn = StreamTurn::new(&toolkit, dialect, RunOptions::default()).with_eager(eager);
        let mut events = Vec::new();
        if by_hand {
            for (chunk, pause) in chunks.iter().zip(yields) {
                events.extend(turn.feed_bytes(chunk));
                // Let started calls run while the body is still arriving.
                if pause {
                    tokio::task::yield_now().await;
                }
            }
            while let Some(event) = turn.next_call_event().await {
                events.push(event);
            }
        } else {
            let body = futures::stream::iter(chunks.into_iter().map(Ok::<_, std::io::Error>));
            let mut stream = turn.read(body);
            while let Some(event) = futures::StreamExt::next(&mut stream).await {
                events.push(event.unwrap());
            }
        }
        let turn = turn.finish().await.unwrap_or_else(|e| panic!("{e}"));
        (turn, events)
    });
    let runs = runs.lock().unwrap().clone();
    let events = (eager || !by_hand).then_some(events);
    (turn, events, runs)
}

fn check(dialect: Dialect, count: usize, seed: u64) {
    let mut rng = Rng(seed);
    let calls = calls(&mut rng, count);
    let events = match dialect {
        Dialect::OpenAiChat => chat(&mut rng, &calls),
        Dialect::OpenAiResponses => responses(&mut rng, &calls),
        Dialect::Anthropic => anthropic(&mut rng, &calls),
        Dialect::Bedrock => bedrock(&mut rng, &calls),
        _ => gemini(&mut rng, &calls),
    };
    let body = sse(dialect, &events);
    let expected: Vec<(String, Value)> = calls
        .iter()
        .map(|c| (c.name.to_owned(), c.arguments.clone()))
        .collect();
    let (toolkit, _) = recording();
    let respond = block_on(toolkit.respond(&whole(dialect, &calls), dialect))
        .unwrap_or_else(|e| panic!("{e}"));

    let mut turns = Vec::new();
    for eager in [true, false] {
        let (turn, events, mut runs) = read(dialect, &body, &mut rng, eager);
        // Every call ran once, with exactly its final arguments (each call's arguments name it).
        runs.sort_by_key(|(_, args)| args["i"].as_u64());
        assert_eq!(
            runs, expected,
            "{dialect} eager={eager}: what the tools received"
        );
        // One start per call, with its final arguments; one finish per call.
        let Some(events) = events else {
            turns.push(summary(&turn));
            continue;
        };
        let mut started = vec![0; count];
        let mut finished = vec![0; count];
        for event in &events {
            match event {
                StreamEvent::CallStarted { index, call } => {
                    started[*index] += 1;
                    assert_eq!(call.name, calls[*index].name);
                    assert_eq!(arguments_of(&call.arguments), calls[*index].arguments);
                }
                StreamEvent::CallFinished { index, .. } => finished[*index] += 1,
                _ => {}
            }
        }
        assert_eq!(
            started,
            vec![1; count],
            "{dialect} eager={eager}: starts per call"
        );
        assert_eq!(
            finished,
            vec![1; count],
            "{dialect} eager={eager}: finishes per call"
        );
        for (i, result) in turn.results.iter().enumerate() {
            assert_eq!(
                result.output,
                calls[i].arguments.to_string(),
                "{dialect} result {i}"
            );
        }
        turns.push(summary(&turn));
    }
    assert_eq!(turns[0], turns[1], "{dialect}: eager and non-eager turns");
    let respond = summary(&respond);
    assert_eq!(
        turns[0], respond,
        "{dialect}: the streamed turn and respond's"
    );
}

fn dialect(i: usize) -> Dialect {
    [
        Dialect::OpenAiChat,
        Dialect::OpenAiResponses,
        Dialect::Anthropic,
        Dialect::Gemini,
        Dialect::Bedrock,
    ][i]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn generated_streams_run_each_call_once_with_its_final_arguments(
        d in 0..5usize, count in 1..=8usize, seed in any::<u64>()
    ) {
        check(dialect(d), count, seed);
    }
}

/// The issue's own transcript: Chat pieces of index 0 arriving after index 1 has begun. Before
/// the fix, `get_time` ran twice (once with `{}`) and index 0 started twice.
#[test]
fn chat_pieces_after_another_index_began_do_not_start_the_call_early() {
    let events = [
        json!({"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_a","type":"function","function":{"name":"rec_a","arguments":""}}]}}]}),
        json!({"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"id":"call_b","type":"function","function":{"name":"rec_b","arguments":""}}]}}]}),
        json!({"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"timezone\":\"UTC\"}"}}]}}]}),
        json!({"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}),
    ];
    let body = sse(Dialect::OpenAiChat, &events);
    let (turn, events, mut runs) = read(Dialect::OpenAiChat, &body, &mut Rng(7), true);
    runs.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(
        runs,
        [
            ("rec_a".to_owned(), json!({"timezone": "UTC"})),
            ("rec_b".to_owned(), json!({}))
        ]
    );
    let starts: Vec<usize> = events
        .unwrap()
        .iter()
        .filter_map(|e| match e {
            StreamEvent::CallStarted { index, .. } => Some(*index),
            _ => None,
        })
        .collect();
    assert_eq!(starts, [0, 1]);
    assert_eq!(turn.results[0].output, r#"{"timezone":"UTC"}"#);

    // A partial object (`{"ci`) does not start when another index begins either.
    let events = [
        json!({"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_a","type":"function","function":{"name":"rec_a","arguments":"{\"ci"}}]}}]}),
        json!({"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"id":"call_b","type":"function","function":{"name":"rec_b","arguments":"{}"}}]}}]}),
        json!({"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"ty\":\"Paris\"}"}}]}}]}),
        json!({"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}),
    ];
    let (_, _, mut runs) = read(
        Dialect::OpenAiChat,
        &sse(Dialect::OpenAiChat, &events),
        &mut Rng(1),
        true,
    );
    runs.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(
        runs,
        [
            ("rec_a".to_owned(), json!({"city": "Paris"})),
            ("rec_b".to_owned(), json!({}))
        ]
    );
}
