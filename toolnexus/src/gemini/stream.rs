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

use super::text_event::TextChunk;
use crate::response::{At, Reader};
use crate::wire::assemble::{Assembly, Events};
use crate::{Dialect, ResponseError};

const READ: Reader = Reader {
    dialect: Dialect::Gemini,
};

/// The event vocabulary of a Gemini stream (its calls come whole: nothing is bounded here).
#[derive(Debug, Default)]
pub(crate) struct Gemini {
    /// Top-level fields, the last chunk's winning; a few, so kept in a list rather than hashed.
    root: Vec<(String, Value)>,
    /// `candidates[0]`'s fields but `content`, likewise.
    candidate: Option<Vec<(String, Value)>>,
    parts: Vec<Value>,
    /// The plain text part being joined, not yet in `parts`.
    text: Option<TextPart>,
    role: Option<Value>,
    /// Other fields of `content` (rare), the last chunk's.
    content: Vec<(String, Value)>,
    calls: usize,
}

/// A plain text part: only `text`, `thought` and `thoughtSignature`.
#[derive(Debug)]
struct TextPart {
    text: String,
    thought: Option<Value>,
    signature: Option<Value>,
}

impl TextPart {
    fn is_thought(&self) -> bool {
        self.thought
            .as_ref()
            .and_then(Value::as_bool)
            .unwrap_or(false)
    }

    fn into_part(self) -> Value {
        let mut part = Map::with_capacity(3);
        part.insert("text".into(), Value::String(self.text));
        if let Some(thought) = self.thought {
            part.insert("thought".into(), thought);
        }
        if let Some(signature) = self.signature {
            part.insert("thoughtSignature".into(), signature);
        }
        Value::Object(part)
    }
}

/// Sets `key` in a short list of fields.
fn set(fields: &mut Vec<(String, Value)>, key: String, value: Value) {
    match fields.iter_mut().find(|(k, _)| *k == key) {
        Some(slot) => slot.1 = value,
        None => fields.push((key, value)),
    }
}

impl Events for Gemini {
    fn terminator(&self) -> &'static str {
        "a `finishReason`"
    }

    /// A chunk of one candidate whose content is one plain text part, without `finishReason`.
    fn apply_text(&mut self, data: &[u8], to: &mut Assembly) -> bool {
        let Some(chunk) = TextChunk::read(data) else {
            return false;
        };
        for (key, value) in chunk.root {
            set(&mut self.root, key, value);
        }
        let fields = self.candidate.get_or_insert_with(Vec::new);
        for (key, value) in chunk.candidate {
            set(fields, key, value);
        }
        if let Some(role) = chunk.role {
            self.role = Some(role);
        }
        let text = TextPart {
            text: chunk.text,
            thought: None,
            signature: None,
        };
        self.plain(text, to);
        true
    }

    fn unit(&self) -> &'static str {
        "(chunk)"
    }

    /// Reads one chunk, walking each map once by its keys.
    fn apply(&mut self, chunk: Map<String, Value>, to: &mut Assembly) -> Result<(), ResponseError> {
        let mut candidates = Value::Null;
        let mut error = None;
        for (key, value) in chunk {
            match key.as_str() {
                "candidates" => candidates = value,
                "error" if !value.is_null() => error = Some(value),
                _ => set(&mut self.root, key, value),
            }
        }
        if let Some(error) = error {
            to.provider_error(&READ, error);
            return Ok(());
        }
        let candidate = match candidates {
            Value::Null => None,
            Value::Array(candidates) => candidates.into_iter().next(),
            other => return Err(READ.malformed("candidates", "an array", Some(&other))),
        };
        let Some(candidate) = candidate else {
            if self.root.iter().any(|(k, _)| k == "promptFeedback") {
                // A blocked prompt: no candidates will come.
                to.end(None);
            }
            return Ok(());
        };
        let Value::Object(candidate) = candidate else {
            return Err(READ.malformed("candidates[0]", "an object", Some(&candidate)));
        };
        let mut content = Value::Null;
        let mut finished = false;
        let mut cut_off = false;
        let fields = self.candidate.get_or_insert_with(Vec::new);
        for (key, value) in candidate {
            match key.as_str() {
                "content" => content = value,
                "finishReason" => {
                    finished = !value.is_null();
                    // As a whole response is read (`calls::read`): only a candidate that finished normally runs
                    // its calls (one cut off, or stopped for safety, does not).
                    cut_off = !crate::gemini::finished(value.as_str());
                    set(fields, key, value);
                }
                _ => set(fields, key, value),
            }
        }
        match content {
            Value::Null => {}
            Value::Object(content) => {
                for (key, value) in content {
                    match key.as_str() {
                        "role" => self.role = Some(value),
                        "parts" => match value {
                            Value::Null => {}
                            Value::Array(parts) => {
                                for part in parts {
                                    self.part(part, cut_off, to)?;
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
                        _ => set(&mut self.content, key, value),
                    }
                }
            }
            other => {
                return Err(READ.malformed("candidates[0].content", "an object", Some(&other)))
            }
        }
        if finished {
            to.end(None);
        }
        Ok(())
    }

    /// The response a non-streamed request would have returned.
    fn into_response(self: Box<Self>, _to: &mut Assembly) -> Value {
        let mut this = *self;
        let mut root: Map<String, Value> = this.root.into_iter().collect();
        if let Some(candidate) = this.candidate {
            if let Some(done) = this.text.take() {
                this.parts.push(done.into_part());
            }
            let mut content = Map::new();
            content.insert("parts".into(), Value::Array(this.parts));
            if let Some(role) = this.role {
                content.insert("role".into(), role);
            }
            content.extend(this.content);
            // `content` first, as the API writes a candidate.
            let mut ordered = Map::with_capacity(candidate.len() + 1);
            ordered.insert("content".into(), Value::Object(content));
            ordered.extend(candidate);
            root.insert(
                "candidates".into(),
                Value::Array(vec![Value::Object(ordered)]),
            );
        }
        Value::Object(root)
    }
}

impl Gemini {
    /// A plain text part: it continues the text being joined, or starts the next.
    fn plain(&mut self, next: TextPart, to: &mut Assembly) {
        let shown = !next.text.is_empty() && !next.is_thought();
        match &mut self.text {
            Some(last)
                if last.is_thought() == next.is_thought()
                    && !(last.signature.is_some() && next.signature.is_some()) =>
            {
                last.text.push_str(&next.text);
                if next.signature.is_some() {
                    last.signature = next.signature;
                }
                if shown {
                    to.text(next.text); // moved: no copy
                }
            }
            _ => {
                if shown {
                    to.text(next.text.clone());
                }
                if let Some(done) = self.text.replace(next) {
                    self.parts.push(done.into_part());
                }
            }
        }
    }

    fn part(&mut self, part: Value, cut_off: bool, to: &mut Assembly) -> Result<(), ResponseError> {
        let Value::Object(part) = part else {
            return Err(READ.malformed("candidates[0].content.parts[]", "an object", Some(&part)));
        };
        let plain = part.iter().all(|(k, v)| match k.as_str() {
            "text" => v.is_string(),
            "thought" | "thoughtSignature" => true,
            _ => false,
        }) && part.iter().any(|(k, _)| k == "text");
        if plain {
            let mut next = TextPart {
                text: String::new(),
                thought: None,
                signature: None,
            };
            for (key, value) in part {
                match (key.as_str(), value) {
                    ("text", Value::String(text)) => next.text = text,
                    ("thought", value) => next.thought = Some(value),
                    (_, value) => next.signature = Some(value),
                }
            }
            self.plain(next, to);
            return Ok(());
        }
        if let Some(done) = self.text.take() {
            self.parts.push(done.into_part());
        }
        if part.get("functionCall").is_some_and(|c| !c.is_null()) {
            let position = self.calls;
            self.calls += 1;
            if !cut_off {
                let at = At::item("candidates[0].content.parts", self.parts.len());
                to.ready(position as u64, position, || {
                    super::calls::function_call(&part, at)
                });
            }
        }
        self.parts.push(Value::Object(part));
        Ok(())
    }
}
