//! `Toolkit`'s crate-private engine: the one path every call takes (`call_as`), what a turn, a
//! stream, a resumed turn and an MCP server share of it, the checks behind `add`, and the
//! policy's word on a call (`Gatekeeper`). The type and its public methods are in `tools`.

use std::borrow::Cow;
use std::collections::HashSet;
use std::fmt;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use futures::future::join;
use serde_json::{Map, Value};

use super::gate::{self, Approved};
use super::Input;
use crate::approval::Gatekeeper;
use crate::ask::{Answering, Ask, AskError, Asker, Elicitation, Sampled, Sampling};
use crate::decode as args;
use crate::dispatch::tools_array::RenderCache;
use crate::guard::{self, trace};
use crate::limits::Limits;
use crate::policy::Gate;
use crate::policy::{Hooks, OnElicit, OnSample, Policy};
use crate::tool::call_args::CallArgs;
use crate::tool::context::{run_armed, CallContext};
use crate::tool::logging::LogMessage;
use crate::tool::{validate_name, Tool};
use crate::turn::batch::{self, RunOptions};
use crate::turn::Turn;
use crate::values::call::{Arguments, ToolCall};
use crate::values::dialect::Dialect;
use crate::values::error::Error;
use crate::values::result::{Failure, ToolResult};
use crate::wire::ModelTurn;

use super::tools::Toolkit;

/// Crate-private: the one call path, what a turn, a stream and an MCP server share of it, and
/// the checks behind `add`.
impl Toolkit {
    /// Where the tool called `name` is, if there is one ([`Toolkit::get`]).
    #[inline]
    pub(super) fn position(&self, name: &str) -> Option<usize> {
        // Up to 8 names, comparing them (lengths first) beats hashing the one looked up.
        if self.names.len() <= 8 {
            self.names.iter().position(|n| **n == *name)
        } else {
            self.by_name.get(name).copied()
        }
    }

    /// The limits applied to every call's arguments.
    pub(crate) fn limits(&self) -> Limits {
        self.limits
    }

    /// The toolkit's policy, if it has one.
    #[inline]
    pub(crate) fn policy(&self) -> Option<&Policy> {
        self.controls.as_ref()?.policy.as_ref()
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
    ///
    /// A toolkit without policy or hooks starts the call now ([`guard::started`]): the lookup,
    /// the limits and the call of the tool's `call` (which builds its future; a `#[tool]` or a
    /// `NativeTool` runs none of its own code before the first poll), the same steps
    /// [`Toolkit::call_as`] takes. With either, the call takes that one path, boxed.
    #[inline]
    pub(crate) fn call_by_name<'a>(
        &'a self,
        name: &'a str,
        args: CallArgs<'a>,
    ) -> impl Future<Output = ToolResult> + Send + 'a {
        let running = if self.controls.is_none() {
            self.start(name, args)
        } else {
            let input = match args {
                CallArgs::Text(text) => Input::Text(Cow::Borrowed(text)),
                CallArgs::Value(value) => Input::Value(value),
            };
            let call = self.call(name, input, None, false, CallContext::detached());
            guard::started(name, || Box::pin(call))
        };
        trace::call(name, None, None, || self.described(name), running)
    }

    /// What a call's span says of the tool called `name` ([`trace::Described`]).
    pub(crate) fn described(&self, name: &str) -> trace::Described {
        self.get(name)
            .map(|t| (t.source().gen_ai_type(), t.description().to_owned()))
    }

    /// [`Toolkit::call_as`]'s steps for a call by name without policy, hooks, timeout or strict
    /// mode, taken now: the tool's future, started under the guard, or the answer.
    fn start<'a>(&'a self, name: &'a str, args: CallArgs<'a>) -> guard::Started<'a> {
        let Some(tool) = self.get(name).map(|t| &**t) else {
            return guard::Started::answered(name, self.unknown(name));
        };
        let args = match args {
            CallArgs::Text(text) => match self.limits.check_text(name, text) {
                Ok(()) => CallArgs::Text(text),
                Err(refused) => return guard::Started::answered(name, refused),
            },
            CallArgs::Value(value) => {
                let checked = self.limits.check_value(name, &value);
                match checked.and_then(|()| args::object(name, value)) {
                    Ok(value) => CallArgs::Value(value),
                    Err(answer) => return guard::Started::answered(name, answer),
                }
            }
        };
        guard::started(name, move || tool.call(CallContext::detached(), args))
    }

    /// The one path of every call (`execute`, `execute_json`, `execute_call(s)`, `respond`, the
    /// streaming turn, through `Toolkit::call`): finds the tool once, lets the policy and the
    /// before hooks see the call when there are any (`gate`), checks the arguments against the
    /// limits once (as sent), turns strict mode's nulls back into "absent", runs the tool
    /// inside the call's one panic guard, under `timeout`, with its `context` (whose signal
    /// fires when the call is dropped or cut off before it finished), and hands its result to
    /// the after hooks.
    pub(crate) async fn call_as(
        &self,
        name: &str,
        input: Input<'_>,
        timeout: Option<Duration>,
        strict: bool,
        approved: Approved,
        mut context: CallContext,
    ) -> ToolResult {
        // `**tool` is the `dyn Tool`: through the `Arc` forwarding impl the future would be
        // boxed twice.
        let tool = self.get(name).map(|t| &**t);
        let mut input = input;
        let controls = self.controls.as_deref();
        let result = 'call: {
            if let Some(controls) = controls {
                // The host's log and elicit hooks hear what the tool logs and asks, unless the
                // caller gave the context its own (an MCP client's).
                if controls.hooks.has_context_hooks() {
                    context = with_context_hooks(context, &controls.hooks, name);
                }
                if let Some(answer) =
                    gate::before_call(controls, &self.limits, name, tool, &mut input, approved)
                {
                    break 'call answer;
                }
            }
            let Some(tool) = tool else {
                break 'call self.unknown(name);
            };
            // Text goes to the tool's `call` as is; a value (or text read into one for strict
            // mode) as a value.
            let mut value = match input {
                Input::Absent => Value::Object(Map::new()),
                Input::Text(text) => {
                    if let Err(refused) = self.limits.check_text(name, &text) {
                        break 'call refused;
                    }
                    if !strict {
                        // Everything from here on is the tool's: the call of `call` itself,
                        // the future and its drop run inside the guard.
                        let text = &*text;
                        break 'call run_armed!(name, timeout, context, |context| {
                            tool.call(context, CallArgs::Text(text))
                        });
                    }
                    // Read into a value so strict mode's nulls can be pruned (see `RunOptions`).
                    match args::parse_object(name, &text) {
                        Ok(value) => value,
                        Err(result) => break 'call result,
                    }
                }
                Input::Value(value) => {
                    if let Err(refused) = self.limits.check_value(name, &value) {
                        break 'call refused;
                    }
                    match args::object(name, value) {
                        Ok(value) => value,
                        Err(result) => break 'call result,
                    }
                }
            };
            if strict {
                // OpenAI strict mode makes the model send `null` for every optional argument it
                // leaves out; the tool's own schema turns those back into "absent".
                tool.input_schema().strict_nulls_to_absent(&mut value);
            }
            // As for text: the call of `call`, the future and its drop run inside the guard.
            run_armed!(name, timeout, context, |context| tool
                .call(context, CallArgs::Value(value)))
        };
        match controls {
            Some(controls) if controls.hooks.has_after() => gate::after(controls, name, result),
            _ => result,
        }
    }

    /// The context of `call`, read from a `dialect` response (or none): its id and dialect
    /// (the host's log hook is added on the call path, `call_as`).
    pub(crate) fn context_for(call: &ToolCall, dialect: Option<Dialect>) -> CallContext {
        CallContext::for_call(call.id.as_deref(), dialect, None, None)
    }

    /// [`Toolkit::execute_call`] for a call read from a `dialect` response (its span says so).
    pub(crate) async fn execute_call_from(
        &self,
        call: &ToolCall,
        options: &RunOptions,
        dialect: Option<Dialect>,
    ) -> ToolResult {
        if let Some(refused) = batch::unsupported(call) {
            return refused;
        }
        let strict = self.strict_calls(options, dialect);
        let context = Self::context_for(call, dialect);
        let arguments = Cow::Borrowed(&call.arguments);
        let running = self.dispatch(&call.name, arguments, options, strict, context);
        let describe = || self.described(&call.name);
        trace::call(&call.name, call.id.as_deref(), dialect, describe, running).await
    }

    /// Runs one call of tool `name` by its arguments' form, through the toolkit's one per-call
    /// path (`Toolkit::call`), under the options' timeout and `strict` mode.
    ///
    /// A plain fn, not an `async fn`, so the arguments are not stored beside the future that
    /// takes them (a turn holds one such future per call).
    pub(super) fn dispatch<'a>(
        &'a self,
        name: &'a str,
        arguments: Cow<'a, Arguments>,
        options: &RunOptions,
        strict: bool,
        context: CallContext,
    ) -> impl Future<Output = ToolResult> + Send + 'a {
        let input = match arguments {
            Cow::Borrowed(Arguments::Text(text)) => Input::Text(Cow::Borrowed(text)),
            Cow::Owned(Arguments::Text(text)) => Input::Text(Cow::Owned(text)),
            Cow::Borrowed(Arguments::Value(value)) => Input::Value(value.clone()),
            Cow::Owned(Arguments::Value(value)) => Input::Value(value),
            Cow::Borrowed(Arguments::Absent) | Cow::Owned(Arguments::Absent) => Input::Absent,
        };
        self.call(name, input, options.timeout, strict, context)
    }

    /// Whether calls read from a `dialect` response are strict calls: the options say so, or
    /// this toolkit handed out that dialect's tools in strict mode.
    pub(crate) fn strict_calls(&self, options: &RunOptions, dialect: Option<Dialect>) -> bool {
        options.openai_strict || dialect.is_some_and(|d| self.strict.has(d))
    }

    /// Runs the calls of a response already read (`calls`, the model's `turn`), as
    /// [`Toolkit::respond_with`] does, and builds the [`Turn`].
    pub(crate) async fn run_read(
        &self,
        calls: Vec<ToolCall>,
        turn: ModelTurn<'_>,
        dialect: Dialect,
        options: &RunOptions,
    ) -> Turn {
        // The model's turn (a copy of the response's message) is built after the calls have
        // started, while they run: not in front of them.
        let running = self.run_calls(&calls, options, Some(dialect));
        let (results, model_turn) = join(running, async { turn.build() }).await;
        self.answered_turn(dialect, calls, results, model_turn)
    }

    /// Runs `calls`, read from a `dialect` response (or none), through the one call path under
    /// the policy, as [`Toolkit::execute_calls`] does: one result per call, in call order.
    pub(crate) async fn run_calls(
        &self,
        calls: &[ToolCall],
        options: &RunOptions,
        dialect: Option<Dialect>,
    ) -> Vec<ToolResult> {
        // The tools borrow each call's arguments as sent, which the turn keeps (a host logs
        // them): JSON text is decoded in place; an object is copied for the tool that takes it.
        let arguments = calls.iter().map(|c| Cow::Borrowed(&c.arguments)).collect();
        let strict = self.strict_calls(options, dialect);
        batch::run_calls(
            calls,
            arguments,
            options,
            dialect,
            self.policy(),
            &|name: &str| self.described(name),
            |call, arguments| {
                let context = Self::context_for(call, dialect);
                self.dispatch(&call.name, arguments, options, strict, context)
            },
        )
        .await
    }

    /// The `Turn` of calls that have their results: media held to the toolkit's limits and the
    /// dialect's types, the results rendered, and whether a final answer came (what `respond`,
    /// a streamed turn and a resumed pending turn all end with).
    pub(crate) fn answered_turn(
        &self,
        dialect: Dialect,
        calls: Vec<ToolCall>,
        mut results: Vec<ToolResult>,
        model_turn: Vec<Value>,
    ) -> Turn {
        dialect.admit_media(&calls, &mut results, &self.limits());
        let result_messages = dialect.render_results(calls.iter().zip(&results));
        Turn {
            answered: self.answered(&calls, &results),
            calls,
            results,
            model_turn,
            result_messages,
            dialect,
        }
    }

    /// Whether one of `calls` was a final-answer tool's and succeeded (`results[i]` is the
    /// result of `calls[i]`): what makes a turn with calls final.
    pub(crate) fn answered(&self, calls: &[ToolCall], results: &[ToolResult]) -> bool {
        self.answers
            && calls.iter().zip(results).any(|(call, result)| {
                !result.is_error && self.get(&call.name).is_some_and(|t| t.is_final_answer())
            })
    }

    pub(crate) fn unknown(&self, name: &str) -> ToolResult {
        let shown = crate::values::text::echo_name(name);
        let available = if self.tools.is_empty() {
            "No tools are available.".to_owned()
        } else {
            format!(
                "Available tools: {}",
                self.names().collect::<Vec<_>>().join(", ")
            )
        };
        ToolResult::failed(
            format!("Unknown tool: {shown}. {available}"),
            Failure::UnknownTool,
        )
    }

    /// Whether the policy runs calls of `name` alone.
    #[inline]
    pub(crate) fn runs_alone(&self, name: &str) -> bool {
        self.policy().is_some_and(|p| p.runs_alone(name))
    }

    /// Whether the policy lets `call` run without asking (a toolkit without one lets every
    /// call run): a streamed turn starts only such calls early.
    pub(crate) fn lets_run(&self, call: &ToolCall) -> bool {
        self.policy().is_none() || self.gate_of(call).runs()
    }

    /// Whether `tools` may join: each a valid name taken neither before nor within the batch,
    /// and a usable schema.
    fn check_batch(&self, tools: &[Arc<dyn Tool>]) -> Result<(), Error> {
        let mut batch = HashSet::with_capacity(tools.len());
        for tool in tools {
            let name = tool.name();
            validate_name(name)?;
            if let Some(error) = tool.input_schema().error() {
                return Err(Error::Schema(error.clone()));
            }
            if self.by_name.contains_key(name) || !batch.insert(name) {
                return Err(Error::DuplicateTool {
                    name: name.to_owned(),
                });
            }
        }
        Ok(())
    }

    /// Adds `tools` after the ones there, or none of them ([`Toolkit::add`]).
    pub(super) fn add_checked(&mut self, tools: Vec<Arc<dyn Tool>>) -> Result<(), Error> {
        self.check_batch(&tools)?;
        for tool in tools {
            self.push(tool);
        }
        Ok(())
    }

    /// Appends a checked tool.
    fn push(&mut self, tool: Arc<dyn Tool>) {
        let name = tool.name();
        self.by_name.insert(name.to_owned(), self.tools.len());
        self.names.push(name.into());
        self.answers |= tool.is_final_answer();
        self.tools.push(tool);
        self.rendered = RenderCache::default();
    }
}

/// The policy's word on a call, which a pending turn's statuses, a stream's early starts and a
/// resumed turn's plans all ask for.
impl Gatekeeper for Toolkit {
    /// The policy's gate for `call` (run, when the toolkit has none).
    fn gate_of(&self, call: &ToolCall) -> Gate {
        let Some(policy) = self.policy() else {
            return Gate::Run;
        };
        let tool = self.get(&call.name).map(|t| &**t);
        let arguments = match (policy.has_rules(), tool) {
            (true, Some(_)) => {
                gate::object_of(&self.limits, &call.name, Input::borrowed(&call.arguments)).ok()
            }
            _ => None,
        };
        policy.decide(&call.name, tool, arguments.as_ref())
    }

    /// The limits' error for `call`'s arguments, for a tool the toolkit has.
    fn over_limits(&self, call: &ToolCall) -> Option<ToolResult> {
        self.get(&call.name)?;
        match &call.arguments {
            Arguments::Absent => None,
            Arguments::Text(text) => self.limits.check_text(&call.name, text).err(),
            Arguments::Value(value) => self.limits.check_value(&call.name, value).err(),
        }
    }
}

/// `context` with the host's log hook ([`Hooks::on_log`](crate::Hooks::on_log)) as the listener
/// of what this call of `tool` logs and its elicit hook ([`Hooks::on_elicit`](crate::Hooks::on_elicit))
/// answering what it asks, each unless the caller gave the context one of its own. Out of
/// line: most toolkits set neither, and the call path stays as it was without them.
#[cold]
#[inline(never)]
fn with_context_hooks(mut context: CallContext, hooks: &Hooks, tool: &str) -> CallContext {
    if let Some(hook) = hooks.log.as_ref().filter(|_| !context.has_log()) {
        let hook = Arc::clone(hook);
        let tool: Box<str> = tool.into();
        context = context.with_log(move |message: LogMessage| hook(&tool, message));
    }
    if (hooks.elicit.is_some() || hooks.sample.is_some()) && !context.has_asker() {
        let asker: Asker = Arc::new(HostAsker {
            tool: tool.into(),
            elicit: hooks.elicit.clone(),
            sample: hooks.sample.clone(),
        });
        context = context.with_asker(asker);
    }
    context
}

/// The host's elicit and sample hooks for one call of `tool`, as the call's [`Ask`].
struct HostAsker {
    tool: Box<str>,
    elicit: Option<OnElicit>,
    sample: Option<OnSample>,
}

impl Ask for HostAsker {
    fn elicit(&self, question: Elicitation) -> Answering {
        match &self.elicit {
            Some(hook) => hook(&self.tool, question),
            None => Box::pin(async { Err(AskError::NoOneToAsk) }),
        }
    }

    fn sample(&self, request: Sampling) -> Answering<Sampled> {
        match &self.sample {
            Some(hook) => hook(&self.tool, request),
            None => Box::pin(async { Err(AskError::NoOneToAsk) }),
        }
    }
}

impl fmt::Debug for Toolkit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Toolkit")
            .field("tools", &self.names().collect::<Vec<_>>())
            .finish()
    }
}
