//! [`StreamTurn`]'s public API (making a turn, feeding it the response, finishing it) and the
//! reading of that input into the dialect's accumulator.

use std::collections::VecDeque;
use std::task::Poll;

use futures::stream::FuturesUnordered;
use serde_json::Value;

use super::framing::{Fed, Framing};
use super::{ids, sse, Ending, Signal, StreamError, StreamEvent, StreamTurn, Turn};
use crate::wire::assemble::Assembler;
use crate::{Dialect, ResponseError, RunOptions, Toolkit};

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
        // What the policy held back goes through the call path, which answers it.
        self.queue_held(|_| true);
        while self.next_call_event().await.is_some() {}
        self.events.clear();
        self.outcome()
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
        self.launch();
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
        for signal in signals.drain(..) {
            match signal {
                Signal::Text(text) => self.events.push_back(StreamEvent::Text(text)),
                Signal::Ready {
                    position,
                    call,
                    oversize,
                } => self.ready(position, call, oversize),
                Signal::Began { position, id } => self.began(position, &id),
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
