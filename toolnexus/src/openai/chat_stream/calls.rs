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
use crate::wire::assemble::Assembly;
use crate::ResponseError;

/// Adds a delta's `tool_calls` pieces to choice `position`'s message. For choice 0, a call
/// whose index is followed by another's is complete.
pub(super) fn add_calls(
    chat: &mut Chat,
    position: usize,
    tool_calls: Vec<Value>,
    to: &mut Assembly,
) -> Result<(), ResponseError> {
    let first = position == 0;
    let message = &mut chat.choices[position].message;
    for call in tool_calls {
        let Value::Object(mut call) = call else {
            return Err(READ.malformed("choices[].delta.tool_calls[]", "an object", Some(&call)));
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
        // The delta naming the call (its first, as a rule): its id is known from here on
        // (ids are appended as any text, so an empty one says nothing yet).
        let named = first && call.contains_key("id");
        accumulate(entry, call)?;
        match entry.get("id") {
            Some(Value::String(id)) if named && !id.is_empty() => to.began(at, id),
            _ => {}
        }
        if first {
            match pieces {
                Some(Value::String(piece)) => to.push(at as u64, &piece),
                Some(other) => {
                    // Not text (a compatible server's object): kept as sent, for
                    // `parse_calls` to judge (in place of any text before it).
                    let had_text = to.arguments(at as u64).is_some();
                    to.end_text(at as u64);
                    match entry.get_mut("function") {
                        Some(Value::Object(function)) => {
                            function.insert("arguments".into(), other);
                        }
                        _ if had_text => {
                            let mut function = Map::new();
                            function.insert("arguments".into(), other);
                            entry.insert("function".into(), Value::Object(function));
                        }
                        _ => {}
                    }
                }
                None => {}
            }
            // Another index begins: the previous call is complete if its text is.
            if let Some((current, previous)) = chat.current.take() {
                if (current != index || index.is_null()) && whole(&list[previous], to, previous) {
                    ready(list, to, previous);
                }
            }
            chat.current = Some((index, at));
        } else if let Some(piece) = pieces {
            append(entry, piece);
        }
    }
    Ok(())
}

/// A `finish_reason` has arrived: every call not signalled yet is complete, in order.
pub(super) fn complete_all(chat: &mut Chat, to: &mut Assembly) {
    if let Some(Value::Array(list)) = chat.choices[0].message.get_mut("tool_calls") {
        for position in 0..list.len() {
            ready(list, to, position);
        }
    }
}

/// Choice 0's calls' argument text, as their pieces wrote it, into their entries.
pub(super) fn write_arguments(chat: &mut Chat, to: &mut Assembly) {
    let Some(choice) = chat.choices.first_mut() else {
        return;
    };
    if let Some(Value::Array(list)) = choice.message.get_mut("tool_calls") {
        for (position, entry) in list.iter_mut().enumerate() {
            write(entry, to, position);
        }
    }
}

/// Appends one piece of a call's arguments of another choice than 0 (never run: unbounded).
fn append(entry: &mut Map<String, Value>, piece: Value) {
    let Value::String(piece) = piece else {
        if let Some(Value::Object(function)) = entry.get_mut("function") {
            function.insert("arguments".into(), piece);
        }
        return;
    };
    match entry.get_mut("function") {
        Some(Value::Object(function)) => match function.get_mut("arguments") {
            Some(Value::String(text)) => text.push_str(&piece),
            _ => {
                function.insert("arguments".into(), Value::String(piece));
            }
        },
        _ => set_arguments(entry, piece),
    }
}

/// A call entry's `function.arguments` set to `text` (`function` made an object if need be).
fn set_arguments(entry: &mut Map<String, Value>, text: String) {
    match entry.get_mut("function") {
        Some(Value::Object(function)) => {
            function.insert("arguments".into(), Value::String(text));
        }
        _ => {
            let mut function = Map::new();
            function.insert("arguments".into(), Value::String(text));
            entry.insert("function".into(), Value::Object(function));
        }
    }
}

/// The argument text of the call at `position` into its entry: `{}` once past the bound.
fn write(entry: &mut Value, to: &Assembly, position: usize) {
    let key = position as u64;
    let (Some(text), Value::Object(entry)) = (to.arguments(key), entry) else {
        return;
    };
    let text = match to.oversize(key) {
        Some(_) => "{}".to_owned(),
        None => text.to_owned(),
    };
    set_arguments(entry, text);
}

/// Whether a call entry's arguments are final once another index has begun: text that is one
/// whole JSON object (`{}` past the bound), or a value a compatible server sent as is (pieces
/// replace it, never add).
fn whole(entry: &Value, to: &Assembly, position: usize) -> bool {
    let key = position as u64;
    let text = match to.arguments(key) {
        Some(_) if to.oversize(key).is_some() => return true,
        Some(text) => text,
        None => match entry.get("function").and_then(|f| f.get("arguments")) {
            Some(Value::Null) | None => return false,
            Some(Value::String(text)) => text,
            Some(_) => return true,
        },
    };
    text.trim_start().starts_with('{')
        && serde_json::from_str::<serde::de::IgnoredAny>(text).is_ok()
}

/// Signals the call at `position` of choice 0 as complete, once, parsed by `parse_call`.
fn ready(list: &mut [Value], to: &mut Assembly, position: usize) {
    let key = position as u64;
    if to.is_ready(key) {
        return;
    }
    write(&mut list[position], to, position);
    let entry = &list[position];
    to.ready(key, position, || {
        crate::openai::chat::parse_call(entry, position).map(Some)
    });
}
