//! What `Toolkit::resume` does with a pending turn and the host's answers: every answer checked
//! before anything runs (`plan`), then each call run through the one call path (an approved one
//! past the policy's question) or answered, in call order (`run`); and what
//! `Toolkit::respond_gated` does with a response read (`gated`): pending, or run.

use futures::future::{ready, Either};

use super::gate::{refused, Approved};
use super::{Input, Toolkit};
use crate::approval::{self, Answer, Gated, Gatekeeper, PendingTurn, Status};
use crate::guard::trace;
use crate::policy::Gate;
use crate::turn::batch::{self, RunOptions};
use crate::turn::Turn;
use crate::values::approval::ApprovalError;
use crate::values::call::ToolCall;
use crate::values::dialect::Dialect;
use crate::values::result::ToolResult;
use crate::wire::ModelTurn;

/// [`Toolkit::resume_with`]: every answer checked, the turn claimed once, then run.
pub(super) async fn resume(
    toolkit: &Toolkit,
    pending: PendingTurn,
    answers: &[Answer],
    options: &RunOptions,
) -> Result<Turn, ApprovalError> {
    let plans = plan(toolkit, &pending, answers)?;
    if !approval::claim(&pending.nonce) {
        return Err(ApprovalError::AlreadyResumed);
    }
    Ok(run(toolkit, pending, plans, options).await)
}

/// What becomes of one call.
pub(super) enum Plan<'a> {
    /// It runs: approved by the host (past the policy's question) or not, with the host's
    /// arguments instead of the model's when it gave some.
    Run(Approved, Option<&'a serde_json::Value>),
    /// It is answered without running.
    Answer(ToolResult),
    /// It already has its result ([`Status::Done`]): kept, never run again (it had its span
    /// when it ran).
    Keep(ToolResult),
}

/// What becomes of each call, every answer checked first: each must name a call of the turn
/// that awaits one, carry the call's digest (and, when it says them, the turn's nonce and the
/// call's tool), and approve only a tool this toolkit has; a call stored as done in unsealed
/// JSON keeps its result only when this toolkit would have given it without asking.
pub(super) fn plan<'a>(
    toolkit: &Toolkit,
    pending: &PendingTurn,
    answers: &'a [Answer],
) -> Result<Vec<Plan<'a>>, ApprovalError> {
    let mut given: Vec<Option<&Answer>> = vec![None; pending.calls.len()];
    for answer in answers {
        let call = || answer.id().to_owned();
        let i = pending.calls.iter().position(|c| c.key == answer.id());
        let i = i.ok_or_else(|| ApprovalError::UnknownCall { call: call() })?;
        if given[i].is_some() {
            return Err(ApprovalError::SecondAnswer { call: call() });
        }
        let pending_call = &pending.calls[i];
        if matches!(pending_call.status, Status::Done { .. }) {
            return Err(ApprovalError::AlreadyDone { call: call() });
        }
        let Some(digest) = answer.digest() else {
            return Err(ApprovalError::MissingDigest { call: call() });
        };
        if answer
            .turn()
            .is_some_and(|turn| !pending_call.in_turn(turn))
        {
            return Err(ApprovalError::OtherTurn { call: call() });
        }
        if answer
            .tool()
            .is_some_and(|tool| tool != pending_call.name())
        {
            return Err(ApprovalError::OtherTool { call: call() });
        }
        if !pending_call.has_digest(digest) {
            return Err(ApprovalError::OtherArguments { call: call() });
        }
        if answer.approves() && toolkit.get(pending_call.name()).is_none() {
            return Err(ApprovalError::UnknownTool {
                call: call(),
                tool: pending_call.name().to_owned(),
            });
        }
        given[i] = Some(answer);
    }
    let mut plans = Vec::with_capacity(given.len());
    for (i, (pending_call, answer)) in pending.calls.iter().zip(given).enumerate() {
        let call = &pending_call.call;
        let earlier = call.id.is_some() && pending.calls[..i].iter().any(|c| c.call.id == call.id);
        let plan = if let Status::Done { result } = &pending_call.status {
            if !pending.trusts_results() && !would_give(toolkit, call, result) {
                return Err(ApprovalError::Forged {
                    call: pending_call.key.clone(),
                    reason: "it is stored as done, but this toolkit's policy does not run it \
                             without asking"
                        .to_owned(),
                });
            }
            Plan::Keep(result.clone())
        } else if let Some(refusal) = batch::unsupported(call) {
            Plan::Answer(refusal)
        } else if earlier {
            Plan::Answer(batch::duplicate(call))
        } else {
            match (toolkit.gate_of(call), answer) {
                (Gate::Refuse(reason), _) => Plan::Answer(refused(&call.name, &reason)),
                (_, Some(answer)) if answer.approves() => Plan::Run(Approved::Yes, answer.edited()),
                (_, Some(answer)) => Plan::Answer(answer.denial(&call.name)),
                (Gate::Run, None) => Plan::Run(Approved::No, None),
                (Gate::Ask(_), None) => {
                    let call = pending_call.key.clone();
                    return Err(ApprovalError::Unanswered { call });
                }
            }
        };
        plans.push(plan);
    }
    Ok(plans)
}

/// Whether `result` is what `toolkit` gives `call` with no one asked: its policy runs the call
/// without asking, or `result` is the limits' refusal of its arguments.
fn would_give(toolkit: &Toolkit, call: &ToolCall, result: &ToolResult) -> bool {
    matches!(toolkit.gate_of(call), Gate::Run) || toolkit.limits().refused(&call.name, result)
}

/// Runs the plans of `pending`'s calls and builds the turn.
pub(super) async fn run(
    toolkit: &Toolkit,
    pending: PendingTurn,
    plans: Vec<Plan<'_>>,
    options: &RunOptions,
) -> Turn {
    let PendingTurn {
        dialect,
        model_turn,
        calls,
        ..
    } = pending;
    let calls: Vec<_> = calls.into_iter().map(|c| c.call).collect();
    let strict = toolkit.strict_calls(options, Some(dialect));
    // Only a call that runs now runs alone: one that already has its result waits for none.
    let alone: Vec<bool> = calls
        .iter()
        .zip(&plans)
        .map(|(c, plan)| matches!(plan, Plan::Run(..)) && toolkit.runs_alone(&c.name))
        .collect();
    let answers: Vec<_> = calls
        .iter()
        .zip(plans)
        .map(|(call, plan)| {
            let answering = match plan {
                Plan::Keep(result) => return Either::Left(ready(result)),
                Plan::Answer(result) => Either::Left(ready(result)),
                Plan::Run(approved, edited) => {
                    let input = match edited {
                        Some(value) => Input::Value(value.clone()),
                        None => Input::borrowed(&call.arguments),
                    };
                    let name = &call.name;
                    let context = Toolkit::context_for(call, Some(dialect));
                    let timeout = options.timeout;
                    Either::Right(toolkit.call_as(name, input, timeout, strict, approved, context))
                }
            };
            Either::Right(trace::call(
                &call.name,
                call.id.as_deref(),
                Some(dialect),
                || toolkit.described(&call.name),
                answering,
            ))
        })
        .collect();
    let results = batch::in_order(answers, &alone, options.concurrency).await;
    toolkit.answered_turn(dialect, calls, results, model_turn)
}

/// [`Toolkit::respond_gated_with`] once the response is read: a turn in which a call asks comes
/// back pending; one with calls answered for their arguments' size only runs as a resumed turn
/// runs; any other runs as `respond` runs it.
pub(super) async fn gated(
    toolkit: &Toolkit,
    calls: Vec<ToolCall>,
    turn: ModelTurn<'_>,
    dialect: Dialect,
    options: &RunOptions,
) -> Gated {
    let statuses = approval::statuses(toolkit, &calls);
    let awaits = statuses
        .iter()
        .any(|s| matches!(s, Status::Awaiting { .. }));
    if awaits || statuses.iter().any(|s| matches!(s, Status::Done { .. })) {
        let pending = PendingTurn::of(dialect, turn.build(), calls, statuses);
        if awaits {
            return Gated::Pending(pending);
        }
        // Only calls answered for their arguments' size (the limits' error, as a stream gives
        // it): the others run as a resumed turn runs them.
        let plans = plan(toolkit, &pending, &[])
            .unwrap_or_else(|_| unreachable!("a turn in which no call awaits needs no answer"));
        return Gated::Ran(run(toolkit, pending, plans, options).await);
    }
    // No call asks: the turn runs as `respond` runs it, at its cost (the call path holds back
    // what the policy does not let run: a refused call is answered with its reason).
    Gated::Ran(toolkit.run_read(calls, turn, dialect, options).await)
}
