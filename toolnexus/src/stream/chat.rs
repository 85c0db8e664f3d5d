//! OpenAI Chat Completions with `"stream": true`: `chat.completion.chunk` events, whose
//! `choices[].delta` pieces add up to the message, as the official SDK's
//! `ChatCompletionStreamState` adds them up (`accumulate_delta`): strings are appended, objects
//! merged, list entries merged by their `index`.
//!
//! A call's arguments are complete when another call's index starts or a `finish_reason`
//! arrives; `finish_reason` ends the content (the usage chunk and `[DONE]` may follow).

use serde_json::{Map, Value};

use super::{one_call, Signal};
use crate::response::Reader;
use crate::{Dialect, ResponseError};

const READ: Reader = Reader {
    dialect: Dialect::OpenAiChat,
};

/// The response being rebuilt from chunks.
#[derive(Debug, Default)]
pub(crate) struct Chat {
    /// The first chunk's top-level fields, `choices` apart.
    root: Option<Map<String, Value>>,
    choices: Vec<Choice>,
    /// The `index` of choice 0's call being written (the SDK's `current_tool_call_index`) and its
    /// position in `tool_calls`.
    current: Option<(Value, usize)>,
    /// Per position in choice 0's `tool_calls`: started, and the argument bytes received.
    calls: Vec<CallState>,
    max_bytes: usize,
}

/// One choice being rebuilt. Its message's `content` is kept apart, so appending a piece of text
/// looks nothing up.
#[derive(Debug, Default)]
struct Choice {
    fields: Map<String, Value>,
    message: Map<String, Value>,
    content: Option<Value>,
}

#[derive(Debug, Default, Clone, Copy)]
struct CallState {
    ready: bool,
    bytes: usize,
    oversize: bool,
}

impl Chat {
    pub(crate) fn new(max_bytes: usize) -> Self {
        Self {
            max_bytes,
            ..Self::default()
        }
    }

    /// Reads one chunk. Each map is walked once, by its keys, rather than searched field by
    /// field: a chunk is mostly one short piece of text.
    pub(crate) fn apply(
        &mut self,
        chunk: Value,
        out: &mut Vec<Signal>,
    ) -> Result<(), ResponseError> {
        let Value::Object(chunk) = chunk else {
            return Err(READ.malformed("(chunk)", "an object", Some(&chunk)));
        };
        let fresh = self.root.is_none();
        let root = self.root.get_or_insert_with(Map::new);
        let mut choices = Value::Null;
        let mut error = None;
        for (key, value) in chunk {
            match key.as_str() {
                "choices" => choices = value,
                "error" if !value.is_null() => error = Some(value),
                "obfuscation" => {}
                // As the SDK: the last chunk's usage (the usage chunk comes last) and fingerprint.
                "usage" | "system_fingerprint" => {
                    root.insert(key, value);
                }
                _ if fresh => {
                    root.insert(key, value);
                }
                _ => {}
            }
        }
        if fresh {
            root.insert("object".into(), "chat.completion".into());
        }
        if let Some(error) = error {
            // An `{"error": ...}` chunk mid-stream: the provider's message, as `parse_calls` says it.
            let mut holder = Map::new();
            holder.insert("error".into(), error);
            if let Err(error) = READ.root(&Value::Object(holder)) {
                out.push(Signal::End(Some(error)));
            }
            return Ok(());
        }
        let choices = match choices {
            Value::Null => return Ok(()),
            Value::Array(choices) => choices,
            other => return Err(READ.malformed("choices", "an array", Some(&other))),
        };
        for choice in choices {
            let Value::Object(choice) = choice else {
                return Err(READ.malformed("choices[]", "an object", Some(&choice)));
            };
            let mut index = 0;
            let mut delta = Map::new();
            let (mut finish, mut logprobs) = (Value::Null, Value::Null);
            let mut others = Vec::new();
            for (key, value) in choice {
                match key.as_str() {
                    "index" if !value.is_null() => {
                        index = value.as_u64().ok_or_else(|| {
                            READ.malformed("choices[].index", "an integer", Some(&value))
                        })? as usize;
                    }
                    "delta" => match value {
                        Value::Object(map) => delta = map,
                        Value::Null => {}
                        other => {
                            return Err(READ.malformed(
                                "choices[].delta",
                                "an object",
                                Some(&other),
                            ))
                        }
                    },
                    "finish_reason" => finish = value,
                    "logprobs" => logprobs = value,
                    _ => others.push((key, value)),
                }
            }
            let position = if index < self.choices.len() {
                index
            } else {
                // The SDK's `list.insert(index, ...)`: at the end when the index is past it.
                let mut fields = Map::new();
                fields.insert("index".into(), index.into());
                fields.extend(others);
                fields.insert("finish_reason".into(), Value::Null);
                self.choices.push(Choice {
                    fields,
                    ..Choice::default()
                });
                self.choices.len() - 1
            };
            self.apply_choice(position, delta, finish, logprobs, out)?;
        }
        Ok(())
    }

    fn apply_choice(
        &mut self,
        position: usize,
        delta: Map<String, Value>,
        finish: Value,
        logprobs: Value,
        out: &mut Vec<Signal>,
    ) -> Result<(), ResponseError> {
        let first = position == 0;
        let snapshot = &mut self.choices[position];
        let mut tool_calls = Vec::new();
        let mut rest = Map::new();
        for (key, value) in delta {
            match (key.as_str(), value) {
                ("content", value) => {
                    // As `accumulate`: a missing or null field takes the piece, text is
                    // appended, another kind stays. The piece moves into its event.
                    match (&mut snapshot.content, value) {
                        (Some(Value::String(have)), Value::String(text)) => {
                            have.push_str(&text);
                            if first && !text.is_empty() {
                                out.push(Signal::Text(text));
                            }
                        }
                        (have @ (None | Some(Value::Null)), value) => {
                            if let (true, Value::String(text)) = (first, &value) {
                                if !text.is_empty() {
                                    out.push(Signal::Text(text.clone()));
                                }
                            }
                            *have = Some(value);
                        }
                        _ => {}
                    }
                }
                ("tool_calls", Value::Array(calls)) => tool_calls = calls,
                ("tool_calls", Value::Null) => {}
                ("tool_calls", other) => {
                    return Err(READ.malformed(
                        "choices[].delta.tool_calls",
                        "an array",
                        Some(&other),
                    ))
                }
                (_, value) => {
                    rest.insert(key, value);
                }
            }
        }
        if !rest.is_empty() {
            accumulate(&mut snapshot.message, rest)?;
        }
        let message = &mut snapshot.message;
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
                // Another index starts: the previous call is complete.
                if let Some((current, previous)) = self.current.take() {
                    if current != index || index.is_null() {
                        ready(list, &mut self.calls, previous, out);
                    }
                }
                self.current = Some((index, at));
            } else if let Some(piece) = pieces {
                append_arguments(entry, &mut CallState::default(), piece, usize::MAX);
            }
        }
        let snapshot = &mut self.choices[position];
        if !logprobs.is_null() {
            merge_logprobs(&mut snapshot.fields, &logprobs);
        }
        if finish.is_null() {
            return Ok(());
        }
        let cut_off = matches!(finish.as_str(), Some("length" | "content_filter"));
        snapshot.fields.insert("finish_reason".into(), finish);
        if first {
            if let (Some((_, current)), false) = (&self.current, cut_off) {
                if let Some(Value::Array(list)) = self.choices[0].message.get_mut("tool_calls") {
                    ready(list, &mut self.calls, *current, out);
                }
            }
            out.push(Signal::End(None));
        }
        Ok(())
    }

    /// The response a non-streamed request would have returned.
    pub(crate) fn into_response(self) -> Value {
        let mut root = self.root.unwrap_or_default();
        let choices = self
            .choices
            .into_iter()
            .map(|choice| {
                let Choice {
                    mut fields,
                    mut message,
                    content,
                } = choice;
                if let Some(content) = content {
                    message.insert("content".into(), content);
                }
                if let Some(Value::Array(calls)) = message.get_mut("tool_calls") {
                    for call in calls {
                        if let Value::Object(call) = call {
                            call.shift_remove("index");
                        }
                    }
                }
                fields.insert("message".into(), Value::Object(message));
                Value::Object(fields)
            })
            .collect();
        root.insert("choices".into(), Value::Array(choices));
        Value::Object(root)
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
    if let Some(call) = one_call(Dialect::OpenAiChat, &response) {
        out.push(Signal::Ready {
            position,
            call,
            oversize: state.oversize.then_some(state.bytes),
        });
    }
}

fn merge_logprobs(snapshot: &mut Map<String, Value>, logprobs: &Value) {
    match snapshot.get_mut("logprobs") {
        Some(Value::Object(have)) => {
            for key in ["content", "refusal"] {
                if let Some(Value::Array(more)) = logprobs.get(key) {
                    match have.get_mut(key) {
                        Some(Value::Array(list)) => list.extend(more.iter().cloned()),
                        _ => {
                            have.insert(key.into(), Value::Array(more.clone()));
                        }
                    }
                }
            }
        }
        _ => {
            snapshot.insert("logprobs".into(), logprobs.clone());
        }
    }
}

/// The SDK's `accumulate_delta`: adds `delta` into `acc`.
pub(crate) fn accumulate(
    acc: &mut Map<String, Value>,
    delta: Map<String, Value>,
) -> Result<(), ResponseError> {
    for (key, value) in delta {
        let slot = acc.get_mut(&key);
        if matches!(slot, None | Some(Value::Null)) {
            if has_indexed_entries(&value) {
                acc.insert(key.clone(), Value::Array(Vec::new()));
            } else {
                acc.insert(key, value);
                continue;
            }
        }
        let Some(have) = acc.get_mut(&key) else {
            continue;
        };
        if key == "index" || key == "type" {
            *have = value;
            continue;
        }
        match (have, value) {
            (Value::String(have), Value::String(more)) => have.push_str(&more),
            (Value::Number(have), Value::Number(more)) => {
                let sum = match (have.as_i64(), more.as_i64()) {
                    (Some(a), Some(b)) => a.checked_add(b).map(Value::from),
                    _ => None,
                };
                let sum = sum.or_else(|| {
                    let (a, b) = (have.as_f64()?, more.as_f64()?);
                    serde_json::Number::from_f64(a + b).map(Value::Number)
                });
                if let Some(Value::Number(sum)) = sum {
                    *have = sum;
                }
            }
            (Value::Object(have), Value::Object(more)) => accumulate(have, more)?,
            (Value::Array(have), Value::Array(more)) => {
                let scalars = have.iter().all(|v| v.is_string() || v.is_number());
                if scalars && (!have.is_empty() || !has_indexed_entries_in(&more)) {
                    have.extend(more);
                    continue;
                }
                for entry in more {
                    let Value::Object(entry) = entry else {
                        return Err(READ.malformed(
                            "choices[].delta",
                            "list entries that are objects",
                            Some(&entry),
                        ));
                    };
                    let Some(index) = entry.get("index").and_then(Value::as_u64) else {
                        return Err(READ.malformed(
                            "choices[].delta",
                            "list entries with an integer `index`",
                            entry.get("index"),
                        ));
                    };
                    let index = index as usize;
                    match have.get_mut(index) {
                        Some(Value::Object(existing)) => accumulate(existing, entry)?,
                        Some(other) => {
                            return Err(READ.malformed(
                                "choices[].delta",
                                "list entries that are objects",
                                Some(other),
                            ))
                        }
                        None => have.push(Value::Object(entry)),
                    }
                }
            }
            // Different kinds: the SDK keeps what it has.
            _ => {}
        }
    }
    Ok(())
}

fn has_indexed_entries(value: &Value) -> bool {
    matches!(value, Value::Array(items) if has_indexed_entries_in(items))
}

fn has_indexed_entries_in(items: &[Value]) -> bool {
    items
        .iter()
        .any(|e| e.as_object().is_some_and(|e| e.contains_key("index")))
}
