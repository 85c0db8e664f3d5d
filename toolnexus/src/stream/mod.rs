//! Streaming: answer a model's tool calls while its response is still arriving.
//!
//! A [`StreamTurn`] reads a streamed response of any [`Dialect`](crate::Dialect), as the raw bytes of the HTTP
//! body in chunks of any size ([`StreamTurn::feed_bytes`]; the server-sent-events framing is
//! done here) or as events already parsed ([`StreamTurn::feed_event`]). While it arrives it
//! reports [`StreamEvent`]s: text as it is written, and each call as it starts and finishes. A
//! call starts as soon as its arguments are complete (eager execution, which
//! [`StreamTurn::with_eager`] turns off), within the [`RunOptions`](crate::RunOptions)' concurrency bound and timeout,
//! through [`Toolkit::execute_call`](crate::Toolkit::execute_call). A call whose id an earlier call has is answered "duplicate
//! call id" without running, as [`Toolkit::respond`](crate::Toolkit::respond) answers it: earlier by position, not by
//! completion, so a call that completes before an earlier one starts once every earlier call's
//! id is known (most formats name a call as it begins; Chat and Responses calls interleave). At the end, [`StreamTurn::finish`] gives the [`Turn`]
//! that [`Toolkit::respond`](crate::Toolkit::respond) gives for the same response sent whole: the calls, their results,
//! the model's own turn (text, reasoning and thinking blocks with their signatures, Gemini
//! thought signatures) and the result messages.
//!
//! Under the toolkit's [`Policy`](crate::Policy), a call that asks or is refused never starts
//! early, and one that runs alone overlaps no other call; [`StreamTurn::finish_gated`] ends the
//! turn as [`Toolkit::respond_gated`](crate::Toolkit::respond_gated) ends a whole response, with the
//! [`PendingTurn`](crate::approval::PendingTurn) when a call asks (the
//! [approval guide](crate::guide::approval#streaming)).
//!
//! [`StreamTurn::read`] is the usual way in: it reads an HTTP body's byte stream (reqwest's
//! `bytes_stream()`) and runs the calls while the body is still arriving (its page has the
//! example). A client that parses server-sent events itself feeds each event's JSON:
//!
//! ```
//! use serde_json::json;
//! use toolnexus::{tool, Dialect, RunOptions, Toolkit};
//! use toolnexus::stream::{StreamEvent, StreamTurn};
//!
//! /// Adds two integers.
//! #[tool]
//! fn add(a: i64, b: i64) -> i64 {
//!     a + b
//! }
//!
//! let toolkit = Toolkit::new().with(Add)?;
//! // An Anthropic Messages stream, one event at a time.
//! let events = [
//!     json!({"type": "message_start", "message": {"id": "msg_1", "type": "message",
//!         "role": "assistant", "content": [], "stop_reason": null}}),
//!     json!({"type": "content_block_start", "index": 0, "content_block": {"type": "tool_use",
//!         "id": "toolu_1", "name": "add", "input": {}}}),
//!     json!({"type": "content_block_delta", "index": 0,
//!         "delta": {"type": "input_json_delta", "partial_json": "{\"a\": 2, "}}),
//!     json!({"type": "content_block_delta", "index": 0,
//!         "delta": {"type": "input_json_delta", "partial_json": "\"b\": 3}"}}),
//!     json!({"type": "content_block_stop", "index": 0}),
//!     json!({"type": "message_delta", "delta": {"stop_reason": "tool_use"}}),
//!     json!({"type": "message_stop"}),
//! ];
//! # tokio::runtime::Builder::new_current_thread().enable_time().build().unwrap().block_on(async {
//! let mut turn = StreamTurn::new(&toolkit, Dialect::Anthropic, RunOptions::default());
//! let mut started = Vec::new();
//! for event in events {
//!     for happened in turn.feed_event(event) {
//!         if let StreamEvent::CallStarted { call, .. } = happened {
//!             started.push(call.name); // at its `content_block_stop`, before the message ends
//!         }
//!     }
//! }
//! assert_eq!(started, ["add"]);
//! let turn = turn.finish().await?;
//! assert_eq!(turn.results[0].output, "5");
//! assert!(!turn.is_final());
//! # Ok::<(), toolnexus::stream::StreamError>(()) }).unwrap();
//! # Ok::<(), toolnexus::Error>(())
//! ```
//!
//! | dialect | what arrives | a call is complete at |
//! |---|---|---|
//! | OpenAI Chat (`"stream": true`) | `chat.completion.chunk`s, then `[DONE]` | its text is one whole JSON object and another call's `index` has begun (pieces of different calls may interleave), or `finish_reason` |
//! | OpenAI Responses (`"stream": true`) | typed events, `response.completed` last | its `response.output_item.done` with `status: "completed"` |
//! | Anthropic (`"stream": true`) | `message_start` ... `message_stop` | its `content_block_stop` |
//! | Gemini (`streamGenerateContent?alt=sse`) | `GenerateContentResponse` chunks | its part's arrival (parts come whole) |
//! | Bedrock (`ConverseStream`) | its events as JSON, `messageStart` ... `messageStop`, `metadata` (fed with [`StreamTurn::feed_event`]) | its `contentBlockStop` |
//! | Cohere (`"stream": true`) | SSE events, `message-start` ... `message-end` | its `tool-call-end` |
//!
//! Every dialect's stream is read the same way: one assembler holds each call's argument text
//! (within the bound below) and reports each call once, when its arguments can no longer
//! change, parsed by the same per-call reader as a whole response's calls; the dialect only
//! says which event holds what. A piece of text, the most frequent event, is read straight
//! from its bytes when it has exactly that event's shape (any other event is read as JSON, to
//! the same result). At the end the response as assembled is read once, under the dialect's
//! stop rules, for its calls and the model's turn, and every call that started must be the call
//! the final turn holds at its place.
//!
//! # Endings
//!
//! A stream that does not complete is a [`StreamError`]: its [`ResponseError`] says how it
//! ended, one variant per ending a host acts on differently, and
//! [`remedy`](ResponseError::remedy) says what to do ([`Remedy`](crate::Remedy); the
//! [errors guide](crate::guide::errors#what-to-do-about-a-responseerror) has the whole table):
//!
//! | ending | error | remedy |
//! |---|---|---|
//! | the body ended before the dialect's terminator | [`ResponseError::Dropped`] | retry |
//! | `finish_reason: "length"`, `max_tokens`, `max_output_tokens`, `MAX_TOKENS` | [`ResponseError::Truncated`] | raise the limit |
//! | another early stop (`MALFORMED_FUNCTION_CALL`, an incomplete item) | [`ResponseError::Incomplete`] | retry |
//! | an error event mid-stream | [`ResponseError::Provider`], with its `code` and `retry` | back off, change the request, or give up |
//! | `content_filter`, `refusal`, `SAFETY`, ... | [`ResponseError::Stopped`] | change the request |
//! | an event past the bound (below) | [`ResponseError::EventTooLarge`] | raise `max_bytes` |
//! | a body that is no event stream (an HTML 502 page, a JSON body) | [`ResponseError::NotEventStream`] with its first bytes, or the JSON body's [`ResponseError::Provider`] error | give up |
//!
//! It carries the calls that already ran with their results, names them in its text, and gives
//! the messages that tell the model what ran ([`StreamError::messages`]), so nothing is lost. A call starts
//! only once its arguments can no longer change (the table above says when, per dialect) and at
//! most once; a call whose arguments never completed is never started. A server whose whole
//! response contradicts a call it already started fails the turn (the call is not run again).
//! With eager execution off, a stream that does not complete runs nothing, as
//! [`Toolkit::respond`](crate::Toolkit::respond) runs nothing for an incomplete response.
//!
//! # Memory
//!
//! Bounded by the toolkit's [`Limits`](crate::Limits): one call's arguments may grow to
//! `max_bytes` (past it the rest is not kept and the call is answered with the same error as
//! arguments over the limit in a whole response, without running); one server-sent event may
//! be `4 × max_bytes + 64 KiB` (a Responses `response.completed` repeats every call's
//! arguments), past which the stream ends with a [`ResponseError`].

mod calls;
mod framing;
mod ids;
mod read;
mod settle;
mod sse;
mod turn;

use std::fmt;

use serde_json::Value;

pub use read::Events;
pub use turn::StreamTurn;

use crate::wire::assemble::Signal;
use crate::{ResponseError, ToolCall, ToolResult};

/// What a streaming turn reports while the response arrives.
///
/// ```
/// use serde_json::json;
/// use toolnexus::{tool, Dialect, RunOptions, Toolkit};
/// use toolnexus::stream::{StreamEvent, StreamTurn};
///
/// /// Adds two integers.
/// #[tool]
/// fn add(a: i64, b: i64) -> i64 {
///     a + b
/// }
///
/// let toolkit = Toolkit::new().with(Add)?;
/// // A Gemini stream's one event: text, then a call (parts come whole).
/// let event = json!({"candidates": [{"finishReason": "STOP", "content": {"role": "model",
///     "parts": [{"text": "Adding."}, {"functionCall": {"name": "add", "args": {"a": 2, "b": 3}}}]}}]});
/// # tokio::runtime::Builder::new_current_thread().enable_time().build().unwrap().block_on(async {
/// let mut turn = StreamTurn::new(&toolkit, Dialect::Gemini, RunOptions::default());
/// let mut seen: Vec<StreamEvent> = turn.feed_event(event).collect();
/// while let Some(event) = turn.next_call_event().await {
///     seen.push(event);
/// }
/// for event in &seen {
///     match event {
///         StreamEvent::Text(text) => assert_eq!(text, "Adding."),
///         StreamEvent::CallStarted { index, call } => assert_eq!((*index, &*call.name), (0, "add")),
///         StreamEvent::CallFinished { result, .. } => assert_eq!(result.output, "5"),
///         _ => {} // the enum is non-exhaustive
///     }
/// }
/// assert_eq!(seen.len(), 3);
/// # Ok::<(), toolnexus::stream::StreamError>(()) }).unwrap();
/// # Ok::<(), toolnexus::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum StreamEvent {
    /// The next piece of the model's text (thinking and reasoning text is not reported).
    Text(String),
    /// A call's arguments are complete and it has started.
    CallStarted {
        /// Its place among the response's calls: its result is `Turn::results[index]`.
        index: usize,
        /// The call, as the provider sent it.
        call: ToolCall,
    },
    /// A call has finished (or was answered without running, e.g. arguments over the limit).
    CallFinished {
        /// Its place among the response's calls.
        index: usize,
        /// The call.
        call: ToolCall,
        /// Its result, as the final [`Turn`] holds it.
        result: ToolResult,
    },
}

use crate::turn::Turn;

/// A streamed response that did not complete, with the calls that ran before it stopped and
/// the messages a host appends to go on.
///
/// `error` says why (see [the module docs](self)); its text, and `error`'s own (what `?`
/// converts this to, what a log prints), names exactly the calls that ran
/// ([`ResponseError::ran`]). `calls[i]` ran and got `results[i]`, in call order. Nothing else ran.
///
/// A call that ran may have done something (a file written, a payment sent), so the model
/// should hear of it: [`messages`](StreamError::messages) are the model's turn holding only the
/// calls that ran (with the text and signed thinking that had completed; never a call that did
/// not run), then their results, as the dialect's SDK types take them. Append them and ask
/// again, and the model goes on from what already happened; or retry the request, knowing what
/// ran. With no call run they are empty.
///
/// ```
/// use toolnexus::{tool, Dialect, Remedy, ResponseError, RunOptions, Toolkit};
/// use toolnexus::stream::StreamTurn;
///
/// /// Sends a payment.
/// #[tool]
/// fn pay(cents: u32) -> String {
///     format!("paid {cents}")
/// }
///
/// let toolkit = Toolkit::new().with(Pay)?;
/// # tokio::runtime::Builder::new_current_thread().enable_time().build().unwrap().block_on(async {
/// let mut turn = StreamTurn::new(&toolkit, Dialect::OpenAiChat, RunOptions::default());
/// // One call completes (another begins), then the connection drops before `[DONE]`.
/// let _ = turn.feed_bytes(concat!(
///     r#"data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"pay","arguments":"{\"cents\":5}"}}]}}]}"#, "\n\n",
///     r#"data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"id":"call_2","type":"function","function":{"name":"pay","arguments":"{\"ce"}}]}}]}"#, "\n\n",
/// ).as_bytes());
/// let err = turn.finish().await.unwrap_err();
/// assert_eq!(err.error.remedy(), Remedy::Retry);
/// assert_eq!(err.results[0].output, "paid 5"); // it ran; `call_2` never did
/// assert!(err.error.to_string().ends_with(
///     "only the 1 call whose arguments had completed ran: `pay` (`call_1`); its result is attached"));
/// let next: Vec<_> = err.messages().cloned().collect();
/// assert_eq!(next[0]["tool_calls"].as_array().unwrap().len(), 1); // only the call that ran
/// assert_eq!(next[1]["tool_call_id"], "call_1");
/// # });
/// # Ok::<(), toolnexus::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct StreamError {
    /// Why the stream did not complete.
    pub error: ResponseError,
    /// The calls that ran, in call order, with their arguments as sent.
    pub calls: Vec<ToolCall>,
    /// Their results.
    pub results: Vec<ToolResult>,
    /// The model's turn holding only the calls that ran, with the text (and signed thinking)
    /// it had completed; when no call ran, the turn of that text alone, and empty when it wrote
    /// none.
    pub model_turn: Vec<Value>,
    /// Their results as the dialect's message(s) (empty when none ran).
    pub result_messages: Vec<Value>,
}

impl StreamError {
    /// The messages a host appends to go on: [`model_turn`](StreamError::model_turn), then
    /// [`result_messages`](StreamError::result_messages); none when no call ran and the model
    /// had completed no text.
    pub fn messages(&self) -> impl Iterator<Item = &Value> + '_ {
        self.model_turn.iter().chain(&self.result_messages)
    }

    /// [`StreamError::messages`], taken out.
    #[must_use]
    pub fn into_messages(self) -> Vec<Value> {
        crate::turn::joined(self.model_turn, self.result_messages)
    }
}

impl fmt::Display for StreamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.error, f)
    }
}

impl std::error::Error for StreamError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.error)
    }
}

impl From<StreamError> for ResponseError {
    fn from(e: StreamError) -> Self {
        e.error
    }
}

/// How far the stream has come.
#[derive(Debug)]
enum Ending {
    /// Still arriving.
    Open,
    /// The dialect's terminator has arrived (more events may still follow, e.g. usage).
    Complete,
    /// Stopped: an error event, a malformed event, or (once the input is over) a dropped body.
    Failed(ResponseError),
}
