//! [`Hooks`]: the host's code before and after every call of a toolkit.

use std::fmt;
use std::sync::Arc;

use serde_json::Value;

use crate::ask::{Answering, AskError, Elicitation, Elicited, Sampled, Sampling};
use crate::tool::logging::LogMessage;
use crate::values::result::ToolResult;

type Before = Arc<dyn Fn(&str, &mut Value) -> Option<ToolResult> + Send + Sync>;
type After = Arc<dyn Fn(&str, &mut ToolResult) + Send + Sync>;
pub(crate) type OnLog = Arc<dyn Fn(&str, LogMessage) + Send + Sync>;
pub(crate) type OnElicit = Arc<dyn Fn(&str, Elicitation) -> Answering + Send + Sync>;
pub(crate) type OnSample = Arc<dyn Fn(&str, Sampling) -> Answering<Sampled> + Send + Sync>;

/// Code the host runs around every call of a toolkit, for guardrails and audit. Set them with
/// [`Toolkit::with_hooks`](crate::Toolkit::with_hooks).
///
/// - A **before** hook gets the tool's name and its argument object (`{}` when none were sent),
///   after the [`Policy`](crate::Policy) let the call run and before the tool runs. It may
///   rewrite the arguments in place, or answer the call itself by returning `Some(result)`: the
///   tool then does not run. Hooks run in the order added; the first answer wins. A call whose
///   arguments are not a JSON object (or are beyond the toolkit's limits) reaches no before hook:
///   its error result does not run the tool either.
/// - An **after** hook gets the tool's name and the call's result (every result: the tool's, an
///   error, a before hook's answer), and may replace or redact it before the model reads it.
/// - The **log** hook ([`Hooks::on_log`]) gets the tool's name and each message the tool logs
///   through its [`CallContext`](crate::CallContext) while the toolkit runs it (served over
///   MCP, the messages go to the client instead).
/// - The **elicit** hook ([`Hooks::on_elicit`]) answers the questions a tool asks the user
///   through its context while the toolkit runs it (served over MCP, the client answers);
///   the **sample** hook ([`Hooks::on_sample`]) the completions it asks of a model.
///
/// A hook runs under the same panic guard as a tool: one that panics makes the call's result an
/// error (``hook before `NAME` panicked; the call was not run``, or ``hook after `NAME`
/// panicked``, which replaces the result so an unredacted one never gets through), with the
/// payload's text in `metadata.panic`. Hooks are plain functions: an audit that writes to a
/// database hands the record to a channel rather than awaiting inside the hook.
///
/// ```
/// use serde_json::json;
/// use toolnexus::{Hooks, NativeTool, ToolResult, Toolkit};
///
/// let echo = NativeTool::of("echo", "Echo", json!({"type": "object"}), |args| async move {
///     args.to_string()
/// })?;
/// let hooks = Hooks::new()
///     .before(|_name, args| {
///         args["seen"] = json!(true);
///         None
///     })
///     .after(|_name, result| result.output = result.output.replace("secret", "[redacted]"));
/// let toolkit = Toolkit::new().with(echo)?.with_hooks(hooks);
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let result = toolkit.execute("echo", json!({"word": "secret"})).await;
/// assert_eq!(result.output, r#"{"word":"[redacted]","seen":true}"#);
/// # });
/// # Ok::<(), toolnexus::Error>(())
/// ```
#[derive(Clone, Default)]
pub struct Hooks {
    pub(crate) before: Vec<Before>,
    pub(crate) after: Vec<After>,
    pub(crate) log: Option<OnLog>,
    pub(crate) elicit: Option<OnElicit>,
    pub(crate) sample: Option<OnSample>,
}

impl Hooks {
    /// No hooks.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// The same hooks with one more run before each call; see [`Hooks`].
    #[must_use]
    pub fn before(
        mut self,
        hook: impl Fn(&str, &mut Value) -> Option<ToolResult> + Send + Sync + 'static,
    ) -> Self {
        self.before.push(Arc::new(hook));
        self
    }

    /// The same hooks with one more run after each call; see [`Hooks`].
    #[must_use]
    pub fn after(mut self, hook: impl Fn(&str, &mut ToolResult) + Send + Sync + 'static) -> Self {
        self.after.push(Arc::new(hook));
        self
    }

    /// The same hooks with `hook` receiving each message a tool logs
    /// ([`CallContext::log`](crate::CallContext::log)), with the tool's name (replacing any log
    /// hook set before). It runs on the tool's thread, inside the call to `log`: hand the
    /// message on (to `tracing`, a channel) rather than wait in it. Without it, what tools log
    /// in a toolkit's turns goes nowhere.
    ///
    /// ```
    /// use std::sync::{Arc, Mutex};
    /// use toolnexus::logging::LogLevel;
    /// use toolnexus::{tool, CallContext, Hooks, Toolkit};
    ///
    /// /// Copies a file.
    /// #[tool]
    /// async fn copy(path: String, ctx: CallContext) -> String {
    ///     ctx.log(LogLevel::Info, format!("copying {path}"));
    ///     "copied".into()
    /// }
    ///
    /// let seen = Arc::new(Mutex::new(Vec::new()));
    /// let sink = Arc::clone(&seen);
    /// let hooks = Hooks::new().on_log(move |tool, message| {
    ///     sink.lock().unwrap().push(format!("{tool} {}: {}", message.level, message.data));
    /// });
    /// let toolkit = Toolkit::new().with(Copy)?.with_hooks(hooks);
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// toolkit.execute_json("copy", r#"{"path": "a.txt"}"#).await;
    /// # });
    /// assert_eq!(*seen.lock().unwrap(), [r#"copy info: "copying a.txt""#]);
    /// # Ok::<(), toolnexus::Error>(())
    /// ```
    #[must_use]
    pub fn on_log(mut self, hook: impl Fn(&str, LogMessage) + Send + Sync + 'static) -> Self {
        self.log = Some(Arc::new(hook));
        self
    }

    /// The same hooks with `hook` answering each question a tool asks the user
    /// ([`CallContext::elicit`](crate::CallContext::elicit)), given the tool's name (replacing
    /// any elicit hook set before): the host shows the question in its own UI and returns the
    /// user's answer. The answer is checked against the question's form before the tool sees
    /// it, and the question's timeout and the call's cancellation hold while it waits. Without
    /// it, a tool that asks in a toolkit's turns gets [`AskError::NoOneToAsk`](crate::ask::AskError::NoOneToAsk).
    ///
    /// ```
    /// use serde_json::json;
    /// use toolnexus::ask::{Elicitation, Elicited};
    /// use toolnexus::{tool, CallContext, Hooks, Toolkit};
    ///
    /// /// Greets the user by name, asking for it.
    /// #[tool]
    /// async fn greet(ctx: CallContext) -> String {
    ///     let form = json!({"type": "object", "properties": {"name": {"type": "string"}},
    ///                       "required": ["name"]});
    ///     match ctx.elicit(Elicitation::form("Your name?", form).unwrap()).await {
    ///         Ok(Elicited::Accept(answer)) => format!("hello, {}", answer["name"].as_str().unwrap()),
    ///         Ok(_) => "hello, stranger".into(),
    ///         Err(e) => e.to_string(),
    ///     }
    /// }
    ///
    /// // The host's UI, here a fixed answer.
    /// let hooks = Hooks::new().on_elicit(|_tool, _question| async {
    ///     let mut answer = serde_json::Map::new();
    ///     answer.insert("name".into(), json!("Ada"));
    ///     Elicited::Accept(answer)
    /// });
    /// let toolkit = Toolkit::new().with(Greet)?.with_hooks(hooks);
    /// # tokio::runtime::Builder::new_current_thread().enable_time().build().unwrap().block_on(async {
    /// assert_eq!(toolkit.execute("greet", json!({})).await.output, "hello, Ada");
    /// # });
    /// # Ok::<(), toolnexus::Error>(())
    /// ```
    #[must_use]
    pub fn on_elicit<F, A>(mut self, hook: F) -> Self
    where
        F: Fn(&str, Elicitation) -> A + Send + Sync + 'static,
        A: std::future::Future<Output = Elicited> + Send + 'static,
    {
        self.elicit = Some(on_elicit(hook));
        self
    }

    /// The same hooks with `hook` answering each completion a tool asks of a model
    /// ([`CallContext::sample`](crate::CallContext::sample)), given the tool's name (replacing
    /// any sample hook set before): the host calls a model of its choosing and returns the
    /// text, or an error the tool reads. The request's timeout and the call's cancellation
    /// hold while it waits. Without it, a tool that samples in a toolkit's turns gets
    /// [`AskError::NoOneToAsk`](crate::ask::AskError::NoOneToAsk).
    ///
    /// ```
    /// use toolnexus::ask::{Sampled, Sampling};
    /// use toolnexus::{tool, CallContext, Hooks, Toolkit};
    ///
    /// /// Names a colour, asking a model.
    /// #[tool]
    /// async fn colour(ctx: CallContext) -> String {
    ///     match ctx.sample(Sampling::new("Name a colour.", 10)).await {
    ///         Ok(answer) => format!("{} (by {})", answer.text, answer.model),
    ///         Err(e) => e.to_string(),
    ///     }
    /// }
    ///
    /// // The host's model, here a fixed answer.
    /// let hooks = Hooks::new().on_sample(|_tool, request| async move {
    ///     assert_eq!(request.max_tokens(), 10);
    ///     Ok(Sampled::new("teal", "host-model"))
    /// });
    /// let toolkit = Toolkit::new().with(Colour)?.with_hooks(hooks);
    /// # tokio::runtime::Builder::new_current_thread().enable_time().build().unwrap().block_on(async {
    /// assert_eq!(toolkit.execute("colour", serde_json::json!({})).await.output, "teal (by host-model)");
    /// # });
    /// # Ok::<(), toolnexus::Error>(())
    /// ```
    #[must_use]
    pub fn on_sample<F, A>(mut self, hook: F) -> Self
    where
        F: Fn(&str, Sampling) -> A + Send + Sync + 'static,
        A: std::future::Future<Output = Result<Sampled, AskError>> + Send + 'static,
    {
        self.sample = Some(on_sample(hook));
        self
    }

    /// Whether a hook listens to the calls' contexts (what they log, ask and sample).
    #[inline]
    pub(crate) fn has_context_hooks(&self) -> bool {
        self.log.is_some() || self.elicit.is_some() || self.sample.is_some()
    }

    /// Whether some hook runs before a call.
    pub(crate) fn has_before(&self) -> bool {
        !self.before.is_empty()
    }

    /// Whether some hook runs after a call.
    #[inline]
    pub(crate) fn has_after(&self) -> bool {
        !self.after.is_empty()
    }

    /// `true` when there are no hooks.
    #[inline]
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.before.is_empty() && self.after.is_empty() && !self.has_context_hooks()
    }
}

impl fmt::Debug for Hooks {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Hooks")
            .field("before", &self.before.len())
            .field("after", &self.after.len())
            .field("log", &self.log.is_some())
            .field("elicit", &self.elicit.is_some())
            .field("sample", &self.sample.is_some())
            .finish()
    }
}

/// `hook` (a name and a question, to an answer) as an [`OnElicit`]; also what
/// `McpSource::on_elicit` keeps.
pub(crate) fn on_elicit<F, A>(hook: F) -> OnElicit
where
    F: Fn(&str, Elicitation) -> A + Send + Sync + 'static,
    A: std::future::Future<Output = Elicited> + Send + 'static,
{
    Arc::new(move |name: &str, question: Elicitation| -> Answering {
        let answer = hook(name, question);
        Box::pin(async move { Ok(answer.await) })
    })
}

/// `hook` (a name and a request, to an answer) as an [`OnSample`]; also what
/// `McpSource::on_sample` keeps.
pub(crate) fn on_sample<F, A>(hook: F) -> OnSample
where
    F: Fn(&str, Sampling) -> A + Send + Sync + 'static,
    A: std::future::Future<Output = Result<Sampled, AskError>> + Send + 'static,
{
    Arc::new(move |name: &str, request: Sampling| -> Answering<Sampled> {
        Box::pin(hook(name, request))
    })
}
