//! Hand your application's own async functions to any LLM as tools.
//!
//! Put [`#[tool]`](macro@tool) on an ordinary function: its `///` docs become the descriptions
//! and its parameter types a JSON Schema. Collect tools in a [`Toolkit`], put
//! `toolkit.to_gemini()` (or `to_openai()`, `to_anthropic()`) into the request body you send,
//! and answer the model's response with [`Toolkit::respond`]: it runs the calls concurrently and
//! returns the [`Turn`], with the message(s) the provider expects next.
//!
//! ```
//! use serde_json::json;
//! use toolnexus::{tool, Dialect, Toolkit};
//!
//! /// Current weather for a city.
//! #[tool]
//! async fn get_weather(
//!     /// City name, e.g. Chennai.
//!     city: String,
//!     /// Days ahead; today when absent.
//!     days: Option<u8>,
//! ) -> String {
//!     format!("sunny in {city}, {} day(s) ahead", days.unwrap_or(0))
//! }
//!
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! // `#[tool] fn get_weather` also defines the tool type `GetWeather`.
//! let toolkit = Toolkit::new().with(GetWeather)?;
//!
//! // A Gemini generateContent request body: every tool in one `functionDeclarations` entry.
//! let body = json!({
//!     "contents": [{"role": "user", "parts": [{"text": "Weather in Chennai?"}]}],
//!     "tools": toolkit.to_gemini(),
//! });
//! let declaration = &body["tools"][0]["functionDeclarations"][0];
//! assert_eq!(declaration["name"], "get_weather");
//! assert_eq!(declaration["parameters"]["required"], json!(["city"]));
//!
//! // The model's response: run its calls, get the contents to append to `contents` (the
//! // model's own content, then the results).
//! let response = json!({"candidates": [{"content": {"role": "model", "parts": [
//!     {"functionCall": {"name": "get_weather", "args": {"city": "Chennai"}}}]}}]});
//! let next = toolkit.respond(&response, Dialect::Gemini).await?.into_messages();
//! assert_eq!(
//!     next[1]["parts"][0]["functionResponse"]["response"]["output"],
//!     "sunny in Chennai, 0 day(s) ahead"
//! );
//! # Ok(()) }
//! ```
//!
//! Everything a model can get wrong (bad arguments, an unknown tool, a tool that fails or
//! panics) comes back as an error [`ToolResult`] the model can read and act on, never as a
//! panic or an `Err`. [`Error`] is only for the host's own mistakes at start-up, such as an
//! invalid tool name or two tools with the same name; [`ResponseError`] is for a provider
//! response that cannot be read.
//!
//! Tools also come from a closure and a hand-written schema ([`NativeTool::of`]) or from your
//! own [`Tool`] implementation. [`Dialect`] reads calls and renders results for every
//! provider of [`Dialect::ALL`] (OpenAI Chat, OpenAI Responses, Anthropic, Gemini, Bedrock,
//! Cohere); [`Toolkit::execute`] runs one call by name.
//!
//! The [`guide`] pages cover what spans many items: what each provider gets and how Rust types
//! reach it, errors and what to do about them, security, images and files in results, typed
//! answers ([`Output`]: your own type as the model's final answer), and performance. [`stream`] answers calls while a streamed response is still arriving.
//! [`transcript`] moves a conversation to another provider, [`deferred`] sends the tools of a
//! large catalog only once the model searched for them, and [`openai::Profile`] states what an
//! OpenAI-compatible server (Ollama, vLLM, Mistral, ...) does differently.
//!
//! # Dependencies
//!
//! `#[tool]` parameters of standard types (`String`, integers, `Option`, `Vec`, …) need no
//! other crate. Your own argument types derive `serde::Deserialize` and `schemars::JsonSchema`,
//! so your crate then depends on `serde` (with `derive`) and `schemars = "1"` as well.
//!
//! # Feature `tracing`
//!
//! Off by default. With `toolnexus = { version = "0.1", features = ["tracing"] }` every call
//! runs inside one [tracing](https://docs.rs/tracing) span, named `execute_tool` with target
//! `toolnexus` at level INFO, named and filled as OpenTelemetry's GenAI semantic conventions
//! name a tool's execution (through `tracing-opentelemetry`: `otel.name` is
//! `execute_tool {name}`, `otel.kind` `internal`): `gen_ai.operation.name` (`execute_tool`),
//! `gen_ai.tool.name` (the name the model called), `gen_ai.tool.call.id` (when the call has
//! one), `gen_ai.tool.type` (`function`, or `extension` for an MCP server's tool) and
//! `gen_ai.tool.description` (for a tool the toolkit has), and for a failed call `error.type`, one of `tool_error`, `invalid_arguments`,
//! `unknown_tool`, `timeout`, `panic`, `refused` (the policy, the host or a repeated id) and
//! `limit`, with `otel.status_code` `error`. Beside them: `toolnexus.dialect` (the
//! [`Dialect`]'s variant name, when the call came from a response), `toolnexus.duration_us` and
//! `toolnexus.is_error`. Arguments, outputs and panic payloads are never recorded. Events your
//! tool emits nest inside its call's span. A panicking or timed-out call still closes its span.
//! With `mcp`, each MCP `tools/call` gets a span of its own too, as OpenTelemetry's MCP
//! conventions name it (`tools/call {name}`, kind `client` in our client and `server` in our
//! server, `mcp.method.name`, `gen_ai.tool.name`, `network.transport`, `jsonrpc.request.id`
//! and `mcp.session.id` on the server), around
//! the call's `execute_tool` span on the server side and inside it on the client side. Feature
//! `otel` also carries the W3C `traceparent` in each call's `params._meta`, so a trace runs
//! from the host through our client and our server to the served tool as one tree (hosts
//! export through `tracing-opentelemetry` 0.34 and `opentelemetry` 0.33).
//!
//! # Features `mcp`, `mcp-http` and `mcp-oauth`
//!
//! Off by default. The module `mcp` (on rmcp, the official Rust MCP SDK; Rust 1.88) brings the tools of
//! MCP servers into a [`Toolkit`] and serves a [`Toolkit`] as an MCP server, over stdio;
//! `mcp-http` adds streamable HTTP both ways; `mcp-oauth` lets the HTTP client authorize itself
//! with OAuth 2.1 as the MCP authorization spec describes (`McpSource::with_oauth`).
//!
//! toolnexus turns on serde_json's `preserve_order` feature, so schema keys keep the order they
//! were written in. Cargo unifies features, so every `serde_json::Map` in your application then
//! keeps insertion order instead of sorting its keys; call `Value::sort_all_objects` where you
//! need sorted output.
#![forbid(unsafe_code)]
#![warn(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

// The module graph, lowest layer first, is drawn in ARCHITECTURE.md and enforced by
// tests/meta/architecture.rs.
pub mod anthropic;
pub mod approval;
pub mod ask;
pub mod bedrock;
mod codegen;
pub mod cohere;
mod decode;
pub mod deferred;
mod dispatch;
pub mod gemini;
mod guard;
mod limits;
#[cfg(feature = "mcp")]
#[cfg_attr(docsrs, doc(cfg(feature = "mcp")))]
pub mod mcp;
pub mod openai;
mod output;
mod policy;
mod response;
mod schema;
pub mod search;

/// Tool names: the rule every provider accepts (1 to 64 characters from `[A-Za-z0-9_-]`),
/// checked ([`validate`](name::validate)) and repaired ([`sanitize`](name::sanitize)).
pub mod name {
    pub use crate::tool::{sanitize, validate_name as validate, MAX_NAME_LEN as MAX_LEN};
}
/// What a tool logs through its [`CallContext`] ([`CallContext::log`]): how severe
/// ([`LogLevel`](logging::LogLevel)) and what a host's [`Hooks::on_log`] or an MCP client
/// receives ([`LogMessage`](logging::LogMessage)).
pub mod logging {
    pub use crate::tool::logging::{LogLevel, LogMessage};
}
pub mod stream;
mod tool;
mod toolkit;
pub mod transcript;
mod turn;
mod values;
mod wire;

pub use anthropic::to_anthropic;
pub use dispatch::tools_array::ToolsArray;
pub use gemini::to_gemini;
pub use limits::Limits;
pub use openai::to_openai;
pub use output::{AnswerError, Output, OutputTool};
pub use policy::{Gate, Hooks, Policy};
pub use response::{RanCalls, Remedy, ResponseError, TokenLimit};
pub use schema::InputSchema;
pub use tool::call_args::CallArgs;
pub use tool::context::{CallContext, Progress};
pub use tool::hints::ToolHints;
pub use tool::native::NativeTool;
pub use tool::set::ToolSet;
pub use tool::{Tool, ToolSource};
pub use toolkit::selection::Selection;
pub use toolkit::Toolkit;
#[doc = include_str!("../docs/tool.md")]
#[doc(inline)]
pub use toolnexus_macros::tool;
pub use turn::batch::RunOptions;
pub use turn::Turn;
pub use values::call::{Arguments, CallKind, ToolCall};
pub use values::dialect::Dialect;
pub use values::error::{Error, SchemaError};
pub use values::media::{Media, MediaSupport};
pub use values::result::{IntoToolResult, Json, ToolResult};
pub use values::tool_args::ToolArgs;
pub use values::warning::Warning;
pub use wire::choice::ToolChoice;
pub use wire::options::ToolsOptions;

// Documented in toolnexus-macros; the trait of the same name shows the example.
#[doc(inline)]
pub use toolnexus_macros::ToolArgs;

/// Re-exported so `impl Tool` blocks need no direct dependency on `async-trait`.
pub use async_trait::async_trait;

/// Not public API: the bounds `#[tool]` checks parameter, state and return types against, named
/// here so that compiler errors about them read `toolnexus::ParamSchema` rather than a path
/// into `__private`.
#[doc(hidden)]
pub use codegen::{
    CloneState, ParamSchema, ResultTag, ToolParam, ToolReturn, ToolState, UnsupportedTag,
};

/// Guides: the topics that span many items. Each page is a file under `toolnexus/docs/` in the
/// repository, and its examples run as doctests.
///
/// - [`#[tool]`](macro@crate::tool): declaring tools, their parameters, state and return types.
/// - [`providers`](guide::providers): what each provider gets, and how Rust types reach it.
/// - [`errors`](guide::errors): whose mistake an error is, and what to do about it.
/// - [`security`](guide::security): what a model's output cannot do, and what is not protected.
/// - [`media`](guide::media): images and files in tool results.
/// - [`approval`](guide::approval): the host decides what runs (policy, pending turns, hooks).
/// - [`typed`](guide::typed): your own type as the model's final answer ([`Output`]).
/// - [`stream`]: answering calls while a streamed response arrives.
/// - [`performance`](guide::performance): measured against other libraries and hand-written code.
/// - [`mcp`](guide::mcp): MCP both ways (features `mcp`, `mcp-http`, `mcp-oauth`).
pub mod guide {
    #[doc = include_str!("../docs/providers.md")]
    pub mod providers {}

    #[doc = include_str!("../docs/errors.md")]
    pub mod errors {}

    #[doc = include_str!("../docs/security.md")]
    pub mod security {}

    #[doc = include_str!("../docs/media.md")]
    pub mod media {}

    #[doc = include_str!("../docs/approval.md")]
    pub mod approval {}

    #[doc = include_str!("../docs/typed.md")]
    pub mod typed {}

    #[doc = include_str!("../docs/performance.md")]
    pub mod performance {}

    #[doc = include_str!("../docs/mcp.md")]
    pub mod mcp {}

    #[doc = include_str!("../docs/transcript.md")]
    pub mod transcript {}
}

/// Not public API: what code generated by `#[tool]` refers to, by absolute path, so a user crate
/// needs no serde, serde_json or schemars of its own.
#[doc(hidden)]
pub mod __private {
    pub use async_trait::async_trait;
    pub use schemars;
    pub use serde;
    pub use serde_json;

    pub use crate::codegen::*;
    pub use crate::decode::{decode_str, decode_value};
    pub use crate::schema::strict_prune_work;
    pub use crate::{InputSchema, Tool, ToolResult, ToolSource};
    pub use serde_json::Value;

    pub use crate::__toolnexus_impl_args as impl_args;
    pub use crate::__toolnexus_impl_tool as impl_tool;
}

/// The READMEs' Rust blocks run as doctests, so what a newcomer copies compiles.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct CrateReadmeDoctests;

#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
struct RepoReadmeDoctests;

#[cfg(doctest)]
#[doc = include_str!("../../toolnexus-macros/README.md")]
struct MacrosReadmeDoctests;
