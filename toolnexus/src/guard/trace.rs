//! The `execute_tool` span around each call, with the `tracing` feature; without it, nothing.
//!
//! Named and filled as OpenTelemetry's GenAI semantic conventions name a tool's execution, so
//! `tracing-opentelemetry` exports it as they say: `otel.name` `execute_tool {tool}`,
//! `otel.kind` `internal`, `gen_ai.operation.name`, `gen_ai.tool.name`, `gen_ai.tool.call.id`,
//! `gen_ai.tool.type` and `gen_ai.tool.description` (looked up only when a subscriber takes the
//! span), and on failure `error.type` (one of a closed set) with `otel.status_code` `error`. Beside
//! them what an operator of toolnexus needs (`toolnexus.dialect`, `toolnexus.duration_us`,
//! `toolnexus.is_error`); never the arguments, the output or a panic payload.

use std::future::Future;

use crate::values::dialect::Dialect;
use crate::values::result::ToolResult;

/// What a span says of the tool a call names: its `gen_ai.tool.type` (`function`, or
/// `extension` for an MCP server's) and its description; asked only when a subscriber takes the
/// span (so its copy of the description costs nothing otherwise), and `None` for a name no tool
/// has.
pub(crate) type Described = Option<(&'static str, String)>;

/// Runs one call's future inside its span and records how it ended.
#[cfg(feature = "tracing")]
pub(crate) async fn call<F: Future<Output = ToolResult>>(
    tool: &str,
    id: Option<&str>,
    dialect: Option<Dialect>,
    describe: impl FnOnce() -> Described,
    call: F,
) -> ToolResult {
    use tracing::field::{debug, Empty};
    use tracing::Instrument;

    // A dotted name with a keyword in it (`error.type`) is written as a string: tracing 0.1.40,
    // the lowest version the manifest allows, reads such a name only that way.
    let span = tracing::info_span!(
        target: "toolnexus",
        "execute_tool",
        otel.name = %format_args!("execute_tool {tool}"),
        otel.kind = "internal",
        otel.status_code = Empty,
        gen_ai.operation.name = "execute_tool",
        gen_ai.tool.name = tool,
        gen_ai.tool.call.id = Empty,
        "gen_ai.tool.type" = Empty,
        gen_ai.tool.description = Empty,
        "error.type" = Empty,
        toolnexus.dialect = Empty,
        toolnexus.duration_us = Empty,
        toolnexus.is_error = Empty,
    );
    if span.is_disabled() {
        // No subscriber takes it: the call alone, without the clock, the wrapper or the records.
        return call.await;
    }
    if let Some((kind, description)) = describe() {
        span.record("gen_ai.tool.type", kind);
        span.record("gen_ai.tool.description", description.as_str());
    }
    if let Some(id) = id.filter(|id| !id.is_empty()) {
        span.record("gen_ai.tool.call.id", id);
    }
    if let Some(dialect) = dialect {
        span.record("toolnexus.dialect", debug(dialect));
    }
    // tokio's clock, so a paused test clock gives exact durations.
    let start = tokio::time::Instant::now();
    let result = call.instrument(span.clone()).await;
    let micros = u64::try_from(start.elapsed().as_micros()).unwrap_or(u64::MAX);
    span.record("toolnexus.duration_us", micros);
    span.record("toolnexus.is_error", result.is_error);
    if result.is_error {
        span.record("error.type", result.failure.as_str());
        span.record("otel.status_code", "error");
    }
    result
}

/// Without the `tracing` feature: the call's own future, untouched.
#[cfg(not(feature = "tracing"))]
pub(crate) fn call<F: Future<Output = ToolResult>>(
    _tool: &str,
    _id: Option<&str>,
    _dialect: Option<Dialect>,
    _describe: impl FnOnce() -> Described,
    call: F,
) -> F {
    call
}
