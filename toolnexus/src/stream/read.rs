//! [`Events`]: a streaming turn reading an HTTP body's byte stream, as a `futures::Stream`.

use std::pin::Pin;
use std::task::{Context, Poll};

use futures::stream::{Stream, StreamExt};

use super::{calls, settle, StreamEvent, StreamTurn};

/// The events of a [`StreamTurn`] reading a body: [`StreamTurn::read`].
///
/// Polling it reads the body and runs the calls at the same time, so a call runs while the
/// rest of the response is still arriving. It ends once the body has ended and every call
/// that could run has finished; a transport error is passed on as an `Err` item, after which
/// the body is not read again (the turn then ends as dropped). Then call
/// [`StreamTurn::finish`] (or [`StreamTurn::finish_gated`]).
#[must_use = "a stream does nothing unless polled"]
pub struct Events<'t, 'a, S> {
    turn: &'t mut StreamTurn<'a>,
    body: Option<Pin<Box<S>>>,
}

impl<S> std::fmt::Debug for Events<'_, '_, S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Events")
            .field("turn", &self.turn)
            .field("body_ended", &self.body.is_none())
            .finish_non_exhaustive()
    }
}

impl<'t, 'a, S> Events<'t, 'a, S> {
    /// `turn`'s events while it reads `body`.
    pub(super) fn new(turn: &'t mut StreamTurn<'a>, body: S) -> Self {
        Self {
            turn,
            body: Some(Box::pin(body)),
        }
    }
}

impl<S, B, E> Stream for Events<'_, '_, S>
where
    S: Stream<Item = Result<B, E>>,
    B: AsRef<[u8]>,
{
    type Item = Result<StreamEvent, E>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = &mut *self;
        loop {
            if let Some(event) = this.turn.events.pop_front() {
                return Poll::Ready(Some(Ok(event)));
            }
            let calls = calls::poll_calls(this.turn, cx);
            if let Poll::Ready(true) = calls {
                continue;
            }
            if let Some(body) = this.body.as_mut() {
                match body.poll_next_unpin(cx) {
                    Poll::Ready(Some(Ok(chunk))) => {
                        this.turn.read_bytes(chunk.as_ref());
                        if !this.turn.accepts_input() {
                            // An error event or a malformed stream: nothing more is read.
                            this.body = None;
                            settle::settle(this.turn);
                        }
                        continue;
                    }
                    Poll::Ready(Some(Err(error))) => {
                        this.body = None;
                        settle::settle(this.turn);
                        return Poll::Ready(Some(Err(error)));
                    }
                    Poll::Ready(None) => {
                        this.body = None;
                        settle::settle(this.turn);
                        continue;
                    }
                    Poll::Pending => return Poll::Pending,
                }
            }
            return match calls {
                Poll::Ready(_) => Poll::Ready(None),
                Poll::Pending => Poll::Pending,
            };
        }
    }
}
