//! What `Toolkit::resume` does with a pending turn and the host's answers: every answer checked
//! before anything runs (`plan`), then each call run through the one call path (an approved one
//! past the policy's question) or answered, in call order (`run`).

use futures::future::{ready, Either};

use super::gate::{refused, Approved};
use super::{Input, Toolkit};
use crate::approval::{Answer, Gatekeeper, PendingTurn, Status};
use crate::guard::trace;
use crate::policy::Gate;
use crate::tool::context::CallContext;
use crate::turn::batch::{self, RunOptions};
use crate::turn::Turn;
use crate::values::approval::ApprovalError;
use crate::values::result::ToolResult;

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

/// What becomes of each call, every answer checked first.
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
        if matches!(pending.calls[i].status, Status::Done { .. }) {
            return Err(ApprovalError::AlreadyDone { call: call() });
        }
        if !answer
            .digest()
            .is_some_and(|d| pending.calls[i].has_digest(d))
        {
            return Err(ApprovalError::OtherArguments { call: call() });
        }
        given[i] = Some(answer);
    }
    let mut plans = Vec::with_capacity(given.len());
    for (i, (pending_call, answer)) in pending.calls.iter().zip(given).enumerate() {
        let call = &pending_call.call;
        let earlier = call.id.is_some() && pending.calls[..i].iter().any(|c| c.call.id == call.id);
        let plan = if let Status::Done { result } = &pending_call.status {
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
                    let context = CallContext::for_call(call.id.as_deref(), Some(dialect), None);
                    let timeout = options.timeout;
                    Either::Right(toolkit.call_as(name, input, timeout, strict, approved, context))
                }
            };
            Either::Right(trace::call(
                &call.name,
                call.id.as_deref(),
                Some(dialect),
                answering,
            ))
        })
        .collect();
    let results = batch::in_order(answers, &alone, options.concurrency).await;
    toolkit.answered_turn(dialect, calls, results, model_turn)
}
