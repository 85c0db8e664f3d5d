//! OpenAI Responses: `function_call` items in `output` with arguments as JSON text, results as
//! `function_call_output` items, a stream of typed events whose calls interleave by
//! `output_index`.

use std::collections::VecDeque;

use serde_json::{json, Value};
use toolnexus::Dialect;

use super::{
    halves, id_or_null, member, openai_text, quoted, str_at, typed_sse, with_tools, Answer,
    ApiLimits, Call, Choices, Facts, Fixture, Sdk, Stop, WireCall,
};
use crate::common::generate::{interleave, pieces, Rng};

/// OpenAI Responses.
pub struct OpenAiResponses;

/// The `function_call` item of call `i`, with `arguments` so far and its `status`.
fn item(i: usize, call: &Call, arguments: &str, status: &str) -> Value {
    json!({"type": "function_call", "id": format!("fc_{i}"), "call_id": call.id,
        "name": call.name, "arguments": arguments, "status": status})
}

fn output(calls: &[Call]) -> Vec<Value> {
    calls
        .iter()
        .enumerate()
        .map(|(i, c)| item(i, c, &c.arguments.to_string(), "completed"))
        .collect()
}

/// What the provider is and what its API takes.
const FACTS: Facts = Facts {
    dialect: Dialect::OpenAiResponses,
    sdk: Sdk {
        package: "openai",
        key: "openai_responses",
        shared: true,
        bodies: None,
    },
    sends_text: true,
    streams_text: true,
    marks_errors: true,
    limits: ApiLimits {
        tools: 128,
        description: Some(1024),
    },
    choices: Choices {
        none: true,
        one_tool: true,
        among: true,
        one_at_a_time: true,
    },
    stop_field: "status",
};

impl Fixture for OpenAiResponses {
    fn facts(&self) -> &'static Facts {
        &FACTS
    }

    fn response(&self, calls: &[Call]) -> Value {
        json!({"id": "r", "object": "response", "status": "completed", "output": output(calls)})
    }

    fn body(&self, calls: &[WireCall]) -> String {
        let items: Vec<String> = calls
            .iter()
            .enumerate()
            .map(|(i, call)| {
                format!(
                    "{{\"type\":\"function_call\",\"id\":\"fc_{i}\",\"call_id\":{},\"name\":{}{},\"status\":\"completed\"}}",
                    id_or_null(call),
                    quoted(&call.name),
                    member("arguments", call.text.as_deref().map(quoted))
                )
            })
            .collect();
        format!(
            "{{\"id\":\"resp_rel\",\"object\":\"response\",\"status\":\"completed\",\"model\":\"gpt-4.1\",\
             \"output\":[{{\"type\":\"reasoning\",\"id\":\"rs_1\",\"summary\":[]}}{}]}}",
            items.iter().map(|i| format!(",{i}")).collect::<String>()
        )
    }

    fn events(&self, rng: &mut Rng, calls: &[Call]) -> Vec<Value> {
        let lanes = calls
            .iter()
            .enumerate()
            .map(|(i, call)| {
                let text = call.arguments.to_string();
                let mut lane = VecDeque::new();
                lane.push_back(
                    json!({"type": "response.output_item.added", "output_index": i,
                    "item": item(i, call, "", "in_progress")}),
                );
                for piece in pieces(rng, &text) {
                    lane.push_back(json!({"type": "response.function_call_arguments.delta",
                        "output_index": i, "item_id": format!("fc_{i}"), "delta": piece}));
                }
                lane.push_back(json!({"type": "response.function_call_arguments.done",
                    "output_index": i, "item_id": format!("fc_{i}"), "arguments": text}));
                lane.push_back(
                    json!({"type": "response.output_item.done", "output_index": i,
                    "item": item(i, call, &text, "completed")}),
                );
                lane
            })
            .collect();
        let mut events = vec![json!({"type": "response.created",
            "response": {"id": "r", "object": "response", "status": "in_progress", "output": []}})];
        events.extend(interleave(rng, lanes));
        events.push(json!({"type": "response.completed", "response": self.response(calls)}));
        events
    }

    fn sse(&self, events: &[Value]) -> Vec<u8> {
        typed_sse(events, |_| None)
    }

    fn answers(&self, rendered: &[Value]) -> Vec<Answer> {
        rendered
            .iter()
            .map(|m| {
                assert_eq!(m["type"], "function_call_output", "{m}");
                let (text, error) = openai_text(str_at(m, "output"));
                Answer {
                    id: Some(str_at(m, "call_id")),
                    text,
                    error,
                }
            })
            .collect()
    }

    fn text(&self, response: &Value) -> String {
        let messages = super::array(&response["output"])
            .iter()
            .filter(|i| i["type"] == "message");
        let parts = messages.flat_map(|m| super::array(&m["content"]));
        super::joined(parts.filter(|p| p["type"] == "output_text"), "text")
    }

    fn ready_at(&self, events: &[Value], call: usize) -> Option<usize> {
        // At the call item's `response.output_item.done`, if the item completed.
        let is_call = |e: &Value| e["item"]["type"] == "function_call";
        super::block_end(
            events,
            call,
            |e| {
                (e["type"] == "response.output_item.added" && is_call(e))
                    .then(|| e["output_index"].clone())
            },
            |e| {
                let completed = matches!(e["item"]["status"].as_str(), None | Some("completed"));
                (e["type"] == "response.output_item.done" && is_call(e) && completed)
                    .then(|| e["output_index"].clone())
            },
        )
    }

    fn cut_short(&self, rng: &mut Rng, calls: &[Call], stop: super::Stop) -> (Vec<Value>, String) {
        let (head, last) = super::split_last(calls);
        let mut events = self.events(rng, head);
        events.pop(); // `response.completed`
        let i = head.len();
        let half = super::half(last);
        events.push(
            json!({"type": "response.output_item.added", "output_index": i,
            "item": item(i, last, "", "in_progress")}),
        );
        events.push(
            json!({"type": "response.function_call_arguments.delta", "output_index": i,
            "item_id": format!("fc_{i}"), "delta": half}),
        );
        let incomplete = |reason: &str| {
            let mut output = output(head);
            output.push(item(i, last, &half, "incomplete"));
            let response = json!({"id": "r", "object": "response", "status": "incomplete",
                "incomplete_details": {"reason": reason}, "output": output});
            (
                json!({"type": "response.incomplete", "response": response}),
                format!("`status` is `incomplete`: {reason}"),
            )
        };
        let (end, why) = match stop {
            super::Stop::Length => incomplete("max_output_tokens"),
            super::Stop::Safety => incomplete("content_filter"),
            super::Stop::Error => (
                json!({"type": "error", "code": "server_error",
                    "message": "Something went wrong", "param": null}),
                "Something went wrong".to_owned(),
            ),
        };
        events.push(end);
        (events, why)
    }

    fn text_only(&self, text: &str) -> Value {
        let (head, tail) = halves(text);
        json!({"id": "r", "object": "response", "status": "completed", "output": [
            {"type": "reasoning", "id": "rs", "summary": [{"type": "summary_text", "text": "hm"}]},
            {"type": "message", "id": "m", "role": "assistant", "status": "completed",
             "content": [{"type": "output_text", "text": head, "annotations": []},
                         {"type": "output_text", "text": tail, "annotations": []}]}]})
    }

    fn end(&self, response: &mut Value, stop: Stop) -> String {
        let reason = match stop {
            Stop::Length => "max_output_tokens",
            Stop::Safety => "content_filter",
            Stop::Error => {
                response["status"] = json!("failed");
                response["error"] = json!({"code": "server_error", "message": "boom"});
                return "boom".to_owned();
            }
        };
        response["status"] = json!("incomplete");
        response["incomplete_details"] = json!({ "reason": reason });
        format!("`status` is `incomplete`: {reason}")
    }

    fn request(&self, messages: Vec<Value>, tools: Option<Value>) -> Value {
        with_tools(json!({"model": "gpt-4.1", "input": messages}), tools)
    }

    fn turn_calls(&self, turn: &[Value]) -> Vec<(Option<String>, String)> {
        turn.iter()
            .filter(|item| item["type"] == "function_call")
            .map(|item| (Some(str_at(item, "call_id")), str_at(item, "name")))
            .collect()
    }

    fn answered(&self, rendered: &[Value]) -> Vec<Option<String>> {
        rendered
            .iter()
            .map(|m| Some(str_at(m, "call_id")))
            .collect()
    }

    fn answer_schema(&self, part: &Value) -> Option<(&'static str, Value)> {
        let format = &part["text"]["format"];
        (format["strict"] == true).then(|| ("openai", format["schema"].clone()))
    }
}
