//! [`Accumulator`]: the response being rebuilt, one accumulator per dialect behind one enum, and
//! the [`Signal`]s they report while they read events.

use serde_json::{Map, Value};

use super::{anthropic, chat, gemini, responses};
use crate::response::Reader;
use crate::{Dialect, ResponseError, ToolCall};

/// What a dialect's accumulator reports while it reads an event.
#[derive(Debug)]
pub(super) enum Signal {
    /// A piece of the model's text.
    Text(String),
    /// A call's arguments are complete. `position`: its place among the response's calls;
    /// `oversize`: the argument bytes received when they went past the limit (it must not run).
    Ready {
        position: usize,
        call: ToolCall,
        oversize: Option<usize>,
    },
    /// The dialect's terminator, or an error event.
    End(Option<ResponseError>),
}

impl Signal {
    /// An error event mid-stream (its `error` member): the end of the turn, with the provider's
    /// message as `read` says it of a whole response holding that `error`.
    pub(super) fn provider_error(read: &Reader, error: Value) -> Option<Signal> {
        let mut holder = Map::new();
        holder.insert("error".into(), error);
        read.root(&Value::Object(holder))
            .err()
            .map(|error| Signal::End(Some(error)))
    }
}

/// The response being rebuilt, one accumulator per dialect.
#[derive(Debug)]
pub(super) enum Accumulator {
    Chat(chat::Chat),
    Responses(responses::Responses),
    Anthropic(anthropic::Anthropic),
    Gemini(gemini::Gemini),
    /// Taken by [`StreamTurn::settle`].
    Taken,
}

impl Accumulator {
    pub(super) fn new(dialect: Dialect, max_bytes: usize) -> Self {
        match dialect {
            Dialect::OpenAiChat => Accumulator::Chat(chat::Chat::new(max_bytes)),
            Dialect::OpenAiResponses => {
                Accumulator::Responses(responses::Responses::new(max_bytes))
            }
            Dialect::Anthropic => Accumulator::Anthropic(anthropic::Anthropic::new(max_bytes)),
            Dialect::Gemini => Accumulator::Gemini(gemini::Gemini::new()),
        }
    }

    pub(super) fn apply(
        &mut self,
        event: Value,
        out: &mut Vec<Signal>,
    ) -> Result<(), ResponseError> {
        match self {
            Accumulator::Chat(a) => a.apply(event, out),
            Accumulator::Responses(a) => a.apply(event, out),
            Accumulator::Anthropic(a) => a.apply(event, out),
            Accumulator::Gemini(a) => a.apply(event, out),
            Accumulator::Taken => Ok(()),
        }
    }

    pub(super) fn into_response(self) -> Value {
        match self {
            Accumulator::Chat(a) => a.into_response(),
            Accumulator::Responses(a) => a.into_response(),
            Accumulator::Anthropic(a) => a.into_response(),
            Accumulator::Gemini(a) => a.into_response(),
            Accumulator::Taken => Value::Null,
        }
    }
}

/// The one call a single-item response holds, read by the dialect's own `parse_calls`, so a call
/// started early is exactly the call the whole response gives.
pub(super) fn one_call(dialect: Dialect, response: &Value) -> Option<ToolCall> {
    let mut calls = dialect.parse_calls(response).ok()?;
    (calls.len() == 1).then(|| calls.remove(0))
}
