//! The bounded concurrent runner: one turn's calls at once (up to a limit), each under an
//! optional timeout, exactly one result per call in call order. [`RunOptions`] says how.

use std::borrow::Cow;
use std::collections::HashSet;
use std::future::Future;
use std::time::Duration;

use futures::future::{join_all, ready, Either};
use futures::stream::{self, StreamExt};

use crate::guard::trace;
use crate::policy::Policy;
use crate::values::call::{Arguments, CallKind, ToolCall};
use crate::values::dialect::Dialect;
use crate::values::result::{Failure, ToolResult};
use crate::values::text::{echo, echo_name};

/// How a turn's calls run.
///
/// ```
/// use std::time::Duration;
/// use toolnexus::RunOptions;
///
/// let options = RunOptions::default().with_concurrency(4).with_timeout(Duration::from_secs(30));
/// assert_eq!(options.concurrency, 4);
/// assert_eq!(RunOptions::default().concurrency, 8);
/// assert_eq!(RunOptions::default().timeout, None);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct RunOptions {
    /// How many calls of one turn run at once; default 8. `0` is taken as `1`.
    pub concurrency: usize,
    /// The longest one call may take; default none. A call that takes longer is dropped (so
    /// cancelled at its next `.await`) and answered with ``tool `NAME` timed out after 2s``; a
    /// panic while it is dropped is caught too (its payload goes to `metadata.panic`). A tool
    /// that blocks its thread without awaiting cannot be cut off.
    ///
    /// Uses Tokio's timer: run the turn inside a Tokio runtime with time enabled
    /// (`enable_time()` or `enable_all()` on its builder). Where the timer is missing, a timed
    /// call does not run: its result is an error that says so, for the host to fix its runtime
    /// (never "panicked"; Tokio's own message is in `metadata.runtime`, and nothing is printed
    /// to stderr).
    pub timeout: Option<Duration>,
    /// The calls were made under OpenAI strict mode (the tools were sent with `"strict": true`).
    /// Arguments are then read into a value before the tool runs, so that the `null`s strict
    /// mode makes the model send for optional arguments can be turned back into "absent".
    ///
    /// A toolkit that handed out strict tools itself ([`Toolkit::tools_for`](crate::Toolkit::tools_for)
    /// with [`ToolsOptions::with_strict`](crate::ToolsOptions::with_strict) for an OpenAI
    /// dialect, or the same on a [`Selection`](crate::Selection)) reads that dialect's calls as strict calls
    /// without this option; it is needed only for tools rendered by the free functions, or calls
    /// run by [`Toolkit::execute_calls`](crate::Toolkit::execute_calls), which names no dialect.
    pub openai_strict: bool,
}

impl Default for RunOptions {
    fn default() -> Self {
        Self {
            concurrency: 8,
            timeout: None,
            openai_strict: false,
        }
    }
}

impl RunOptions {
    /// The same options with at most `concurrency` calls running at once (`0` is taken as `1`).
    #[must_use]
    pub fn with_concurrency(mut self, concurrency: usize) -> Self {
        self.concurrency = concurrency;
        self
    }

    /// The same options with a per-call timeout.
    #[must_use]
    pub fn with_timeout(mut self, timeout: Duration) -> Self {
        self.timeout = Some(timeout);
        self
    }

    /// The same options for calls made under OpenAI strict mode; see [`RunOptions::openai_strict`].
    #[must_use]
    pub fn with_openai_strict(mut self, strict: bool) -> Self {
        self.openai_strict = strict;
        self
    }
}

/// What a call's span says of a tool, by its name (`Toolkit::described`).
pub(crate) type Describe<'a> = dyn Fn(&str) -> trace::Described + Sync + 'a;

/// Runs a turn's calls and returns exactly one result per call, in call order (what
/// [`Toolkit::execute_calls`](crate::Toolkit::execute_calls) promises).
///
/// `run(call, arguments)` runs one call (`arguments[i]` belongs to `calls[i]`, borrowed or
/// owned). Up to [`RunOptions::concurrency`] calls run at once, each under
/// [`RunOptions::timeout`]. A call whose id an earlier call of the turn has is answered without
/// running. A call of a tool the `policy` runs alone overlaps no other call.
pub(crate) async fn run_calls<'c, F, Fut>(
    calls: &'c [ToolCall],
    arguments: Vec<Cow<'c, Arguments>>,
    options: &RunOptions,
    dialect: Option<Dialect>,
    policy: Option<&Policy>,
    describe: &'c Describe<'c>,
    run: F,
) -> Vec<ToolResult>
where
    F: Fn(&'c ToolCall, Cow<'c, Arguments>) -> Fut,
    Fut: Future<Output = ToolResult>,
{
    let duplicate = repeated(calls);
    // Each call's future is built by value where it is stored: handed straight to `join_all`
    // (one allocation for the turn's futures) rather than collected first and moved again.
    let answers =
        calls
            .iter()
            .zip(arguments)
            .zip(duplicate)
            .map(|((call, arguments), duplicate)| {
                let runs = !duplicate && call.kind == CallKind::Function;
                let running = runs.then(|| run(call, arguments));
                answer(call, running, dialect, describe)
            });
    let limit = options.concurrency.max(1);
    if let Some(policy) =
        policy.filter(|p| p.has_alone() && calls.iter().any(|c| p.runs_alone(&c.name)))
    {
        let alone: Vec<bool> = calls.iter().map(|c| policy.runs_alone(&c.name)).collect();
        return in_order(answers.collect(), &alone, limit).await;
    }
    if calls.len() <= limit {
        // All at once anyway: `join_all` polls them in order from this task, without the
        // task allocation, waker and queue per call of `buffered`.
        join_all(answers).await
    } else {
        // Built up front (they do nothing until polled): a stream over the lazy `map` would
        // hold `run` across the awaits, and the turn's future would be `Send` only for a `Sync`
        // `run`.
        let answers: Vec<_> = answers.collect();
        stream::iter(answers).buffered(limit).collect().await
    }
}

/// For each call of a turn, whether an earlier call BY POSITION has its id (then it is answered
/// with [`duplicate`] without running; a call without an id repeats none). The one rule for a
/// whole response and for the end of a stream.
pub(crate) fn repeated(calls: &[ToolCall]) -> Vec<bool> {
    if calls.len() <= 16 {
        // A turn's few ids are compared pairwise rather than hashed (same answer).
        calls
            .iter()
            .enumerate()
            .map(|(i, call)| {
                call.id
                    .as_deref()
                    .is_some_and(|id| calls[..i].iter().any(|c| c.id.as_deref() == Some(id)))
            })
            .collect()
    } else {
        let mut seen = HashSet::with_capacity(calls.len());
        calls
            .iter()
            .map(|call| call.id.as_deref().is_some_and(|id| !seen.insert(id)))
            .collect()
    }
}

/// Awaits a turn's answers (each already in its span), up to `limit` at once, and returns their
/// results in order. A call marked `alone` overlaps no other: the answers before it finish
/// first, the ones after it start after it.
pub(crate) async fn in_order<Fut: Future<Output = ToolResult>>(
    answers: Vec<Fut>,
    alone: &[bool],
    limit: usize,
) -> Vec<ToolResult> {
    let limit = limit.max(1);
    if !alone.contains(&true) {
        return together(answers, limit).await;
    }
    let mut results = Vec::with_capacity(answers.len());
    let mut group = Vec::new();
    for (answer, &alone) in answers.into_iter().zip(alone) {
        if alone {
            results.extend(together(std::mem::take(&mut group), limit).await);
            results.push(answer.await);
        } else {
            group.push(answer);
        }
    }
    results.extend(together(group, limit).await);
    results
}

/// Answers that may overlap, up to `limit` at once, in order.
async fn together<Fut: Future<Output = ToolResult>>(
    answers: Vec<Fut>,
    limit: usize,
) -> Vec<ToolResult> {
    if answers.len() <= limit {
        join_all(answers).await
    } else {
        stream::iter(answers).buffered(limit).collect().await
    }
}

/// One call's answer, inside its span: `running` (already under its guard and timeout, see
/// `Toolkit::call`), or (`None`: a call of a type that is not run, or a duplicate id) the
/// refusal.
fn answer<'c, Fut: Future<Output = ToolResult> + 'c>(
    call: &'c ToolCall,
    running: Option<Fut>,
    dialect: Option<Dialect>,
    describe: &'c Describe<'c>,
) -> impl Future<Output = ToolResult> + 'c {
    // A plain fn building an `Either`, not an `async fn`: an `async fn` keeps its argument and
    // the future it awaits side by side, and the call's future would be stored twice over.
    let answering = match running {
        Some(running) => Either::Left(running),
        None => Either::Right(ready(unsupported(call).unwrap_or_else(|| duplicate(call)))),
    };
    let described = || describe(&call.name);
    trace::call(
        &call.name,
        call.id.as_deref(),
        dialect,
        described,
        answering,
    )
}

/// The answer to a call whose id an earlier call of the same turn has: it is not run. (The
/// streaming turn answers such a call with this too.)
pub(crate) fn duplicate(call: &ToolCall) -> ToolResult {
    ToolResult::failed(
        format!(
            "duplicate call id `{}`: an earlier call in this turn has it; this call was not run",
            echo(call.id.as_deref().unwrap_or_default())
        ),
        Failure::Refused,
    )
}

/// The answer to a call of a type a toolkit does not run ([`CallKind::Unsupported`]), naming
/// the type; `None` for a function call.
pub(crate) fn unsupported(call: &ToolCall) -> Option<ToolResult> {
    match &call.kind {
        CallKind::Function => None,
        CallKind::Unsupported(kind) => Some(ToolResult::failed(
            format!(
                "unsupported tool call type `{}`: `{}` was not run; only function tools run here",
                echo_name(kind),
                echo_name(&call.name)
            ),
            Failure::UnknownTool,
        )),
    }
}
