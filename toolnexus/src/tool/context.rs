//! [`CallContext`]: what one call knows about itself (its id, the dialect it came in), the
//! signal that says it was cancelled, and where its progress goes.

use std::fmt;
use std::future::Future;
use std::pin::pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use serde_json::Value;
use tokio::sync::Notify;

use futures::future::{select, Either};

use crate::ask::{Answering, AskError, Asker, Elicitation, Elicited, Sampled, Sampling};
use crate::tool::logging::{LogLevel, LogListener, LogMessage};
use crate::values::dialect::Dialect;

/// One step of a call's progress, as [`CallContext::progress`] reports it (MCP's
/// `notifications/progress`: `progress`, `total`, `message`).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Progress {
    /// How much is done; it should grow with each report, even when the total is unknown.
    pub done: f64,
    /// How much there is in all, when known.
    pub total: Option<f64>,
    /// What is happening, for people.
    pub message: Option<String>,
}

/// Whoever listens to a call's progress.
pub(crate) type Listener = Arc<dyn Fn(Progress) + Send + Sync>;

/// What a tool may know about the call it is running: the call's id and the dialect it came
/// in, a cancellation signal, and a progress sink.
///
/// A `#[tool]` fn gets it by taking a parameter of this type (by value, any name; it is not
/// part of the argument schema); a hand-written tool overrides
/// [`Tool::call`](crate::Tool::call). A [`Toolkit`](crate::Toolkit) builds one
/// for every call it runs:
///
/// - [`id`](CallContext::id): the call's id as the model sent it (`None` for a Gemini call
///   without one, and for [`Toolkit::execute`](crate::Toolkit::execute) by name); an MCP
///   call served by `McpServer` has the JSON-RPC request id.
/// - [`dialect`](CallContext::dialect): the dialect of the response the call was read from;
///   `None` where there is none (a call by name, [`Toolkit::execute_calls`](crate::Toolkit::execute_calls),
///   an MCP call).
/// - [`is_cancelled`](CallContext::is_cancelled) / [`cancelled`](CallContext::cancelled):
///   the signal fires when the call is given up: its turn (or the future of the call) is
///   dropped, it runs past [`RunOptions::timeout`](crate::RunOptions::timeout), or the MCP
///   client that asked for it sends `notifications/cancelled`. (A call by name,
///   [`Toolkit::execute`](crate::Toolkit::execute) or `execute_json`, has no turn and no
///   timeout: its context is never cancelled, and costs nothing to make.) The call's future is dropped
///   right after, so the signal is for what outlives it (a spawned task, a blocking thread,
///   a drop guard): it fires *before* the tool's future is dropped, so the tool's own drop
///   code sees it. A call that finished is never cancelled.
/// - [`progress`](CallContext::progress): reports how far the call got; a no-op when nobody
///   listens. `McpServer` sends it as `notifications/progress` to a client that asked with a
///   `progressToken`; an MCP server's tools (`mcp::McpTool`, feature `mcp`) hand on what
///   their server reports.
/// - [`log`](CallContext::log) / [`log_as`](CallContext::log_as): a message at a
///   [`LogLevel`](crate::logging::LogLevel); a no-op when nobody listens. `McpServer` sends it as
///   `notifications/message` at the level the client set; a toolkit's own turns hand it to
///   [`Hooks::on_log`](crate::Hooks::on_log).
/// - [`elicit`](CallContext::elicit): asks the user a question with a form and waits for the
///   answer; `McpServer` sends it to the client, a toolkit's own turns to
///   [`Hooks::on_elicit`](crate::Hooks::on_elicit).
/// - [`sample`](CallContext::sample): asks the client's model for a completion; `McpServer`
///   sends it to the client, a toolkit's own turns to [`Hooks::on_sample`](crate::Hooks::on_sample).
///
/// The context is cheap to clone (one shared allocation); every clone sees the same signal,
/// clones made before a builder (`with_id`, `with_dialect`, `with_progress`) too: a builder
/// gives this context its own id, dialect or listener, but never a signal of its own.
///
/// ```
/// use std::sync::{Arc, Mutex};
/// use toolnexus::{tool, CallContext, Dialect, Progress, Tool};
///
/// /// Copies the files of a folder.
/// #[tool]
/// async fn copy_all(folder: String, ctx: CallContext) -> String {
///     let files = ["a.txt", "b.txt"];
///     for (done, file) in files.iter().enumerate() {
///         if ctx.is_cancelled() {
///             return "cancelled".into();
///         }
///         ctx.progress(done as f64 + 1.0, Some(files.len() as f64), Some(file));
///     }
///     format!("copied {} files of {folder} for call {}", files.len(), ctx.id().unwrap_or("?"))
/// }
///
/// // The schema has `folder` only: the context is not an argument.
/// assert_eq!(CopyAll.input_schema().as_value()["required"], serde_json::json!(["folder"]));
///
/// // A toolkit builds the context; here, one built by hand, with a listener.
/// let seen = Arc::new(Mutex::new(Vec::new()));
/// let sink = Arc::clone(&seen);
/// let ctx = CallContext::new()
///     .with_id("call_1")
///     .with_dialect(Dialect::OpenAiChat)
///     .with_progress(move |p: Progress| sink.lock().unwrap().push(p.done));
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let result = CopyAll.call(ctx, toolnexus::CallArgs::Value(serde_json::json!({"folder": "docs"}))).await;
/// assert_eq!(result.output, "copied 2 files of docs for call call_1");
/// assert_eq!(*seen.lock().unwrap(), [1.0, 2.0]);
/// # });
///
/// // Without a listener, progress goes nowhere; a cancelled context says so.
/// let ctx = CallContext::new();
/// ctx.progress(1.0, None, None);
/// ctx.cancel();
/// assert!(ctx.is_cancelled());
/// ```
#[derive(Clone)]
pub struct CallContext {
    /// `None`: the context of a tool called directly, outside a toolkit (`Tool::execute`),
    /// which nothing can cancel or listen to; it costs nothing.
    shared: Option<Arc<Shared>>,
}

/// What every clone of one context shares.
#[derive(Default)]
struct Shared {
    id: Option<Box<str>>,
    dialect: Option<Dialect>,
    cancelled: AtomicBool,
    /// Wakes every `cancelled()` waiting when the signal fires.
    notify: Notify,
    listener: Option<Listener>,
    /// Where the call's log messages go.
    log: Option<LogListener>,
    /// Who answers the call's questions ([`CallContext::elicit`]).
    asker: Option<Asker>,
    /// Where the signal lives when a builder copied this part from a context that had clones:
    /// that context's part, so every clone, before and after, shares one signal. `None` for a
    /// context's first part (the toolkit's), which holds the signal itself.
    signal_of: Option<Arc<Self>>,
}

impl Shared {
    /// The part whose `cancelled` and `notify` are this context's signal.
    fn signal(&self) -> &Self {
        self.signal_of.as_deref().unwrap_or(self)
    }
}

impl CallContext {
    /// A context without an id, a dialect or a listener, not cancelled, for a host that runs
    /// a tool itself ([`Tool::call`](crate::Tool::call)) and may
    /// [`cancel`](CallContext::cancel) it.
    #[must_use]
    pub fn new() -> Self {
        Self {
            shared: Some(Arc::default()),
        }
    }

    /// The context of a tool called directly ([`Tool::execute`](crate::Tool::execute)):
    /// nothing can cancel it or listen to it, and making it allocates nothing.
    pub(crate) fn detached() -> Self {
        Self { shared: None }
    }

    /// The shared part, made now if this context had none (while it has no other clone, so
    /// nothing else can see the change).
    fn shared_mut(&mut self) -> &mut Shared {
        let shared = self.shared.get_or_insert_with(Default::default);
        if Arc::get_mut(shared).is_none() {
            // Another clone holds this part: copy the id, dialect and listener, and keep the
            // one signal every clone shares.
            let signal = shared
                .signal_of
                .clone()
                .unwrap_or_else(|| Arc::clone(shared));
            let copy = Shared {
                id: shared.id.clone(),
                dialect: shared.dialect,
                cancelled: AtomicBool::new(false),
                notify: Notify::new(),
                listener: shared.listener.clone(),
                log: shared.log.clone(),
                asker: shared.asker.clone(),
                signal_of: Some(signal),
            };
            *shared = Arc::new(copy);
        }
        Arc::get_mut(shared).expect("a context's shared part was just made unique")
    }

    /// The same context with the call id `id`. (A clone made before this keeps its own id;
    /// the cancellation signal stays the one every clone shares.)
    #[must_use]
    pub fn with_id(mut self, id: impl Into<String>) -> Self {
        self.shared_mut().id = Some(id.into().into_boxed_str());
        self
    }

    /// The same context for a call read from a `dialect` response.
    #[must_use]
    pub fn with_dialect(mut self, dialect: Dialect) -> Self {
        self.shared_mut().dialect = Some(dialect);
        self
    }

    /// The same context with `listener` receiving every [`CallContext::progress`] report.
    ///
    /// The listener runs on the tool's thread, inside the report: keep it short (hand the
    /// report to a channel, say).
    #[must_use]
    pub fn with_progress(mut self, listener: impl Fn(Progress) + Send + Sync + 'static) -> Self {
        self.shared_mut().listener = Some(Arc::new(listener));
        self
    }

    /// The same context with `listener` receiving every message the tool logs
    /// ([`CallContext::log`]).
    ///
    /// The listener runs on the tool's thread, inside the call to `log`: keep it short.
    #[must_use]
    pub fn with_log(mut self, listener: impl Fn(LogMessage) + Send + Sync + 'static) -> Self {
        self.shared_mut().log = Some(Arc::new(listener));
        self
    }

    /// The same context with `asker` answering the call's questions (the MCP client's, or the
    /// host's [`Hooks::on_elicit`](crate::Hooks::on_elicit)).
    pub(crate) fn with_asker(mut self, asker: Asker) -> Self {
        self.shared_mut().asker = Some(asker);
        self
    }

    /// Whether someone answers the call's questions.
    pub(crate) fn has_asker(&self) -> bool {
        self.shared.as_ref().is_some_and(|s| s.asker.is_some())
    }

    /// Asks the user `question` and waits for the answer: the form's content, checked against
    /// it, or the user's no ([`Elicited`]). Served by `McpServer` the question goes to the MCP
    /// client (`elicitation/create`); in a toolkit's own turns to the host's
    /// [`Hooks::on_elicit`](crate::Hooks::on_elicit). [`AskError`] when nobody can be asked,
    /// when the answer does not fit the form, when none comes within the question's timeout,
    /// or when the call is cancelled meanwhile; its text is one a model can read, so a tool
    /// may return it as an error result. The [`ask`](crate::ask) module shows a tool that asks.
    pub async fn elicit(&self, question: Elicitation) -> Result<Elicited, AskError> {
        let asker = self.asker()?;
        let timeout = question.timeout();
        let answer = self.wait(asker.elicit(question.clone()), timeout).await?;
        crate::ask::checked(&question, answer)
    }

    /// Asks the model of whoever serves the tool for a completion of `request`, and waits for
    /// its text ([`Sampled`]). Served by `McpServer` it goes to the MCP client
    /// (`sampling/createMessage`), which picks the model; in a toolkit's own turns to the
    /// host's [`Hooks::on_sample`](crate::Hooks::on_sample). [`AskError`] as for
    /// [`CallContext::elicit`], and when the request cannot be sent (no tokens, say) or the
    /// answer holds no text.
    pub async fn sample(&self, request: Sampling) -> Result<Sampled, AskError> {
        request.check()?;
        let asker = self.asker()?;
        let timeout = request.timeout();
        self.wait(asker.sample(request), timeout).await
    }

    /// Who answers this call's requests, if the call may still ask.
    fn asker(&self) -> Result<Asker, AskError> {
        let asker = self
            .shared
            .as_ref()
            .and_then(|s| s.asker.clone())
            .ok_or(AskError::NoOneToAsk)?;
        if self.is_cancelled() {
            return Err(AskError::Cancelled);
        }
        Ok(asker)
    }

    /// `answering`, ended by `timeout` or by the call's cancellation.
    async fn wait<T>(&self, answering: Answering<T>, timeout: Duration) -> Result<T, AskError> {
        let answering = tokio::time::timeout(timeout, answering);
        let cancelled = self.cancelled();
        match select(pin!(answering), pin!(cancelled)).await {
            Either::Left((Ok(answer), _)) => answer,
            Either::Left((Err(_), _)) => Err(AskError::TimedOut(timeout)),
            Either::Right(((), _)) => Err(AskError::Cancelled),
        }
    }

    /// A context for a call the toolkit runs: shared from the start, so the caller can fire its
    /// signal.
    pub(crate) fn for_call(
        id: Option<&str>,
        dialect: Option<Dialect>,
        listener: Option<Listener>,
        log: Option<LogListener>,
    ) -> Self {
        Self {
            shared: Some(Arc::new(Shared {
                id: id.map(Box::from),
                dialect,
                listener,
                log,
                ..Shared::default()
            })),
        }
    }

    /// Whether anything can fire this context's signal (not so for a direct call's): only then
    /// is a call armed to fire it when dropped.
    pub(crate) fn fires(&self) -> bool {
        self.shared.is_some()
    }

    /// The call's id, as the model (or the MCP client) sent it.
    #[must_use]
    pub fn id(&self) -> Option<&str> {
        self.shared.as_ref()?.id.as_deref()
    }

    /// The dialect of the response the call was read from, when there is one.
    #[must_use]
    pub fn dialect(&self) -> Option<Dialect> {
        self.shared.as_ref()?.dialect
    }

    /// Whether the call was cancelled (see [`CallContext`] for when).
    #[must_use]
    pub fn is_cancelled(&self) -> bool {
        self.shared
            .as_ref()
            .is_some_and(|s| s.signal().cancelled.load(Ordering::Acquire))
    }

    /// Completes when the call is cancelled; never, for a call that is not. For work that
    /// outlives the call's future: a task the tool spawned with a clone of the context ends
    /// with `tokio::select!` over this and its own work.
    pub async fn cancelled(&self) {
        let Some(shared) = &self.shared else {
            return std::future::pending().await;
        };
        let shared = shared.signal();
        loop {
            // Registered before the flag is read, so a signal in between is not missed.
            let mut notified = pin!(shared.notify.notified());
            notified.as_mut().enable();
            if shared.cancelled.load(Ordering::Acquire) {
                return;
            }
            notified.await;
        }
    }

    /// Fires the signal: [`CallContext::is_cancelled`] is `true` from now on, in every clone,
    /// and every [`CallContext::cancelled`] completes. The toolkit does this when it gives a
    /// call up; a host that built a context itself calls it to cancel a call it started.
    pub fn cancel(&self) {
        if let Some(shared) = &self.shared {
            let shared = shared.signal();
            if !shared.cancelled.swap(true, Ordering::AcqRel) {
                shared.notify.notify_waiters();
            }
        }
    }

    /// Reports progress: `done` of `total` (when known), with an optional `message`. A no-op
    /// when nobody listens, so a tool can report freely.
    pub fn progress(&self, done: f64, total: Option<f64>, message: Option<&str>) {
        let Some(listener) = self.shared.as_ref().and_then(|s| s.listener.as_ref()) else {
            return;
        };
        listener(Progress {
            done,
            total,
            message: message.map(str::to_owned),
        });
    }

    /// Logs `data` (a text, or any JSON) at `level`; a no-op when nobody listens, so a tool can
    /// log freely. Served over MCP it reaches the client as `notifications/message` when the
    /// level is at or above the one the client set (`logging/setLevel`; `info` until it sets
    /// one), sent beside the call so a slow client never holds the tool up; in a toolkit's own
    /// turns it goes to [`Hooks::on_log`](crate::Hooks::on_log), or nowhere.
    ///
    /// Nothing is logged that the tool does not log itself: never its arguments or its result.
    pub fn log(&self, level: LogLevel, data: impl Into<Value>) {
        if let Some(log) = self.log_listener() {
            log(LogMessage::new(level, data));
        }
    }

    /// [`CallContext::log`] from the logger `logger` (the part of the tool speaking).
    pub fn log_as(&self, logger: &str, level: LogLevel, data: impl Into<Value>) {
        if let Some(log) = self.log_listener() {
            log(LogMessage::new(level, data).with_logger(logger));
        }
    }

    /// Whether anyone listens to what the tool logs.
    pub(crate) fn has_log(&self) -> bool {
        self.log_listener().is_some()
    }

    fn log_listener(&self) -> Option<&LogListener> {
        self.shared.as_ref()?.log.as_ref()
    }

    /// Whether anyone listens to this call's progress.
    #[must_use]
    pub fn has_listener(&self) -> bool {
        self.shared.as_ref().is_some_and(|s| s.listener.is_some())
    }
}

impl Default for CallContext {
    /// [`CallContext::new`].
    fn default() -> Self {
        Self::new()
    }
}

impl fmt::Debug for CallContext {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CallContext")
            .field("id", &self.id())
            .field("dialect", &self.dialect())
            .field("cancelled", &self.is_cancelled())
            .field("listener", &self.has_listener())
            .field("log", &self.log_listener().is_some())
            .field("asker", &self.has_asker())
            .finish()
    }
}

/// Awaits one call of tool `$tool` under the guard and `$timeout` (`guard::run!`): `$start`
/// builds the tool's future from `$context`, armed ([`armed`]) to fire the context's signal
/// if it is dropped unfinished; a context nothing can see fire (a call by name's) runs unarmed,
/// without the wrapper.
macro_rules! run_armed {
    ($tool:expr, $timeout:expr, $context:ident, $start:expr) => {{
        let start = $start;
        if $context.fires() {
            let fire = $context.clone();
            $crate::guard::run!($tool, $timeout, move || {
                $crate::tool::context::armed(fire, start($context))
            })
        } else {
            $crate::guard::run!($tool, $timeout, move || start($context))
        }
    }};
}
pub(crate) use run_armed;

/// `running`, a call's future under `context` (a clone of the one the tool got): dropped
/// before it finished (its turn dropped, its timeout passed, its MCP request cancelled), it
/// fires the context's signal first, then drops the tool's future, so the tool's own drop code
/// sees the signal.
pub(crate) async fn armed<F: Future>(context: CallContext, running: F) -> F::Output {
    // Declared first, dropped last: locals go in reverse order when the future is dropped.
    let mut running = pin!(running);
    let mut fire = Fire(Some(context));
    let output = running.as_mut().await;
    fire.0 = None;
    output
}

/// Fires a context's signal when dropped, unless emptied once the call finished.
struct Fire(Option<CallContext>);

impl Drop for Fire {
    fn drop(&mut self) {
        if let Some(context) = &self.0 {
            context.cancel();
        }
    }
}

#[cfg(test)]
mod tests;
