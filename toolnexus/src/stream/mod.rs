//! Streaming: answer a model's tool calls while its response is still arriving.
//!
//! A [`StreamTurn`] reads a streamed response of any [`Dialect`], as the raw bytes of the HTTP
//! body in chunks of any size ([`StreamTurn::feed_bytes`]; the server-sent-events framing is
//! done here) or as events already parsed ([`StreamTurn::feed_event`]). While it arrives it
//! reports [`StreamEvent`]s: text as it is written, and each call as it starts and finishes. A
//! call starts as soon as its arguments are complete (eager execution, which
//! [`StreamTurn::eager`] turns off), within the [`RunOptions`]' concurrency bound and timeout,
//! through [`Toolkit::execute_call`]. At the end, [`StreamTurn::finish`] gives the [`Turn`]
//! that [`Toolkit::respond`] gives for the same response sent whole: the calls, their results,
//! the model's own turn (text, reasoning and thinking blocks with their signatures, Gemini
//! thought signatures) and the result messages.
//!
//! [`StreamTurn::read`] is the usual way in: it reads an HTTP body's byte stream (reqwest's
//! `bytes_stream()`) and runs the calls while the body is still arriving.
//!
//! | dialect | what arrives | a call is complete at |
//! |---|---|---|
//! | OpenAI Chat (`"stream": true`) | `chat.completion.chunk`s, then `[DONE]` | another call's `index`, or `finish_reason` |
//! | OpenAI Responses (`"stream": true`) | typed events, `response.completed` last | `response.function_call_arguments.done` or `response.output_item.done` |
//! | Anthropic (`"stream": true`) | `message_start` ... `message_stop` | its `content_block_stop` |
//! | Gemini (`streamGenerateContent?alt=sse`) | `GenerateContentResponse` chunks | its part's arrival (parts come whole) |
//!
//! # Endings
//!
//! A stream that does not complete is a [`StreamError`]: its [`ResponseError`] says why
//! (truncated: [`ResponseError::Incomplete`] for `finish_reason: "length"`,
//! `stop_reason: "max_tokens"`, `response.incomplete`, `finishReason: MAX_TOKENS`; dropped: the
//! body ended before the dialect's terminator, also `Incomplete`; stopped for safety:
//! [`ResponseError::Stopped`] for `content_filter`, `refusal`, `SAFETY`, ..., as for a whole
//! response; an error event mid-stream: [`ResponseError::Provider`]) and it carries the calls
//! that already ran with their results,
//! so nothing is lost. A call whose arguments never completed is never started; with eager
//! execution off, such a stream runs nothing, as [`Toolkit::respond`] runs nothing for an
//! incomplete response.
//!
//! # Memory
//!
//! Bounded by the toolkit's [`Limits`](crate::Limits): one call's arguments may grow to
//! `max_bytes` (past it the rest is not kept and the call is answered with the same error as
//! arguments over the limit in a whole response, without running); one server-sent event may
//! be `4 × max_bytes + 64 KiB` (a Responses `response.completed` repeats every call's
//! arguments), past which the stream ends with a [`ResponseError`].

mod anthropic;
mod chat;
mod gemini;
mod read;
mod responses;
mod sse;

use std::collections::VecDeque;
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use futures::stream::{FuturesUnordered, StreamExt};
use serde_json::Value;

pub use read::Events;

use crate::trace;
use crate::{Dialect, ResponseError, RunOptions, ToolCall, ToolResult, Toolkit};

/// What a streaming turn reports while the response arrives.
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

/// One answered model response: what [`StreamTurn::finish`] returns, the same type
/// [`Toolkit::respond`](crate::Toolkit::respond) returns for a whole response.
pub use crate::turn::Turn;

/// A streamed response that did not complete, with the calls that ran before it stopped.
///
/// `error` says why (see [the module docs](self)); `calls[i]` ran and got `results[i]`, in call
/// order. Nothing else ran. What to do with them is the host's choice: retry the request,
/// or show them; they cannot simply be sent back, since the model's turn is incomplete.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct StreamError {
    /// Why the stream did not complete.
    pub error: ResponseError,
    /// The calls that ran, in call order, with their arguments as sent.
    pub calls: Vec<ToolCall>,
    /// Their results.
    pub results: Vec<ToolResult>,
}

impl fmt::Display for StreamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.calls.len() {
            0 => write!(f, "{}", self.error),
            1 => write!(f, "{} (1 call had already run)", self.error),
            n => write!(f, "{} ({n} calls had already run)", self.error),
        }
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

/// What a dialect's accumulator reports while it reads an event.
#[derive(Debug)]
enum Signal {
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

/// The response being rebuilt, one accumulator per dialect.
#[derive(Debug)]
enum Accumulator {
    Chat(chat::Chat),
    Responses(responses::Responses),
    Anthropic(anthropic::Anthropic),
    Gemini(gemini::Gemini),
    /// Taken by [`StreamTurn::settle`].
    Taken,
}

impl Accumulator {
    fn new(dialect: Dialect, max_bytes: usize) -> Self {
        match dialect {
            Dialect::OpenAiChat => Accumulator::Chat(chat::Chat::new(max_bytes)),
            Dialect::OpenAiResponses => {
                Accumulator::Responses(responses::Responses::new(max_bytes))
            }
            Dialect::Anthropic => Accumulator::Anthropic(anthropic::Anthropic::new(max_bytes)),
            Dialect::Gemini => Accumulator::Gemini(gemini::Gemini::new()),
        }
    }

    fn apply(&mut self, event: Value, out: &mut Vec<Signal>) -> Result<(), ResponseError> {
        match self {
            Accumulator::Chat(a) => a.apply(event, out),
            Accumulator::Responses(a) => a.apply(event, out),
            Accumulator::Anthropic(a) => a.apply(event, out),
            Accumulator::Gemini(a) => a.apply(event, out),
            Accumulator::Taken => Ok(()),
        }
    }

    fn into_response(self) -> Value {
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
fn one_call(dialect: Dialect, response: &Value) -> Option<ToolCall> {
    let mut calls = dialect.parse_calls(response).ok()?;
    (calls.len() == 1).then(|| calls.remove(0))
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

/// A running call; its output names its slot.
type CallFuture<'a> = Pin<Box<dyn Future<Output = (usize, ToolResult)> + Send + 'a>>;

#[derive(Debug)]
struct Slot {
    /// The call's place among the response's calls.
    position: usize,
    call: ToolCall,
    /// A result decided without running the call.
    preset: Option<ToolResult>,
    state: State,
}

#[derive(Debug)]
enum State {
    Waiting,
    Queued,
    Running,
    Done(ToolResult),
}

/// The end of a stream, worked out once the input is over.
#[derive(Debug)]
enum Settled {
    /// The calls of the whole response, and the model's turn.
    Complete {
        calls: Vec<ToolCall>,
        model_turn: Vec<Value>,
    },
    Failed(ResponseError),
}

/// One streamed model response, answered while it arrives.
///
/// Feed it the response ([`read`](StreamTurn::read) a byte stream, or
/// [`feed_bytes`](StreamTurn::feed_bytes) / [`feed_event`](StreamTurn::feed_event) yourself),
/// act on the [`StreamEvent`]s, then [`finish`](StreamTurn::finish) it. Calls run while the
/// turn is polled: by [`read`](StreamTurn::read)'s stream, by
/// [`next_call_event`](StreamTurn::next_call_event), or at the latest in `finish`.
///
/// ```
/// use futures::StreamExt;
/// use serde_json::json;
/// use toolnexus::stream::{StreamEvent, StreamTurn};
/// use toolnexus::{Dialect, NativeTool, RunOptions, Toolkit};
///
/// let weather = NativeTool::of("get_weather", "Weather for a city",
///     json!({"type": "object", "properties": {"city": {"type": "string"}}}),
///     |args| async move { format!("sunny in {}", args["city"].as_str().unwrap_or("?")) })?;
/// let toolkit = Toolkit::new().with(weather)?;
///
/// // The body of a streamed Chat Completions response, in the chunks the network gave.
/// let body: Vec<Result<&[u8], std::io::Error>> = vec![
///     Ok(b"data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"Let me check.\"}}]}\n\n"),
///     Ok(b"data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"call_1\",\"type\":\"function\",\"function\":{\"name\":\"get_weather\",\"arguments\":\"\"}}]}}]}\n\n"),
///     Ok(b"data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"{\\\"city\\\":\\\"Pa"),
///     Ok(b"ris\\\"}\"}}]}}]}\n\ndata: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"tool_calls\"}]}\n\ndata: [DONE]\n\n"),
/// ];
/// # tokio::runtime::Builder::new_current_thread().enable_time().build().unwrap().block_on(async {
/// let mut turn = StreamTurn::new(&toolkit, Dialect::OpenAiChat, RunOptions::default());
/// let mut events = turn.read(futures::stream::iter(body));
/// let mut seen = Vec::new();
/// while let Some(event) = events.next().await {
///     match event.unwrap() {
///         StreamEvent::Text(text) => seen.push(text),
///         StreamEvent::CallStarted { call, .. } => seen.push(format!("> {}", call.name)),
///         StreamEvent::CallFinished { result, .. } => seen.push(format!("< {}", result.output)),
///         _ => {}
///     }
/// }
/// assert_eq!(seen, ["Let me check.", "> get_weather", "< sunny in Paris"]);
///
/// let turn = turn.finish().await?;
/// assert_eq!(turn.results[0].output, "sunny in Paris");
/// assert_eq!(turn.model_turn[0]["content"], "Let me check.");
/// assert_eq!(
///     turn.result_messages,
///     [json!({"role": "tool", "tool_call_id": "call_1", "content": "sunny in Paris"})]
/// );
/// # Ok::<(), toolnexus::stream::StreamError>(()) }).unwrap();
/// # Ok::<(), toolnexus::Error>(())
/// ```
pub struct StreamTurn<'a> {
    toolkit: &'a Toolkit,
    dialect: Dialect,
    options: RunOptions,
    eager: bool,
    sse: sse::Decoder,
    accumulator: Accumulator,
    signals: Vec<Signal>,
    /// Events parsed from the current chunk, waiting to be applied (kept for its capacity).
    parsed: Vec<Value>,
    ending: Ending,
    settled: Option<Settled>,
    /// The calls whose arguments are complete, in the order they completed.
    slots: Vec<Slot>,
    /// For each place among the response's calls, its slot (`None`: not complete yet).
    at: Vec<Option<usize>>,
    queue: VecDeque<usize>,
    running: FuturesUnordered<CallFuture<'a>>,
    events: VecDeque<StreamEvent>,
}

impl fmt::Debug for StreamTurn<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("StreamTurn")
            .field("dialect", &self.dialect)
            .field("eager", &self.eager)
            .field("ending", &self.ending)
            .field("calls", &self.slots.len())
            .field("running", &self.running.len())
            .finish_non_exhaustive()
    }
}

impl<'a> StreamTurn<'a> {
    /// A turn reading a `dialect` stream, running calls through `toolkit` with `options`
    /// (concurrency bound, timeout, strict mode). Eager execution is on.
    pub fn new(toolkit: &'a Toolkit, dialect: Dialect, options: RunOptions) -> Self {
        let max_bytes = toolkit.limits().max_bytes;
        let max_event = max_bytes.saturating_mul(4).saturating_add(64 * 1024);
        Self {
            toolkit,
            dialect,
            options,
            eager: true,
            sse: sse::Decoder::new(max_event),
            accumulator: Accumulator::new(dialect, max_bytes),
            signals: Vec::new(),
            parsed: Vec::new(),
            ending: Ending::Open,
            settled: None,
            slots: Vec::new(),
            at: Vec::new(),
            queue: VecDeque::new(),
            running: FuturesUnordered::new(),
            events: VecDeque::new(),
        }
    }

    /// The same turn with eager execution on (the default) or off. Off, calls run only once the
    /// stream has completed (when the body ends, or in [`finish`](StreamTurn::finish)), and a
    /// stream that does not complete runs nothing.
    #[must_use]
    pub fn eager(mut self, eager: bool) -> Self {
        self.eager = eager;
        self
    }

    /// The dialect being read.
    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    /// Reads the next chunk of the HTTP body, cut anywhere (inside a line, an event or a UTF-8
    /// character), and returns the events it gave. Comment lines (`: ping`) are skipped, `\n`,
    /// `\r\n` and `\r` all end lines, and `data: [DONE]` is understood.
    ///
    /// Calls whose arguments this chunk completed start (their [`StreamEvent::CallStarted`] is
    /// among the events); they make progress while the turn is polled.
    pub fn feed_bytes(
        &mut self,
        chunk: &[u8],
    ) -> std::collections::vec_deque::Drain<'_, StreamEvent> {
        self.read_bytes(chunk);
        self.events.drain(..)
    }

    /// Reads one event already parsed from the stream (the JSON of one SSE `data` field), for
    /// clients that parse server-sent events themselves. Returns the events it gave, as
    /// [`feed_bytes`](StreamTurn::feed_bytes).
    pub fn feed_event(
        &mut self,
        event: Value,
    ) -> std::collections::vec_deque::Drain<'_, StreamEvent> {
        if self.accepts_input() {
            self.apply(event);
            self.launch();
        }
        self.events.drain(..)
    }

    /// Runs the started calls until one of them starts or finishes, and returns that event;
    /// `None` when no call is running or waiting. For hosts driving the turn by hand (with
    /// `tokio::select!` next to their body reads); [`read`](StreamTurn::read) does this itself.
    pub async fn next_call_event(&mut self) -> Option<StreamEvent> {
        std::future::poll_fn(|cx| loop {
            if let Some(event) = self.events.pop_front() {
                return Poll::Ready(Some(event));
            }
            match self.poll_calls(cx) {
                Poll::Ready(true) => continue,
                Poll::Ready(false) => return Poll::Ready(None),
                Poll::Pending => return Poll::Pending,
            }
        })
        .await
    }

    /// Ends the turn: the input is over. Runs what remains (calls still running, and with eager
    /// execution off all of them) and returns the [`Turn`], equal to what
    /// [`Toolkit::respond`] gives for the same response sent whole; or, for a stream that did
    /// not complete, a [`StreamError`] with the calls that ran.
    pub async fn finish(mut self) -> Result<Turn, StreamError> {
        self.settle();
        while self.next_call_event().await.is_some() {}
        self.events.clear();
        match self.settled.take() {
            Some(Settled::Complete {
                mut calls,
                model_turn,
            }) => {
                let mut results = Vec::with_capacity(calls.len());
                for (position, call) in calls.iter_mut().enumerate() {
                    let slot = self.at.get(position).copied().flatten();
                    let state =
                        slot.map(|i| std::mem::replace(&mut self.slots[i].state, State::Waiting));
                    results.push(match state {
                        Some(State::Done(result)) => result,
                        // Unreachable: `settle` queued every call and the loop above ran them.
                        _ => ToolResult::error(format!(
                            "internal error: call {position} of the stream was not run"
                        )),
                    });
                    call.arguments = crate::Arguments::Absent;
                }
                self.dialect
                    .admit_media(&calls, &mut results, &self.toolkit.limits());
                let result_messages = self.dialect.render_results(calls.iter().zip(&results));
                Ok(Turn {
                    calls,
                    results,
                    model_turn,
                    result_messages,
                })
            }
            Some(Settled::Failed(error)) => {
                let mut ran: Vec<Slot> = self
                    .slots
                    .drain(..)
                    .filter(|slot| matches!(slot.state, State::Done(_)))
                    .collect();
                ran.sort_by_key(|slot| slot.position);
                let (calls, results) = ran
                    .into_iter()
                    .map(|slot| match slot.state {
                        State::Done(result) => (slot.call, result),
                        _ => unreachable!("filtered"),
                    })
                    .unzip();
                Err(StreamError {
                    error,
                    calls,
                    results,
                })
            }
            None => unreachable!("`settle` settles"),
        }
    }

    fn accepts_input(&self) -> bool {
        self.settled.is_none() && !matches!(self.ending, Ending::Failed(_))
    }

    fn read_bytes(&mut self, chunk: &[u8]) {
        if !self.accepts_input() {
            return;
        }
        let (parsed, dialect) = (&mut self.parsed, self.dialect);
        let mut failure = None;
        let framed = self.sse.feed(chunk, &mut |event| {
            if failure.is_some() {
                return;
            }
            if event.data == b"[DONE]" {
                // OpenAI's last line, after `finish_reason` (which is what completes the turn).
                return;
            }
            match serde_json::from_slice::<Value>(event.data) {
                Ok(value) => parsed.push(value),
                Err(e) => {
                    failure = Some(ResponseError::NotJson {
                        dialect,
                        detail: format!("an event of the stream: {e}"),
                    })
                }
            }
        });
        let mut parsed = std::mem::take(&mut self.parsed);
        for event in parsed.drain(..) {
            self.apply(event);
        }
        self.parsed = parsed;
        if let Some(error) = failure {
            self.end(Some(error));
        }
        if framed.is_err() {
            self.end(Some(ResponseError::Incomplete {
                dialect: self.dialect,
                reason: format!(
                    "an event of the stream is longer than {} bytes, the bound set by the toolkit's `Limits`",
                    self.toolkit.limits().max_bytes.saturating_mul(4).saturating_add(64 * 1024)
                ),
            }));
        }
        self.launch();
    }

    fn apply(&mut self, event: Value) {
        if matches!(self.ending, Ending::Failed(_)) {
            return;
        }
        let mut signals = std::mem::take(&mut self.signals);
        let applied = self.accumulator.apply(event, &mut signals);
        for signal in signals.drain(..) {
            match signal {
                Signal::Text(text) => self.events.push_back(StreamEvent::Text(text)),
                Signal::Ready {
                    position,
                    call,
                    oversize,
                } => self.ready(position, call, oversize),
                Signal::End(error) => self.end(error),
            }
        }
        self.signals = signals;
        if let Err(error) = applied {
            self.end(Some(error));
        }
    }

    fn end(&mut self, error: Option<ResponseError>) {
        match error {
            Some(error) if !matches!(self.ending, Ending::Failed(_)) => {
                self.ending = Ending::Failed(error)
            }
            None if matches!(self.ending, Ending::Open) => self.ending = Ending::Complete,
            _ => {}
        }
    }

    /// A call whose arguments are complete: answered at once when its arguments were too large
    /// or its id is taken, else run (now when eager).
    fn ready(&mut self, position: usize, call: ToolCall, oversize: Option<usize>) {
        if self.at.get(position).is_some_and(Option::is_some) {
            return; // a server repeating itself: the first wins
        }
        let duplicate = call
            .id
            .as_deref()
            .is_some_and(|id| self.slots.iter().any(|s| s.call.id.as_deref() == Some(id)));
        let preset = self.preset(&call, duplicate, oversize);
        self.add(position, call, preset, self.eager);
    }

    fn add(&mut self, position: usize, call: ToolCall, preset: Option<ToolResult>, queue: bool) {
        if self.at.len() <= position {
            self.at.resize(position + 1, None);
        }
        self.at[position] = Some(self.slots.len());
        if queue {
            self.queue.push_back(self.slots.len());
        }
        self.slots.push(Slot {
            position,
            call,
            preset,
            state: if queue { State::Queued } else { State::Waiting },
        });
    }

    /// The result of a call that must not run, as a whole response would give it.
    fn preset(
        &self,
        call: &ToolCall,
        duplicate: bool,
        oversize: Option<usize>,
    ) -> Option<ToolResult> {
        if duplicate {
            return Some(ToolResult::error(format!(
                "duplicate call id `{}`: an earlier call in this turn has it; this call was not run",
                crate::text::echo(call.id.as_deref().unwrap_or_default())
            )));
        }
        let bytes = oversize?;
        // An unknown tool is reported as such first, as for a whole response.
        self.toolkit.get(&call.name)?;
        let max = self.toolkit.limits().max_bytes;
        Some(ToolResult::error(format!(
            "invalid arguments for `{}`: the arguments are larger than {max} bytes (at least {bytes} bytes); send less data",
            call.name
        )))
    }

    /// Starts queued calls while the concurrency bound allows.
    fn launch(&mut self) {
        let limit = self.options.concurrency.max(1);
        while self.running.len() < limit {
            let Some(key) = self.queue.pop_front() else {
                break;
            };
            let slot = &mut self.slots[key];
            let position = slot.position;
            slot.state = State::Running;
            let call = slot.call.clone();
            self.events.push_back(StreamEvent::CallStarted {
                index: position,
                call: call.clone(),
            });
            let dialect = Some(self.dialect);
            let future: CallFuture<'a> = match slot.preset.take() {
                // Answered without running (e.g. arguments past the limits): still its span.
                Some(result) => Box::pin(async move {
                    let answered = std::future::ready(result);
                    let id = call.id.as_deref();
                    (key, trace::call(&call.name, id, dialect, answered).await)
                }),
                None => {
                    let toolkit = self.toolkit;
                    let options = self.options.clone();
                    Box::pin(async move {
                        let result = toolkit.execute_call_from(&call, &options, dialect).await;
                        (key, result)
                    })
                }
            };
            self.running.push(future);
        }
    }

    /// Launches what may start and polls the running calls. `Ready(true)`: events were added;
    /// `Ready(false)`: nothing is running or waiting; `Pending`: calls are running.
    fn poll_calls(&mut self, cx: &mut Context<'_>) -> Poll<bool> {
        let before = self.events.len();
        self.launch();
        if self.events.len() > before {
            return Poll::Ready(true);
        }
        if self.running.is_empty() {
            return Poll::Ready(false);
        }
        match self.running.poll_next_unpin(cx) {
            Poll::Ready(Some((key, result))) => {
                let slot = &mut self.slots[key];
                self.events.push_back(StreamEvent::CallFinished {
                    index: slot.position,
                    call: slot.call.clone(),
                    result: result.clone(),
                });
                slot.state = State::Done(result);
                self.launch();
                Poll::Ready(true)
            }
            Poll::Ready(None) => Poll::Ready(false),
            Poll::Pending => Poll::Pending,
        }
    }

    /// The input is over: works out how the stream ended and queues what must still run.
    fn settle(&mut self) {
        if self.settled.is_some() {
            return;
        }
        if matches!(self.ending, Ending::Open) {
            let terminator = match self.dialect {
                Dialect::OpenAiChat => "a `finish_reason`",
                Dialect::OpenAiResponses => "`response.completed`",
                Dialect::Anthropic => "`message_stop`",
                Dialect::Gemini => "a `finishReason`",
            };
            let cut = if self.sse.has_partial_event() {
                ", in the middle of an event"
            } else {
                ""
            };
            self.ending = Ending::Failed(ResponseError::Incomplete {
                dialect: self.dialect,
                reason: format!("the stream ended before {terminator}{cut}"),
            });
        }
        let accumulator = std::mem::replace(&mut self.accumulator, Accumulator::Taken);
        let settled = match std::mem::replace(&mut self.ending, Ending::Complete) {
            Ending::Failed(error) => Settled::Failed(error),
            _ => {
                let response = accumulator.into_response();
                match self
                    .dialect
                    .parse_calls(&response)
                    .and_then(|calls| Ok((calls, self.dialect.model_turn(&response)?)))
                {
                    Ok((calls, model_turn)) => {
                        self.adopt(&calls);
                        Settled::Complete { calls, model_turn }
                    }
                    Err(error) => Settled::Failed(error),
                }
            }
        };
        if let Settled::Failed(error) = &settled {
            self.ending = Ending::Failed(error.clone());
        }
        self.settled = Some(settled);
    }

    /// Lines the complete response's calls up with those seen in the stream, and queues each
    /// call that has not run yet.
    fn adopt(&mut self, calls: &[ToolCall]) {
        for (position, call) in calls.iter().enumerate() {
            let seen = self.at.get(position).copied().flatten();
            let key = match seen {
                Some(key) if self.slots[key].call == *call => key,
                // Not seen, or a server contradicting itself: the whole response wins (a call
                // that ran under other arguments keeps its result out of the turn).
                _ => {
                    let duplicate = call.id.as_deref().is_some_and(|id| {
                        calls[..position]
                            .iter()
                            .any(|c| c.id.as_deref() == Some(id))
                    });
                    let preset = self.preset(call, duplicate, None);
                    self.add(position, call.clone(), preset, false);
                    self.slots.len() - 1
                }
            };
            if matches!(self.slots[key].state, State::Waiting) {
                self.slots[key].state = State::Queued;
                self.queue.push_back(key);
            }
        }
    }
}
