//! The `tool_call` span around each call, with the `tracing` feature; without it, nothing.
//!
//! The span carries what an operator needs to follow a turn (tool name, call id, dialect,
//! duration, is_error) and never the arguments, the output or a panic payload.

use std::future::Future;

use crate::values::dialect::Dialect;
use crate::values::result::ToolResult;

/// Runs one call's future inside its span and records how it ended.
#[cfg(feature = "tracing")]
pub(crate) async fn call<F: Future<Output = ToolResult>>(
    tool: &str,
    id: Option<&str>,
    dialect: Option<Dialect>,
    call: F,
) -> ToolResult {
    use tracing::field::{debug, Empty};
    use tracing::Instrument;

    let span = tracing::info_span!(
        target: "toolnexus",
        "tool_call",
        tool,
        call_id = Empty,
        dialect = Empty,
        duration_us = Empty,
        is_error = Empty,
    );
    if let Some(id) = id.filter(|id| !id.is_empty()) {
        span.record("call_id", id);
    }
    if let Some(dialect) = dialect {
        span.record("dialect", debug(dialect));
    }
    // tokio's clock, so a paused test clock gives exact durations.
    let start = tokio::time::Instant::now();
    let result = call.instrument(span.clone()).await;
    let micros = u64::try_from(start.elapsed().as_micros()).unwrap_or(u64::MAX);
    span.record("duration_us", micros);
    span.record("is_error", result.is_error);
    result
}

/// Without the `tracing` feature: the call's own future, untouched.
#[cfg(not(feature = "tracing"))]
pub(crate) fn call<F: Future<Output = ToolResult>>(
    _tool: &str,
    _id: Option<&str>,
    _dialect: Option<Dialect>,
    call: F,
) -> F {
    call
}
