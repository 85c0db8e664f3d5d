//! The toolkit's [`Policy`] and [`Hooks`] (`with_policy`, `with_hooks`), applied on the one call
//! path: `Toolkit::call_as` asks the gate and the before hooks (`before_call`) before the tool
//! runs, `Toolkit::call` runs the after hooks on its result; neither costs a call anything when
//! nothing is set.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use serde_json::{Map, Value};

use super::{Input, Toolkit};
use crate::decode as args;
use crate::guard;
use crate::guard::trace;
use crate::policy::{Controls, Gate, Hooks, Policy};
use crate::tool::context::CallContext;
use crate::tool::Tool;
use crate::values::result::ToolResult;

/// Whether a call was approved by the host: then the policy is not asked again.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Approved {
    No,
    Yes,
}

impl Toolkit {
    /// The toolkit under `policy`: which calls run, ask or are refused, and which run alone; see
    /// [`Policy`]. Without one (the default) every call runs, as it always has.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolnexus::{Gate, NativeTool, Policy, ToolHints, Toolkit};
    ///
    /// let schema = json!({"type": "object", "properties": {"path": {"type": "string"}}});
    /// let rm = NativeTool::of("rm", "Deletes a file.", schema, |_| async { "deleted" })?
    ///     .with_hints(ToolHints::new().with_destructive(true));
    /// let toolkit = Toolkit::new().with(rm)?.with_policy(Policy::new());
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// // A destructive tool asks: outside `respond_gated`, its call is answered, not run.
    /// let result = toolkit.execute("rm", json!({"path": "/etc/hosts"})).await;
    /// assert!(result.is_error);
    /// assert_eq!(result.output, "`rm` was not run: it needs the host's approval, which was not asked for");
    /// # });
    /// # Ok::<(), toolnexus::Error>(())
    /// ```
    #[must_use]
    pub fn with_policy(mut self, policy: Policy) -> Self {
        Arc::make_mut(self.controls.get_or_insert_default()).policy = Some(policy);
        self
    }

    /// The toolkit with `hooks` run around every call (replacing any set before); see [`Hooks`].
    #[must_use]
    pub fn with_hooks(mut self, hooks: Hooks) -> Self {
        Arc::make_mut(self.controls.get_or_insert_default()).hooks = hooks;
        self
    }

    /// The toolkit's policy, if it has one.
    #[inline]
    pub fn policy(&self) -> Option<&Policy> {
        self.controls.as_ref()?.policy.as_ref()
    }

    /// Whether the policy runs calls of `name` alone.
    #[inline]
    pub(crate) fn runs_alone(&self, name: &str) -> bool {
        self.policy().is_some_and(|p| p.runs_alone(name))
    }

    /// The one path of every call: `Toolkit::call_as`, as the model sent it.
    #[inline]
    pub(crate) fn call<'a>(
        &'a self,
        name: &'a str,
        input: Input<'a>,
        timeout: Option<Duration>,
        strict: bool,
        context: CallContext,
    ) -> impl Future<Output = ToolResult> + Send + 'a {
        self.call_as(name, input, timeout, strict, Approved::No, context)
    }

    /// A call by name (`execute`, `execute_json`): no turn, no timeout, so its context is one
    /// nothing can see fire, which costs nothing.
    #[inline]
    pub(crate) fn call_by_name<'a>(
        &'a self,
        name: &'a str,
        input: Input<'a>,
    ) -> impl Future<Output = ToolResult> + Send + 'a {
        let running = self.call(name, input, None, false, CallContext::detached());
        trace::call(name, None, None, running)
    }

    /// What happens before the tool runs, under `controls`: the policy's gate (unless the host
    /// `approved` the call), then the before hooks, which may rewrite `input`. `Some` is the
    /// call's answer when the tool does not run.
    #[inline]
    pub(crate) fn before_call(
        &self,
        controls: &Controls,
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
        match self.gate(controls, name, tool, sent, approved) {
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
        &self,
        controls: &Controls,
        name: &str,
        tool: Option<&dyn Tool>,
        input: Input<'a>,
        approved: Approved,
    ) -> Result<(Input<'a>, Option<Value>), ToolResult> {
        let (input, value) = if tool.is_some() && controls.reads_arguments() {
            (Input::Absent, Some(self.object_of(name, input)?))
        } else {
            (input, None)
        };
        let gate = match (&controls.policy, approved) {
            (Some(policy), Approved::No) => policy.decide(name, tool, value.as_ref()),
            _ => Gate::Run,
        };
        match gate {
            Gate::Run => Ok((input, value)),
            gate => Err(held_back(name, gate)),
        }
    }

    /// A call's argument object, held to the limits as `Toolkit::call_tool` holds it; `Err` is
    /// the error result of arguments that do not run the tool.
    pub(crate) fn object_of(&self, name: &str, input: Input<'_>) -> Result<Value, ToolResult> {
        match input {
            Input::Absent => Ok(Value::Object(Map::new())),
            Input::Text(text) => {
                self.limits.check_text(name, &text)?;
                args::parse_object(name, &text)
            }
            Input::Value(value) => {
                self.limits.check_value(name, &value)?;
                args::object(name, value)
            }
        }
    }
}

/// The answer to a call the policy does not let run (`gate` asks or refuses).
fn held_back(name: &str, gate: Gate) -> ToolResult {
    match gate {
        Gate::Refuse(reason) => refused(name, &reason),
        _ => ToolResult::error(format!(
            "`{name}` was not run: it needs the host's approval, which was not asked for"
        )),
    }
}

/// The answer to a call the policy refuses.
pub(crate) fn refused(name: &str, reason: &str) -> ToolResult {
    ToolResult::error(format!("`{name}` was not run: {reason}"))
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
