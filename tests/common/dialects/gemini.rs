//! Gemini: `functionCall` parts with arguments as an object and an id the API may leave out,
//! results as `functionResponse` parts of one user content, a stream of whole parts spread over
//! chunks framed with `\r\n`.

use serde_json::{json, Value};
use toolnexus::Dialect;

use super::{
    blocks, halves, member, one_member, quoted, str_at, user_blocks, with_tools, Answer, ApiLimits,
    Call, Choices, Facts, Fixture, Sdk, Stop, WireCall,
};
use crate::common::generate::Rng;

/// Gemini (`generateContent`).
pub struct Gemini;

fn part(call: &Call) -> Value {
    json!({"functionCall": {"id": call.id, "name": call.name, "args": call.arguments}})
}

/// What the provider is and what its API takes.
const FACTS: Facts = Facts {
    dialect: Dialect::Gemini,
    sdk: Sdk {
        package: "google-genai",
        key: "gemini",
        shared: true,
        bodies: None,
    },
    sends_text: false,
    streams_text: false,
    marks_errors: false,
    limits: ApiLimits {
        tools: 512,
        description: None,
    },
    // `functionCallingConfig`: `NONE`, and `allowedFunctionNames` (one or several); no
    // bound on the calls of a turn.
    choices: Choices {
        none: true,
        one_tool: true,
        among: true,
        one_at_a_time: false,
    },
    stop_field: "candidates[0].finishReason",
};

impl Fixture for Gemini {
    fn facts(&self) -> &'static Facts {
        &FACTS
    }

    fn response(&self, calls: &[Call]) -> Value {
        let parts: Vec<Value> = calls.iter().map(part).collect();
        json!({"candidates": [{"content": {"parts": parts, "role": "model"},
            "finishReason": "STOP"}]})
    }

    fn body(&self, calls: &[WireCall]) -> String {
        let items: Vec<String> = calls
            .iter()
            .map(|call| {
                format!(
                    "{{\"functionCall\":{{{}\"name\":{}{}}}}}",
                    call.id
                        .as_deref()
                        .map(|id| format!("\"id\":{},", quoted(id)))
                        .unwrap_or_default(),
                    quoted(&call.name),
                    member("args", call.object.clone())
                )
            })
            .collect();
        format!(
            "{{\"candidates\":[{{\"content\":{{\"role\":\"model\",\"parts\":[{}]}},\"finishReason\":\"STOP\",\"index\":0}}],\
             \"modelVersion\":\"gemini-2.5-flash\"}}",
            items.join(",")
        )
    }

    fn events(&self, rng: &mut Rng, calls: &[Call]) -> Vec<Value> {
        // Parts come whole; the calls are spread over one or more chunks (`parts` before
        // `role`, as the API sends them).
        let mut events = Vec::new();
        let mut i = 0;
        while i < calls.len() {
            let take = 1 + rng.below(calls.len() - i);
            let parts: Vec<Value> = calls[i..i + take].iter().map(part).collect();
            events.push(json!({"candidates": [{"content": {"parts": parts, "role": "model"}}]}));
            i += take;
        }
        events.push(
            json!({"candidates": [{"content": {"role": "model", "parts": []},
            "finishReason": "STOP"}]}),
        );
        events
    }

    fn sse(&self, events: &[Value]) -> Vec<u8> {
        let mut body = String::new();
        for event in events {
            body.push_str(&format!(
                "data: {}\r\n\r\n",
                serde_json::to_string(event).unwrap()
            ));
        }
        body.into_bytes()
    }

    fn answers(&self, rendered: &[Value]) -> Vec<Answer> {
        user_blocks(rendered, "parts")
            .iter()
            .map(|p| {
                let fr = &p["functionResponse"];
                assert!(fr["name"].is_string(), "{p}");
                let (text, error) = one_member(&fr["response"]);
                Answer {
                    id: fr
                        .get("id")
                        .map(|id| id.as_str().expect("string id").to_owned()),
                    text,
                    error: Some(error),
                }
            })
            .collect()
    }

    fn text(&self, response: &Value) -> String {
        let parts = super::array(&response["candidates"][0]["content"]["parts"]).iter();
        super::joined(parts.filter(|p| p["thought"] != true), "text")
    }

    fn ready_at(&self, events: &[Value], call: usize) -> Option<usize> {
        // Parts come whole: a call is complete in the chunk that brings it.
        events
            .iter()
            .enumerate()
            .flat_map(|(at, e)| {
                super::array(&e["candidates"][0]["content"]["parts"])
                    .iter()
                    .filter(|p| p.get("functionCall").is_some())
                    .map(move |_| at)
            })
            .nth(call)
    }

    fn cut_short(&self, rng: &mut Rng, calls: &[Call], stop: super::Stop) -> (Vec<Value>, String) {
        // Parts come whole: the cut call comes in the chunk that says it was cut.
        let (head, last) = super::split_last(calls);
        let mut events = self.events(rng, head);
        events.pop(); // the `finishReason`
        let finish = |reason: &str| {
            (
                json!({"candidates": [{"content": {"role": "model", "parts": [part(last)]},
                    "finishReason": reason}]}),
                format!("`finishReason` is `{reason}`"),
            )
        };
        let (end, why) = match stop {
            super::Stop::Length => finish("MAX_TOKENS"),
            super::Stop::Safety => finish("SAFETY"),
            super::Stop::Error => (
                json!({"error": {"code": 503, "message": "The model is overloaded.",
                    "status": "UNAVAILABLE"}}),
                "The model is overloaded.".to_owned(),
            ),
        };
        events.push(end);
        (events, why)
    }

    fn text_only(&self, text: &str) -> Value {
        let (head, tail) = halves(text);
        json!({"candidates": [{"finishReason": "STOP", "content": {"role": "model", "parts": [
            {"text": "hm", "thought": true}, {"text": head}, {"text": tail}]}}]})
    }

    fn end(&self, response: &mut Value, stop: Stop) -> String {
        let reason = match stop {
            Stop::Length => "MAX_TOKENS",
            Stop::Safety => "SAFETY",
            Stop::Error => {
                response["error"] =
                    json!({"code": 503, "message": "boom", "status": "UNAVAILABLE"});
                return "boom".to_owned();
            }
        };
        self.set_stop(response, json!(reason));
        format!("`finishReason` is `{reason}`")
    }

    fn user_message(&self, text: &str) -> Value {
        json!({"role": "user", "parts": [{ "text": text }]})
    }

    fn request(&self, messages: Vec<Value>, tools: Option<Value>) -> Value {
        with_tools(json!({"contents": messages}), tools)
    }

    fn turn_calls(&self, turn: &[Value]) -> Vec<(Option<String>, String)> {
        blocks(turn, "parts")
            .filter_map(|p| p.get("functionCall"))
            .map(|c| (optional_id(c), str_at(c, "name")))
            .collect()
    }

    fn answered(&self, rendered: &[Value]) -> Vec<Option<String>> {
        blocks(rendered, "parts")
            .filter_map(|p| p.get("functionResponse"))
            .map(optional_id)
            .collect()
    }

    fn answer_schema(&self, part: &Value) -> Option<(&'static str, Value)> {
        let config = &part["generationConfig"];
        Some(match config.get("responseJsonSchema") {
            Some(schema) => ("gemini_json", schema.clone()),
            None => ("gemini", config["responseSchema"].clone()),
        })
    }
}

/// The `id` of a `functionCall` or `functionResponse`, which Gemini may leave out.
fn optional_id(part: &Value) -> Option<String> {
    part.get("id")
        .map(|id| id.as_str().expect("a string id").to_owned())
}
