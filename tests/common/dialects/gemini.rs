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
