//! Gemini: `functionCall` parts with arguments as an object and an id the API may leave out,
//! results as `functionResponse` parts of one user content, a stream of whole parts spread over
//! chunks framed with `\r\n`.

use serde_json::{json, Value};
use toolnexus::Dialect;

use super::{
    halves, member, one_member, quoted, user_blocks, Answer, ApiLimits, Call, Fixture, Sdk, Stop,
    WireCall,
};
use crate::common::generate::Rng;

/// Gemini (`generateContent`).
pub struct Gemini;

fn part(call: &Call) -> Value {
    json!({"functionCall": {"id": call.id, "name": call.name, "args": call.arguments}})
}

impl Fixture for Gemini {
    fn dialect(&self) -> Dialect {
        Dialect::Gemini
    }

    fn sdk(&self) -> Sdk {
        Sdk {
            package: "google-genai",
            key: "gemini",
        }
    }

    fn sends_text(&self) -> bool {
        false
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

    fn streams_text(&self) -> bool {
        false
    }
    fn text_only(&self, text: &str) -> Value {
        let (head, tail) = halves(text);
        json!({"candidates": [{"finishReason": "STOP", "content": {"role": "model", "parts": [
            {"text": "hm", "thought": true}, {"text": head}, {"text": tail}]}}]})
    }

    fn stop_field(&self) -> &'static str {
        "candidates[0].finishReason"
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

    fn limits(&self) -> ApiLimits {
        ApiLimits {
            tools: 512,
            description: None,
        }
    }

    fn marks_errors(&self) -> bool {
        false
    }

    fn user_message(&self, text: &str) -> Value {
        json!({"role": "user", "parts": [{ "text": text }]})
    }
}
