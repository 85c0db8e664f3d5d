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
#[cfg(feature = "mcp")]
#[derive(Clone, Copy)]
pub(crate) enum Side {
    /// Our client calling a server's tool (`otel.kind` `client`).
    Client,
    /// Our server answering a client's call (`otel.kind` `server`).
    Server,
}

/// Runs one MCP `tools/call` inside its span, as OpenTelemetry's MCP conventions name it:
/// `otel.name` `tools/call {tool}`, `otel.kind` `client` or `server`, `mcp.method.name`,
/// `gen_ai.tool.name`, `gen_ai.operation.name` `execute_tool`, `network.transport`,
/// `jsonrpc.request.id` and `mcp.session.id` where known, and on failure `error.type` with
/// `otel.status_code` `error`. The tool's own
/// `execute_tool` span (server side) or the host's (client side) nests with it; never the
/// arguments or the output.
#[cfg(all(feature = "mcp", feature = "tracing"))]
pub(crate) async fn mcp<F: Future<Output = ToolResult>>(
    side: Side,
    tool: &str,
    request: McpRequest<'_>,
    call: F,
) -> ToolResult {
    let McpRequest {
        id: request_id,
        parent,
        session,
        transport,
    } = request;
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
        mcp.session.id = Empty,
        network.transport = transport,
        "error.type" = Empty,
    );
    if span.is_disabled() {
        return call.await;
    }
    // The parent first, before anything is recorded: the bridge starts the span at its first
    // record, and a started span keeps the parent it started with.
    #[cfg(feature = "otel")]
    if let Some(parent) = parent.and_then(remote_parent) {
        use tracing_opentelemetry::OpenTelemetrySpanExt;
        // Without the host's `tracing-opentelemetry` layer there is nothing to continue.
        let _ = span.set_parent(parent);
    }
    #[cfg(not(feature = "otel"))]
    let _ = parent;
    if let Some(id) = request_id {
        span.record("jsonrpc.request.id", id);
    }
    if let Some(session) = session {
        span.record("mcp.session.id", session);
    }
    let result = call.instrument(span.clone()).await;
    if result.is_error {
        span.record("error.type", result.failure.as_str());
        span.record("otel.status_code", "error");
    }
    result
}

/// Without the `tracing` feature: the call's own future, untouched.
#[cfg(all(feature = "mcp", not(feature = "tracing")))]
pub(crate) fn mcp<F: Future<Output = ToolResult>>(
    _side: Side,
    _tool: &str,
    _request: McpRequest<'_>,
    call: F,
) -> F {
    call
}

/// What an MCP call's span says of its request: the JSON-RPC id (server side), the
/// `traceparent` it carried (server side, feature `otel`), the session (`Mcp-Session-Id`, over
/// HTTP), and OpenTelemetry's `network.transport` (`pipe` for stdio, `tcp` for HTTP).
#[cfg(feature = "mcp")]
#[derive(Clone, Copy)]
#[cfg_attr(not(feature = "tracing"), allow(dead_code))]
pub(crate) struct McpRequest<'a> {
    pub(crate) id: Option<&'a str>,
    pub(crate) parent: Option<&'a str>,
    pub(crate) session: Option<&'a str>,
    pub(crate) transport: &'static str,
}

/// The W3C `traceparent` of the current span (`00-{trace}-{span}-{flags}`), for an MCP request's
/// `_meta` (feature `otel`); `None` without a valid OpenTelemetry span context.
#[cfg(all(feature = "mcp", feature = "otel"))]
pub(crate) fn traceparent() -> Option<String> {
    use opentelemetry::trace::TraceContextExt;
    use tracing_opentelemetry::OpenTelemetrySpanExt;
    let context = tracing::Span::current().context();
    let span = context.span();
    let span = span.span_context();
    span.is_valid().then(|| {
        format!(
            "00-{}-{}-{:02x}",
            span.trace_id(),
            span.span_id(),
            span.trace_flags().to_u8()
        )
    })
}

/// Without the `otel` feature: none.
#[cfg(all(feature = "mcp", not(feature = "otel")))]
pub(crate) fn traceparent() -> Option<String> {
    None
}

/// The remote parent a W3C `traceparent` names (version `00`: 32 hex digits of trace id, 16 of
/// span id, 2 of flags); `None` for any other text, or all-zero ids.
#[cfg(all(feature = "mcp", feature = "otel"))]
fn remote_parent(traceparent: &str) -> Option<opentelemetry::Context> {
    use opentelemetry::trace::{
        SpanContext, SpanId, TraceContextExt, TraceFlags, TraceId, TraceState,
    };
    let mut parts = traceparent.trim().split('-');
    let (Some("00"), Some(trace), Some(span), Some(flags), None) = (
        parts.next(),
        parts.next(),
        parts.next(),
        parts.next(),
        parts.next(),
    ) else {
        return None;
    };
    let hex = |s: &str, len: usize| s.len() == len && s.bytes().all(|b| b.is_ascii_hexdigit());
    if !hex(trace, 32) || !hex(span, 16) || !hex(flags, 2) {
        return None;
    }
    let trace = TraceId::from_hex(trace).ok()?;
    let span = SpanId::from_hex(span).ok()?;
    let flags = TraceFlags::new(u8::from_str_radix(flags, 16).ok()?);
    let context = SpanContext::new(trace, span, flags, true, TraceState::default());
    context
        .is_valid()
        .then(|| opentelemetry::Context::new().with_remote_span_context(context))
}

#[cfg(all(test, feature = "mcp", feature = "otel"))]
mod tests {
    use opentelemetry::trace::TraceContextExt;

    #[test]
    fn a_traceparent_names_its_remote_parent_and_anything_else_none() {
        let parent =
            super::remote_parent("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")
                .expect("a valid traceparent");
        let span = parent.span();
        let context = span.span_context();
        assert!(context.is_remote() && context.is_sampled());
        assert_eq!(context.span_id().to_string(), "00f067aa0ba902b7");
        for bad in [
            "",
            "01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
            "00-00000000000000000000000000000000-00f067aa0ba902b7-01",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",
            "00-4bf92f3577b34da6a3ce929d0e0e473-00f067aa0ba902b7-01",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902bz-01",
        ] {
            assert!(super::remote_parent(bad).is_none(), "{bad}");
        }
    }
}
