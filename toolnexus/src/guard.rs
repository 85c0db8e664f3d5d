//! Running a tool's future so that a panic becomes an error result instead of unwinding into the host.

use std::any::Any;
use std::future::{poll_fn, Future};
use std::panic::{self, AssertUnwindSafe};
use std::pin::pin;
use std::task::Poll;

use serde_json::json;

use crate::result::ToolResult;

/// Runs `fut`; a panic inside it becomes ``tool `NAME` panicked``.
///
/// The model is not shown the panic payload (it may hold arguments or internals); the host finds
/// it in `metadata.panic`.
pub async fn run<F: Future<Output = ToolResult>>(tool: &str, fut: F) -> ToolResult {
    let mut fut = pin!(fut);
    poll_fn(move |cx| {
        // The result is written straight into `ready` rather than returned through
        // `catch_unwind`: every copy of a fresh 64-byte result costs a store-forwarding stall,
        // and this is on every call's path.
        let mut ready = None;
        let polled = panic::catch_unwind(AssertUnwindSafe(|| {
            if let Poll::Ready(result) = fut.as_mut().poll(cx) {
                ready = Some(result);
            }
        }));
        match polled {
            Ok(()) => ready.map_or(Poll::Pending, Poll::Ready),
            Err(payload) => Poll::Ready(panicked(tool, payload.as_ref())),
        }
    })
    .await
}

/// The error result for a tool that panicked with `payload`.
pub(crate) fn panicked(tool: &str, payload: &(dyn Any + Send)) -> ToolResult {
    let message = message(payload);
    ToolResult::error(format!(
        "tool `{tool}` panicked; it could not complete this call"
    ))
    .with_metadata(json!({ "panic": message }))
}

/// A panic payload as text, for the host (`metadata.panic`), never for the model.
pub(crate) fn message(payload: &(dyn Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a non-string panic payload".to_owned())
}
