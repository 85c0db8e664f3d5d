//! Anthropic Messages streaming events (`event:`/`data:` pairs), added up as the official SDK's
//! `accumulate_event` does: `message_start` gives the message, `content_block_start` each block,
//! `content_block_delta` its text, thinking, signature, citations or `input_json_delta` pieces
//! (the tool input is the JSON those pieces spell), `message_delta` the stop reason and usage,
//! and `message_stop` ends it. An `error` event ends the stream with the provider's message.
//!
//! A `tool_use` block's arguments are complete at its `content_block_stop`, provided the pieces
//! spell whole JSON (a block cut off by `max_tokens` does not).

use serde_json::{Map, Value};

use super::{one_call, Signal};
use crate::response::Reader;
use crate::{Dialect, ResponseError};

const READ: Reader = Reader {
    dialect: Dialect::Anthropic,
};

#[derive(Debug, Default)]
pub(crate) struct Anthropic {
    message: Option<Map<String, Value>>,
    /// Per content block: the input JSON pieces so far, and the bytes received.
    inputs: Vec<Input>,
    max_bytes: usize,
}

#[derive(Debug, Default)]
struct Input {
    json: String,
    bytes: usize,
    oversize: bool,
    ready: bool,
}

impl Anthropic {
    pub(crate) fn new(max_bytes: usize) -> Self {
        Self {
            max_bytes,
            ..Self::default()
        }
    }

    pub(crate) fn apply(
        &mut self,
        event: Value,
        out: &mut Vec<Signal>,
    ) -> Result<(), ResponseError> {
        if let Err(error) = READ.root(&event) {
            out.push(Signal::End(Some(error))); // an `error` event
            return Ok(());
        }
        let Value::Object(mut event) = event else {
            unreachable!("checked by `root`")
        };
        let kind = match event.get("type") {
            Some(Value::String(kind)) => kind.clone(),
            other => return Err(READ.malformed("(event).type", "a string", other)),
        };
        if kind == "message_start" {
            match event.remove("message") {
                Some(Value::Object(message)) => {
                    let mut message = message;
                    message
                        .entry("content")
                        .or_insert_with(|| Value::Array(Vec::new()));
                    self.message = Some(message);
                }
                other => {
                    return Err(READ.malformed(
                        "message_start.message",
                        "an object",
                        other.as_ref(),
                    ))
                }
            }
            return Ok(());
        }
        if kind == "ping" {
            return Ok(());
        }
        let Some(message) = self.message.as_mut() else {
            return Err(ResponseError::Malformed {
                dialect: Dialect::Anthropic,
                path: kind,
                expected: "a `message_start` event first",
                found: "another event",
            });
        };
        match kind.as_str() {
            "content_block_start" => {
                let block = event.remove("content_block").unwrap_or(Value::Null);
                if !block.is_object() {
                    return Err(READ.malformed(
                        "content_block_start.content_block",
                        "an object",
                        Some(&block),
                    ));
                }
                if let Some(Value::Array(content)) = message.get_mut("content") {
                    content.push(block);
                    self.inputs.resize_with(content.len(), Input::default);
                }
            }
            "content_block_delta" => {
                let index = block_index(&event, "content_block_delta")?;
                let block = block(message, index)?;
                let delta = match event.remove("delta") {
                    Some(Value::Object(delta)) => delta,
                    other => {
                        return Err(READ.malformed(
                            "content_block_delta.delta",
                            "an object",
                            other.as_ref(),
                        ))
                    }
                };
                let kind = delta
                    .get("type")
                    .and_then(Value::as_str)
                    .unwrap_or_default();
                let is = |t: &str| block.get("type").and_then(Value::as_str) == Some(t);
                match kind {
                    "text_delta" if is("text") => {
                        if let Some(Value::String(text)) = delta.get("text") {
                            append(block, "text", text);
                            if !text.is_empty() {
                                out.push(Signal::Text(text.clone()));
                            }
                        }
                    }
                    "thinking_delta" if is("thinking") => {
                        if let Some(Value::String(text)) = delta.get("thinking") {
                            append(block, "thinking", text);
                        }
                    }
                    "signature_delta" if is("thinking") => {
                        if let Some(signature) = delta.get("signature") {
                            block.insert("signature".into(), signature.clone());
                        }
                    }
                    "citations_delta" if is("text") => {
                        if let Some(citation) = delta.get("citation") {
                            match block.get_mut("citations") {
                                Some(Value::Array(list)) => list.push(citation.clone()),
                                _ => {
                                    block.insert("citations".into(), vec![citation.clone()].into());
                                }
                            }
                        }
                    }
                    "input_json_delta" if block.contains_key("input") => {
                        if let Some(Value::String(piece)) = delta.get("partial_json") {
                            let input = &mut self.inputs[index];
                            input.bytes = input.bytes.saturating_add(piece.len());
                            if input.bytes > self.max_bytes {
                                input.oversize = true;
                                input.json = String::new();
                            } else if !input.oversize {
                                input.json.push_str(piece);
                            }
                        }
                    }
                    _ => {}
                }
            }
            "content_block_stop" => {
                let index = block_index(&event, "content_block_stop")?;
                let block = block(message, index)?;
                let input = &mut self.inputs[index];
                let complete = if input.oversize {
                    block.insert("input".into(), Value::Object(Map::new()));
                    true
                } else if input.json.is_empty() {
                    true // no pieces: the input stays as `content_block_start` gave it
                } else {
                    match serde_json::from_str::<Value>(&input.json) {
                        Ok(value) => {
                            block.insert("input".into(), value);
                            true
                        }
                        // Not whole JSON (cut off): kept as text, refused if ever run.
                        Err(_) => {
                            block.insert(
                                "input".into(),
                                Value::String(std::mem::take(&mut input.json)),
                            );
                            false
                        }
                    }
                };
                input.json = String::new();
                let is_call = block.get("type").and_then(Value::as_str) == Some("tool_use");
                if complete && is_call && !input.ready {
                    input.ready = true;
                    let oversize = input.oversize.then_some(input.bytes);
                    let position = calls_before(message, index);
                    let response = serde_json::json!({"content": [message["content"][index]]});
                    if let Some(call) = one_call(Dialect::Anthropic, &response) {
                        out.push(Signal::Ready {
                            position,
                            call,
                            oversize,
                        });
                    }
                }
            }
            "message_delta" => {
                if let Some(Value::Object(delta)) = event.get("delta") {
                    for (key, value) in delta {
                        if key == "container" && value.is_null() {
                            continue;
                        }
                        message.insert(key.clone(), value.clone());
                    }
                }
                if let Some(Value::Object(usage)) = event.get("usage") {
                    let have = message
                        .entry("usage")
                        .or_insert_with(|| Value::Object(Map::new()));
                    if let Value::Object(have) = have {
                        for (key, value) in usage {
                            // Cumulative totals; an absent or null one keeps `message_start`'s.
                            if !value.is_null() {
                                have.insert(key.clone(), value.clone());
                            }
                        }
                    }
                }
            }
            "message_stop" => out.push(Signal::End(None)),
            _ => {}
        }
        Ok(())
    }

    /// The message a non-streamed request would have returned.
    pub(crate) fn into_response(self) -> Value {
        Value::Object(self.message.unwrap_or_default())
    }
}

fn block_index(event: &Map<String, Value>, kind: &'static str) -> Result<usize, ResponseError> {
    match event.get("index").and_then(Value::as_u64) {
        Some(index) => Ok(index as usize),
        None => Err(ResponseError::Malformed {
            dialect: Dialect::Anthropic,
            path: format!("{kind}.index"),
            expected: "an integer",
            found: event.get("index").map_or("nothing", crate::text::kind),
        }),
    }
}

fn block(
    message: &mut Map<String, Value>,
    index: usize,
) -> Result<&mut Map<String, Value>, ResponseError> {
    match message.get_mut("content").and_then(|c| c.get_mut(index)) {
        Some(Value::Object(block)) => Ok(block),
        _ => Err(ResponseError::Malformed {
            dialect: Dialect::Anthropic,
            path: format!("content[{index}]"),
            expected: "a `content_block_start` event before the block's other events",
            found: "nothing",
        }),
    }
}

fn append(block: &mut Map<String, Value>, key: &str, text: &str) {
    match block.get_mut(key) {
        Some(Value::String(have)) => have.push_str(text),
        _ => {
            block.insert(key.into(), Value::String(text.to_owned()));
        }
    }
}

fn calls_before(message: &Map<String, Value>, index: usize) -> usize {
    message["content"].as_array().map_or(0, |blocks| {
        blocks[..index]
            .iter()
            .filter(|b| b.get("type").and_then(Value::as_str) == Some("tool_use"))
            .count()
    })
}
