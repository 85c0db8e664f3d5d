//! [`StreamTurn`]'s call runner: each call's slot, starting calls within the concurrency bound,
//! polling them, answering without running those that must not run, and settling the end of
//! the stream into the turn or the error.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use futures::stream::StreamExt;
use serde_json::Value;

use super::{Ending, StreamError, StreamEvent, StreamTurn, Turn};
use crate::guard::trace;
use crate::turn::batch;
use crate::{Arguments, RanCalls, ResponseError, ToolCall, ToolResult};

/// A running call; its output names its slot.
pub(super) type CallFuture<'a> = Pin<Box<dyn Future<Output = (usize, ToolResult)> + Send + 'a>>;

/// A call whose arguments are complete, and where it stands.
#[derive(Debug)]
pub(super) struct Slot {
    /// The call's place among the response's calls.
    position: usize,
    call: ToolCall,
    /// The argument bytes received, when they went past the limit (it must not run).
    oversize: Option<usize>,
    /// Whether an earlier place carries its id (`None`: not settled yet, see `ids`).
    repeats: Option<bool>,
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
pub(super) enum Settled {
    /// The calls of the whole response, and the model's turn.
    Complete {
        calls: Vec<ToolCall>,
        model_turn: Vec<Value>,
    },
    /// The ending, and the response as far as it came (for the model turn of the calls that ran).
    Failed(ResponseError, Value),
}

impl<'a> StreamTurn<'a> {
    /// A call whose arguments are complete: answered at once when its arguments were too large
    /// or an earlier place carries its id, else run (now when eager), once no earlier place
    /// can still turn out to carry its id (until then it waits, see `ids`).
    /// (The assembler says each place ready at most once.)
    pub(super) fn ready(&mut self, position: usize, call: ToolCall, oversize: Option<usize>) {
        let news = self.ids.know(position, call.id.as_deref());
        let key = self.add(position, call, oversize);
        self.unjudged += 1;
        if news {
            self.judge_waiting();
        } else {
            self.judge(key);
        }
    }

    /// The call at `position` has begun under `id`: the calls that waited on its id may be
    /// judged now.
    pub(super) fn began(&mut self, position: usize, id: &str) {
        if self.ids.know(position, Some(id)) && self.unjudged > 0 {
            self.judge_waiting();
        }
    }

    /// Judges each complete call whose id was not settled yet, in the order they completed.
    fn judge_waiting(&mut self) {
        for key in 0..self.slots.len() {
            if self.unjudged == 0 {
                break;
            }
            if self.slots[key].repeats.is_none() {
                self.judge(key);
            }
        }
    }

    /// Settles the unjudged call `key`'s id if its earlier places allow: its answer without
    /// running (a repeat, or arguments past the limit), and its start when eager.
    fn judge(&mut self, key: usize) {
        let slot = &self.slots[key];
        let Some(repeats) = self.ids.repeats(slot.position, slot.call.id.as_deref()) else {
            return;
        };
        self.unjudged -= 1;
        let preset = self.preset(&slot.call, repeats, slot.oversize);
        // A call the toolkit's policy holds back never starts early (issue 34).
        let eager = self.eager && (preset.is_some() || self.toolkit.lets_run(&slot.call));
        let slot = &mut self.slots[key];
        slot.repeats = Some(repeats);
        slot.preset = preset;
        if eager {
            slot.state = State::Queued;
            self.queue.push_back(key);
        }
    }

    /// A new slot for the call at `position`, waiting, its id not judged yet; its key.
    fn add(&mut self, position: usize, call: ToolCall, oversize: Option<usize>) -> usize {
        if self.at.len() <= position {
            self.at.resize(position + 1, None);
        }
        let key = self.slots.len();
        self.at[position] = Some(key);
        self.slots.push(Slot {
            position,
            call,
            oversize,
            repeats: None,
            preset: None,
            state: State::Waiting,
        });
        key
    }

    /// The result of a call that must not run, as a whole response would give it.
    fn preset(
        &self,
        call: &ToolCall,
        duplicate: bool,
        oversize: Option<usize>,
    ) -> Option<ToolResult> {
        if duplicate {
            return Some(batch::duplicate(call));
        }
        let bytes = oversize?;
        // An unknown tool is reported as such first, as for a whole response.
        self.toolkit.get(&call.name)?;
        // `bytes` is past the limit, so the text says "at least", as for a whole response.
        Some(self.toolkit.limits().too_large(&call.name, bytes))
    }

    /// Starts queued calls, in the order they were queued, while the concurrency bound allows.
    /// A call the policy runs alone starts once nothing runs, and nothing starts while it runs.
    pub(super) fn launch(&mut self) {
        let limit = self.options.concurrency.max(1);
        while self.running.len() < limit && !self.alone {
            let Some(&key) = self.queue.front() else {
                break;
            };
            let slot = &mut self.slots[key];
            let alone = slot.preset.is_none() && self.toolkit.runs_alone(&slot.call.name);
            if alone && !self.running.is_empty() {
                break;
            }
            self.queue.pop_front();
            self.alone = alone;
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
    pub(super) fn poll_calls(&mut self, cx: &mut Context<'_>) -> Poll<bool> {
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
                // While a call runs alone it is the only one running: this was it.
                self.alone = false;
                self.launch();
                Poll::Ready(true)
            }
            Poll::Ready(None) => Poll::Ready(false),
            Poll::Pending => Poll::Pending,
        }
    }

    /// The input is over: works out how the stream ended and queues what must still run.
    pub(super) fn settle(&mut self) {
        if self.settled.is_some() {
            return;
        }
        if let (Ending::Open, Some(error)) = (&self.ending, self.framing.error(self.dialect)) {
            self.ending = Ending::Failed(error);
        }
        if matches!(self.ending, Ending::Open) {
            let terminator = self.accumulator.as_ref().map_or("", |a| a.terminator());
            let cut = if self.sse.has_partial_event() {
                ", in the middle of an event"
            } else {
                ""
            };
            self.ending = Ending::Failed(ResponseError::Dropped {
                ran: Default::default(),
                dialect: self.dialect,
                reason: format!("the body ended before {terminator}{cut}"),
            });
        }
        // The response as far as it came: read once, whole, when the stream completed (its
        // calls, under the format's stop rules, and its model turn), else what a cut stream's
        // model turn is built from.
        let response = self
            .accumulator
            .take()
            .map_or(Value::Null, |a| a.into_response());
        let settled = match std::mem::replace(&mut self.ending, Ending::Complete) {
            Ending::Failed(error) => Settled::Failed(error, response),
            _ => {
                let dialect = self.dialect;
                let read = dialect.read_calls(&response).and_then(|(calls, turn)| {
                    self.adopt(&calls)?;
                    Ok(Settled::Complete {
                        model_turn: turn.build(),
                        calls,
                    })
                });
                read.unwrap_or_else(|error| Settled::Failed(error, response))
            }
        };
        if let Settled::Failed(error, _) = &settled {
            self.ending = Ending::Failed(error.clone());
        }
        self.settled = Some(settled);
    }

    /// Lines the complete response's calls up with those seen in the stream, and queues each
    /// call that has not run yet. A call that started under other arguments than the whole
    /// response gives it (a server contradicting itself) is not run again: the turn fails.
    fn adopt(&mut self, calls: &[ToolCall]) -> Result<(), ResponseError> {
        // A call that started, but that the whole response does not hold (fuzzing found one).
        if let Some(extra) = self
            .slots
            .iter()
            .find(|s| s.position >= calls.len() && !matches!(s.state, State::Waiting))
        {
            return Err(ResponseError::Malformed {
                ran: Default::default(),
                dialect: self.dialect,
                path: format!("(the stream's call {})", extra.position),
                expected: "the call as the stream had completed it",
                found: "no such call in the whole response",
            });
        }
        // Each call judged by its place in the whole response, as `respond` judges it.
        let repeated = batch::repeated(calls);
        for (position, call) in calls.iter().enumerate() {
            let seen = self.at.get(position).copied().flatten();
            let key = match seen {
                Some(key) if same_call(&self.slots[key].call, call) => key,
                Some(key) if matches!(self.slots[key].state, State::Waiting) => {
                    self.slots[key].call = call.clone();
                    key
                }
                Some(_) => {
                    return Err(ResponseError::Malformed {
                        ran: Default::default(),
                        dialect: self.dialect,
                        path: format!("(the stream's call {position})"),
                        expected: "the call as the stream had completed it",
                        found: "another name, id or other arguments in the whole response",
                    })
                }
                None => self.add(position, call.clone(), None),
            };
            let repeats = repeated[position];
            let slot = &self.slots[key];
            if !matches!(slot.state, State::Waiting) {
                // It started under the stream's judgment of its id: the whole response's must be
                // the same (only a server contradicting itself, e.g. an id renamed, differs).
                if slot.repeats != Some(repeats) {
                    return Err(ResponseError::Malformed {
                        ran: Default::default(),
                        dialect: self.dialect,
                        path: format!("(the stream's call {position}).id"),
                        expected: "the calls' ids as the stream had named them",
                        found: "other ids before this call in the whole response",
                    });
                }
                continue;
            }
            let preset = self.preset(&slot.call, repeats, slot.oversize);
            // A call the policy holds back waits for `finish` (or the host's answer).
            let queue = preset.is_some() || self.toolkit.lets_run(&slot.call);
            let slot = &mut self.slots[key];
            slot.repeats = Some(repeats);
            slot.preset = preset;
            if queue {
                slot.state = State::Queued;
                self.queue.push_back(key);
            }
        }
        self.unjudged = 0;
        Ok(())
    }

    /// Queues, in call order, each call of the complete response that has not started yet and
    /// for which `runs(position)` says yes: the calls the policy held back, once the stream
    /// has ended.
    pub(super) fn queue_held(&mut self, runs: impl Fn(usize) -> bool) {
        let Some(Settled::Complete { calls, .. }) = &self.settled else {
            return;
        };
        for position in 0..calls.len() {
            let Some(key) = self.at.get(position).copied().flatten() else {
                continue;
            };
            if runs(position) && matches!(self.slots[key].state, State::Waiting) {
                self.slots[key].state = State::Queued;
                self.queue.push_back(key);
            }
        }
    }

    /// The result of the call at `position`, if it has one (it ran, or was answered).
    pub(super) fn take_result(&mut self, position: usize) -> Option<ToolResult> {
        let key = self.at.get(position).copied().flatten()?;
        match std::mem::replace(&mut self.slots[key].state, State::Waiting) {
            State::Done(result) => Some(result),
            other => {
                self.slots[key].state = other;
                None
            }
        }
    }

    /// The turn, or the error with the calls that ran, once [`settle`](Self::settle) has
    /// settled and every queued call has run.
    // A stream ends once: its error is returned by value, as `Turn` is, not boxed for every host.
    #[allow(clippy::result_large_err)]
    pub(super) fn outcome(&mut self) -> Result<Turn, StreamError> {
        match self.settled.take() {
            Some(Settled::Complete { calls, model_turn }) => {
                let mut results = Vec::with_capacity(calls.len());
                for position in 0..calls.len() {
                    let slot = self.at.get(position).copied().flatten();
                    let state =
                        slot.map(|i| std::mem::replace(&mut self.slots[i].state, State::Waiting));
                    results.push(match state {
                        Some(State::Done(result)) => result,
                        // Unreachable: `settle` queued every call and `finish` ran them.
                        _ => ToolResult::error(format!(
                            "internal error: call {position} of the stream was not run"
                        )),
                    });
                }
                Ok(self
                    .toolkit
                    .answered_turn(self.dialect, calls, results, model_turn))
            }
            Some(Settled::Failed(error, partial)) => {
                let mut ran: Vec<Slot> = self
                    .slots
                    .drain(..)
                    .filter(|slot| matches!(slot.state, State::Done(_)))
                    .collect();
                ran.sort_by_key(|slot| slot.position);
                let positions: Vec<usize> = ran.iter().map(|slot| slot.position).collect();
                let (calls, mut results): (Vec<ToolCall>, Vec<ToolResult>) = ran
                    .into_iter()
                    .map(|slot| match slot.state {
                        State::Done(result) => (slot.call, result),
                        _ => unreachable!("filtered"),
                    })
                    .unzip();
                // What the host appends to go on: the model's turn holding only these calls,
                // then their results.
                let (model_turn, result_messages) = if calls.is_empty() {
                    (Vec::new(), Vec::new())
                } else {
                    self.dialect
                        .admit_media(&calls, &mut results, &self.toolkit.limits());
                    (
                        self.dialect.wire().cut_turn(&partial, &positions),
                        self.dialect.render_results(calls.iter().zip(&results)),
                    )
                };
                Err(StreamError {
                    error: error.with_ran(RanCalls::of(&calls)),
                    calls,
                    results,
                    model_turn,
                    result_messages,
                })
            }
            None => unreachable!("`settle` settles"),
        }
    }
}

/// Whether a call as the stream completed it is the call the whole response gives: equal, or
/// equal but for blank space around JSON text arguments (which a stream may still append).
fn same_call(started: &ToolCall, whole: &ToolCall) -> bool {
    if started == whole {
        return true;
    }
    let (Arguments::Text(a), Arguments::Text(b)) = (&started.arguments, &whole.arguments) else {
        return false;
    };
    started.id == whole.id
        && started.name == whole.name
        && started.kind == whole.kind
        && a.trim() == b.trim()
}
