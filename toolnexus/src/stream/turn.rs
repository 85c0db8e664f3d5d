//! [`StreamTurn`] and its methods: making a turn, feeding it the response, reading a body
//! ([`Events`]), finishing it (whole, or gated: the [`PendingTurn`] when a call asks), and the
//! reading of that input into the dialect's accumulator. The call runner (`calls`) and the end
//! of the stream (`settle`) are free functions these methods call.

use std::collections::VecDeque;
use std::fmt;
use std::task::Poll;

use futures::stream::{FuturesUnordered, Stream};
use serde_json::Value;

use super::calls::{self, CallFuture, Slot};
use super::framing::{Fed, Framing};
use super::settle::{self, Settled};
use super::{ids, sse, Ending, Events, Signal, StreamError, StreamEvent, Turn};
use crate::approval::{self, Gated, PendingTurn, Status};
use crate::wire::assemble::Assembler;
use crate::{Dialect, ResponseError, RunOptions, Toolkit};

/// One streamed model response, answered while it arrives.
///
/// Feed it the response ([`read`](StreamTurn::read) a byte stream, or
/// [`feed_bytes`](StreamTurn::feed_bytes) / [`feed_event`](StreamTurn::feed_event) yourself),
/// act on the [`StreamEvent`]s, then [`finish`](StreamTurn::finish) it (or, to ask the host
/// about the calls the policy asks about, [`finish_gated`](StreamTurn::finish_gated)). Calls run while the
/// turn is polled: by [`read`](StreamTurn::read)'s stream, by
/// [`next_call_event`](StreamTurn::next_call_event), or at the latest in `finish`.
///
/// ```
/// use futures::StreamExt;
/// use serde_json::json;
/// use toolnexus::{tool, Dialect, RunOptions, Toolkit};
/// use toolnexus::stream::{StreamEvent, StreamTurn};
///
/// /// Weather for a city.
/// #[tool]
/// async fn get_weather(city: String) -> String {
///     format!("sunny in {city}")
/// }
///
/// let toolkit = Toolkit::new().with(GetWeather)?;
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
    pub(super) toolkit: &'a Toolkit,
    pub(super) dialect: Dialect,
    pub(super) options: RunOptions,
    pub(super) eager: bool,
    pub(super) framing: Framing,
    pub(super) sse: sse::Decoder,
    /// The response being assembled, through the dialect's event vocabulary (`None` once
    /// settled).
    pub(super) accumulator: Option<Assembler>,
    pub(super) ending: Ending,
    pub(super) settled: Option<Settled>,
    /// The calls whose arguments are complete, in the order they completed.
    pub(super) slots: Vec<Slot>,
    /// For each place among the response's calls, its slot (`None`: not complete yet).
    pub(super) at: Vec<Option<usize>>,
    /// Each place's id as far as the stream has named it, to judge repeated ids by place.
    pub(super) ids: ids::Ids,
    /// How many complete calls wait for their earlier places to be named.
    pub(super) unjudged: usize,
    pub(super) queue: VecDeque<usize>,
    pub(super) running: FuturesUnordered<CallFuture<'a>>,
    /// A call the policy runs alone is running (so it is the only one).
    pub(super) alone: bool,
    pub(super) events: VecDeque<StreamEvent>,
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
            framing: Framing::new(),
            sse: sse::Decoder::new(max_event),
            accumulator: Some(Assembler::new(dialect, dialect.wire().stream(), max_bytes)),
            ending: Ending::Open,
            settled: None,
            slots: Vec::new(),
            at: Vec::new(),
            ids: ids::Ids::default(),
            unjudged: 0,
            queue: VecDeque::new(),
            running: FuturesUnordered::new(),
            alone: false,
            events: VecDeque::new(),
        }
    }

    /// The same turn with eager execution on (the default) or off. Off, calls run only once the
    /// stream has completed (when the body ends, or in [`finish`](StreamTurn::finish)), and a
    /// stream that does not complete runs nothing.
    #[must_use]
    pub fn with_eager(mut self, eager: bool) -> Self {
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
            calls::launch(self);
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
            match calls::poll_calls(self, cx) {
                Poll::Ready(true) => {}
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
        settle::settle(&mut self);
        // What the policy held back goes through the call path, which answers it.
        settle::queue_held(&mut self, |_| true);
        while self.next_call_event().await.is_some() {}
        self.events.clear();
        settle::outcome(&mut self)
    }
    /// Reads `body`, the HTTP body as a stream of byte chunks (reqwest's `bytes_stream()`,
    /// hyper's body frames, a test's `futures::stream::iter`), and returns the turn's events as
    /// a stream. When it ends, call [`finish`](StreamTurn::finish).
    pub fn read<S, B, E>(&mut self, body: S) -> Events<'_, 'a, S>
    where
        S: Stream<Item = Result<B, E>>,
        B: AsRef<[u8]>,
    {
        Events::new(self, body)
    }

    /// Ends the turn as [`Toolkit::respond_gated`](crate::Toolkit::respond_gated) ends a whole
    /// response: the input is over, and when no call asks, this is
    /// [`finish`](StreamTurn::finish) ([`Gated::Ran`]). When one does, the calls the policy lets
    /// run finish running (they started as their arguments completed), no call that asks or is
    /// refused has run, and the [`PendingTurn`] comes back ([`Gated::Pending`]): the one
    /// `respond_gated` gives for the same response sent whole, except that each call that
    /// already ran is [`Status::Done`] with its result. Answer the calls that ask and
    /// [`resume`](crate::Toolkit::resume) it, here or in another process: the calls that ran
    /// keep their results and never run again, the approved ones run, all in call order, and
    /// the same [`Turn`](crate::Turn) comes out as `respond_gated` then `resume` give.
    ///
    /// A stream that does not complete is the [`StreamError`] [`finish`](StreamTurn::finish)
    /// gives; a call that asks never ran before it stopped either.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolnexus::{tool, Dialect, Policy, RunOptions, Toolkit};
    /// use toolnexus::stream::StreamTurn;
    /// use toolnexus::approval::{Answer, Gated, Status};
    ///
    /// /// Lists a folder.
    /// #[tool(read_only)]
    /// fn list(path: String) -> String {
    ///     format!("listed {path}")
    /// }
    ///
    /// /// Deletes a file.
    /// #[tool(destructive)]
    /// fn rm(path: String) -> String {
    ///     format!("deleted {path}")
    /// }
    ///
    /// let toolkit = Toolkit::new().with((List, Rm))?.with_policy(Policy::new());
    /// // A Gemini stream: `rm` asks (its hints say destructive), `list` runs as it arrives.
    /// let events = [
    ///     json!({"candidates": [{"content": {"role": "model", "parts": [
    ///         {"functionCall": {"name": "rm", "args": {"path": "/tmp/a"}}}]}}]}),
    ///     json!({"candidates": [{"content": {"role": "model", "parts": [
    ///         {"functionCall": {"name": "list", "args": {"path": "/tmp"}}}]}, "finishReason": "STOP"}]}),
    /// ];
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// let mut turn = StreamTurn::new(&toolkit, Dialect::Gemini, RunOptions::default());
    /// for event in events {
    ///     turn.feed_event(event).for_each(drop);
    /// }
    /// let Gated::Pending(pending) = turn.finish_gated().await? else { unreachable!("rm asks") };
    /// let [rm, list] = pending.calls() else { unreachable!() };
    /// assert!(matches!(list.status(), Status::Done { result } if result.output == "listed /tmp"));
    /// assert!(rm.request().is_some()); // awaiting: it has not run
    ///
    /// let answers = [Answer::approve(rm)];
    /// let turn = toolkit.resume(pending, &answers).await?;
    /// assert_eq!(turn.results[0].output, "deleted /tmp/a");
    /// assert_eq!(turn.results[1].output, "listed /tmp"); // kept, not run again
    /// # Ok::<(), Box<dyn std::error::Error>>(()) }).unwrap();
    /// # Ok::<(), toolnexus::Error>(())
    /// ```
    // A stream ends once: its error is returned by value, as `Turn` is, not boxed for every host.
    #[allow(clippy::result_large_err)]
    pub async fn finish_gated(mut self) -> Result<Gated, StreamError> {
        settle::settle(&mut self);
        let mut statuses = match &self.settled {
            Some(Settled::Complete { calls, .. }) if self.toolkit.policy().is_some() => {
                approval::statuses(self.toolkit, calls)
            }
            _ => Vec::new(),
        };
        // A call whose arguments grew past the limit is answered with the limit's error, never
        // asked about: the response holds `{}` for it, which approving would run. It runs as the
        // calls the policy lets run do (its answer was settled with its id), so it ends `Done`.
        for (position, status) in statuses.iter_mut().enumerate() {
            if matches!(status, Status::Awaiting { .. }) && settle::oversize(&self, position) {
                *status = Status::Ready;
            }
        }
        if !statuses
            .iter()
            .any(|s| matches!(s, Status::Awaiting { .. }))
        {
            return self.finish().await.map(Gated::Ran);
        }
        // Only what the policy lets run runs: the rest waits for the host's answer.
        settle::queue_held(&mut self, |position| {
            matches!(statuses[position], Status::Ready)
        });
        while self.next_call_event().await.is_some() {}
        self.events.clear();
        let Some(Settled::Complete { calls, model_turn }) = self.settled.take() else {
            unreachable!("a complete stream's calls were read above")
        };
        let statuses = statuses
            .into_iter()
            .enumerate()
            .map(|(position, status)| match status {
                // A call answered without running as a repeated id stays `Refused`, as
                // `respond_gated` says it; only a call the policy lets run is `Done`.
                Status::Ready => match settle::take_result(&mut self, position) {
                    Some(result) => Status::Done { result },
                    None => status,
                },
                status => status,
            })
            .collect();
        Ok(Gated::Pending(PendingTurn::of(
            self.dialect,
            model_turn,
            calls,
            statuses,
        )))
    }

    pub(super) fn accepts_input(&self) -> bool {
        self.settled.is_none() && !matches!(self.ending, Ending::Failed(_))
    }

    pub(super) fn read_bytes(&mut self, chunk: &[u8]) {
        if !self.accepts_input() {
            return;
        }
        let fed = self.framing.feed(chunk);
        let chunk = match &fed {
            Fed::Held => return,
            Fed::Events(held) => held.as_slice(),
            Fed::Pass => chunk,
        };
        let dialect = self.dialect;
        let Some(assembler) = self.accumulator.as_mut() else {
            return;
        };
        let mut failure = None;
        let framed = self.sse.feed(chunk, &mut |event| {
            // Once an event ended the stream with an error, the rest of the chunk is not read.
            if failure.is_some() || assembler.failed() {
                return;
            }
            if event.data == b"[DONE]" {
                // OpenAI's last line, after `finish_reason` (which is what completes the turn).
                return;
            }
            if let Err(e) = assembler.read(event.data) {
                failure = Some(ResponseError::NotJson {
                    ran: Default::default(),
                    dialect,
                    detail: format!("an event of the stream: {e}"),
                });
            }
        });
        self.absorb();
        if let Some(error) = failure {
            self.end(Some(error));
        }
        if framed.is_err() {
            self.end(Some(ResponseError::EventTooLarge {
                ran: Default::default(),
                dialect: self.dialect,
                limit: self
                    .toolkit
                    .limits()
                    .max_bytes
                    .saturating_mul(4)
                    .saturating_add(64 * 1024),
            }));
        }
        calls::launch(self);
    }

    fn apply(&mut self, event: Value) {
        if matches!(self.ending, Ending::Failed(_)) {
            return;
        }
        if let Some(assembler) = self.accumulator.as_mut() {
            assembler.apply(event);
        }
        self.absorb();
    }

    /// Acts on what the events read so far reported, in order.
    fn absorb(&mut self) {
        let Some(assembler) = self.accumulator.as_mut() else {
            return;
        };
        let mut signals = std::mem::take(assembler.signals());
        let max_calls = self.toolkit.limits().max_calls;
        for signal in signals.drain(..) {
            let failed = matches!(self.ending, Ending::Failed(_));
            match signal {
                Signal::Text(text) => self.events.push_back(StreamEvent::Text(text)),
                // A failed stream starts nothing more; a call past `Limits::max_calls` fails it.
                Signal::Ready { position, .. } | Signal::Began { position, .. }
                    if failed || position >= max_calls =>
                {
                    if !failed {
                        self.end(Some(self.toolkit.limits().too_many_calls(self.dialect)));
                    }
                }
                Signal::Ready {
                    position,
                    call,
                    oversize,
                } => calls::ready(self, position, call, oversize),
                Signal::Began { position, id } => calls::began(self, position, &id),
                Signal::End(error) => self.end(error),
            }
        }
        if let Some(assembler) = self.accumulator.as_mut() {
            *assembler.signals() = signals;
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
}
