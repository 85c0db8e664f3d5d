//! Reading a provider response: [`ResponseError`] for a response that is not what its dialect
//! says (and the [`Remedy`] a host applies to it), the path-aware reader every provider uses, and
//! the repairs a repeated model turn needs.

mod codes;
mod ran;
mod read;

use std::fmt;

pub(crate) use codes::passing;
use codes::refuses_request;
pub use ran::RanCalls;

pub(crate) use read::{
    field, field_mut, keep_function_calls, repair_object_arguments, repair_text_arguments, At,
    Reader,
};

use crate::values::dialect::Dialect;

/// A response that is not what its dialect says, so its calls cannot be read; or, for a
/// streamed response, the way the stream ended before it was complete.
///
/// Never caused by a tool or by bad arguments (those are error results the model reads); this is
/// for the response itself. [`remedy`](ResponseError::remedy) says what a host can do about it,
/// variant by variant. No call of such a whole response is run (a stream says in its
/// [`StreamError`](crate::stream::StreamError) which calls had already run). The `Display` text
/// says what was expected and where.
///
/// ```
/// use serde_json::json;
/// use toolnexus::{Dialect, Remedy, ResponseError};
///
/// let err = Dialect::OpenAiChat.parse_calls(&json!({"choices": []})).unwrap_err();
/// assert_eq!(
///     err.to_string(),
///     "unexpected OpenAI Chat Completions response: expected a non-empty array at `choices`, found an empty array"
/// );
/// assert_eq!(err.remedy(), Remedy::GiveUp);
///
/// // Cut off by `max_tokens`: raise it and ask again.
/// let cut = json!({"choices": [{"finish_reason": "length", "message": {"content": "Le"}}]});
/// let err = Dialect::OpenAiChat.parse_calls(&cut).unwrap_err();
/// assert!(matches!(err, ResponseError::Truncated { .. }));
/// assert_eq!(err.remedy(), Remedy::RaiseLimit);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ResponseError {
    /// The body is not JSON (truncated, or not a response at all), or an event of a stream is
    /// not.
    NotJson {
        /// The dialect that was expected.
        dialect: Dialect,
        /// serde_json's description of the problem.
        detail: String,
        /// The calls of a stream that had already run when it ended (empty for a whole
        /// response, which runs none): the text names them.
        ran: RanCalls,
    },
    /// A field is missing or has the wrong type.
    Malformed {
        /// The dialect that was expected.
        dialect: Dialect,
        /// Where, as a path from the root: `choices[0].message.tool_calls[1].function.name`.
        path: String,
        /// What the dialect puts there: `an array`, `a string`.
        expected: &'static str,
        /// What was there instead: `nothing`, `a number`, ... (never the value itself).
        found: &'static str,
        /// The calls of a stream that had already run when it ended (empty for a whole
        /// response, which runs none): the text names them.
        ran: RanCalls,
    },
    /// The response is another dialect's (read as Anthropic, it has Gemini's `candidates`): a
    /// request sent to one provider and read as another's, or the wrong `Dialect` given.
    OtherDialect {
        /// The dialect that was expected.
        dialect: Dialect,
        /// The dialect the response looks like.
        looks_like: Dialect,
        /// Always empty: a whole response runs no call before it is read.
        ran: RanCalls,
    },
    /// The response was cut off by a token limit (`finish_reason: "length"`,
    /// `stop_reason: "max_tokens"`, `max_output_tokens`, `finishReason: MAX_TOKENS`, Anthropic's
    /// `model_context_window_exceeded`): its calls may be cut off, so none are run.
    Truncated {
        /// The dialect that was expected.
        dialect: Dialect,
        /// Which limit.
        limit: TokenLimit,
        /// What the provider said, e.g. ``finish_reason` is `length``.
        reason: String,
        /// The calls of a stream that had already run when it ended (empty for a whole
        /// response, which runs none): the text names them.
        ran: RanCalls,
    },
    /// The response stopped before it was complete for another reason than a token limit (a
    /// malformed call, an unfinished `status`, a call item that did not complete): its calls
    /// may be cut off, so none are run.
    Incomplete {
        /// The dialect that was expected.
        dialect: Dialect,
        /// What the provider said, e.g. ``finishReason` is `MALFORMED_FUNCTION_CALL``.
        reason: String,
        /// The calls of a stream that had already run when it ended (empty for a whole
        /// response, which runs none): the text names them.
        ran: RanCalls,
    },
    /// The provider stopped the turn for safety (a content filter, a refusal, recitation, ...)
    /// or for another reason than finishing it: none of its calls are run, since they were not
    /// meant to be. Drop the turn (never append it without results for its calls) and change
    /// the request before asking again.
    Stopped {
        /// The dialect that was expected.
        dialect: Dialect,
        /// What the provider said, e.g. ``stop_reason` is `refusal``.
        reason: String,
        /// The calls of a stream that had already run when it ended (empty for a whole
        /// response, which runs none): the text names them.
        ran: RanCalls,
    },
    /// The provider sent an error object instead of a response, beside one, or as an event of a
    /// stream (`"error"` with a message, a code or `true`; `null`, `false` and empty values are
    /// no error).
    Provider {
        /// The dialect that was expected.
        dialect: Dialect,
        /// The provider's message (at most 300 characters of it).
        message: String,
        /// The error's kind as the provider names it: its `type` (`overloaded_error`,
        /// `invalid_request_error`), else its `status` (`UNAVAILABLE`), else its `code`
        /// (`server_error`, `503`). `None` when it names none.
        code: Option<String>,
        /// Whether the provider says the error is passing (overloaded, rate limited, a server
        /// error): the same request may succeed after a pause ([`Remedy::BackOff`]).
        retry: bool,
        /// The calls of a stream that had already run when it ended (empty for a whole
        /// response, which runs none): the text names them.
        ran: RanCalls,
    },
    /// A streamed body ended before its dialect's terminator: the connection dropped, or the
    /// server closed it early.
    Dropped {
        /// The dialect that was expected.
        dialect: Dialect,
        /// What was missing, e.g. "the stream ended before `message_stop`".
        reason: String,
        /// The calls of a stream that had already run when it ended (empty for a whole
        /// response, which runs none): the text names them.
        ran: RanCalls,
    },
    /// One event of a stream was longer than the bound the toolkit's
    /// [`Limits`](crate::Limits) set (`4 × max_bytes + 64 KiB`); nothing past it was read.
    EventTooLarge {
        /// The dialect that was expected.
        dialect: Dialect,
        /// The bound, in bytes.
        limit: usize,
        /// The calls of a stream that had already run when it ended (empty for a whole
        /// response, which runs none): the text names them.
        ran: RanCalls,
    },
    /// The body of a streamed request is not a server-sent event stream at all: an HTML error
    /// page from a proxy, a JSON body (a streamed request sent without `"stream": true`, or
    /// Gemini's `streamGenerateContent` without `?alt=sse`), plain text.
    NotEventStream {
        /// The dialect that was expected.
        dialect: Dialect,
        /// The body's first bytes (at most 200 characters, control characters escaped).
        start: String,
        /// The calls of a stream that had already run when it ended (empty for a whole
        /// response, which runs none): the text names them.
        ran: RanCalls,
    },
}

/// Which token limit cut a response off ([`ResponseError::Truncated`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum TokenLimit {
    /// The request's output limit (`max_tokens`, `max_output_tokens`,
    /// `max_completion_tokens`, `maxOutputTokens`).
    Output,
    /// The model's context window (Anthropic's `model_context_window_exceeded`).
    ContextWindow,
}

/// What a host can do about a [`ResponseError`]: [`ResponseError::remedy`].
///
/// | remedy | errors |
/// |---|---|
/// | [`Retry`](Remedy::Retry) | [`Dropped`](ResponseError::Dropped), [`Incomplete`](ResponseError::Incomplete) |
/// | [`BackOff`](Remedy::BackOff) | [`Provider`](ResponseError::Provider) with `retry` (overloaded, rate limited, a server error) |
/// | [`RaiseLimit`](Remedy::RaiseLimit) | [`Truncated`](ResponseError::Truncated) by [`TokenLimit::Output`], [`EventTooLarge`](ResponseError::EventTooLarge) |
/// | [`ChangeRequest`](Remedy::ChangeRequest) | [`Stopped`](ResponseError::Stopped), [`Truncated`](ResponseError::Truncated) by [`TokenLimit::ContextWindow`], [`Provider`](ResponseError::Provider) refusing the request (`invalid_request_error`, `INVALID_ARGUMENT`, `400`) |
/// | [`GiveUp`](Remedy::GiveUp) | [`NotJson`](ResponseError::NotJson), [`Malformed`](ResponseError::Malformed), [`OtherDialect`](ResponseError::OtherDialect), [`NotEventStream`](ResponseError::NotEventStream), any other [`Provider`](ResponseError::Provider) error (authentication, permission, quota, unknown) |
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Remedy {
    /// Send the same request again: it failed on the way, not because of what it asked.
    Retry,
    /// Wait, then send the same request again (with a growing pause between tries).
    BackOff,
    /// Raise the limit that cut the response off (`max_tokens`, or the toolkit's
    /// [`Limits::max_bytes`](crate::Limits)), then ask again.
    RaiseLimit,
    /// Change the request (the conversation, the prompt, the tools) before asking again.
    ChangeRequest,
    /// Nothing a retry fixes: the endpoint, the dialect, the credentials or the server is wrong.
    GiveUp,
}

impl ResponseError {
    /// The dialect whose response was expected.
    #[must_use]
    pub fn dialect(&self) -> Dialect {
        self.common().0
    }

    /// The members every variant has: the dialect and the calls that had run.
    fn common(&self) -> (Dialect, &RanCalls) {
        match self {
            Self::NotJson { dialect, ran, .. }
            | Self::Malformed { dialect, ran, .. }
            | Self::OtherDialect { dialect, ran, .. }
            | Self::Truncated { dialect, ran, .. }
            | Self::Incomplete { dialect, ran, .. }
            | Self::Stopped { dialect, ran, .. }
            | Self::Provider { dialect, ran, .. }
            | Self::Dropped { dialect, ran, .. }
            | Self::EventTooLarge { dialect, ran, .. }
            | Self::NotEventStream { dialect, ran, .. } => (*dialect, ran),
        }
    }

    /// What a host can do about this error (see [`Remedy`] for the whole table).
    ///
    /// ```
    /// use toolnexus::{Dialect, Remedy, ResponseError};
    ///
    /// let event = serde_json::json!({"type": "error",
    ///     "error": {"type": "overloaded_error", "message": "Overloaded"}});
    /// let err = Dialect::Anthropic.parse_calls(&event).unwrap_err();
    /// assert!(matches!(&err, ResponseError::Provider { code: Some(c), retry: true, .. } if c == "overloaded_error"));
    /// assert_eq!(err.remedy(), Remedy::BackOff);
    /// ```
    #[must_use]
    pub fn remedy(&self) -> Remedy {
        match self {
            Self::Dropped { .. } | Self::Incomplete { .. } => Remedy::Retry,
            Self::Provider { retry: true, .. } => Remedy::BackOff,
            Self::Provider { code, .. } => match code.as_deref() {
                Some(code) if refuses_request(code) => Remedy::ChangeRequest,
                _ => Remedy::GiveUp,
            },
            Self::Truncated {
                limit: TokenLimit::ContextWindow,
                ..
            }
            | Self::Stopped { .. } => Remedy::ChangeRequest,
            Self::Truncated { .. } | Self::EventTooLarge { .. } => Remedy::RaiseLimit,
            Self::NotJson { .. }
            | Self::Malformed { .. }
            | Self::OtherDialect { .. }
            | Self::NotEventStream { .. } => Remedy::GiveUp,
        }
    }

    /// The calls of a stream that had already run when it ended ([`RanCalls`]; empty for a
    /// whole response).
    #[must_use]
    pub fn ran(&self) -> &RanCalls {
        self.common().1
    }

    /// The same error, saying that `ran` had run (a stream's ending).
    pub(crate) fn with_ran(mut self, calls: RanCalls) -> Self {
        match &mut self {
            Self::NotJson { ran, .. }
            | Self::Malformed { ran, .. }
            | Self::OtherDialect { ran, .. }
            | Self::Truncated { ran, .. }
            | Self::Incomplete { ran, .. }
            | Self::Stopped { ran, .. }
            | Self::Provider { ran, .. }
            | Self::Dropped { ran, .. }
            | Self::EventTooLarge { ran, .. }
            | Self::NotEventStream { ran, .. } => *ran = calls,
        }
        self
    }

    /// The text of this error, ending with what became of the calls: none ran, or (a stream's
    /// ending) exactly those of [`ResponseError::ran`].
    fn describe(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ran = self.ran();
        let calls = |f: &mut fmt::Formatter<'_>, none: &str| {
            if ran.is_empty() {
                f.write_str(none)
            } else {
                write!(f, "{ran}")
            }
        };
        // The endings whose text says nothing of the calls otherwise.
        let after = |f: &mut fmt::Formatter<'_>| {
            if ran.is_empty() {
                Ok(())
            } else {
                write!(f, "; {ran}")
            }
        };
        match self {
            Self::NotJson {
                dialect, detail, ..
            } => {
                write!(f, "the {dialect} response is not valid JSON: {detail}")?;
                after(f)
            }
            Self::Malformed {
                dialect,
                path,
                expected,
                found,
                ..
            } => {
                write!(
                    f,
                    "unexpected {dialect} response: expected {expected} at `{path}`, found {found}"
                )?;
                after(f)
            }
            Self::OtherDialect {
                dialect,
                looks_like,
                ..
            } => {
                write!(
                    f,
                    "this looks like a {looks_like} response, not one of {dialect} (read it \
                     with `Dialect::{}`, or send the request to the API you read it as)",
                    looks_like.variant_name()
                )?;
                after(f)
            }
            Self::Truncated {
                dialect, reason, ..
            }
            | Self::Incomplete {
                dialect, reason, ..
            } => {
                write!(
                    f,
                    "the {dialect} response is incomplete ({reason}); its tool calls may be cut off, "
                )?;
                calls(f, "so none were run")
            }
            Self::Stopped {
                dialect, reason, ..
            } => {
                write!(f, "the {dialect} response was stopped by the provider; ")?;
                calls(f, "none of its tool calls were run")?;
                write!(f, " ({reason})")
            }
            Self::Provider {
                dialect, message, ..
            } => {
                write!(
                    f,
                    "{dialect} returned an error instead of a response: {message}"
                )?;
                after(f)
            }
            Self::Dropped {
                dialect, reason, ..
            } => {
                write!(f, "the {dialect} stream was cut short ({reason}); ")?;
                calls(f, "no call was run")
            }
            Self::EventTooLarge { dialect, limit, .. } => {
                write!(
                    f,
                    "an event of the {dialect} stream is longer than {limit} bytes, the bound set \
                     by the toolkit's `Limits`; nothing past it was read"
                )?;
                after(f)
            }
            Self::NotEventStream { dialect, start, .. } => {
                write!(
                    f,
                    "the body is not a {dialect} event stream (it starts with `{start}`)"
                )?;
                if let Some(hint) = dialect.not_a_stream_hint(start) {
                    f.write_str(hint)?;
                }
                after(f)
            }
        }
    }
}

impl fmt::Display for ResponseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.describe(f)
    }
}

impl std::error::Error for ResponseError {}
