//! Cohere v2 Chat: `message.tool_calls` with arguments as JSON text and a `tool_plan`, results
//! as `tool` messages of one document each, a stream of `tool-plan-delta` and
//! `tool-call-start`/`-delta`/`-end` events.

use serde_json::{json, Value};
use toolnexus::Dialect;

use super::openai_chat::{function_call, function_calls, tool_messages};
use super::{
    halves, one_member, str_at, typed_sse, with_tools, Answer, ApiLimits, Call, Choices, Facts,
    Fixture, Sdk, Stop, WireCall,
};
use crate::common::generate::{pieces, Rng};

/// Cohere v2 Chat.
pub struct Cohere;

/// The plan the model states before its calls.
const PLAN: &str = "I will record them.";

/// What the provider is and what its API takes.
const FACTS: Facts = Facts {
    dialect: Dialect::Cohere,
    sdk: Sdk {
        package: "cohere",
        key: "cohere",
        shared: true,
        bodies: Some("tests/sdk/validate_cohere.py"),
    },
    sends_text: true,
    streams_text: true,
    marks_errors: false,
    // Cohere documents no cap; the library uses Anthropic's.
    limits: ApiLimits {
        tools: 10_000,
        description: None,
    },
    // `tool_choice` is `REQUIRED` or `NONE` (left out: auto), naming no tool.
    choices: Choices {
        none: true,
        one_tool: false,
        among: false,
        one_at_a_time: false,
    },
    stop_field: "finish_reason",
};

impl Fixture for Cohere {
    fn facts(&self) -> &'static Facts {
        &FACTS
    }

    fn response(&self, calls: &[Call]) -> Value {
        let calls: Vec<Value> = calls
            .iter()
            .map(|c| {
                json!({"id": c.id, "type": "function",
                    "function": {"name": c.name, "arguments": c.arguments.to_string()}})
            })
            .collect();
        json!({"id": "r", "finish_reason": "TOOL_CALL", "message": {
            "role": "assistant", "tool_plan": PLAN, "tool_calls": calls}})
    }

    fn body(&self, calls: &[WireCall]) -> String {
        let items: Vec<String> = calls.iter().map(function_call).collect();
        format!(
            "{{\"id\":\"rel\",\"finish_reason\":\"TOOL_CALL\",\"message\":{{\"role\":\"assistant\",\
             \"tool_plan\":\"Let me check.\",\"tool_calls\":[{}]}},\
             \"usage\":{{\"billed_units\":{{\"input_tokens\":80,\"output_tokens\":20}}}}}}",
            items.join(",")
        )
    }

    fn events(&self, rng: &mut Rng, calls: &[Call]) -> Vec<Value> {
        let mut events = vec![json!({"type": "message-start", "id": "r",
            "delta": {"message": {"role": "assistant"}}})];
        for piece in pieces(rng, PLAN) {
            events.push(
                json!({"type": "tool-plan-delta", "delta": {"message": {"tool_plan": piece}}}),
            );
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

    fn sse(&self, events: &[Value]) -> Vec<u8> {
        typed_sse(events, |_| None)
    }

    fn answers(&self, rendered: &[Value]) -> Vec<Answer> {
        rendered
            .iter()
            .map(|m| {
                assert_eq!(m["role"], "tool", "{m}");
                assert_eq!(m.as_object().map(|o| o.len()), Some(3), "{m}");
                let content = m["content"].as_array().expect("content blocks");
                assert_eq!(content.len(), 1, "one document: {m}");
                assert_eq!(content[0]["type"], "document", "{m}");
                let (text, error) = one_member(&content[0]["document"]["data"]);
                if error {
                    assert!(!text.trim().is_empty(), "error text is never empty");
                }
                Answer {
                    id: Some(str_at(m, "tool_call_id")),
                    text,
                    error: Some(error),
                }
            })
            .collect()
    }

    fn text(&self, response: &Value) -> String {
        let content = super::array(&response["message"]["content"]).iter();
        super::joined(content.filter(|c| c["type"] == "text"), "text")
    }

    fn ready_at(&self, events: &[Value], call: usize) -> Option<usize> {
        // At the call's `tool-call-end`.
        super::block_end(
            events,
            call,
            |e| (e["type"] == "tool-call-start").then(|| e["index"].clone()),
            |e| (e["type"] == "tool-call-end").then(|| e["index"].clone()),
        )
    }

    fn cut_short(&self, rng: &mut Rng, calls: &[Call], stop: super::Stop) -> (Vec<Value>, String) {
        let (head, last) = super::split_last(calls);
        let mut events = self.events(rng, head);
        events.pop(); // `message-end`
        let index = head.len();
        events.push(
            json!({"type": "tool-call-start", "index": index, "delta": {"message": {
            "tool_calls": {"id": last.id, "type": "function",
                           "function": {"name": last.name, "arguments": ""}}}}}),
        );
        events.push(
            json!({"type": "tool-call-delta", "index": index, "delta": {"message": {
            "tool_calls": {"function": {"arguments": super::half(last)}}}}}),
        );
        let end = |reason: &str| {
            (
                json!({"type": "message-end", "delta": {"finish_reason": reason}}),
                format!("`finish_reason` is `{reason}`"),
            )
        };
        let (end, why) = match stop {
            super::Stop::Length => end("MAX_TOKENS"),
            // v2 names no safety stop; a reason it does not document (v1's moderation stop)
            // is a stop all the same.
            super::Stop::Safety => end("ERROR_TOXIC"),
            super::Stop::Error => (
                json!({"type": "message-end", "delta": {"finish_reason": "ERROR",
                    "error": "internal error while generating"}}),
                "internal error while generating".to_owned(),
            ),
        };
        events.push(end);
        (events, why)
    }

    fn text_only(&self, text: &str) -> Value {
        let (head, tail) = halves(text);
        json!({"id": "r", "finish_reason": "COMPLETE", "message": {"role": "assistant",
            "content": [{"type": "thinking", "thinking": "hm"},
                        {"type": "text", "text": head}, {"type": "text", "text": tail}]}})
    }

    fn end(&self, response: &mut Value, stop: Stop) -> String {
        let reason = match stop {
            Stop::Length => "MAX_TOKENS",
            // v2 names no safety stop: a reason it does not document is a stop.
            Stop::Safety => "ERROR_TOXIC",
            Stop::Error => "ERROR",
        };
        self.set_stop(response, json!(reason));
        let said = format!("`finish_reason` is `{reason}`");
        match stop {
            Stop::Error => format!("the generation failed ({said})"),
            _ => said,
        }
    }

    fn request(&self, messages: Vec<Value>, tools: Option<Value>) -> Value {
        with_tools(
            json!({"model": "command-a-03-2025", "messages": messages}),
            tools,
        )
    }

    fn turn_calls(&self, turn: &[Value]) -> Vec<(Option<String>, String)> {
        function_calls(turn)
    }

    fn answered(&self, rendered: &[Value]) -> Vec<Option<String>> {
        tool_messages(rendered)
    }

    fn answer_schema(&self, part: &Value) -> Option<(&'static str, Value)> {
        Some(("anthropic", part["response_format"]["json_schema"].clone()))
    }
}
