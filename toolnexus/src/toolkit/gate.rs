//! The toolkit's policy and hooks (`Toolkit::with_policy`, `Toolkit::with_hooks`) on the one
//! call path: `Toolkit::call_as` asks the gate and the before hooks (`before_call`) before the
//! tool runs, and runs the after hooks (`after`) on its result; neither costs a call anything
//! when nothing is set.

use serde_json::{Map, Value};

use super::Input;
use crate::decode as args;
use crate::guard;
use crate::limits::Limits;
use crate::policy::{Controls, Gate};
use crate::tool::Tool;
use crate::values::result::{Failure, ToolResult};

/// Whether a call was approved by the host: then the policy does not ask again, though its
/// rules may still refuse the arguments the call runs with.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Approved {
    No,
    Yes,
}

/// What happens before the tool runs, under `controls`: the policy's gate (unless the host
/// `approved` the call), then the before hooks, which may rewrite `input`. `Some` is the
/// call's answer when the tool does not run.
pub(crate) fn before_call(
    controls: &Controls,
    limits: &Limits,
    name: &str,
    tool: Option<&dyn Tool>,
    input: &mut Input<'_>,
    approved: Approved,
) -> Option<ToolResult> {
    if !controls.reads_arguments() {
        // No rule and no before hook: the gate needs no arguments, and the input is as sent.
        let policy = controls
            .policy
            .as_ref()
            .filter(|_| approved == Approved::No)?;
        return policy
            .holds_back(name, tool)
            .map(|gate| held_back(name, gate));
    }
    let sent = std::mem::replace(input, Input::Absent);
    match gate(controls, limits, name, tool, sent, approved) {
        Err(answer) => Some(answer),
        Ok((sent, None)) => {
            *input = sent;
            None
        }
        Ok((_, Some(mut value))) => {
            let answer = before(controls, name, &mut value);
            *input = Input::Value(value);
            answer
        }
    }
}

/// The policy's word on a call: `Ok` with its input (and its argument object, when a rule
/// or hook needs it) when it runs, `Err` with its answer when it does not.
#[allow(clippy::type_complexity)]
fn gate<'a>(
    controls: &Controls,
    limits: &Limits,
    name: &str,
    tool: Option<&dyn Tool>,
    input: Input<'a>,
    approved: Approved,
) -> Result<(Input<'a>, Option<Value>), ToolResult> {
    let (input, value) = if tool.is_some() && controls.reads_arguments() {
        (Input::Absent, Some(object_of(limits, name, input)?))
    } else {
        (input, None)
    };
    let gate = match (&controls.policy, approved) {
        (Some(policy), Approved::No) => policy.decide(name, tool, value.as_ref()),
        // The host approved the question, not whatever the arguments became (`approve_with`):
        // a rule that refuses them still refuses the call.
        (Some(policy), Approved::Yes) => match policy.decide(name, tool, value.as_ref()) {
            Gate::Refuse(reason) => Gate::Refuse(reason),
            _ => Gate::Run,
        },
        _ => Gate::Run,
    };
    match gate {
        Gate::Run => Ok((input, value)),
        gate => Err(held_back(name, gate)),
    }
}

/// A call's argument object, held to the limits as `Toolkit::call_as` holds it; `Err` is
/// the error result of arguments that do not run the tool.
pub(crate) fn object_of(
    limits: &Limits,
    name: &str,
    input: Input<'_>,
) -> Result<Value, ToolResult> {
    match input {
        Input::Absent => Ok(Value::Object(Map::new())),
        Input::Text(text) => {
            limits.check_text(name, &text)?;
            args::parse_object(name, &text)
        }
        Input::Value(value) => {
            limits.check_value(name, &value)?;
            args::object(name, value)
        }
    }
}

/// The answer to a call the policy does not let run (`gate` asks or refuses).
fn held_back(name: &str, gate: Gate) -> ToolResult {
    match gate {
        Gate::Refuse(reason) => refused(name, &reason),
        _ => ToolResult::failed(
            format!("`{name}` was not run: it needs the host's approval, which was not asked for"),
            Failure::Refused,
        ),
    }
}

/// The answer to a call the policy refuses.
pub(crate) fn refused(name: &str, reason: &str) -> ToolResult {
    ToolResult::failed(format!("`{name}` was not run: {reason}"), Failure::Refused)
}

/// The before hooks on a call's argument object, in order: `Some` is the first one's answer
/// (or a panic's), and the tool does not run.
fn before(controls: &Controls, name: &str, value: &mut Value) -> Option<ToolResult> {
    controls.hooks.before.iter().find_map(|hook| {
        guard::hook(name, "before", "the call was not run", || hook(name, value))
            .unwrap_or_else(Some)
    })
}

/// The after hooks on a call's result, in order; a panic replaces the result.
pub(super) fn after(controls: &Controls, name: &str, mut result: ToolResult) -> ToolResult {
    for hook in &controls.hooks.after {
        if let Err(panicked) = guard::hook(name, "after", "its result was withheld", || {
            hook(name, &mut result)
        }) {
            return panicked;
        }
    }
    result
}
