//! The end of a [`StreamTurn`]: once the input is over, how the stream ended, the whole
//! response's calls lined up with those the stream completed (each judged by its place, as
//! `respond` judges it), what must still run queued, and the turn or the error.

use serde_json::Value;

use super::calls::{self, Slot, State};
use super::{Ending, StreamError, StreamTurn, Turn};
use crate::turn::batch;
use crate::{Arguments, RanCalls, ResponseError, ToolCall, ToolResult};

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

/// The input is over: works out how the stream ended and queues what must still run.
pub(super) fn settle(turn: &mut StreamTurn<'_>) {
    if turn.settled.is_some() {
        return;
    }
    if let (Ending::Open, Some(error)) = (&turn.ending, turn.framing.error(turn.dialect)) {
        turn.ending = Ending::Failed(error);
    }
    if matches!(turn.ending, Ending::Open) {
        let terminator = turn.accumulator.as_ref().map_or("", |a| a.terminator());
        let cut = if turn.sse.has_partial_event() {
            ", in the middle of an event"
        } else {
            ""
        };
        turn.ending = Ending::Failed(ResponseError::Dropped {
            ran: Default::default(),
            dialect: turn.dialect,
            reason: format!("the body ended before {terminator}{cut}"),
        });
    }
    // The response as far as it came: read once, whole, when the stream completed (its
    // calls, under the format's stop rules, and its model turn), else what a cut stream's
    // model turn is built from.
    let response = turn
        .accumulator
        .take()
        .map_or(Value::Null, |a| a.into_response());
    let settled = match std::mem::replace(&mut turn.ending, Ending::Complete) {
        Ending::Failed(error) => Settled::Failed(error, response),
        _ => {
            let dialect = turn.dialect;
            let read = dialect.read_calls(&response).and_then(|(calls, model)| {
                adopt(turn, &calls)?;
                Ok(Settled::Complete {
                    model_turn: model.build(),
                    calls,
                })
            });
            read.unwrap_or_else(|error| Settled::Failed(error, response))
        }
    };
    if let Settled::Failed(error, _) = &settled {
        turn.ending = Ending::Failed(error.clone());
    }
    turn.settled = Some(settled);
}

/// Lines the complete response's calls up with those seen in the stream, and queues each
/// call that has not run yet. A call that started under other arguments than the whole
/// response gives it (a server contradicting itself) is not run again: the turn fails.
fn adopt(turn: &mut StreamTurn<'_>, calls: &[ToolCall]) -> Result<(), ResponseError> {
    // A call that started, but that the whole response does not hold (fuzzing found one).
    if let Some(extra) = turn
        .slots
        .iter()
        .find(|s| s.position >= calls.len() && !matches!(s.state, State::Waiting))
    {
        return Err(ResponseError::Malformed {
            ran: Default::default(),
            dialect: turn.dialect,
            path: format!("(the stream's call {})", extra.position),
            expected: "the call as the stream had completed it",
            found: "no such call in the whole response",
        });
    }
    // Each call judged by its place in the whole response, as `respond` judges it.
    let repeated = batch::repeated(calls);
    for (position, call) in calls.iter().enumerate() {
        let seen = turn.at.get(position).copied().flatten();
        let key = match seen {
            Some(key) if same_call(&turn.slots[key].call, call) => key,
            Some(key) if matches!(turn.slots[key].state, State::Waiting) => {
                turn.slots[key].call = call.clone();
                key
            }
            Some(_) => {
                return Err(ResponseError::Malformed {
                    ran: Default::default(),
                    dialect: turn.dialect,
                    path: format!("(the stream's call {position})"),
                    expected: "the call as the stream had completed it",
                    found: "another name, id or other arguments in the whole response",
                })
            }
            None => calls::add(turn, position, call.clone(), None),
        };
        let repeats = repeated[position];
        let slot = &turn.slots[key];
        if !matches!(slot.state, State::Waiting) {
            // It started under the stream's judgment of its id: the whole response's must be
            // the same (only a server contradicting itself, e.g. an id renamed, differs).
            if slot.repeats != Some(repeats) {
                return Err(ResponseError::Malformed {
                    ran: Default::default(),
                    dialect: turn.dialect,
                    path: format!("(the stream's call {position}).id"),
                    expected: "the calls' ids as the stream had named them",
                    found: "other ids before this call in the whole response",
                });
            }
            continue;
        }
        let preset = calls::preset(turn, &slot.call, repeats, slot.oversize);
        // A call the policy holds back waits for `finish` (or the host's answer).
        let queue = preset.is_some() || turn.toolkit.lets_run(&slot.call);
        let slot = &mut turn.slots[key];
        slot.repeats = Some(repeats);
        slot.preset = preset;
        if queue {
            slot.state = State::Queued;
            turn.queue.push_back(key);
        }
    }
    turn.unjudged = 0;
    Ok(())
}

/// Queues, in call order, each call of the complete response that has not started yet and
/// for which `runs(position)` says yes: the calls the policy held back, once the stream
/// has ended.
pub(super) fn queue_held(turn: &mut StreamTurn<'_>, runs: impl Fn(usize) -> bool) {
    let Some(Settled::Complete { calls, .. }) = &turn.settled else {
        return;
    };
    for position in 0..calls.len() {
        let Some(key) = turn.at.get(position).copied().flatten() else {
            continue;
        };
        if runs(position) && matches!(turn.slots[key].state, State::Waiting) {
            turn.slots[key].state = State::Queued;
            turn.queue.push_back(key);
        }
    }
}

/// Whether the call at `position` is answered with the limit's error for arguments that grew
/// past it (its answer is settled: it never runs).
pub(super) fn oversize(turn: &StreamTurn<'_>, position: usize) -> bool {
    let Some(key) = turn.at.get(position).copied().flatten() else {
        return false;
    };
    let slot = &turn.slots[key];
    slot.oversize.is_some() && (slot.preset.is_some() || !matches!(slot.state, State::Waiting))
}

/// The result of the call at `position`, if it has one (it ran, or was answered).
pub(super) fn take_result(turn: &mut StreamTurn<'_>, position: usize) -> Option<ToolResult> {
    let key = turn.at.get(position).copied().flatten()?;
    match std::mem::replace(&mut turn.slots[key].state, State::Waiting) {
        State::Done(result) => Some(result),
        other => {
            turn.slots[key].state = other;
            None
        }
    }
}

/// The turn, or the error with the calls that ran, once [`settle`](Self::settle) has
/// settled and every queued call has run.
// A stream ends once: its error is returned by value, as `Turn` is, not boxed for every host.
#[allow(clippy::result_large_err)]
pub(super) fn outcome(turn: &mut StreamTurn<'_>) -> Result<Turn, StreamError> {
    match turn.settled.take() {
        Some(Settled::Complete { calls, model_turn }) => {
            let mut results = Vec::with_capacity(calls.len());
            for position in 0..calls.len() {
                let slot = turn.at.get(position).copied().flatten();
                let state =
                    slot.map(|i| std::mem::replace(&mut turn.slots[i].state, State::Waiting));
                results.push(match state {
                    Some(State::Done(result)) => result,
                    // Unreachable: `settle` queued every call and `finish` ran them.
                    _ => ToolResult::error(format!(
                        "internal error: call {position} of the stream was not run"
                    )),
                });
            }
            Ok(turn
                .toolkit
                .answered_turn(turn.dialect, calls, results, model_turn))
        }
        Some(Settled::Failed(error, partial)) => {
            let mut ran: Vec<Slot> = turn
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
            // What the host appends to go on: the model's turn holding only these calls (and
            // the text it had completed), then their results. With no call run, the turn of
            // its completed text, if it wrote any: nothing it said is lost.
            let (model_turn, result_messages) = if calls.is_empty() {
                let said = turn.dialect.wire().cut_turn(&partial, &[]);
                let wrote = !turn.dialect.text_of(&said).trim().is_empty();
                (if wrote { said } else { Vec::new() }, Vec::new())
            } else {
                turn.dialect
                    .admit_media(&calls, &mut results, &turn.toolkit.limits());
                (
                    turn.dialect.wire().cut_turn(&partial, &positions),
                    turn.dialect.render_results(calls.iter().zip(&results)),
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
