//! The one panic guard of a call: building the tool's future, the future, its drop (also when
//! the timeout cuts it off) and a panic payload's drop all run under it, so a panic anywhere in
//! user code becomes an error result instead of unwinding into the host.

pub(crate) mod trace;

use std::any::Any;
use std::cell::Cell;
use std::future::{poll_fn, Future};
use std::panic::{self, AssertUnwindSafe};
use std::pin::{pin, Pin};
use std::sync::Once;
use std::task::Poll;
use std::time::Duration;

use serde_json::json;
use tokio::time::error::Elapsed;

use crate::values::result::{Failure, ToolResult};

/// Awaits one call of tool `$tool` under [`guarded`]: `$start` builds the tool's future, run
/// under `tokio::time::timeout` when `$timeout` is set. A macro, not an `async fn`, so the
/// untimed path has no state machine of its own between the toolkit and the guard, and no
/// wrapper to poll through. Where Tokio's timer is missing, a timed call does not start (see
/// [`no_timer`]).
macro_rules! run {
    ($tool:expr, $timeout:expr, $start:expr) => {{
        let start = $start;
        match $timeout {
            None => $crate::guard::guarded($tool, None, start).await,
            Some(limit) => match $crate::guard::no_timer($tool) {
                Some(refused) => refused,
                None => {
                    $crate::guard::guarded($tool, $timeout, move || {
                        tokio::time::timeout(limit, start())
                    })
                    .await
                }
            },
        }
    }};
}
pub(crate) use run;

/// What a guarded future ends with: the tool's result, or the timeout's error.
pub(crate) trait Outcome {
    /// The result, and whether the timeout cut the call off.
    fn into_result(self, tool: &str, timeout: Option<Duration>) -> (ToolResult, bool);
}

impl Outcome for ToolResult {
    fn into_result(self, _: &str, _: Option<Duration>) -> (ToolResult, bool) {
        (self, false)
    }
}

impl Outcome for Result<ToolResult, Elapsed> {
    fn into_result(self, tool: &str, timeout: Option<Duration>) -> (ToolResult, bool) {
        match self {
            Ok(result) => (result, false),
            Err(_) => (timed_out(tool, timeout), true),
        }
    }
}

/// Runs one call of tool `tool`: `start()` builds the tool's future (a closure called before it
/// returns its future, a hand-written `execute` doing work before `Box::pin`), which then runs.
/// With a `timeout`, `start()` builds the tool's future under `tokio::time::timeout(timeout, _)`
/// ([`run!`] picks which).
///
/// One `catch_unwind` per poll covers `start`, every poll of the future and the future's drop:
/// when it finished, when the timeout cut it off, and when this guard is itself dropped before
/// the call finished. A panic becomes ``tool `NAME` panicked; it could not complete this call``;
/// a panic while a timed-out call is being dropped leaves the timeout's error
/// (``tool `NAME` timed out after 2s``), since the call had already run out of time. Either
/// way the payload's text goes to `metadata.panic` (for the host, never the model), and the
/// payload itself is dropped under a catch too.
pub(crate) async fn guarded<S, G>(tool: &str, timeout: Option<Duration>, start: S) -> ToolResult
where
    S: FnOnce() -> G,
    G: Future,
    G::Output: Outcome,
{
    let mut start = Some(start);
    let mut slot = Slot(pin!(None::<G>));
    // Set just before a timed-out call is dropped: a panic then belongs to the timeout.
    let mut cancelling = false;
    poll_fn(|cx| {
        // The result is written into `ready` rather than returned through `catch_unwind`: every
        // copy of a fresh 64-byte result costs a store-forwarding stall, on every call's path.
        let mut ready = None;
        let polled = panic::catch_unwind(AssertUnwindSafe(|| {
            if let Some(start) = start.take() {
                slot.0.set(Some(start()));
            }
            let Some(running) = slot.0.as_mut().as_pin_mut() else {
                return;
            };
            if let Poll::Ready(outcome) = running.poll(cx) {
                let (result, timed_out) = outcome.into_result(tool, timeout);
                cancelling = timed_out;
                // Dropped here, under the catch: a finished future and a cut-off one alike.
                slot.0.set(None);
                ready = Some(result);
            }
        }));
        match polled {
            Ok(()) => ready.map_or(Poll::Pending, Poll::Ready),
            Err(payload) => {
                let panic = message(payload.as_ref());
                drop_payload(payload);
                // The future that panicked, if any is left, is dropped now, under a catch too.
                slot.clear();
                let result = if cancelling {
                    timed_out(tool, timeout)
                } else {
                    ToolResult::failed(
                        format!("tool `{tool}` panicked; it could not complete this call"),
                        Failure::Panic,
                    )
                };
                Poll::Ready(result.with_metadata(json!({ "panic": panic })))
            }
        }
    })
    .await
}

/// A tool's own future, boxed, as `Tool::call` returns it.
pub(crate) type Running<'a> = Pin<Box<dyn Future<Output = ToolResult> + Send + 'a>>;

/// One call of tool `tool` already started: `start()`, the call of the tool's `call`, ran now
/// under a catch, and its future is polled and dropped under the guard exactly as [`guarded`]
/// does (a panic while it runs, or while it is dropped once finished, is the same error result;
/// dropped before it finished, the future is dropped under a catch too). What a call by name
/// without a timeout returns: a small future of its own (the tool's name and its boxed future),
/// which nothing moves after it is made, instead of a state machine that holds the call's
/// arguments while it starts (each of its moves a store-forwarding stall, about a fifth of a
/// call by name).
pub(crate) fn started<'a>(tool: &'a str, start: impl FnOnce() -> Running<'a>) -> Started<'a> {
    let running = match panic::catch_unwind(AssertUnwindSafe(start)) {
        Ok(running) => running,
        Err(payload) => Box::pin(std::future::ready(panicked(tool, payload))),
    };
    Started {
        tool,
        running: Some(running),
    }
}

/// The future of [`started`].
pub(crate) struct Started<'a> {
    tool: &'a str,
    /// `None` once finished (or after a panic).
    running: Option<Running<'a>>,
}

impl<'a> Started<'a> {
    /// A call answered without running (an unknown tool, arguments past the limits).
    pub(crate) fn answered(tool: &'a str, result: ToolResult) -> Self {
        Self {
            tool,
            running: Some(Box::pin(std::future::ready(result))),
        }
    }
}

impl Future for Started<'_> {
    type Output = ToolResult;

    fn poll(mut self: Pin<&mut Self>, cx: &mut std::task::Context<'_>) -> Poll<ToolResult> {
        let this = &mut *self;
        let slot = &mut this.running;
        // As in `guarded`: the result is written into `ready` rather than returned through the
        // catch, and a finished future is dropped inside it.
        let mut ready = None;
        let polled = panic::catch_unwind(AssertUnwindSafe(|| {
            let Some(running) = slot.as_mut() else {
                return;
            };
            if let Poll::Ready(result) = running.as_mut().poll(cx) {
                ready = Some(result);
                *slot = None;
            }
        }));
        match polled {
            Ok(()) => ready.map_or(Poll::Pending, Poll::Ready),
            Err(payload) => {
                this.clear();
                Poll::Ready(panicked(this.tool, payload))
            }
        }
    }
}

impl Started<'_> {
    /// Drops the tool's future, if any is left, under a catch.
    fn clear(&mut self) {
        if self.running.is_some() {
            if let Err(payload) = panic::catch_unwind(AssertUnwindSafe(|| self.running = None)) {
                drop_payload(payload);
            }
        }
    }
}

impl Drop for Started<'_> {
    fn drop(&mut self) {
        self.clear();
    }
}

/// ``tool `NAME` panicked; it could not complete this call``, with the payload's text in
/// `metadata.panic` (the payload itself dropped under a catch).
fn panicked(tool: &str, payload: Box<dyn Any + Send>) -> ToolResult {
    let panic = message(payload.as_ref());
    drop_payload(payload);
    ToolResult::failed(
        format!("tool `{tool}` panicked; it could not complete this call"),
        Failure::Panic,
    )
    .with_metadata(json!({ "panic": panic }))
}

/// Runs `f`, host code for one call of `tool` (a hook), under a catch like [`guarded`]'s: a panic
/// is ``hook WHEN `NAME` panicked; DOES``, with the payload's text in `metadata.panic`.
pub(crate) fn hook<T>(
    tool: &str,
    when: &str,
    does: &str,
    f: impl FnOnce() -> T,
) -> Result<T, ToolResult> {
    panic::catch_unwind(AssertUnwindSafe(f)).map_err(|payload| {
        let panic = message(payload.as_ref());
        drop_payload(payload);
        ToolResult::failed(
            format!("hook {when} `{tool}` panicked; {does}"),
            Failure::Panic,
        )
        .with_metadata(json!({ "panic": panic }))
    })
}

/// Where a call's future lives: emptying it (also when the guard is dropped before the call
/// finished, as when the caller drops the turn) drops the future under a catch.
struct Slot<'a, T>(Pin<&'a mut Option<T>>);

impl<T> Slot<'_, T> {
    fn clear(&mut self) {
        if self.0.is_some() {
            if let Err(payload) = panic::catch_unwind(AssertUnwindSafe(|| self.0.set(None))) {
                drop_payload(payload);
            }
        }
    }
}

impl<T> Drop for Slot<'_, T> {
    fn drop(&mut self) {
        self.clear();
    }
}

/// The answer to a timed call where Tokio's timer cannot run, or `None` where it can.
///
/// `tokio::time::timeout` panics when the runtime was built without `enable_time()` (or there is
/// no Tokio runtime at all), and Tokio offers no query for that. Inside the guard, that panic
/// read ``tool `NAME` panicked``: the host's setup blamed on the tool. So a sleep is built here
/// first, under its own catch, before any of the tool's code runs; if Tokio refuses it, the call
/// is not run and its result says what the host must change (Tokio's message is in
/// `metadata.runtime`). An error result, not an `Err`: every call still gets exactly one result,
/// and the next request can be sent once the host has fixed its runtime.
///
/// The probe's panic is caught silently: Tokio's "timers are disabled" would otherwise go
/// through the process's panic hook to stderr (with a backtrace), although the result already
/// says it. The hook is wrapped once, at the first timed call, so that a panic on this thread
/// while it probes is not printed; every other panic reaches the previous hook as before.
pub(crate) fn no_timer(tool: &str) -> Option<ToolResult> {
    let probe = quietly(|| drop(tokio::time::sleep(Duration::ZERO)));
    let payload = probe.err()?;
    let runtime = message(payload.as_ref());
    drop_payload(payload);
    let text = format!(
        "tool `{tool}` was not run: the host's setup, not this call, is at fault. \
         `RunOptions::with_timeout` needs Tokio's timer, which this call's runtime lacks; \
         build the Tokio runtime with `enable_time()` or `enable_all()`"
    );
    Some(ToolResult::failed(text, Failure::Refused).with_metadata(json!({ "runtime": runtime })))
}

thread_local! {
    /// This thread is probing (see [`no_timer`]): a panic here is expected and caught.
    static PROBING: Cell<bool> = const { Cell::new(false) };
}

/// `f` under a catch whose panic, expected, is not printed by the panic hook.
fn quietly(f: impl FnOnce() + panic::UnwindSafe) -> std::thread::Result<()> {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if !PROBING.with(Cell::get) {
                previous(info);
            }
        }));
    });
    PROBING.with(|p| p.set(true));
    let caught = panic::catch_unwind(f);
    PROBING.with(|p| p.set(false));
    caught
}

/// ``tool `NAME` timed out after LIMIT``.
fn timed_out(tool: &str, timeout: Option<Duration>) -> ToolResult {
    let limit = timeout.unwrap_or_default();
    ToolResult::failed(
        format!("tool `{tool}` timed out after {limit:?}"),
        Failure::Timeout,
    )
}

/// Drops a panic payload under a catch: its own `Drop` may panic. The payload of that second
/// panic is forgotten, not dropped, since its `Drop` might panic again, and so on without end.
fn drop_payload(payload: Box<dyn Any + Send>) {
    if let Err(again) = panic::catch_unwind(AssertUnwindSafe(move || drop(payload))) {
        #[allow(
            clippy::mem_forget,
            reason = "dropping it could panic again, without end"
        )]
        std::mem::forget(again);
    }
}

/// A panic payload as text, for the host (`metadata.panic`), never for the model.
fn message(payload: &(dyn Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a non-string panic payload".to_owned())
}
