//! What the streaming tests share: realistic stream transcripts of each dialect (the events as
//! the providers send them, with the same response sent whole next to it), their SSE bodies,
//! and a toolkit.
//!
//! The transcripts cover text before calls, parallel calls, arguments split inside escapes and
//! multi-byte characters, empty arguments, and thinking/reasoning with signatures.

#![allow(dead_code)] // each test binary uses its own part

use std::time::Duration;

use serde_json::{json, Value};
use toolnexus::{Dialect, NativeTool, Toolkit};

use super::dialects::{self, Fixture};

/// One streamed response and the same response sent whole.
pub struct Transcript {
    pub name: &'static str,
    pub dialect: Dialect,
    /// The events, each the JSON of one SSE `data` field.
    pub events: Vec<Value>,
    /// What the API returns for the same request without `stream`.
    pub whole: Value,
}

impl Transcript {
    /// The fixture of the transcript's dialect.
    pub fn fixture(&self) -> &'static dyn Fixture {
        dialects::of(self.dialect)
    }

    /// The HTTP body as the provider sends it.
    pub fn body(&self) -> Vec<u8> {
        self.fixture().sse(&self.events)
    }
}

/// The SSE body of `events`, framed as `dialect`'s server frames it.
pub fn sse(dialect: Dialect, events: &[Value]) -> Vec<u8> {
    dialects::of(dialect).sse(events)
}

/// `get_weather` (its city echoed back), `add`, `ping`.
pub fn toolkit() -> Toolkit {
    let object = |properties: Value| json!({"type": "object", "properties": properties});
    let weather = NativeTool::of(
        "get_weather",
        "Current weather for a city",
        object(json!({"city": {"type": "string"}})),
        |args| async move { format!("{}: sunny", args["city"].as_str().unwrap_or("?")) },
    )
    .unwrap();
    let add = NativeTool::of(
        "add",
        "Adds two integers",
        object(json!({"a": {"type": "integer"}, "b": {"type": "integer"}})),
        |args| async move {
            match (args["a"].as_i64(), args["b"].as_i64()) {
                (Some(a), Some(b)) => Ok((a + b).to_string()),
                _ => Err("a and b must be integers"),
            }
        },
    )
    .unwrap();
    let ping = NativeTool::of("ping", "Health check", object(json!({})), |_| async {
        "pong"
    })
    .unwrap();
    Toolkit::new()
        .with(weather)
        .unwrap()
        .with(add)
        .unwrap()
        .with(ping)
        .unwrap()
}

/// A toolkit whose `slow` tool takes `delay` (on Tokio's clock) and returns its `n`.
pub fn slow_toolkit(delay: Duration) -> Toolkit {
    let slow = NativeTool::of(
        "slow",
        "Takes a while",
        json!({"type": "object", "properties": {"n": {"type": "integer"}}}),
        move |args| async move {
            tokio::time::sleep(delay).await;
            format!("done {}", args["n"])
        },
    )
    .unwrap();
    Toolkit::new().with(slow).unwrap()
}

/// The weather call's arguments: escapes and characters of 2, 3 and 4 bytes.
pub const CITY_ARGS: &str = r#"{"city":"Île \"de\" France 東京 🌧\u00e9"}"#;
/// The same arguments cut where a model's tokens may cut them: inside `\"`, inside a `\u`
/// escape, and between characters.
pub const CITY_PIECES: [&str; 6] = [
    r#"{"ci"#,
    r#"ty":"Île \"#,
    r#""de\" France 東"#,
    r#"京 🌧\u00"#,
    r#"e9"#,
    r#""}"#,
];

pub fn transcripts() -> Vec<Transcript> {
    assert_eq!(CITY_PIECES.concat(), CITY_ARGS);
    vec![
        openai_chat(),
        openai_chat_text_only(),
        openai_responses(),
        anthropic(),
        gemini(),
        cohere(),
    ]
}

pub fn transcript(name: &str) -> Transcript {
    transcripts()
        .into_iter()
        .find(|t| t.name == name)
        .unwrap_or_else(|| panic!("no transcript {name}"))
}

fn chat_chunk(choices: Value) -> Value {
    json!({"id": "chatcmpl-S1", "object": "chat.completion.chunk", "created": 1764489600,
           "model": "gpt-4o-2024-08-06", "system_fingerprint": "fp_abc", "choices": choices})
}

fn chat_delta(delta: Value) -> Value {
    chat_chunk(json!([{"index": 0, "delta": delta, "logprobs": null, "finish_reason": null}]))
}

fn chat_args(index: usize, piece: &str) -> Value {
    chat_delta(json!({"tool_calls": [{"index": index, "function": {"arguments": piece}}]}))
}

/// Text, then three parallel calls: the weather (arguments in pieces), `add`, and `ping` with
/// empty arguments; then the usage chunk and `[DONE]`.
pub fn openai_chat() -> Transcript {
    let mut events = vec![
        chat_delta(json!({"role": "assistant", "content": "", "refusal": null})),
        chat_delta(json!({"content": "Let me "})),
        chat_delta(json!({"content": "check — "})),
        chat_delta(json!({"content": "one moment."})),
        chat_delta(
            json!({"tool_calls": [{"index": 0, "id": "call_w", "type": "function",
            "function": {"name": "get_weather", "arguments": ""}}]}),
        ),
    ];
    events.extend(CITY_PIECES.iter().map(|p| chat_args(0, p)));
    events.extend([
        chat_delta(
            json!({"tool_calls": [{"index": 1, "id": "call_a", "type": "function",
            "function": {"name": "add", "arguments": ""}}]}),
        ),
        chat_args(1, r#"{"a": 2,"#),
        chat_args(1, r#" "b": 3}"#),
        chat_delta(
            json!({"tool_calls": [{"index": 2, "id": "call_p", "type": "function",
            "function": {"name": "ping", "arguments": ""}}]}),
        ),
        chat_chunk(
            json!([{"index": 0, "delta": {}, "logprobs": null, "finish_reason": "tool_calls"}]),
        ),
        {
            let mut usage = chat_chunk(json!([]));
            usage["usage"] =
                json!({"prompt_tokens": 80, "completion_tokens": 40, "total_tokens": 120});
            usage
        },
    ]);
    let whole = json!({
        "id": "chatcmpl-S1", "object": "chat.completion", "created": 1764489600,
        "model": "gpt-4o-2024-08-06", "system_fingerprint": "fp_abc",
        "choices": [{"index": 0, "logprobs": null, "finish_reason": "tool_calls", "message": {
            "role": "assistant", "content": "Let me check — one moment.", "refusal": null,
            "tool_calls": [
                {"id": "call_w", "type": "function", "function": {"name": "get_weather", "arguments": CITY_ARGS}},
                {"id": "call_a", "type": "function", "function": {"name": "add", "arguments": "{\"a\": 2, \"b\": 3}"}},
                {"id": "call_p", "type": "function", "function": {"name": "ping", "arguments": ""}}
            ]}}],
        "usage": {"prompt_tokens": 80, "completion_tokens": 40, "total_tokens": 120}
    });
    Transcript {
        name: "openai_chat",
        dialect: Dialect::OpenAiChat,
        events,
        whole,
    }
}

/// The model answers in text only: the loop's last turn.
pub fn openai_chat_text_only() -> Transcript {
    let events = vec![
        chat_delta(json!({"role": "assistant", "content": ""})),
        chat_delta(json!({"content": "It is sunny"})),
        chat_delta(json!({"content": " in Paris."})),
        chat_chunk(json!([{"index": 0, "delta": {}, "logprobs": null, "finish_reason": "stop"}])),
    ];
    let whole = json!({
        "id": "chatcmpl-S1", "object": "chat.completion", "created": 1764489600,
        "model": "gpt-4o-2024-08-06", "system_fingerprint": "fp_abc",
        "choices": [{"index": 0, "logprobs": null, "finish_reason": "stop", "message": {
            "role": "assistant", "content": "It is sunny in Paris."}}]
    });
    Transcript {
        name: "openai_chat_text_only",
        dialect: Dialect::OpenAiChat,
        events,
        whole,
    }
}

fn responses_event(kind: &str, seq: &mut u64, fields: Value) -> Value {
    let mut event = json!({"type": kind, "sequence_number": *seq});
    *seq += 1;
    for (k, v) in fields.as_object().unwrap() {
        event[k] = v.clone();
    }
    event
}

/// A reasoning item (with encrypted content), a message, and three function calls.
pub fn openai_responses() -> Transcript {
    let mut seq = 0;
    let base = json!({"id": "resp_1", "object": "response", "created_at": 1764489600,
        "model": "o4-mini-2025-04-16", "parallel_tool_calls": true, "tool_choice": "auto",
        "tools": [], "error": null, "incomplete_details": null});
    let with = |status: &str, output: Value| {
        let mut r = base.clone();
        r["status"] = status.into();
        r["output"] = output;
        r
    };
    let reasoning = json!({"id": "rs_1", "type": "reasoning", "encrypted_content": "gAAAAB-enc",
        "summary": [{"type": "summary_text", "text": "The user wants weather and a sum."}]});
    let message = json!({"id": "msg_1", "type": "message", "status": "completed", "role": "assistant",
        "content": [{"type": "output_text", "text": "Checking — now.", "annotations": [], "logprobs": []}]});
    let call = |id: &str, call_id: &str, name: &str, arguments: &str, status: &str| {
        json!({"id": id, "type": "function_call", "status": status, "arguments": arguments,
               "call_id": call_id, "name": name})
    };
    let calls = [
        ("fc_1", "call_w", "get_weather", CITY_PIECES.to_vec()),
        ("fc_2", "call_a", "add", vec![r#"{"a":2,"#, r#""b":3}"#]),
        ("fc_3", "call_p", "ping", vec!["{}"]),
    ];
    let mut events = vec![
        responses_event(
            "response.created",
            &mut seq,
            json!({"response": with("in_progress", json!([]))}),
        ),
        responses_event(
            "response.in_progress",
            &mut seq,
            json!({"response": with("in_progress", json!([]))}),
        ),
        responses_event(
            "response.output_item.added",
            &mut seq,
            json!({"output_index": 0,
            "item": {"id": "rs_1", "type": "reasoning", "summary": []}}),
        ),
        responses_event(
            "response.reasoning_summary_part.added",
            &mut seq,
            json!({"output_index": 0,
            "item_id": "rs_1", "summary_index": 0, "part": {"type": "summary_text", "text": ""}}),
        ),
        responses_event(
            "response.reasoning_summary_text.delta",
            &mut seq,
            json!({"output_index": 0,
            "item_id": "rs_1", "summary_index": 0, "delta": "The user wants weather and a sum."}),
        ),
        responses_event(
            "response.output_item.done",
            &mut seq,
            json!({"output_index": 0, "item": reasoning}),
        ),
        responses_event(
            "response.output_item.added",
            &mut seq,
            json!({"output_index": 1,
            "item": {"id": "msg_1", "type": "message", "status": "in_progress", "role": "assistant", "content": []}}),
        ),
        responses_event(
            "response.content_part.added",
            &mut seq,
            json!({"output_index": 1, "item_id": "msg_1",
            "content_index": 0, "part": {"type": "output_text", "text": "", "annotations": [], "logprobs": []}}),
        ),
        responses_event(
            "response.output_text.delta",
            &mut seq,
            json!({"output_index": 1, "item_id": "msg_1",
            "content_index": 0, "delta": "Checking — ", "logprobs": []}),
        ),
        responses_event(
            "response.output_text.delta",
            &mut seq,
            json!({"output_index": 1, "item_id": "msg_1",
            "content_index": 0, "delta": "now.", "logprobs": []}),
        ),
        responses_event(
            "response.output_text.done",
            &mut seq,
            json!({"output_index": 1, "item_id": "msg_1",
            "content_index": 0, "text": "Checking — now.", "logprobs": []}),
        ),
        responses_event(
            "response.content_part.done",
            &mut seq,
            json!({"output_index": 1, "item_id": "msg_1",
            "content_index": 0, "part": message["content"][0]}),
        ),
        responses_event(
            "response.output_item.done",
            &mut seq,
            json!({"output_index": 1, "item": message}),
        ),
    ];
    let mut output = vec![reasoning.clone(), message.clone()];
    for (i, (id, call_id, name, pieces)) in calls.iter().enumerate() {
        let index = i + 2;
        let arguments = pieces.concat();
        events.push(responses_event(
            "response.output_item.added",
            &mut seq,
            json!({"output_index": index,
            "item": call(id, call_id, name, "", "in_progress")}),
        ));
        for piece in pieces {
            events.push(responses_event(
                "response.function_call_arguments.delta",
                &mut seq,
                json!({"output_index": index, "item_id": id, "delta": piece}),
            ));
        }
        events.push(responses_event(
            "response.function_call_arguments.done",
            &mut seq,
            json!({"output_index": index, "item_id": id, "name": name, "arguments": arguments}),
        ));
        let done = call(id, call_id, name, &arguments, "completed");
        events.push(responses_event(
            "response.output_item.done",
            &mut seq,
            json!({"output_index": index, "item": done}),
        ));
        output.push(done);
    }
    let mut whole = with("completed", Value::Array(output));
    whole["usage"] = json!({"input_tokens": 90, "input_tokens_details": {"cached_tokens": 0},
        "output_tokens": 60, "output_tokens_details": {"reasoning_tokens": 20}, "total_tokens": 150});
    events.push(responses_event(
        "response.completed",
        &mut seq,
        json!({"response": whole}),
    ));
    Transcript {
        name: "openai_responses",
        dialect: Dialect::OpenAiResponses,
        events,
        whole,
    }
}

/// Thinking (with its signature), text, then three `tool_use` blocks: the weather (input in
/// pieces), `add`, and `ping` with no input pieces at all.
pub fn anthropic() -> Transcript {
    let block_delta = |index: usize, delta: Value| json!({"type": "content_block_delta", "index": index, "delta": delta});
    let stop = |index: usize| json!({"type": "content_block_stop", "index": index});
    let tool = |index: usize, id: &str, name: &str| {
        json!({"type": "content_block_start", "index": index,
               "content_block": {"type": "tool_use", "id": id, "name": name, "input": {}}})
    };
    let json_piece = |index: usize, piece: &str| {
        block_delta(
            index,
            json!({"type": "input_json_delta", "partial_json": piece}),
        )
    };
    let mut events = vec![
        json!({"type": "message_start", "message": {"id": "msg_01S", "type": "message", "role": "assistant",
            "model": "claude-sonnet-4-5", "content": [], "stop_reason": null, "stop_sequence": null,
            "usage": {"input_tokens": 120, "output_tokens": 2, "cache_creation_input_tokens": 0,
                      "cache_read_input_tokens": 0}}}),
        json!({"type": "content_block_start", "index": 0,
               "content_block": {"type": "thinking", "thinking": "", "signature": ""}}),
        block_delta(
            0,
            json!({"type": "thinking_delta", "thinking": "The user wants "}),
        ),
        block_delta(
            0,
            json!({"type": "thinking_delta", "thinking": "the weather — and a sum."}),
        ),
        block_delta(
            0,
            json!({"type": "signature_delta", "signature": "EqQBCgIYAhIM1gbcDa9GJwZA2b3h"}),
        ),
        stop(0),
        json!({"type": "content_block_start", "index": 1, "content_block": {"type": "text", "text": ""}}),
        block_delta(1, json!({"type": "text_delta", "text": "Let me check "})),
        block_delta(1, json!({"type": "text_delta", "text": "both — 東京 too."})),
        stop(1),
        tool(2, "toolu_w", "get_weather"),
        json_piece(2, ""),
    ];
    events.extend(CITY_PIECES.iter().map(|p| json_piece(2, p)));
    events.extend([
        stop(2),
        tool(3, "toolu_a", "add"),
        json_piece(3, r#"{"a": 2"#),
        json_piece(3, r#", "b": 3}"#),
        stop(3),
        tool(4, "toolu_p", "ping"),
        stop(4),
        json!({"type": "message_delta", "delta": {"stop_reason": "tool_use", "stop_sequence": null},
               "usage": {"output_tokens": 95}}),
        json!({"type": "message_stop"}),
    ]);
    let whole = json!({"id": "msg_01S", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
        "content": [
            {"type": "thinking", "thinking": "The user wants the weather — and a sum.",
             "signature": "EqQBCgIYAhIM1gbcDa9GJwZA2b3h"},
            {"type": "text", "text": "Let me check both — 東京 too."},
            {"type": "tool_use", "id": "toolu_w", "name": "get_weather",
             "input": serde_json::from_str::<Value>(CITY_ARGS).unwrap()},
            {"type": "tool_use", "id": "toolu_a", "name": "add", "input": {"a": 2, "b": 3}},
            {"type": "tool_use", "id": "toolu_p", "name": "ping", "input": {}}
        ],
        "stop_reason": "tool_use", "stop_sequence": null,
        "usage": {"input_tokens": 120, "output_tokens": 95, "cache_creation_input_tokens": 0,
                  "cache_read_input_tokens": 0}});
    Transcript {
        name: "anthropic",
        dialect: Dialect::Anthropic,
        events,
        whole,
    }
}

/// A thought, text in pieces, then two calls in one chunk (the first with its
/// `thoughtSignature`) and a third without `args`, with the `finishReason`.
pub fn gemini() -> Transcript {
    let chunk = |parts: Value, finish: Option<&str>, tokens: u64| {
        let mut candidate = json!({"content": {"parts": parts, "role": "model"}, "index": 0});
        if let Some(finish) = finish {
            candidate["finishReason"] = finish.into();
        }
        json!({"candidates": [candidate],
               "usageMetadata": {"promptTokenCount": 50, "candidatesTokenCount": tokens, "totalTokenCount": 50 + tokens},
               "modelVersion": "gemini-2.5-flash", "responseId": "r-S1"})
    };
    let city: Value = serde_json::from_str(CITY_ARGS).unwrap();
    let events = vec![
        chunk(
            json!([{"text": "**Planning** the weather and a sum.", "thought": true}]),
            None,
            4,
        ),
        chunk(json!([{"text": "Let me "}]), None, 6),
        chunk(json!([{"text": "check — 東京 "}]), None, 9),
        chunk(json!([{"text": "too."}]), None, 10),
        chunk(
            json!([{"functionCall": {"name": "get_weather", "args": city}, "thoughtSignature": "c2lnbmF0dXJlLTE="},
                     {"functionCall": {"name": "add", "args": {"a": 2, "b": 3}}}]),
            None,
            20,
        ),
        chunk(
            json!([{"functionCall": {"name": "ping"}}]),
            Some("STOP"),
            24,
        ),
    ];
    let whole = json!({"candidates": [{"content": {"parts": [
            {"text": "**Planning** the weather and a sum.", "thought": true},
            {"text": "Let me check — 東京 too."},
            {"functionCall": {"name": "get_weather", "args": city}, "thoughtSignature": "c2lnbmF0dXJlLTE="},
            {"functionCall": {"name": "add", "args": {"a": 2, "b": 3}}},
            {"functionCall": {"name": "ping"}}
        ], "role": "model"}, "finishReason": "STOP", "index": 0}],
        "usageMetadata": {"promptTokenCount": 50, "candidatesTokenCount": 24, "totalTokenCount": 74},
        "modelVersion": "gemini-2.5-flash", "responseId": "r-S1"});
    Transcript {
        name: "gemini",
        dialect: Dialect::Gemini,
        events,
        whole,
    }
}

/// A tool plan in pieces, text, the weather call's arguments cut as [`CITY_PIECES`] cuts them, then
/// `add` and `ping` (its arguments `{}`), with `TOOL_CALL`.
pub fn cohere() -> Transcript {
    let start = |index: usize, id: &str, name: &str| {
        json!({"type": "tool-call-start", "index": index, "delta": {"message": {"tool_calls": {
            "id": id, "type": "function", "function": {"name": name, "arguments": ""}}}}})
    };
    let args = |index: usize, piece: &str| {
        json!({"type": "tool-call-delta", "index": index, "delta": {"message": {"tool_calls": {
            "function": {"arguments": piece}}}}})
    };
    let end = |index: usize| json!({"type": "tool-call-end", "index": index});
    let text = |piece: &str| {
        json!({"type": "content-delta", "index": 0, "delta": {"message": {"content": {
            "text": piece}}}})
    };
    let plan = |piece: &str| json!({"type": "tool-plan-delta", "delta": {"message": {"tool_plan": piece}}});
    let mut events = vec![
        json!({"type": "message-start", "id": "r-S1", "delta": {"message": {"role": "assistant"}}}),
        plan("I will check the weather — 東京 "),
        plan("too — and add."),
        json!({"type": "content-start", "index": 0, "delta": {"message": {"content": {
            "type": "text", "text": ""}}}}),
        text("Let me "),
        text("check."),
        json!({"type": "content-end", "index": 0}),
        start(0, "call_w", "get_weather"),
    ];
    events.extend(CITY_PIECES.iter().map(|piece| args(0, piece)));
    events.extend([
        end(0),
        start(1, "call_a", "add"),
        args(1, r#"{"a": 2, "#),
        args(1, r#""b": 3}"#),
        end(1),
        start(2, "call_p", "ping"),
        args(2, "{}"),
        end(2),
        json!({"type": "message-end", "delta": {"finish_reason": "TOOL_CALL", "usage": {
            "billed_units": {"input_tokens": 50, "output_tokens": 24},
            "tokens": {"input_tokens": 60, "output_tokens": 30}}}}),
    ]);
    let call = |id: &str, name: &str, arguments: &str| json!({"id": id, "type": "function", "function": {"name": name, "arguments": arguments}});
    let whole = json!({"id": "r-S1", "finish_reason": "TOOL_CALL", "message": {
        "role": "assistant", "tool_plan": "I will check the weather — 東京 too — and add.",
        "tool_calls": [call("call_w", "get_weather", CITY_ARGS),
                       call("call_a", "add", r#"{"a": 2, "b": 3}"#), call("call_p", "ping", "{}")],
        "content": [{"type": "text", "text": "Let me check."}]},
        "usage": {"billed_units": {"input_tokens": 50, "output_tokens": 24},
                  "tokens": {"input_tokens": 60, "output_tokens": 30}}});
    Transcript {
        name: "cohere",
        dialect: Dialect::Cohere,
        events,
        whole,
    }
}
