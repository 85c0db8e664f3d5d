//! Anthropic Messages: `tool_use` blocks with arguments as an object, results as
//! `tool_result` blocks of one user message, a stream of typed events with `ping`s between.

use serde_json::{json, Value};
use toolnexus::Dialect;

use super::{
    blocks, id_or_null, member, quoted, str_at, typed_sse, user_blocks, with_tools, Answer,
    ApiLimits, Call, Choices, Facts, Fixture, Sdk, Stop, WireCall,
};
use crate::common::generate::{pieces, Rng};

/// Anthropic Messages.
pub struct Anthropic;

/// What the provider is and what its API takes.
const FACTS: Facts = Facts {
    dialect: Dialect::Anthropic,
    sdk: Sdk {
        package: "anthropic",
        key: "anthropic",
        shared: true,
        bodies: None,
    },
    sends_text: false,
    streams_text: true,
    marks_errors: false,
    limits: ApiLimits {
        tools: 10_000,
        description: None,
    },
    // `auto`, `any`, `tool` and `none`, with `disable_parallel_tool_use`; no subset.
    choices: Choices {
        none: true,
        one_tool: true,
        among: false,
        one_at_a_time: true,
    },
    stop_field: "stop_reason",
};

impl Fixture for Anthropic {
    fn facts(&self) -> &'static Facts {
        &FACTS
    }

    fn response(&self, calls: &[Call]) -> Value {
        let content: Vec<Value> = calls
            .iter()
            .map(|c| json!({"type": "tool_use", "id": c.id, "name": c.name, "input": c.arguments}))
            .collect();
        json!({"id": "m", "type": "message", "role": "assistant", "stop_reason": "tool_use",
            "content": content})
    }

    fn body(&self, calls: &[WireCall]) -> String {
        let items: String = calls
            .iter()
            .map(|call| {
                format!(
                    ",{{\"type\":\"tool_use\",\"id\":{},\"name\":{}{}}}",
                    id_or_null(call),
                    quoted(&call.name),
                    member("input", call.object.clone())
                )
            })
            .collect();
        format!(
            "{{\"id\":\"msg_rel\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"claude-sonnet-4-5\",\
             \"stop_reason\":\"tool_use\",\"content\":[{{\"type\":\"text\",\"text\":\"Let me check.\"}}{items}],\
             \"usage\":{{\"input_tokens\":80,\"output_tokens\":20}}}}"
        )
    }

    fn events(&self, rng: &mut Rng, calls: &[Call]) -> Vec<Value> {
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

    fn sse(&self, events: &[Value]) -> Vec<u8> {
        // The API sends a `ping` now and then; here after every finished block.
        typed_sse(events, |event| {
            (event["type"] == "content_block_stop")
                .then_some("event: ping\ndata: {\"type\": \"ping\"}\n\n")
        })
    }

    fn answers(&self, rendered: &[Value]) -> Vec<Answer> {
        user_blocks(rendered, "content")
            .iter()
            .map(|b| {
                assert_eq!(b["type"], "tool_result", "{b}");
                let error = b.get("is_error").map(|e| e == &Value::Bool(true));
                assert_ne!(error, Some(false), "is_error is only ever `true`: {b}");
                let text = str_at(b, "content");
                if error.is_some() {
                    assert!(!text.trim().is_empty(), "error content is never empty");
                }
                Answer {
                    id: Some(str_at(b, "tool_use_id")),
                    text,
                    error: Some(error.is_some()),
                }
            })
            .collect()
    }

    fn text(&self, response: &Value) -> String {
        let blocks = super::array(&response["content"]).iter();
        super::joined(blocks.filter(|b| b["type"] == "text"), "text")
    }

    fn ready_at(&self, events: &[Value], call: usize) -> Option<usize> {
        // At the `tool_use` block's `content_block_stop`.
        super::block_end(
            events,
            call,
            |e| {
                (e["type"] == "content_block_start" && e["content_block"]["type"] == "tool_use")
                    .then(|| e["index"].clone())
            },
            |e| (e["type"] == "content_block_stop").then(|| e["index"].clone()),
        )
    }

    fn cut_short(&self, rng: &mut Rng, calls: &[Call], stop: super::Stop) -> (Vec<Value>, String) {
        let (head, last) = super::split_last(calls);
        let mut events = self.events(rng, head);
        events.truncate(events.len() - 2); // `message_delta`, `message_stop`
        let i = head.len();
        events.push(
            json!({"type": "content_block_start", "index": i, "content_block":
            {"type": "tool_use", "id": last.id, "name": last.name, "input": {}}}),
        );
        events.push(json!({"type": "content_block_delta", "index": i,
            "delta": {"type": "input_json_delta", "partial_json": super::half(last)}}));
        let mut stopped = |reason: &str| {
            // The API closes the block it cut, its JSON unfinished.
            events.push(json!({"type": "content_block_stop", "index": i}));
            events.push(json!({"type": "message_delta", "delta": {"stop_reason": reason}}));
            events.push(json!({"type": "message_stop"}));
            format!("`stop_reason` is `{reason}`")
        };
        let why = match stop {
            super::Stop::Length => stopped("max_tokens"),
            super::Stop::Safety => stopped("refusal"),
            super::Stop::Error => {
                events.push(json!({"type": "error",
                    "error": {"type": "overloaded_error", "message": "Overloaded"}}));
                "Overloaded".to_owned()
            }
        };
        (events, why)
    }

    fn text_only(&self, text: &str) -> Value {
        json!({"id": "m", "type": "message", "role": "assistant", "stop_reason": "end_turn",
            "content": [{"type": "thinking", "thinking": "hm", "signature": "s"},
                        {"type": "text", "text": text}]})
    }

    fn end(&self, response: &mut Value, stop: Stop) -> String {
        let reason = match stop {
            Stop::Length => "max_tokens",
            Stop::Safety => "refusal",
            Stop::Error => {
                *response = json!({"type": "error",
                    "error": {"type": "overloaded_error", "message": "boom"}});
                return "boom".to_owned();
            }
        };
        self.set_stop(response, json!(reason));
        format!("`stop_reason` is `{reason}`")
    }

    fn request(&self, messages: Vec<Value>, tools: Option<Value>) -> Value {
        with_tools(
            json!({"model": "claude-sonnet-4-5", "max_tokens": 1024, "messages": messages}),
            tools,
        )
    }

    fn turn_calls(&self, turn: &[Value]) -> Vec<(Option<String>, String)> {
        blocks(turn, "content")
            .filter(|b| b["type"] == "tool_use")
            .map(|b| (Some(str_at(b, "id")), str_at(b, "name")))
            .collect()
    }

    fn answered(&self, rendered: &[Value]) -> Vec<Option<String>> {
        blocks(rendered, "content")
            .filter(|b| b["type"] == "tool_result")
            .map(|b| Some(str_at(b, "tool_use_id")))
            .collect()
    }

    fn answer_schema(&self, part: &Value) -> Option<(&'static str, Value)> {
        Some((
            "anthropic",
            part["output_config"]["format"]["schema"].clone(),
        ))
    }
}
