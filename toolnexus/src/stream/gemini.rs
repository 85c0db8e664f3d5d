//! Gemini `streamGenerateContent?alt=sse`: each event is a whole `GenerateContentResponse`
//! holding the next parts of `candidates[0].content`. google-genai's chat keeps each chunk's
//! content as it came; the response a non-streamed request returns has the same parts with
//! consecutive pieces of text joined, which is what is rebuilt here: a text part continues the
//! previous one when both are plain text (`text`, and at most one of them a `thoughtSignature`)
//! with the same `thought` flag. Everything else (calls, thought signatures on calls, inline
//! data) stays a part of its own, in order. The last chunk's other fields (`finishReason`,
//! `usageMetadata`, ...) win.
//!
//! A `functionCall` part arrives whole, so its call may start at once (unless its chunk's
//! `finishReason` says the response was cut off). The stream ends with the chunk that carries
//! a `finishReason`.

use serde_json::{Map, Value};

use super::{one_call, Signal};
use crate::response::Reader;
use crate::{Dialect, ResponseError};

const READ: Reader = Reader {
    dialect: Dialect::Gemini,
};

/// The `finishReason`s after which calls cannot be trusted (as `gemini::parse_calls`).
const CUT_OFF: [&str; 4] = [
    "MAX_TOKENS",
    "MALFORMED_FUNCTION_CALL",
    "UNEXPECTED_TOOL_CALL",
    "TOO_MANY_TOOL_CALLS",
];

#[derive(Debug, Default)]
pub(crate) struct Gemini {
    root: Map<String, Value>,
    candidate: Option<Map<String, Value>>,
    parts: Vec<Value>,
    role: Option<Value>,
    /// Other keys of `content` (rare), the last chunk's.
    content: Map<String, Value>,
    calls: usize,
}

impl Gemini {
    pub(crate) fn new() -> Self {
        Self::default()
    }

    pub(crate) fn apply(
        &mut self,
        chunk: Value,
        out: &mut Vec<Signal>,
    ) -> Result<(), ResponseError> {
        if let Err(error) = READ.root(&chunk) {
            out.push(Signal::End(Some(error)));
            return Ok(());
        }
        let Value::Object(mut chunk) = chunk else {
            unreachable!("checked by `root`")
        };
        let candidates = match chunk.remove("candidates") {
            None | Some(Value::Null) => Vec::new(),
            Some(Value::Array(candidates)) => candidates,
            Some(other) => return Err(READ.malformed("candidates", "an array", Some(&other))),
        };
        for (key, value) in chunk {
            self.root.insert(key, value);
        }
        let Some(candidate) = candidates.into_iter().next() else {
            if self.root.contains_key("promptFeedback") {
                // A blocked prompt: no candidates will come.
                out.push(Signal::End(None));
            }
            return Ok(());
        };
        let Value::Object(mut candidate) = candidate else {
            return Err(READ.malformed("candidates[0]", "an object", Some(&candidate)));
        };
        let finish = candidate
            .get("finishReason")
            .and_then(Value::as_str)
            .map(str::to_owned);
        let cut_off = finish.as_deref().is_some_and(|r| CUT_OFF.contains(&r));
        let content = candidate.remove("content");
        let have = self.candidate.get_or_insert_with(Map::new);
        for (key, value) in candidate {
            have.insert(key, value);
        }
        match content {
            None | Some(Value::Null) => {}
            Some(Value::Object(content)) => {
                for (key, value) in content {
                    match key.as_str() {
                        "role" => self.role = Some(value),
                        "parts" => match value {
                            Value::Null => {}
                            Value::Array(parts) => {
                                for part in parts {
                                    self.part(part, cut_off, out)?;
                                }
                            }
                            other => {
                                return Err(READ.malformed(
                                    "candidates[0].content.parts",
                                    "an array",
                                    Some(&other),
                                ))
                            }
                        },
                        _ => {
                            self.content.insert(key, value);
                        }
                    }
                }
            }
            Some(other) => {
                return Err(READ.malformed("candidates[0].content", "an object", Some(&other)))
            }
        }
        if finish.is_some() {
            out.push(Signal::End(None));
        }
        Ok(())
    }

    fn part(
        &mut self,
        part: Value,
        cut_off: bool,
        out: &mut Vec<Signal>,
    ) -> Result<(), ResponseError> {
        let Value::Object(part) = part else {
            return Err(READ.malformed("candidates[0].content.parts[]", "an object", Some(&part)));
        };
        if part.get("functionCall").is_some_and(|c| !c.is_null()) {
            let position = self.calls;
            self.calls += 1;
            let part = Value::Object(part);
            if !cut_off {
                let response = serde_json::json!({"candidates": [{"content": {"parts": [&part]}}]});
                if let Some(call) = one_call(Dialect::Gemini, &response) {
                    out.push(Signal::Ready {
                        position,
                        call,
                        oversize: None,
                    });
                }
            }
            self.parts.push(part);
            return Ok(());
        }
        if let Some(Value::String(text)) = part.get("text") {
            if !text.is_empty() && !is_thought(&part) {
                out.push(Signal::Text(text.clone()));
            }
            if let Some(Value::Object(last)) = self.parts.last_mut() {
                if joins(last, &part) {
                    let Some(Value::String(have)) = last.get_mut("text") else {
                        unreachable!("checked by `joins`")
                    };
                    have.push_str(text);
                    if let Some(signature) = part.get("thoughtSignature") {
                        last.insert("thoughtSignature".into(), signature.clone());
                    }
                    return Ok(());
                }
            }
        }
        self.parts.push(Value::Object(part));
        Ok(())
    }

    /// The response a non-streamed request would have returned.
    pub(crate) fn into_response(self) -> Value {
        let mut root = self.root;
        if let Some(mut candidate) = self.candidate {
            let mut content = Map::new();
            content.insert("parts".into(), Value::Array(self.parts));
            if let Some(role) = self.role {
                content.insert("role".into(), role);
            }
            content.extend(self.content);
            // `content` first, as the API writes a candidate.
            let mut ordered = Map::with_capacity(candidate.len() + 1);
            ordered.insert("content".into(), Value::Object(content));
            ordered.append(&mut candidate);
            root.insert(
                "candidates".into(),
                Value::Array(vec![Value::Object(ordered)]),
            );
        }
        Value::Object(root)
    }
}

fn is_thought(part: &Map<String, Value>) -> bool {
    part.get("thought")
        .and_then(Value::as_bool)
        .unwrap_or(false)
}

/// Plain text: only `text`, `thought` and `thoughtSignature`.
fn plain_text(part: &Map<String, Value>) -> bool {
    part.get("text").is_some_and(Value::is_string)
        && part
            .keys()
            .all(|k| matches!(k.as_str(), "text" | "thought" | "thoughtSignature"))
}

fn joins(last: &Map<String, Value>, next: &Map<String, Value>) -> bool {
    plain_text(last)
        && plain_text(next)
        && is_thought(last) == is_thought(next)
        && !(last.contains_key("thoughtSignature") && next.contains_key("thoughtSignature"))
}
