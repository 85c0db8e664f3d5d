//! What the host lets run: a [`Policy`] decides each call's [`Gate`] (run, ask, refuse), and
//! [`Hooks`] (`hooks`) run around every call. Both are set on a
//! [`Toolkit`](crate::Toolkit), whose one call path applies them (`Controls`).

pub(crate) mod hooks;

#[cfg(feature = "mcp")]
pub(crate) use hooks::{on_elicit, on_sample, OnLog};
pub(crate) use hooks::{OnElicit, OnSample};

use std::fmt;
use std::sync::Arc;

use serde_json::Value;

use crate::tool::Tool;

pub use hooks::Hooks;

/// What a [`Policy`] says about one call.
///
/// ```
/// use toolnexus::Gate;
///
/// let gate = Gate::ask("Delete /tmp/x?");
/// assert_eq!(gate, Gate::Ask("Delete /tmp/x?".into()));
/// assert!(Gate::Run.runs());
/// assert!(!Gate::refuse("read-only mode").runs());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Gate {
    /// The call runs at once.
    Run,
    /// The call waits for the host's answer; the text is the prompt shown to whoever decides.
    Ask(String),
    /// The call never runs: the model reads an error result with this reason.
    Refuse(String),
}

impl Gate {
    /// [`Gate::Ask`] with this prompt.
    pub fn ask(prompt: impl Into<String>) -> Self {
        Self::Ask(prompt.into())
    }

    /// [`Gate::Refuse`] with this reason.
    pub fn refuse(reason: impl Into<String>) -> Self {
        Self::Refuse(reason.into())
    }

    /// `true` for [`Gate::Run`].
    #[must_use]
    pub fn runs(&self) -> bool {
        matches!(self, Self::Run)
    }
}

/// A rule over one call: the tool's name and its argument object.
type Rule = Arc<dyn Fn(&str, &Value) -> Option<Gate> + Send + Sync>;

/// Which of a model's calls run at once, which wait for the host's answer and which are refused;
/// and which tools run alone. Set it with [`Toolkit::with_policy`](crate::Toolkit::with_policy).
///
/// A call's [`Gate`] is the first of:
/// 1. the [`rule`](Policy::rule)s, in the order added, over the tool's name and its argument
///    object (`{}` when none were sent; arguments that are not a JSON object are not shown to a
///    rule, since such a call never runs the tool anyway);
/// 2. the gate set for that tool with [`Policy::tool`];
/// 3. the tool's hints: a tool whose [`ToolHints::destructive`](crate::ToolHints::destructive)
///    is `Some(true)` asks; any other runs (a call of an unknown tool runs, and is answered
///    `Unknown tool`).
///
/// Hints are what the tool says about itself (an MCP server can say anything): give a tool
/// you do not trust its own gate with [`Policy::tool`] or a rule.
///
/// Under a policy, [`Toolkit::respond`](crate::Toolkit::respond), `execute` and every other way
/// in answer a call that asks with an error result (the model reads that it needs the host's
/// approval) and never run it; [`Toolkit::respond_gated`](crate::Toolkit::respond_gated) (and,
/// streamed, [`StreamTurn::finish_gated`](crate::stream::StreamTurn::finish_gated)) gives the
/// [`PendingTurn`](crate::approval::PendingTurn) to ask with.
///
/// ```
/// use serde_json::Value;
/// use toolnexus::{Gate, Policy};
///
/// let policy = Policy::new()
///     .tool("drop_table", Gate::refuse("this deployment is read-only"))
///     .rule(|name, args: &Value| {
///         let outside = args["path"].as_str().is_some_and(|p| !p.starts_with("/tmp/"));
///         (name == "write_file" && outside).then(|| Gate::ask("Write outside /tmp?"))
///     })
///     .run_alone("migrate");
/// # let _ = policy;
/// ```
#[derive(Clone, Default)]
pub struct Policy {
    rules: Vec<Rule>,
    tools: Vec<(Box<str>, Gate)>,
    alone: Vec<Box<str>>,
}

impl Policy {
    /// A policy decided by the tools' hints: a destructive tool asks, every other call runs.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// The same policy with `gate` for every call of the tool called `name` (unless a rule
    /// says otherwise). A later gate for the same name replaces the earlier one.
    #[must_use]
    pub fn tool(mut self, name: &str, gate: Gate) -> Self {
        self.tools.retain(|(n, _)| &**n != name);
        self.tools.push((name.into(), gate));
        self
    }

    /// The same policy with a rule over each call (the tool's name, its argument object):
    /// `Some(gate)` decides, `None` leaves the call to the next rule, the tool's gate, then its
    /// hints.
    #[must_use]
    pub fn rule(
        mut self,
        rule: impl Fn(&str, &Value) -> Option<Gate> + Send + Sync + 'static,
    ) -> Self {
        self.rules.push(Arc::new(rule));
        self
    }

    /// The same policy with the tool called `name` running alone: no other call of its turn
    /// overlaps it (the calls before it finish first, the ones after it start after it; the
    /// results stay in call order), in [`Toolkit::respond`](crate::Toolkit::respond),
    /// [`Toolkit::execute_calls`](crate::Toolkit::execute_calls),
    /// [`Toolkit::resume`](crate::Toolkit::resume) and a
    /// [`StreamTurn`](crate::stream::StreamTurn), eager starts included: there such a call, once its
    /// arguments are complete, waits for the calls already running to finish, and the calls
    /// that complete after it wait for it.
    #[must_use]
    pub fn run_alone(mut self, name: &str) -> Self {
        self.alone.push(name.into());
        self
    }

    /// Whether calls of the tool called `name` run alone.
    #[inline]
    #[must_use]
    pub fn runs_alone(&self, name: &str) -> bool {
        !self.alone.is_empty() && self.alone.iter().any(|n| **n == *name)
    }

    /// Whether some tool runs alone.
    #[inline]
    pub(crate) fn has_alone(&self) -> bool {
        !self.alone.is_empty()
    }

    /// Whether a rule needs to see the arguments.
    #[inline]
    pub(crate) fn has_rules(&self) -> bool {
        !self.rules.is_empty()
    }

    /// The gate of a call when no rule needs its arguments: `None` when it runs.
    #[inline]
    pub(crate) fn holds_back(&self, name: &str, tool: Option<&dyn Tool>) -> Option<Gate> {
        if self.rules.is_empty() && self.tools.is_empty() {
            // By the hints alone: only a destructive tool is held back.
            return tool
                .is_some_and(|t| t.hints().destructive == Some(true))
                .then(|| by_hints(name, tool));
        }
        Some(self.decide(name, tool, None)).filter(|gate| !gate.runs())
    }

    /// The gate of one call of `tool` (`None`: no tool has that name), whose argument object is
    /// `arguments` (`None`: not an object, or not read since no rule needs it).
    #[must_use]
    pub fn decide(&self, name: &str, tool: Option<&dyn Tool>, arguments: Option<&Value>) -> Gate {
        if let Some(arguments) = arguments {
            if let Some(gate) = self.rules.iter().find_map(|rule| rule(name, arguments)) {
                return gate;
            }
        }
        if let Some((_, gate)) = self.tools.iter().find(|(n, _)| **n == *name) {
            return gate.clone();
        }
        by_hints(name, tool)
    }
}

/// The gate the hints give: a destructive tool asks.
#[inline]
fn by_hints(name: &str, tool: Option<&dyn Tool>) -> Gate {
    match tool {
        Some(tool) if tool.hints().destructive == Some(true) => Gate::Ask(format!(
            "`{name}` may destroy data (its hints say so); allow this call?"
        )),
        _ => Gate::Run,
    }
}

impl fmt::Debug for Policy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Policy")
            .field("rules", &self.rules.len())
            .field("tools", &self.tools)
            .field("alone", &self.alone)
            .finish()
    }
}

/// What a toolkit applies around each call: its policy (if any) and its hooks.
#[derive(Clone, Debug, Default)]
pub(crate) struct Controls {
    pub(crate) policy: Option<Policy>,
    pub(crate) hooks: Hooks,
}

impl Controls {
    /// Whether a call's argument object must be read before it runs (for a rule or a hook).
    #[inline]
    pub(crate) fn reads_arguments(&self) -> bool {
        self.policy.as_ref().is_some_and(Policy::has_rules) || self.hooks.has_before()
    }
}
