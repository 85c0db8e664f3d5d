//! Choice 0's tool calls being rebuilt: entries merged by their `index`, arguments grown
//! within the limit, and each call signalled once, when its arguments can no longer change.
//!
//! The format lets a call's pieces arrive after another index has begun (the official SDKs'
//! accumulators merge them by index), so another index beginning completes a call only when
//! its text so far is one whole JSON object (nothing but blank space can follow it in a valid
//! stream). Any other call (empty text, `{"ci`) waits for the choice's `finish_reason`.

use serde_json::{Map, Value};

use super::delta::accumulate;
use super::{Chat, READ};
use crate::wire::{one_call, Signal};
use crate::ResponseError;

/// Where one call of choice 0 stands.
#[derive(Debug, Default, Clone, Copy)]
pub(super) struct CallState {
    ready: bool,
    bytes: usize,
    oversize: bool,
}

impl Chat {
    /// Adds a delta's `tool_calls` pieces to choice `position`'s message. For choice 0, a call
    /// whose index is followed by another's is complete.
    pub(super) fn add_calls(
        &mut self,
        position: usize,
        tool_calls: Vec<Value>,
        out: &mut Vec<Signal>,
    ) -> Result<(), ResponseError> {
        let first = position == 0;
        let message = &mut self.choices[position].message;
        for call in tool_calls {
            let Value::Object(mut call) = call else {
                return Err(READ.malformed(
                    "choices[].delta.tool_calls[]",
                    "an object",
                    Some(&call),
                ));
            };
            let pieces = call
                .get_mut("function")
                .and_then(|f| f.as_object_mut())
                .and_then(|f| f.remove("arguments"));
            let list = match message
                .entry("tool_calls")
                .or_insert_with(|| Value::Array(Vec::new()))
            {
                Value::Array(list) => list,
                other => {
                    *other = Value::Array(Vec::new());
                    let Value::Array(list) = other else {
                        unreachable!()
                    };
                    list
                }
            };
            let index = call.get("index").cloned().unwrap_or(Value::Null);
            let at = match index.as_u64() {
                Some(i) if (i as usize) < list.len() => i as usize,
                _ => list.len(),
            };
            if at == list.len() {
                list.push(Value::Object(Map::new()));
            }
            let Value::Object(entry) = &mut list[at] else {
                return Err(READ.malformed(
                    "choices[].delta.tool_calls[]",
                    "an object",
                    Some(&list[at]),
                ));
            };
            accumulate(entry, call)?;
            if first {
                if self.calls.len() <= at {
                    self.calls.resize(at + 1, CallState::default());
                }
                let state = &mut self.calls[at];
                if let Some(piece) = pieces {
                    append_arguments(entry, state, piece, self.max_bytes);
                }
                // Another index begins: the previous call is complete if its text is.
                if let Some((current, previous)) = self.current.take() {
                    if (current != index || index.is_null()) && whole(&list[previous]) {
                        ready(list, &mut self.calls, previous, out);
                    }
                }
                self.current = Some((index, at));
            } else if let Some(piece) = pieces {
                append_arguments(entry, &mut CallState::default(), piece, usize::MAX);
            }
        }
        Ok(())
    }

    /// A `finish_reason` has arrived: every call not signalled yet is complete, in order.
    pub(super) fn complete_all(&mut self, out: &mut Vec<Signal>) {
        if let Some(Value::Array(list)) = self.choices[0].message.get("tool_calls") {
            for position in 0..list.len() {
                ready(list, &mut self.calls, position, out);
            }
        }
    }
}

/// Appends one piece of a call's arguments, unless they would grow past `max` bytes: the call
/// is then marked and its arguments replaced by `{}` (it gets an error result, never runs).
fn append_arguments(
    entry: &mut Map<String, Value>,
    state: &mut CallState,
    piece: Value,
    max: usize,
) {
    let Value::String(piece) = piece else {
        // Not text (a compatible server's object): kept as sent, for `parse_calls` to judge.
        if let Some(Value::Object(function)) = entry.get_mut("function") {
            function.insert("arguments".into(), piece);
        }
        return;
    };
    state.bytes = state.bytes.saturating_add(piece.len());
    let Some(Value::Object(function)) = entry.get_mut("function") else {
        let mut function = Map::new();
        function.insert("arguments".into(), Value::String(piece));
        entry.insert("function".into(), Value::Object(function));
        return;
    };
    if state.oversize {
        return;
    }
    if state.bytes > max {
        state.oversize = true;
        function.insert("arguments".into(), "{}".into());
        return;
    }
    match function.get_mut("arguments") {
        Some(Value::String(text)) => text.push_str(&piece),
        _ => {
            function.insert("arguments".into(), Value::String(piece));
        }
    }
}

/// Whether a call entry's arguments are final once another index has begun: text that is one
/// whole JSON object, or a value a compatible server sent as is (pieces replace it, never add).
fn whole(entry: &Value) -> bool {
    match entry.get("function").and_then(|f| f.get("arguments")) {
        Some(Value::String(text)) => {
            text.trim_start().starts_with('{')
                && serde_json::from_str::<serde::de::IgnoredAny>(text).is_ok()
        }
        Some(Value::Null) | None => false,
        Some(_) => true,
    }
}

/// Signals the call at `position` of choice 0 as complete, once.
fn ready(list: &[Value], calls: &mut [CallState], position: usize, out: &mut Vec<Signal>) {
    let Some(state) = calls.get_mut(position) else {
        return;
    };
    if state.ready {
        return;
    }
    state.ready = true;
    let mut entry = list[position].clone();
    if let Value::Object(map) = &mut entry {
        map.shift_remove("index");
    }
    let response = serde_json::json!({"choices": [{"message": {"tool_calls": [entry]}}]});
    if let Some(call) = one_call(crate::openai::chat::parse_calls, &response) {
        out.push(Signal::Ready {
            position,
            call,
            oversize: state.oversize.then_some(state.bytes),
        });
    }
}
