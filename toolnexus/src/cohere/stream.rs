//! Cohere v2 Chat's stream (`"stream": true`: SSE events whose `data` holds a `type`), added up
//! into the response `POST /v2/chat` returns: `message-start` gives the id,
//! `content-start`/`content-delta`/`content-end` a text or thinking item,
//! `tool-plan-delta` pieces of the `tool_plan`, `tool-call-start` a call (its `id`, `type`,
//! `function.name`), `tool-call-delta` pieces of its `function.arguments` (the JSON text those
//! pieces spell), `tool-call-end` its end, `citation-start` a citation, `message-end` the
//! `finish_reason` and usage (and, when the generation failed, the `error`).
//!
//! A call's arguments are complete at its `tool-call-end`, provided the pieces spell one whole
//! JSON object (a call cut off by `MAX_TOKENS` does not): it then starts, eagerly.

use serde::Deserialize;
use serde_json::{Map, Value};

use super::calls::{failed, parse_call, READ};
use crate::response::{At, ResponseError};
use crate::values::text::echo;
use crate::wire::assemble::{self, indexed_delta, slot, Assembly, Events, Members};

/// The event vocabulary of a Cohere v2 Chat stream; a call's argument pieces are in the
/// assembler's [`Assembly`], keyed by the call's `index`.
#[derive(Debug, Default)]
pub(crate) struct Cohere {
    id: Option<Value>,
    /// The `content` items, by their `index`.
    content: Vec<Item>,
    tool_plan: String,
    /// The calls, in the order they started, with their `index`.
    calls: Vec<(u64, Map<String, Value>)>,
    citations: Vec<Value>,
    /// `message-end`'s `delta` members (`finish_reason`, `usage`, `error`).
    end: Map<String, Value>,
}

/// A content item being written; its text (or thinking) is appended to `text` and put into
/// the item at the end, so a delta looks nothing up.
#[derive(Debug, Default)]
struct Item {
    value: Map<String, Value>,
    text: String,
    thinking: bool,
}

/// A text delta's `delta`, exactly (any other member, or a repeated one, and the event is read
/// as JSON): `{"type": "content-delta", "index", "delta": {"message": {"content": {"text"}}}}`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TextDelta {
    message: TextMessage,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TextMessage {
    content: TextContent,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TextContent {
    text: String,
}

/// The members of an event this vocabulary reads.
const MEMBERS: [&str; 4] = ["type", "index", "id", "delta"];

impl Events for Cohere {
    fn terminator(&self) -> &'static str {
        "`message-end`"
    }

    /// A `content-delta` of a text item that `content-start` began.
    fn apply_text(&mut self, data: &[u8], to: &mut Assembly) -> bool {
        let Some((index, delta)) = indexed_delta::<TextDelta>(data, "content-delta") else {
            return false;
        };
        match self.content.get_mut(index) {
            Some(item) if !item.thinking && !item.value.is_empty() => {
                let text = delta.message.content.text;
                item.text.push_str(&text);
                to.text(text);
                true
            }
            _ => false,
        }
    }

    fn apply(&mut self, event: Map<String, Value>, to: &mut Assembly) -> Result<(), ResponseError> {
        let mut event = Members::read(event, &MEMBERS);
        let kind = event.kind(&READ)?;
        let delta = event.take("delta");
        let message = || delta.as_ref().and_then(|d| d.get("message"));
        match kind.as_str() {
            "message-start" => self.id = event.take("id"),
            "content-start" => {
                let index = index(&event, "content-start")?;
                let start = message().and_then(|m| m.get("content"));
                let item = slot(&mut self.content, index);
                if let Some(Value::Object(start)) = start {
                    item.thinking = start.get("type").and_then(Value::as_str) == Some("thinking");
                    for (key, value) in start {
                        match (key.as_str(), value) {
                            ("text" | "thinking", Value::String(piece)) => {
                                item.text.push_str(piece);
                                if !item.thinking {
                                    to.text(piece.clone());
                                }
                            }
                            _ => {
                                item.value.insert(key.clone(), value.clone());
                            }
                        }
                    }
                }
            }
            "content-delta" => {
                let index = index(&event, "content-delta")?;
                let content = message().and_then(|m| m.get("content"));
                let item = slot(&mut self.content, index);
                let piece = content
                    .and_then(|c| c.get("text").or_else(|| c.get("thinking")))
                    .and_then(Value::as_str);
                if let Some(piece) = piece {
                    item.text.push_str(piece);
                    if !item.thinking {
                        to.text(piece.to_owned());
                    }
                }
            }
            "tool-plan-delta" => {
                let piece = message().and_then(|m| m.get("tool_plan"));
                if let Some(piece) = piece.and_then(Value::as_str) {
                    self.tool_plan.push_str(piece);
                }
            }
            "tool-call-start" => {
                let key = index(&event, "tool-call-start")? as u64;
                let call = match message().and_then(|m| m.get("tool_calls")) {
                    Some(Value::Object(call)) => call.clone(),
                    other => {
                        return Err(READ.malformed(
                            "tool-call-start.delta.message.tool_calls",
                            "an object",
                            other,
                        ))
                    }
                };
                let first = call
                    .get("function")
                    .and_then(|f| f.get("arguments"))
                    .and_then(Value::as_str)
                    .unwrap_or_default();
                to.push(key, first);
                if !self.calls.iter().any(|(k, _)| *k == key) {
                    if let Some(Value::String(id)) = call.get("id") {
                        to.began(self.calls.len(), id);
                    }
                    self.calls.push((key, call));
                }
            }
            "tool-call-delta" => {
                let key = index(&event, "tool-call-delta")? as u64;
                let piece = message()
                    .and_then(|m| m.get("tool_calls"))
                    .and_then(|c| c.get("function"))
                    .and_then(|f| f.get("arguments"))
                    .and_then(Value::as_str);
                if let Some(piece) = piece {
                    to.push(key, piece);
                }
            }
            "tool-call-end" => {
                let key = index(&event, "tool-call-end")? as u64;
                self.end_call(key, to);
            }
            "citation-start" => {
                if let Some(citation) = message().and_then(|m| m.get("citations")) {
                    self.citations.push(citation.clone());
                }
            }
            "message-end" => {
                if let Some(Value::Object(delta)) = delta {
                    self.end.extend(delta);
                }
                match self.end.get("error") {
                    Some(Value::String(error)) if !error.trim().is_empty() => {
                        to.end(Some(failed(echo(error))));
                    }
                    _ => to.end(None),
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// The response `POST /v2/chat` would have returned.
    fn into_response(self: Box<Self>, to: &mut Assembly) -> Value {
        let Self {
            id,
            content,
            tool_plan,
            calls,
            citations,
            mut end,
        } = *self;
        let mut message = Map::new();
        message.insert("role".into(), "assistant".into());
        if !tool_plan.is_empty() {
            message.insert("tool_plan".into(), tool_plan.into());
        }
        let calls: Vec<Value> = calls
            .into_iter()
            .map(|(key, mut call)| {
                if !to.is_ready(key) {
                    // Never completed: its arguments as the pieces spell them, for the reader.
                    let json = to.take_arguments(key).unwrap_or_default();
                    set_arguments(&mut call, json);
                }
                Value::Object(call)
            })
            .collect();
        if !calls.is_empty() {
            message.insert("tool_calls".into(), calls.into());
        }
        let content: Vec<Value> = content
            .into_iter()
            .filter(|item| !item.value.is_empty() || !item.text.is_empty())
            .map(|mut item| {
                let key = if item.thinking { "thinking" } else { "text" };
                item.value.insert(key.into(), item.text.into());
                Value::Object(item.value)
            })
            .collect();
        if !content.is_empty() {
            message.insert("content".into(), content.into());
        }
        if !citations.is_empty() {
            message.insert("citations".into(), citations.into());
        }
        let mut response = Map::new();
        if let Some(id) = id {
            response.insert("id".into(), id);
        }
        if let Some(reason) = end.remove("finish_reason") {
            response.insert("finish_reason".into(), reason);
        }
        response.insert("message".into(), Value::Object(message));
        if let Some(usage) = end.remove("usage") {
            response.insert("usage".into(), usage);
        }
        Value::Object(response)
    }
}

impl Cohere {
    /// A call's end: complete when its pieces spell one JSON object (or nothing, or went past
    /// the bound: `{}`, answered with the limit's error), then ready.
    fn end_call(&mut self, key: u64, to: &mut Assembly) {
        let Some(position) = self.calls.iter().position(|(k, _)| *k == key) else {
            return;
        };
        if to.is_ready(key) {
            return;
        }
        let Some((_, json)) = to.finished(key) else {
            return; // cut off: it never starts
        };
        let arguments = json.to_owned();
        let call = &mut self.calls[position].1;
        set_arguments(call, arguments);
        let call = Value::Object(call.clone());
        to.ready(key, position, || parse_call(&call, position).map(Some));
    }
}

/// `function.arguments` of a call set to `json`.
fn set_arguments(call: &mut Map<String, Value>, json: String) {
    let function = call
        .entry("function")
        .or_insert_with(|| Value::Object(Map::new()));
    if let Value::Object(function) = function {
        function.insert("arguments".into(), Value::String(json));
    }
}

fn index<const N: usize>(event: &Members<N>, kind: &'static str) -> Result<usize, ResponseError> {
    assemble::index(&READ, event.get("index"), At::from(kind).field(".index"))
}
