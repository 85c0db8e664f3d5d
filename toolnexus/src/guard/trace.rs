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

/// Which end of an MCP call a span is on: OpenTelemetry's span kind for it.
#[derive(Clone, Copy)]
pub(crate) enum Side {
    /// Our client calling a server's tool (`otel.kind` `client`).
    Client,
    /// Our server answering a client's call (`otel.kind` `server`).
    Server,
}

/// Runs one MCP `tools/call` inside its span, as OpenTelemetry's MCP conventions name it:
/// `otel.name` `tools/call {tool}`, `otel.kind` `client` or `server`, `mcp.method.name`,
/// `gen_ai.tool.name`, `gen_ai.operation.name` `execute_tool`, `jsonrpc.request.id` where
/// known, and on failure `error.type` with `otel.status_code` `error`. The tool's own
/// `execute_tool` span (server side) or the host's (client side) nests with it; never the
/// arguments or the output.
#[cfg(feature = "tracing")]
pub(crate) async fn mcp<F: Future<Output = ToolResult>>(
    side: Side,
    tool: &str,
    request_id: Option<&str>,
    call: F,
) -> ToolResult {
    use tracing::field::Empty;
    use tracing::Instrument;

    let kind = match side {
        Side::Client => "client",
        Side::Server => "server",
    };
    let span = tracing::info_span!(
        target: "toolnexus",
        "tools/call",
        otel.name = %format_args!("tools/call {tool}"),
        otel.kind = kind,
        otel.status_code = Empty,
        mcp.method.name = "tools/call",
        gen_ai.operation.name = "execute_tool",
        gen_ai.tool.name = tool,
        jsonrpc.request.id = Empty,
        "error.type" = Empty,
    );
    if span.is_disabled() {
        return call.await;
    }
    if let Some(id) = request_id {
        span.record("jsonrpc.request.id", id);
    }
    let result = call.instrument(span.clone()).await;
    if result.is_error {
        span.record("error.type", result.failure.as_str());
        span.record("otel.status_code", "error");
    }
    result
}

/// Without the `tracing` feature: the call's own future, untouched.
#[cfg(not(feature = "tracing"))]
pub(crate) fn mcp<F: Future<Output = ToolResult>>(
    _side: Side,
    _tool: &str,
    _request_id: Option<&str>,
    call: F,
) -> F {
    call
}
