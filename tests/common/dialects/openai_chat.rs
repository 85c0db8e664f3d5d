//! OpenAI Chat Completions: `choices[0].message.tool_calls` with arguments as JSON text, results
//! as one `tool` message per call, a stream of `chat.completion.chunk`s ending in `[DONE]`.

use std::collections::VecDeque;

use serde_json::{json, Value};
use toolnexus::Dialect;

use super::{
    id_or_null, member, openai_text, quoted, str_at, with_tools, Answer, ApiLimits, Call, Choices,
    Facts, Fixture, Sdk, Stop, WireCall,
};
use crate::common::generate::{interleave, pieces, Rng};

/// OpenAI Chat Completions.
pub struct OpenAiChat;

/// One chunk of the stream around `delta`.
fn chunk(delta: Value) -> Value {
    json!({"id": "c", "object": "chat.completion.chunk", "model": "m",
        "choices": [{"index": 0, "delta": delta}]})
}

/// What the provider is and what its API takes.
const FACTS: Facts = Facts {
    dialect: Dialect::OpenAiChat,
    sdk: Sdk {
        package: "openai",
        key: "openai_chat",
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
    stop_field: "choices[0].finish_reason",
};

impl Fixture for OpenAiChat {
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
        json!({"id": "c", "object": "chat.completion", "model": "m",
            "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
                "role": "assistant", "content": null, "tool_calls": calls}}]})
    }

    fn body(&self, calls: &[WireCall]) -> String {
        let items: Vec<String> = calls.iter().map(function_call).collect();
        format!(
            "{{\"id\":\"chatcmpl-rel\",\"object\":\"chat.completion\",\"model\":\"gpt-4o-2024-08-06\",\
             \"choices\":[{{\"index\":0,\"finish_reason\":\"tool_calls\",\"message\":{{\"role\":\"assistant\",\
             \"content\":null,\"tool_calls\":[{}],\"refusal\":null}}}}],\
             \"usage\":{{\"prompt_tokens\":80,\"completion_tokens\":20,\"total_tokens\":100}}}}",
            items.join(",")
        )
    }

    fn events(&self, rng: &mut Rng, calls: &[Call]) -> Vec<Value> {
        let lanes = calls
            .iter()
            .enumerate()
            .map(|(i, call)| {
                let text = call.arguments.to_string();
                let mut lane: VecDeque<Value> = pieces(rng, &text)
                    .into_iter()
                    .map(|piece| json!({"index": i, "function": {"arguments": piece}}))
                    .collect();
                lane.push_front(json!({"index": i, "id": call.id, "type": "function",
                    "function": {"name": call.name, "arguments": ""}}));
                lane
            })
            .collect();
        let deltas = interleave(rng, lanes);
        let mut events = vec![chunk(json!({"role": "assistant", "content": null}))];
        let mut i = 0;
        while i < deltas.len() {
            // Sometimes two pieces (of one call or of two) share a chunk.
            let take = if i + 1 < deltas.len() && rng.chance(20) {
                2
            } else {
                1
            };
            events.push(chunk(json!({"tool_calls": deltas[i..i + take]})));
            i += take;
        }
        let mut last = chunk(json!({}));
        last["choices"][0]["finish_reason"] = json!("tool_calls");
        events.push(last);
        events
    }

    fn sse(&self, events: &[Value]) -> Vec<u8> {
        let mut body = String::new();
        for event in events {
            body.push_str(&format!(
                "data: {}\n\n",
                serde_json::to_string(event).unwrap()
            ));
        }
        body.push_str(": keep-alive\n\ndata: [DONE]\n\n");
        body.into_bytes()
    }

    fn answers(&self, rendered: &[Value]) -> Vec<Answer> {
        rendered
            .iter()
            .map(|m| {
                assert_eq!(m["role"], "tool", "{m}");
                assert_eq!(m.as_object().map(|o| o.len()), Some(3), "{m}");
                let (text, error) = openai_text(str_at(m, "content"));
                Answer {
                    id: Some(str_at(m, "tool_call_id")),
                    text,
                    error,
                }
            })
            .collect()
    }

    fn text(&self, response: &Value) -> String {
        response["choices"][0]["message"]["content"]
            .as_str()
            .unwrap_or_default()
            .to_owned()
    }

    fn ready_at(&self, events: &[Value], call: usize) -> Option<usize> {
        // Another index beginning completes the call before it if its text is one whole JSON
        // object; the `finish_reason` completes every call.
        let mut texts: Vec<String> = Vec::new();
        let mut ready: Vec<Option<usize>> = Vec::new();
        let mut current: Option<usize> = None;
        for (at, event) in events.iter().enumerate() {
            let choice = &event["choices"][0];
            for entry in super::array(&choice["delta"]["tool_calls"]) {
                let index = entry["index"].as_u64().expect("an index") as usize;
                if texts.len() <= index {
                    texts.resize(index + 1, String::new());
                    ready.resize(index + 1, None);
                }
                texts[index].push_str(entry["function"]["arguments"].as_str().unwrap_or_default());
                if let Some(previous) = current.filter(|&p| p != index) {
                    let whole = serde_json::from_str::<Value>(&texts[previous])
                        .is_ok_and(|v| v.is_object());
                    if whole && ready[previous].is_none() {
                        ready[previous] = Some(at);
                    }
                }
                current = Some(index);
            }
            if choice["finish_reason"].is_string() {
                for r in ready.iter_mut().filter(|r| r.is_none()) {
                    *r = Some(at);
                }
            }
        }
        ready.get(call).copied().flatten()
    }

    fn cut_short(&self, rng: &mut Rng, calls: &[Call], stop: super::Stop) -> (Vec<Value>, String) {
        let (head, last) = super::split_last(calls);
        let mut events = self.events(rng, head);
        events.pop(); // the `finish_reason`
        events.push(chunk(
            json!({"tool_calls": [{"index": head.len(), "id": last.id,
            "type": "function", "function": {"name": last.name, "arguments": super::half(last)}}]}),
        ));
        let finish = |reason: &str| {
            let mut last = chunk(json!({}));
            last["choices"][0]["finish_reason"] = reason.into();
            (last, format!("`finish_reason` is `{reason}`"))
        };
        let (end, why) = match stop {
            super::Stop::Length => finish("length"),
            super::Stop::Safety => finish("content_filter"),
            super::Stop::Error => (
                json!({"error": {"message": "The server had an error", "type": "server_error"}}),
                "The server had an error".to_owned(),
            ),
        };
        events.push(end);
        (events, why)
    }

    fn text_only(&self, text: &str) -> Value {
        json!({"id": "c", "object": "chat.completion", "model": "m",
            "choices": [{"index": 0, "finish_reason": "stop", "message": {
                "role": "assistant", "content": text}}]})
    }

    fn end(&self, response: &mut Value, stop: Stop) -> String {
        let reason = match stop {
            Stop::Length => "length",
            Stop::Safety => "content_filter",
            Stop::Error => {
                response["error"] = json!({"message": "boom", "type": "server_error"});
                return "boom".to_owned();
            }
        };
        self.set_stop(response, json!(reason));
        format!("`finish_reason` is `{reason}`")
    }

    fn request(&self, messages: Vec<Value>, tools: Option<Value>) -> Value {
        with_tools(json!({"model": "gpt-4.1", "messages": messages}), tools)
    }

    fn turn_calls(&self, turn: &[Value]) -> Vec<(Option<String>, String)> {
        function_calls(turn)
    }

    fn answered(&self, rendered: &[Value]) -> Vec<Option<String>> {
        tool_messages(rendered)
    }

    fn answer_schema(&self, part: &Value) -> Option<(&'static str, Value)> {
        let format = &part["response_format"]["json_schema"];
        (format["strict"] == true).then(|| ("openai", format["schema"].clone()))
    }
}

/// A Chat (and Cohere) `tool_calls` entry from its raw parts.
pub(super) fn function_call(call: &WireCall) -> String {
    format!(
        "{{\"id\":{},\"type\":\"function\",\"function\":{{\"name\":{}{}}}}}",
        id_or_null(call),
        quoted(&call.name),
        member("arguments", call.text.as_deref().map(quoted))
    )
}

/// The `(id, name)` of each call in a Chat (or Cohere) model turn's `tool_calls`.
pub(super) fn function_calls(turn: &[Value]) -> Vec<(Option<String>, String)> {
    turn.iter()
        .flat_map(|m| m["tool_calls"].as_array().into_iter().flatten())
        .map(|c| (Some(str_at(c, "id")), str_at(&c["function"], "name")))
        .collect()
}

/// The `tool_call_id` of each `tool` message (Chat, Cohere), past any other message.
pub(super) fn tool_messages(rendered: &[Value]) -> Vec<Option<String>> {
    rendered
        .iter()
        .filter(|m| m["role"] == "tool")
        .map(|m| Some(str_at(m, "tool_call_id")))
        .collect()
}
