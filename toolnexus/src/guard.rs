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
pub async fn run<F: Future<Output = ToolResult>>(tool: &str, fut: F) -> ToolResult {
    match AssertUnwindSafe(fut).catch_unwind().await {
        Ok(result) => result,
        Err(payload) => panicked(tool, payload.as_ref()),
    }
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
