//! Gemini: `functionCall` parts with arguments as an object and an id the API may leave out,
//! results as `functionResponse` parts of one user content, a stream of whole parts spread over
//! chunks framed with `\r\n`.

use serde_json::{json, Value};
use toolnexus::Dialect;

use super::{
    blocks, member, one_member, quoted, str_at, user_blocks, with_tools, Answer, Call, Choices,
    Fixture, Sdk, WireCall,
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
            shared: true,
            bodies: None,
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

    fn truncation(&self) -> Vec<Value> {
        vec![
            json!({"candidates": [{"content": {"parts": [], "role": "model"},
            "finishReason": "MAX_TOKENS", "index": 0}]}),
        ]
    }

    fn choices(&self) -> Choices {
        // `functionCallingConfig`: `NONE`, and `allowedFunctionNames` (one or several); no
        // bound on the calls of a turn.
        Choices {
            none: true,
            one_tool: true,
            among: true,
            one_at_a_time: false,
        }
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
