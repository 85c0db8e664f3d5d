//! [`StreamTurn`]'s call runner: each call's slot, its id judged by place (`ids`), starting
//! calls within the concurrency bound, polling them, answering without running those that must
//! not run. The end of the stream is settled in `settle`.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use futures::stream::StreamExt;

use super::{StreamEvent, StreamTurn};
use crate::guard::trace;
use crate::turn::batch;
use crate::{ToolCall, ToolResult};

/// A running call; its output names its slot.
pub(super) type CallFuture<'a> = Pin<Box<dyn Future<Output = (usize, ToolResult)> + Send + 'a>>;

/// A call whose arguments are complete, and where it stands.
#[derive(Debug)]
pub(super) struct Slot {
    /// The call's place among the response's calls.
    pub(super) position: usize,
    pub(super) call: ToolCall,
    /// The argument bytes received, when they went past the limit (it must not run).
    pub(super) oversize: Option<usize>,
    /// Whether an earlier place carries its id (`None`: not settled yet, see `ids`).
    pub(super) repeats: Option<bool>,
    /// A result decided without running the call.
    pub(super) preset: Option<ToolResult>,
    pub(super) state: State,
}

#[derive(Debug)]
pub(super) enum State {
    Waiting,
    Queued,
    Running,
    Done(ToolResult),
}

/// A call whose arguments are complete: answered at once when its arguments were too large
/// or an earlier place carries its id, else run (now when eager), once no earlier place
/// can still turn out to carry its id (until then it waits, see `ids`).
/// (The assembler says each place ready at most once.)
pub(super) fn ready(
    turn: &mut StreamTurn<'_>,
    position: usize,
    call: ToolCall,
    oversize: Option<usize>,
) {
    let settled = turn.ids.know(position, call.id.as_deref());
    let key = add(turn, position, call, oversize);
    turn.unjudged += 1;
    judge_waiting(turn, &settled);
    judge(turn, key);
}

/// The call at `position` has begun under `id`: the calls that waited on its id may be
/// judged now.
pub(super) fn began(turn: &mut StreamTurn<'_>, position: usize, id: &str) {
    let settled = turn.ids.know(position, Some(id));
    judge_waiting(turn, &settled);
}

/// Judges the waiting calls at `places` (what `Ids::know` handed back), in the order they
/// completed; only those, so each signal costs what it settles.
fn judge_waiting(turn: &mut StreamTurn<'_>, places: &[usize]) {
    if places.is_empty() {
        return;
    }
    let mut keys: Vec<usize> = places
        .iter()
        .filter_map(|&place| turn.at.get(place).copied().flatten())
        .filter(|&key| turn.slots[key].repeats.is_none())
        .collect();
    keys.sort_unstable();
    for key in keys {
        judge(turn, key);
    }
}

/// Settles the unjudged call `key`'s id if its earlier places allow: its answer without
/// running (a repeat, or arguments past the limit), and its start when eager.
fn judge(turn: &mut StreamTurn<'_>, key: usize) {
    let slot = &turn.slots[key];
    let Some(repeats) = turn.ids.repeats(slot.position, slot.call.id.as_deref()) else {
        // Not settled yet (so it has an id): it waits for the places before it.
        let (position, id) = (slot.position, slot.call.id.clone().unwrap_or_default());
        turn.ids.wait(position, &id);
        return;
    };
    turn.unjudged -= 1;
    let preset = preset(turn, &slot.call, repeats, slot.oversize);
    // A call the toolkit's policy holds back never starts early (issue 34).
    let eager = turn.eager && (preset.is_some() || turn.toolkit.lets_run(&slot.call));
    let slot = &mut turn.slots[key];
    slot.repeats = Some(repeats);
    slot.preset = preset;
    if eager {
        slot.state = State::Queued;
        turn.queue.push_back(key);
    }
}

/// A new slot for the call at `position`, waiting, its id not judged yet; its key.
pub(super) fn add(
    turn: &mut StreamTurn<'_>,
    position: usize,
    call: ToolCall,
    oversize: Option<usize>,
) -> usize {
    if turn.at.len() <= position {
        turn.at.resize(position + 1, None);
    }
    let key = turn.slots.len();
    turn.at[position] = Some(key);
    turn.slots.push(Slot {
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
pub(super) fn preset(
    turn: &StreamTurn<'_>,
    call: &ToolCall,
    duplicate: bool,
    oversize: Option<usize>,
) -> Option<ToolResult> {
    if duplicate {
        return Some(batch::duplicate(call));
    }
    let bytes = oversize?;
    // An unknown tool is reported as such first, as for a whole response.
    turn.toolkit.get(&call.name)?;
    // `bytes` is past the limit, so the text says "at least", as for a whole response.
    Some(turn.toolkit.limits().too_large(&call.name, bytes))
}

/// Starts queued calls, in the order they were queued, while the concurrency bound allows.
/// A call the policy runs alone starts once nothing runs, and nothing starts while it runs.
pub(super) fn launch<'a>(turn: &mut StreamTurn<'a>) {
    let limit = turn.options.concurrency.max(1);
    while turn.running.len() < limit && !turn.alone {
        let Some(&key) = turn.queue.front() else {
            break;
        };
        let slot = &mut turn.slots[key];
        let alone = slot.preset.is_none() && turn.toolkit.runs_alone(&slot.call.name);
        if alone && !turn.running.is_empty() {
            break;
        }
        turn.queue.pop_front();
        turn.alone = alone;
        let position = slot.position;
        slot.state = State::Running;
        let call = slot.call.clone();
        turn.events.push_back(StreamEvent::CallStarted {
            index: position,
            call: call.clone(),
        });
        let dialect = Some(turn.dialect);
        let future: CallFuture<'a> = match slot.preset.take() {
            // Answered without running (e.g. arguments past the limits): still its span.
            Some(result) => {
                let toolkit = turn.toolkit;
                Box::pin(async move {
                    let answered = std::future::ready(result);
                    let id = call.id.as_deref();
                    let describe = || toolkit.described(&call.name);
                    (
                        key,
                        trace::call(&call.name, id, dialect, describe, answered).await,
                    )
                })
            }
            None => {
                let toolkit = turn.toolkit;
                let options = turn.options.clone();
                Box::pin(async move {
                    let result = toolkit.execute_call_from(&call, &options, dialect).await;
                    (key, result)
                })
            }
        };
        turn.running.push(future);
    }
}

/// Launches what may start and polls the running calls. `Ready(true)`: events were added;
/// `Ready(false)`: nothing is running or waiting; `Pending`: calls are running.
pub(super) fn poll_calls(turn: &mut StreamTurn<'_>, cx: &mut Context<'_>) -> Poll<bool> {
    let before = turn.events.len();
    launch(turn);
    if turn.events.len() > before {
        return Poll::Ready(true);
    }
    if turn.running.is_empty() {
        return Poll::Ready(false);
    }
    match turn.running.poll_next_unpin(cx) {
        Poll::Ready(Some((key, result))) => {
            let slot = &mut turn.slots[key];
            turn.events.push_back(StreamEvent::CallFinished {
                index: slot.position,
                call: slot.call.clone(),
                result: result.clone(),
            });
            slot.state = State::Done(result);
            // While a call runs alone it is the only one running: this was it.
            turn.alone = false;
            launch(turn);
            Poll::Ready(true)
        }
        Poll::Ready(None) => Poll::Ready(false),
        Poll::Pending => Poll::Pending,
    }
}
