//! Bedrock Converse: `toolUse` blocks with arguments as an object after a text block, results
//! as `toolResult` blocks of one user message, `ConverseStream`'s events as JSON (each the one
//! member boto3 hands out).

use serde_json::{json, Value};
use toolnexus::Dialect;

use super::{
    blocks, halves, id_or_null, member, quoted, str_at, user_blocks, Answer, ApiLimits, Call,
    Choices, Facts, Fixture, Sdk, Stop, WireCall,
};
use crate::common::generate::{pieces, Rng};

/// Bedrock Converse.
pub struct Bedrock;

/// What the provider is and what its API takes.
const FACTS: Facts = Facts {
    dialect: Dialect::Bedrock,
    sdk: Sdk {
        package: "botocore",
        key: "bedrock",
        shared: false,
        bodies: Some("tests/sdk/validate_bedrock.py"),
    },
    sends_text: false,
    streams_text: true,
    marks_errors: false,
    // Converse documents no cap; the library uses Anthropic's.
    limits: ApiLimits {
        tools: 10_000,
        description: None,
    },
    // `toolChoice` is `auto`, `any` or `tool`: no `none`, no subset, no bound on calls.
    choices: Choices {
        none: false,
        one_tool: true,
        among: false,
        one_at_a_time: false,
    },
    stop_field: "stopReason",
};

impl Fixture for Bedrock {
    fn facts(&self) -> &'static Facts {
        &FACTS
    }

    fn response(&self, calls: &[Call]) -> Value {
        let content: Vec<Value> = std::iter::once(json!({"text": "Let me see."}))
            .chain(calls.iter().map(
                |c| json!({"toolUse": {"toolUseId": c.id, "name": c.name, "input": c.arguments}}),
            ))
            .collect();
        json!({"output": {"message": {"role": "assistant", "content": content}},
            "stopReason": "tool_use",
            "usage": {"inputTokens": 1, "outputTokens": 2, "totalTokens": 3},
            "metrics": {"latencyMs": 5}})
    }

    fn body(&self, calls: &[WireCall]) -> String {
        let items: String = calls
            .iter()
            .map(|call| {
                format!(
                    ",{{\"toolUse\":{{\"toolUseId\":{},\"name\":{}{}}}}}",
                    id_or_null(call),
                    quoted(&call.name),
                    member("input", call.object.clone())
                )
            })
            .collect();
        format!(
            "{{\"output\":{{\"message\":{{\"role\":\"assistant\",\"content\":[{{\"text\":\"Let me check.\"}}{items}]}}}},\
             \"stopReason\":\"tool_use\",\"usage\":{{\"inputTokens\":80,\"outputTokens\":20,\"totalTokens\":100}},\
             \"metrics\":{{\"latencyMs\":100}}}}"
        )
    }

    fn events(&self, rng: &mut Rng, calls: &[Call]) -> Vec<Value> {
        // A text block first, then the calls' blocks one after another.
        let mut events = vec![
            json!({"messageStart": {"role": "assistant"}}),
            json!({"contentBlockDelta": {"contentBlockIndex": 0, "delta": {"text": "Let me see."}}}),
            json!({"contentBlockStop": {"contentBlockIndex": 0}}),
        ];
        for (i, call) in calls.iter().enumerate() {
            let index = i + 1;
            events.push(json!({"contentBlockStart": {"contentBlockIndex": index,
                "start": {"toolUse": {"toolUseId": call.id, "name": call.name}}}}));
            for piece in pieces(rng, &call.arguments.to_string()) {
                events.push(json!({"contentBlockDelta": {"contentBlockIndex": index,
                    "delta": {"toolUse": {"input": piece}}}}));
            }
            events.push(json!({"contentBlockStop": {"contentBlockIndex": index}}));
        }
        events.push(json!({"messageStop": {"stopReason": "tool_use"}}));
        events.push(json!({"metadata": {
            "usage": {"inputTokens": 1, "outputTokens": 2, "totalTokens": 3},
            "metrics": {"latencyMs": 5}}}));
        events
    }

    fn answers(&self, rendered: &[Value]) -> Vec<Answer> {
        user_blocks(rendered, "content")
            .iter()
            .map(|b| {
                let result = &b["toolResult"];
                let error = result.get("status").map(|s| s == "error");
                assert_ne!(error, Some(false), "status is only ever `error`: {b}");
                let content = result["content"].as_array().expect("result content");
                let text = str_at(&content[0], "text");
                assert!(!text.trim().is_empty(), "a text is never blank: {b}");
                Answer {
                    id: Some(str_at(result, "toolUseId")),
                    text,
                    error: Some(error.is_some()),
                }
            })
            .collect()
    }

    fn text(&self, response: &Value) -> String {
        super::joined(
            super::array(&response["output"]["message"]["content"]),
            "text",
        )
    }

    fn ready_at(&self, events: &[Value], call: usize) -> Option<usize> {
        // At the `toolUse` block's `contentBlockStop`.
        super::block_end(
            events,
            call,
            |e| {
                let start = &e["contentBlockStart"];
                start["start"]["toolUse"]
                    .is_object()
                    .then(|| start["contentBlockIndex"].clone())
            },
            |e| e["contentBlockStop"].get("contentBlockIndex").cloned(),
        )
    }

    fn cut_short(&self, rng: &mut Rng, calls: &[Call], stop: super::Stop) -> (Vec<Value>, String) {
        let (head, last) = super::split_last(calls);
        let mut events = self.events(rng, head);
        events.truncate(events.len() - 2); // `messageStop`, `metadata`
        let index = head.len() + 1;
        events.push(json!({"contentBlockStart": {"contentBlockIndex": index,
            "start": {"toolUse": {"toolUseId": last.id, "name": last.name}}}}));
        events.push(json!({"contentBlockDelta": {"contentBlockIndex": index,
            "delta": {"toolUse": {"input": super::half(last)}}}}));
        let stopped = |reason: &str| {
            (
                json!({"messageStop": {"stopReason": reason}}),
                format!("`stopReason` is `{reason}`"),
            )
        };
        let (end, why) = match stop {
            super::Stop::Length => stopped("max_tokens"),
            super::Stop::Safety => stopped("guardrail_intervened"),
            super::Stop::Error => (
                json!({"throttlingException": {"message": "Too many requests"}}),
                "Too many requests".to_owned(),
            ),
        };
        events.push(end);
        (events, why)
    }

    fn text_only(&self, text: &str) -> Value {
        let (head, tail) = halves(text);
        json!({"output": {"message": {"role": "assistant", "content": [
                {"reasoningContent": {"reasoningText": {"text": "hm", "signature": "s"}}},
                {"text": head}, {"text": tail}]}},
            "stopReason": "end_turn",
            "usage": {"inputTokens": 1, "outputTokens": 2, "totalTokens": 3},
            "metrics": {"latencyMs": 5}})
    }

    fn end(&self, response: &mut Value, stop: Stop) -> String {
        let reason = match stop {
            Stop::Length => "max_tokens",
            Stop::Safety => "guardrail_intervened",
            Stop::Error => {
                response["error"] = json!({"message": "boom", "type": "ThrottlingException"});
                return "boom".to_owned();
            }
        };
        self.set_stop(response, json!(reason));
        format!("`stopReason` is `{reason}`")
    }

    fn user_message(&self, text: &str) -> Value {
        json!({"role": "user", "content": [{ "text": text }]})
    }

    fn request(&self, messages: Vec<Value>, tools: Option<Value>) -> Value {
        let mut body = json!({"messages": messages});
        if let Some(tools) = tools {
            body["toolConfig"] = json!({"tools": tools});
        }
        body
    }

    fn turn_calls(&self, turn: &[Value]) -> Vec<(Option<String>, String)> {
        blocks(turn, "content")
            .filter_map(|b| b.get("toolUse"))
            .map(|t| (Some(str_at(t, "toolUseId")), str_at(t, "name")))
            .collect()
    }

    fn answered(&self, rendered: &[Value]) -> Vec<Option<String>> {
        blocks(rendered, "content")
            .filter_map(|b| b.get("toolResult"))
            .map(|r| Some(str_at(r, "toolUseId")))
            .collect()
    }

    fn answer_schema(&self, part: &Value) -> Option<(&'static str, Value)> {
        // The schema goes as JSON text.
        let text = part["outputConfig"]["textFormat"]["structure"]["jsonSchema"]["schema"]
            .as_str()
            .expect("the schema as JSON text");
        Some(("anthropic", serde_json::from_str(text).expect("JSON text")))
    }
}
