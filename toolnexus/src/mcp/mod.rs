//! MCP, both ways (feature `mcp`, on [rmcp](https://docs.rs/rmcp), the official Rust MCP SDK).
//!
//! **Tools from MCP servers.** [`McpSource`] says how to start a server (a child process
//! spoken to over stdio) and which of its tools to take; [`McpSource::connect`] gives an
//! [`McpConnection`] whose tools ([`McpTool`]) join a [`Toolkit`](crate::Toolkit) like any
//! other: the same schema rules as a hand-written schema, the same call path (limits, panic
//! guard, timeout), then `tools/call`.
//!
//! **Serving a toolkit.** [`McpServer`] answers `tools/list` and `tools/call` for any
//! [`Toolkit`](crate::Toolkit) (or the latest toolkit of a [`LiveToolkit`], sending
//! `list_changed` when it changes: [`McpServer::live`]), over stdio
//! ([`McpServer::serve_stdio`]) or any byte streams; with `mcp-http`, over streamable HTTP as a
//! tower `Service` a host mounts behind its own layers (`McpServer::http_service`,
//! `McpHttpService`), secure by default and bounded in everything a client can make it hold
//! (the guide's section on security and deployment).
//!
//! ```no_run
//! use toolnexus::mcp::McpSource;
//! use toolnexus::{Dialect, Toolkit};
//!
//! # async fn run(response: serde_json::Value) -> Result<(), Box<dyn std::error::Error>> {
//! let time = McpSource::stdio("time", "uvx").arg("mcp-server-time").connect().await?;
//! // Tools that could not be used, and why (for the host's own log).
//! let left_out: Vec<String> = time.skipped().iter().map(|s| format!("{}: {}", s.tool, s.reason)).collect();
//! let mut toolkit = Toolkit::new();
//! time.add_to(&mut toolkit)?;
//! let body = serde_json::json!({"tools": toolkit.to_anthropic()});
//! // ... send `body`, then answer the model's response:
//! let turn = toolkit.respond(&response, Dialect::Anthropic).await?;
//! # Ok(()) }
//! ```
//!
//! # Faults and limits
//!
//! | what the server does | what the host or the model gets |
//! |---|---|
//! | does not start, fails or stalls the handshake or the listing | [`McpError`] from `connect` (after [`McpSource::with_connect_timeout`], one deadline for the handshake and all pages) |
//! | a tool whose schema cannot be sent, name too long or taken twice, description or schema past [`McpLimits`], tools past its byte budget | that tool left out, the reason in [`McpConnection::skipped`]; the others load |
//! | a `tools/list` entry that is not an MCP tool, or one no JSON reader can read (a lone surrogate, nesting past 127 levels) | that tool left out, the reason in `skipped` naming it; the others load |
//! | a `tools/list` answer that is not a list of tools at all | [`McpError::List`] from `connect` |
//! | more tools than [`McpLimits::max_tools`], more pages than [`McpLimits::max_pages`] | the rest left out, said in `skipped` (at most [`McpLimits::max_skipped`] reasons, then a count) |
//! | a tool name the toolkit already has | [`McpError::NameTaken`] from [`McpConnection::add_to`], naming server and tool |
//! | exits, closes the pipe, answers a call with a JSON-RPC error | that call's result is an error naming the server, at once (the server's message cut to 300 characters, control characters escaped) |
//! | a message past [`McpLimits::max_message_bytes`] or [`McpLimits::max_message_values`] (a stdio line, an HTTP body or event) | never parsed; the request it answers fails at once naming the limit (a `tools/list` page past the value count loses its largest entries, said in `skipped`, until it fits) |
//! | an answer no reader can decode (a lone surrogate, nesting past 127 levels) | the request it answers fails at once, saying why |
//! | hangs, or answers malformed JSON-RPC | that call's result is an error naming the server after [`McpSource::with_call_timeout`] (60 s by default) |
//! | `isError: true` | an error result with its text |
//! | `notifications/tools/list_changed` | the tools are listed again ([`McpConnection::changed`]); a [`LiveToolkit`] swaps them in, calls in flight finish |
//! | a flood of `list_changed` | one listing at a time, and one more for all that came meanwhile |
//!
//! A server's text that reaches an error, [`McpTool::remote_name`] or [`Skipped::tool`] has its
//! control characters escaped. Over streamable HTTP the SDK holds each message to
//! [`McpLimits::max_message_bytes`] before parsing it (the JSON-value count is stdio's only).
//!
//! # Logs
//!
//! This module logs nothing. rmcp does: at DEBUG level (targets under `rmcp`) it records each
//! request and response it handles, arguments and outputs included. If your logs must not hold
//! them, keep `rmcp` at INFO or above (`RUST_LOG=info,rmcp=info`, or your subscriber's filter).

mod client;
mod config;
mod content;
mod error;
mod frame;
mod logging;
mod progress;
mod scan;
mod server;

#[cfg(feature = "mcp-oauth")]
pub use client::OAuth;
pub use client::{
    LiveToolkit, McpConnection, McpLimits, McpSource, McpTool, Skipped, DEFAULT_CALL_TIMEOUT,
    DEFAULT_CONNECT_TIMEOUT,
};
pub use config::{McpConfig, McpConfigError, McpLoaded, McpStatus};
pub use error::McpError;
#[cfg(feature = "mcp-http")]
pub use server::{
    serve_bounded, ClientKey, Grant, HttpOptions, McpHttpBody, McpHttpService, PeerAddr,
    ResourceServer, DEFAULT_MAX_CONNECTIONS, DEFAULT_MAX_SESSIONS, DEFAULT_READ_TIMEOUT,
    DEFAULT_SESSION_IDLE_TIMEOUT,
};
pub use server::{
    McpServer, DEFAULT_MAX_CALLS, DEFAULT_MAX_CALLS_PER_SESSION, DEFAULT_MAX_REQUEST_BYTES,
    DEFAULT_MAX_REQUEST_VALUES, DEFAULT_PAGE_SIZE, DEFAULT_SERVE_TIMEOUT,
};
