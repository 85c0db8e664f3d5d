//! The OpenAI Responses API's typed stream events, added up as the official SDK's
//! `ResponseStreamState` does: `response.created` opens the response, `output_item.added` and
//! the deltas build each output item, `output_item.done` gives it whole, and the terminal
//! `response.completed` / `response.incomplete` / `response.failed` carries the response (its
//! `output` recovered from the finished items when left out). `error` ends the stream.
//!
//! A call starts at its `response.output_item.done` when the item completed (its `status` is
//! `completed`, or absent as some compatible servers leave it): the item is then whole and final.
//! `response.function_call_arguments.done` gives the text, but an item may still end
//! `incomplete` after it; an item that did not complete never starts.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use super::text_events::ResponsesText;
use crate::response::{At, Reader};
use crate::wire::assemble::{index, Assembly, Events, Members};
use crate::{Dialect, ResponseError};

const READ: Reader = Reader {
    dialect: Dialect::OpenAiResponses,
};

/// The event vocabulary of a Responses stream; an item's argument text is in the assembler's
/// [`Assembly`], keyed by its `output_index`, until the response is rebuilt.
#[derive(Debug, Default)]
pub(crate) struct Responses {
    /// The response as `response.created` (or a later lifecycle event) gave it.
    response: Option<Map<String, Value>>,
    /// Output items as they are being written, by `output_index`.
    items: BTreeMap<u64, Value>,
    /// Finished output items, by `output_index`.
    done: BTreeMap<u64, Value>,
    /// The terminal event's response.
    last: Option<Map<String, Value>>,
}

impl Events for Responses {
    fn terminator(&self) -> &'static str {
        "`response.completed`"
    }

    fn apply_text(&mut self, data: &[u8], to: &mut Assembly) -> bool {
        let Some(event) = ResponsesText::read(data) else {
            return false;
        };
        if !self.items.contains_key(&event.output_index) {
            return false;
        }
        self.text(event.output_index, event.content_index, event.delta, to);
        true
    }

    fn apply(&mut self, event: Map<String, Value>, to: &mut Assembly) -> Result<(), ResponseError> {
        let mut event = Members::read(event, &MEMBERS);
        let kind = event.kind(&READ)?;
        match kind.as_str() {
            "error" => {
                // `{"type": "error", "code": ..., "message": ...}`, or the error as a member.
                let error = match event.take("error") {
                    Some(error @ Value::Object(_)) => error,
                    _ => [
                        ("message", event.take("message")),
                        ("code", event.take("code")),
                    ]
                    .into_iter()
                    .filter_map(|(key, value)| Some((key.to_owned(), value?)))
                    .collect(),
                };
                to.end(Some(READ.provider(&error)));
            }
            "response.created" | "response.queued" | "response.in_progress"
                if self.response.is_none() =>
            {
                self.response = Some(response_of(&mut event, &kind)?);
            }
            "response.completed" | "response.incomplete" | "response.failed" => {
                self.last = Some(response_of(&mut event, &kind)?);
                to.end(None);
            }
            "response.output_item.added" => {
                let index = output_index(&event)?;
                let mut item = event.take("item").unwrap_or(Value::Null);
                if let Value::Object(map) = &mut item {
                    // Deltas add to the text the item starts with.
                    if let Some(Value::String(text)) = map.get_mut("arguments") {
                        to.seed(index, std::mem::take(text));
                    }
                    if is_call(&item) {
                        if let Some(Value::String(id)) = item.get("call_id") {
                            to.began(self.position(index), id);
                        }
                    }
                    self.items.insert(index, item);
                }
            }
            "response.content_part.added" => {
                let index = output_index(&event)?;
                let part = event.take("part").unwrap_or(Value::Null);
                if let Some(Value::Array(content)) = self
                    .item(index)?
                    .as_object_mut()
                    .and_then(|i| i.get_mut("content"))
                {
                    content.push(part);
                }
            }
            "response.output_text.delta" => {
                let index = output_index(&event)?;
                let delta = match event.take("delta") {
                    Some(Value::String(delta)) => delta,
                    other => {
                        return Err(READ.malformed(
                            "response.output_text.delta.delta",
                            "a string",
                            other.as_ref(),
                        ))
                    }
                };
                let part = event.get("content_index").and_then(Value::as_u64);
                self.item(index)?;
                self.text(index, part, delta, to);
            }
            "response.function_call_arguments.delta" => {
                let index = output_index(&event)?;
                let Some(Value::String(delta)) = event.take("delta") else {
                    return Ok(());
                };
                to.push(index, &delta);
                self.item(index)?;
            }
            "response.function_call_arguments.done" => {
                let index = output_index(&event)?;
                if let Some(Value::String(arguments)) = event.take("arguments") {
                    to.replace(index, arguments);
                    self.item(index)?;
                }
            }
            "response.output_item.done" => {
                let index = output_index(&event)?;
                let mut item = event.take("item").unwrap_or(Value::Null);
                if !item.is_object() {
                    return Err(READ.malformed(
                        "response.output_item.done.item",
                        "an object",
                        Some(&item),
                    ));
                }
                if is_call(&item) {
                    let length = item
                        .get("arguments")
                        .and_then(Value::as_str)
                        .map_or(0, str::len);
                    if to.bound(index, length) {
                        if let Value::Object(item) = &mut item {
                            item.insert("arguments".into(), "{}".into());
                        }
                    }
                    if completed(&item) {
                        self.ready(index, &item, to);
                    }
                }
                self.done.insert(index, item);
            }
            // Reasoning, refusal, annotation and built-in tool deltas: their items arrive whole
            // in `output_item.done`, which is what the response keeps.
            _ => {}
        }
        Ok(())
    }

    /// The response a non-streamed request would have returned: the terminal event's, with its
    /// `output` recovered from the items when it was left out; or, for a stream that stopped
    /// before its terminal event, what arrived.
    fn into_response(self: Box<Self>, to: &mut Assembly) -> Value {
        let mut this = *self;
        // The items' argument text, as their deltas wrote it.
        for (&index, item) in &mut this.items {
            if let (Some(text), Value::Object(item)) = (to.take_arguments(index), &mut *item) {
                let text = match to.oversize(index) {
                    Some(_) => "{}".to_owned(),
                    None => text,
                };
                item.insert("arguments".into(), Value::String(text));
            }
        }
        this.rebuild(to)
    }
}

impl Responses {
    /// A piece of text of part `part` (0 when not given) of item `index`, which exists.
    fn text(&mut self, index: u64, part: Option<u64>, delta: String, to: &mut Assembly) {
        let part = part.unwrap_or(0) as usize;
        if let Some(Value::String(text)) = self
            .items
            .get_mut(&index)
            .and_then(|item| item.get_mut("content"))
            .and_then(|c| c.get_mut(part))
            .and_then(|p| p.get_mut("text"))
        {
            text.push_str(&delta);
        }
        if !delta.is_empty() {
            to.text(delta);
        }
    }

    fn item(&mut self, index: u64) -> Result<&mut Value, ResponseError> {
        self.items
            .get_mut(&index)
            .ok_or_else(|| ResponseError::Malformed {
                ran: Default::default(),
                dialect: Dialect::OpenAiResponses,
                path: format!("output[{index}]"),
                expected: "an `output_item.added` event before the item's other events",
                found: "nothing",
            })
    }

    /// A finished call item is complete: it is ready, once.
    fn ready(&self, index: u64, item: &Value, to: &mut Assembly) {
        if to.is_ready(index) {
            return;
        }
        let position = self.position(index);
        to.ready(index, position, || match item {
            Value::Object(item) => super::responses::item_call(item, At::item("output", position)),
            _ => Ok(None),
        });
    }

    /// The place among the response's calls of the item at `index`: the function calls before
    /// it.
    fn position(&self, index: u64) -> usize {
        self.items
            .range(..index)
            .filter(|(i, item)| is_call(self.done.get(i).unwrap_or(item)))
            .count()
    }

    /// The response a non-streamed request would have returned: the terminal event's, with its
    /// `output` recovered from the items when it was left out; or, for a stream that stopped
    /// before its terminal event, what arrived.
    fn rebuild(mut self, to: &Assembly) -> Value {
        let recovered = || -> Vec<Value> {
            let mut indexes: Vec<u64> =
                self.items.keys().chain(self.done.keys()).copied().collect();
            indexes.sort_unstable();
            indexes.dedup();
            indexes
                .into_iter()
                .filter_map(|i| self.done.get(&i).or_else(|| self.items.get(&i)).cloned())
                .collect()
        };
        let mut response = match self.last.take() {
            Some(mut last) => {
                if matches!(last.get("output"), None | Some(Value::Null)) {
                    let output = if last.get("status").and_then(Value::as_str) == Some("completed")
                    {
                        self.done.values().cloned().collect()
                    } else {
                        recovered()
                    };
                    last.insert("output".into(), Value::Array(output));
                }
                last
            }
            None => {
                let mut response = self.response.take().unwrap_or_default();
                response.insert("output".into(), Value::Array(recovered()));
                response
            }
        };
        // Calls whose arguments went past the bound: `{}`, as the stream's own items say.
        if let Some(Value::Array(output)) = response.get_mut("output") {
            let oversize: Vec<&str> = to
                .oversized()
                .filter_map(|i| {
                    self.done
                        .get(&i)
                        .or_else(|| self.items.get(&i))
                        .and_then(|item| item.get("call_id"))
                        .and_then(Value::as_str)
                })
                .collect();
            for item in output {
                let id = item.get("call_id").and_then(Value::as_str);
                if is_call(item) && id.is_some_and(|id| oversize.contains(&id)) {
                    if let Value::Object(item) = item {
                        item.insert("arguments".into(), "{}".into());
                    }
                }
            }
        }
        Value::Object(response)
    }
}

/// Whether an output item completed: its `status` is `completed` or absent.
fn completed(item: &Value) -> bool {
    match item.get("status") {
        None | Some(Value::Null) => true,
        Some(status) => status == "completed",
    }
}

fn is_call(item: &Value) -> bool {
    item.get("type").and_then(Value::as_str) == Some("function_call")
}

/// The members of an event this vocabulary reads.
const MEMBERS: [&str; 11] = [
    "type",
    "output_index",
    "content_index",
    "delta",
    "item",
    "part",
    "response",
    "arguments",
    "message",
    "code",
    "error",
];

fn output_index(event: &Members<11>) -> Result<u64, ResponseError> {
    let at = At::from("(event)").field(".output_index");
    index(&READ, event.get("output_index"), at).map(|index| index as u64)
}

fn response_of(event: &mut Members<11>, kind: &str) -> Result<Map<String, Value>, ResponseError> {
    match event.take("response") {
        Some(Value::Object(response)) => Ok(response),
        other => Err(ResponseError::Malformed {
            ran: Default::default(),
            dialect: Dialect::OpenAiResponses,
            path: format!("{kind}.response"),
            expected: "an object",
            found: other.as_ref().map_or("nothing", crate::values::text::kind),
        }),
    }
}
