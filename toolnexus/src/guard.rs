//! Running a tool's future so that a panic becomes an error result instead of unwinding into the host.

use std::any::Any;
use std::future::Future;
use std::panic::AssertUnwindSafe;

use futures::FutureExt;
use serde_json::json;

use crate::ToolResult;

/// Runs `fut`; a panic inside it becomes ``tool `NAME` panicked``.
///
/// The model is not shown the panic payload (it may hold arguments or internals); the host finds
/// it in `metadata.panic`.
///
/// Combinators rather than an `async fn`: an `async fn` would move `fut` into its state again
/// on the first poll and add a layer every result is copied through (a sixth of a dispatch).
pub fn run<'a, F>(tool: &'a str, fut: F) -> impl Future<Output = ToolResult> + 'a
where
    F: Future<Output = ToolResult> + 'a,
{
    AssertUnwindSafe(fut)
        .catch_unwind()
        .map(move |outcome| match outcome {
            Ok(result) => result,
            Err(payload) => panicked(tool, payload.as_ref()),
        })
}

/// The error result for a tool that panicked with `payload`.
pub(crate) fn panicked(tool: &str, payload: &(dyn Any + Send)) -> ToolResult {
    let message = payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a non-string panic payload".to_owned());
    ToolResult::error(format!(
        "tool `{tool}` panicked; it could not complete this call"
    ))
    .with_metadata(json!({ "panic": message }))
}
