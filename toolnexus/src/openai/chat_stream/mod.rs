//! OpenAI Chat Completions with `"stream": true`: `chat.completion.chunk` events, whose
//! `choices[].delta` pieces add up to the message, as the official SDK's
//! `ChatCompletionStreamState` adds them up (`accumulate_delta`): strings are appended, objects
//! merged, list entries merged by their `index`.
//!
//! A call's arguments are complete when another call's index begins and its text is one whole
//! JSON object, or else when a `finish_reason` arrives; `finish_reason` ends the content (the
//! usage chunk and `[DONE]` may follow).
//!
//! Here: the chunks (top-level fields, choices, text, `finish_reason`) and the response they
//! rebuild. `calls`: choice 0's tool calls and their arguments; `delta`: the SDK's merging rules.

mod calls;
mod delta;

use serde_json::{Map, Value};

use super::text_events::ChatText;
use crate::response::Reader;
use crate::wire::assemble::{Assembly, Events};
use crate::{Dialect, ResponseError};
use delta::{accumulate, merge_logprobs};

const READ: Reader = Reader {
    dialect: Dialect::OpenAiChat,
};

/// The event vocabulary of a Chat stream: the response being rebuilt from chunks, choice 0's
/// calls' argument text in the assembler's [`Assembly`] (keyed by place in `tool_calls`).
#[derive(Debug, Default)]
pub(crate) struct Chat {
    /// The first chunk's top-level fields, `choices` apart.
    root: Option<Map<String, Value>>,
    choices: Vec<Choice>,
    /// The `index` of choice 0's call being written (the SDK's `current_tool_call_index`) and its
    /// position in `tool_calls`.
    current: Option<(Value, usize)>,
}

/// One choice being rebuilt. Its message's `content` is kept apart, so appending a piece of text
/// looks nothing up.
#[derive(Debug, Default)]
struct Choice {
    fields: Map<String, Value>,
    message: Map<String, Value>,
    content: Option<Value>,
}

impl Choice {
    /// A piece of the message's `content` (reported as text for choice 0). As `accumulate`: a
    /// missing or null field takes the piece, text is appended, another kind stays. The piece
    /// moves into its event.
    fn content(&mut self, first: bool, value: Value, to: &mut Assembly) {
        match (&mut self.content, value) {
            (Some(Value::String(have)), Value::String(text)) => {
                have.push_str(&text);
                if first && !text.is_empty() {
                    to.text(text);
                }
            }
            (have @ (None | Some(Value::Null)), value) => {
                if let (true, Value::String(text)) = (first, &value) {
                    if !text.is_empty() {
                        to.text(text.clone());
                    }
                }
                *have = Some(value);
            }
            _ => {}
        }
    }
}

impl Events for Chat {
    fn terminator(&self) -> &'static str {
        "a `finish_reason`"
    }

    /// A chunk of one piece of text for a choice already begun (the first chunk is read whole).
    fn apply_text(&mut self, data: &[u8], to: &mut Assembly) -> bool {
        let Some(root) = self.root.as_mut() else {
            return false;
        };
        let Some(chunk) = ChatText::read(data) else {
            return false;
        };
        let Some(choice) = self.choices.get_mut(chunk.index as usize) else {
            return false;
        };
        let kept = [
            ("system_fingerprint", chunk.system_fingerprint),
            ("usage", chunk.usage),
        ];
        for (key, value) in kept {
            if let Some(value) = value {
                root.insert(key.into(), value);
            }
        }
        choice.content(chunk.index == 0, Value::String(chunk.text), to);
        true
    }

    fn unit(&self) -> &'static str {
        "(chunk)"
    }

    /// Reads one chunk. Each map is walked once, by its keys, rather than searched field by
    /// field: a chunk is mostly one short piece of text.
    fn apply(&mut self, chunk: Map<String, Value>, to: &mut Assembly) -> Result<(), ResponseError> {
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
            to.provider_error(&READ, error);
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
            self.apply_choice(position, delta, finish, logprobs, to)?;
        }
        Ok(())
    }

    /// The response a non-streamed request would have returned.
    fn into_response(self: Box<Self>, to: &mut Assembly) -> Value {
        let mut this = *self;
        calls::write_arguments(&mut this, to);
        let mut root = this.root.unwrap_or_default();
        let choices = this
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

impl Chat {
    fn apply_choice(
        &mut self,
        position: usize,
        delta: Map<String, Value>,
        finish: Value,
        logprobs: Value,
        to: &mut Assembly,
    ) -> Result<(), ResponseError> {
        let first = position == 0;
        let snapshot = &mut self.choices[position];
        let mut tool_calls = Vec::new();
        let mut rest = Map::new();
        for (key, value) in delta {
            match (key.as_str(), value) {
                ("content", value) => snapshot.content(first, value, to),
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
        calls::add_calls(self, position, tool_calls, to)?;
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
            if !cut_off {
                calls::complete_all(self, to);
            }
            to.end(None);
        }
        Ok(())
    }
}
