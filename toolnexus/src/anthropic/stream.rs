//! Anthropic Messages streaming events (`event:`/`data:` pairs), added up as the official SDK's
//! `accumulate_event` does: `message_start` gives the message, `content_block_start` each block,
//! `content_block_delta` its text, thinking, signature, citations or `input_json_delta` pieces
//! (the tool input is the JSON those pieces spell), `message_delta` the stop reason and usage,
//! and `message_stop` ends it. An `error` event ends the stream with the provider's message.
//!
//! A `tool_use` block's arguments are complete at its `content_block_stop`, provided the pieces
//! spell whole JSON (a block cut off by `max_tokens` does not).

use serde::Deserialize;
use serde_json::{Map, Value};

use crate::response::{At, Reader};
use crate::wire::assemble::{index, indexed_delta, Assembly, Events, Members};
use crate::{Dialect, ResponseError};

const READ: Reader = Reader {
    dialect: Dialect::Anthropic,
};

/// The event vocabulary of a Messages stream; a block's tool input pieces are in the
/// assembler's [`Assembly`], keyed by the block's index.
#[derive(Debug, Default)]
pub(crate) struct Anthropic {
    /// The message, its `content` apart (in `blocks`).
    message: Option<Map<String, Value>>,
    blocks: Vec<Block>,
}

/// A content block being written. Pieces of text and thinking are appended to `text` and put
/// into the block at its stop (or at the end), so a delta looks nothing up.
#[derive(Debug)]
struct Block {
    value: Map<String, Value>,
    kind: Kind,
    /// Text or thinking received by deltas, not yet in `value`.
    text: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Text,
    Thinking,
    ToolUse,
    /// Another block tracking an `input` (a server tool's).
    Input,
    Other,
}

impl Block {
    /// Puts the pending text into the block.
    fn flush(&mut self) {
        if self.text.is_empty() {
            return;
        }
        let key = if self.kind == Kind::Thinking {
            "thinking"
        } else {
            "text"
        };
        match self.value.get_mut(key) {
            Some(Value::String(have)) => have.push_str(&self.text),
            _ => {
                self.value
                    .insert(key.into(), Value::String(self.text.clone()));
            }
        }
        self.text = String::new();
    }
}

/// A text delta's `delta`, exactly (any other member, or a repeated one, and the event is read
/// as JSON).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TextDelta<'a> {
    #[serde(rename = "type")]
    kind: &'a str,
    text: String,
}

/// The members of an event this vocabulary reads.
const MEMBERS: [&str; 7] = [
    "type",
    "index",
    "delta",
    "content_block",
    "message",
    "usage",
    "error",
];

impl Events for Anthropic {
    fn terminator(&self) -> &'static str {
        "`message_stop`"
    }

    /// `{"type": "content_block_delta", "index", "delta": {"type": "text_delta", "text"}}` on a
    /// text block, after `message_start`.
    fn apply_text(&mut self, data: &[u8], to: &mut Assembly) -> bool {
        let Some((index, delta)) = indexed_delta::<TextDelta<'_>>(data, "content_block_delta")
        else {
            return false;
        };
        if delta.kind != "text_delta" || self.message.is_none() {
            return false;
        }
        match self.blocks.get_mut(index) {
            Some(block) if block.kind == Kind::Text => {
                block.text.push_str(&delta.text);
                to.text(delta.text);
                true
            }
            _ => false,
        }
    }

    fn apply(&mut self, event: Map<String, Value>, to: &mut Assembly) -> Result<(), ResponseError> {
        let mut event = Members::read(event, &MEMBERS);
        if let Some(error) = event.take("error").filter(|e| !e.is_null()) {
            // An `error` event: the provider's message, as `parse_calls` says it.
            to.provider_error(&READ, error);
            return Ok(());
        }
        let kind = event.kind(&READ)?;
        match kind.as_str() {
            "message_start" => {
                match event.take("message") {
                    Some(Value::Object(mut message)) => {
                        for block in match message.remove("content") {
                            Some(Value::Array(blocks)) => blocks,
                            _ => Vec::new(),
                        } {
                            self.start(block, to)?;
                        }
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
            "ping" => return Ok(()),
            _ => {}
        }
        let Some(message) = self.message.as_mut() else {
            return Err(ResponseError::Malformed {
                ran: Default::default(),
                dialect: Dialect::Anthropic,
                path: kind,
                expected: "a `message_start` event first",
                found: "another event",
            });
        };
        match kind.as_str() {
            "content_block_start" => {
                let block = event.take("content_block").unwrap_or(Value::Null);
                self.start(block, to)?;
            }
            "content_block_delta" => {
                let index = block_index(&event, "content_block_delta")?;
                let block = block(&mut self.blocks, index)?;
                let delta = match event.take("delta") {
                    Some(Value::Object(delta)) => delta,
                    other => {
                        return Err(READ.malformed(
                            "content_block_delta.delta",
                            "an object",
                            other.as_ref(),
                        ))
                    }
                };
                for (key, value) in delta {
                    match (key.as_str(), block.kind, value) {
                        ("text", Kind::Text, Value::String(text)) => {
                            block.text.push_str(&text);
                            if !text.is_empty() {
                                to.text(text); // moved: no copy
                            }
                        }
                        ("thinking", Kind::Thinking, Value::String(text)) => {
                            block.text.push_str(&text);
                        }
                        ("signature", Kind::Thinking, signature) => {
                            block.value.insert("signature".into(), signature);
                        }
                        ("citation", Kind::Text, citation) => {
                            match block.value.get_mut("citations") {
                                Some(Value::Array(list)) => list.push(citation),
                                _ => {
                                    block
                                        .value
                                        .insert("citations".into(), vec![citation].into());
                                }
                            }
                        }
                        ("partial_json", Kind::ToolUse | Kind::Input, Value::String(piece)) => {
                            to.push(index as u64, &piece);
                        }
                        _ => {}
                    }
                }
            }
            "content_block_stop" => {
                let index = block_index(&event, "content_block_stop")?;
                let position = self.blocks[..index.min(self.blocks.len())]
                    .iter()
                    .filter(|b| b.kind == Kind::ToolUse)
                    .count();
                let block = block(&mut self.blocks, index)?;
                block.flush();
                let key = index as u64;
                let json = to.take_arguments(key).unwrap_or_default();
                let complete = if to.oversize(key).is_some() {
                    block
                        .value
                        .insert("input".into(), Value::Object(Map::new()));
                    true
                } else if json.is_empty() {
                    true // no pieces: the input stays as `content_block_start` gave it
                } else {
                    match serde_json::from_str::<Value>(&json) {
                        Ok(value) => {
                            block.value.insert("input".into(), value);
                            true
                        }
                        // Not whole JSON (cut off): kept as text, refused if ever run.
                        Err(_) => {
                            block.value.insert("input".into(), Value::String(json));
                            false
                        }
                    }
                };
                if complete && block.kind == Kind::ToolUse {
                    let value = &block.value;
                    to.ready(key, position, || {
                        super::calls::tool_use(value, At::item("content", index))
                    });
                }
            }
            "message_delta" => {
                if let Some(Value::Object(delta)) = event.take("delta") {
                    for (key, value) in delta {
                        if key == "container" && value.is_null() {
                            continue;
                        }
                        message.insert(key, value);
                    }
                }
                if let Some(Value::Object(usage)) = event.take("usage") {
                    let have = message
                        .entry("usage")
                        .or_insert_with(|| Value::Object(Map::new()));
                    if let Value::Object(have) = have {
                        for (key, value) in usage {
                            // Cumulative totals; an absent or null one keeps `message_start`'s.
                            if !value.is_null() {
                                have.insert(key, value);
                            }
                        }
                    }
                }
            }
            "message_stop" => to.end(None),
            _ => {}
        }
        Ok(())
    }

    /// The message a non-streamed request would have returned.
    fn into_response(self: Box<Self>, _to: &mut Assembly) -> Value {
        let mut message = self.message.unwrap_or_default();
        let blocks = self
            .blocks
            .into_iter()
            .map(|mut block| {
                block.flush();
                Value::Object(block.value)
            })
            .collect();
        message.insert("content".into(), Value::Array(blocks));
        Value::Object(message)
    }
}

impl Anthropic {
    /// A new content block.
    fn start(&mut self, block: Value, to: &mut Assembly) -> Result<(), ResponseError> {
        let Value::Object(value) = block else {
            return Err(READ.malformed(
                "content_block_start.content_block",
                "an object",
                Some(&block),
            ));
        };
        let kind = match value.get("type").and_then(Value::as_str) {
            Some("text") => Kind::Text,
            Some("thinking") => Kind::Thinking,
            Some("tool_use") => Kind::ToolUse,
            _ if value.contains_key("input") => Kind::Input,
            _ => Kind::Other,
        };
        if let (Kind::ToolUse, Some(Value::String(id))) = (kind, value.get("id")) {
            let position = self
                .blocks
                .iter()
                .filter(|b| b.kind == Kind::ToolUse)
                .count();
            to.began(position, id);
        }
        self.blocks.push(Block {
            value,
            kind,
            text: String::new(),
        });
        Ok(())
    }
}

fn block_index(event: &Members<7>, kind: &'static str) -> Result<usize, ResponseError> {
    index(&READ, event.get("index"), At::from(kind).field(".index"))
}

fn block(blocks: &mut [Block], index: usize) -> Result<&mut Block, ResponseError> {
    blocks
        .get_mut(index)
        .ok_or_else(|| ResponseError::Malformed {
            ran: Default::default(),
            dialect: Dialect::Anthropic,
            path: format!("content[{index}]"),
            expected: "a `content_block_start` event before the block's other events",
            found: "nothing",
        })
}
