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
//! own [`Tool`] implementation. [`Dialect`] reads calls and renders results for OpenAI Chat,
//! OpenAI Responses, Anthropic and Gemini; [`Toolkit::execute`] runs one call by name.
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
//! runs inside one [tracing](https://docs.rs/tracing) span, named `tool_call` with target
//! `toolnexus` at level INFO, whose fields are `tool` (the name the model called), `call_id`
//! (when the call has one), `dialect` (`OpenAiChat`, `OpenAiResponses`, `Anthropic`, `Gemini`;
//! when the call came from a response), `duration_us` and `is_error`. Arguments, outputs and
//! panic payloads are never recorded. Events your tool emits nest inside its call's span.
//!
//! # Features `mcp` and `mcp-http`
//!
//! Off by default. The module `mcp` (on rmcp, the official Rust MCP SDK; Rust 1.88) brings the tools of
//! MCP servers into a [`Toolkit`] and serves a [`Toolkit`] as an MCP server, over stdio;
//! `mcp-http` adds streamable HTTP both ways.
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
mod admit;
pub mod anthropic;
mod batch;
mod call;
mod codegen;
mod decode;
mod dialect;
mod error;
pub mod gemini;
mod guard;
mod limits;
#[cfg(feature = "mcp")]
#[cfg_attr(docsrs, doc(cfg(feature = "mcp")))]
pub mod mcp;
mod media;
mod native;
pub mod openai;
mod providers;
mod respond;
mod response;
mod result;
mod round_trip;
mod schema;
mod selection;
pub mod stream;
mod text;
mod tool;
mod tool_args;
mod tool_set;
mod toolkit;
mod tools_array;
mod trace;
mod turn;

pub use anthropic::to_anthropic;
pub use batch::RunOptions;
pub use call::{Arguments, CallKind, ToolCall};
pub use dialect::Dialect;
pub use error::{Error, SchemaError};
pub use gemini::{to_gemini, to_gemini_json_schema};
pub use limits::Limits;
pub use media::{Media, MediaSupport};
pub use native::NativeTool;
pub use openai::{to_openai, to_openai_responses, to_openai_strict};
pub use response::ResponseError;
pub use result::{IntoToolResult, Json, ToolResult};
pub use schema::InputSchema;
pub use selection::Selection;
pub use tool::{sanitize, validate_name, Tool, ToolSource, MAX_NAME_LEN};
pub use tool_args::ToolArgs;
pub use tool_set::ToolSet;
pub use toolkit::Toolkit;
/// Turns an ordinary `fn` or `async fn` into a tool.
///
/// The fn stays as it is and callable as itself. Next to it `#[tool]` generates a **tool type**
/// named after the fn in PascalCase (`get_weather` -> `GetWeather`), with the fn's visibility,
/// that implements [`Tool`]. Register it with `Toolkit::new().with(GetWeather)?`.
///
/// ```
/// use toolnexus::{tool, Tool, Toolkit};
///
/// /// Current weather for a city.
/// #[tool]
/// async fn get_weather(
///     /// The city, in English.
///     city: String,
///     /// Days ahead; 1 when absent.
///     days: Option<u8>,
/// ) -> String {
///     format!("sunny in {city} for {} day(s)", days.unwrap_or(1))
/// }
///
/// let toolkit = Toolkit::new().with(GetWeather)?;
/// assert_eq!(GetWeather.description(), "Current weather for a city.");
/// assert_eq!(
///     serde_json::to_string(GetWeather.input_schema().as_value()).unwrap(),
///     r#"{"type":"object","properties":{"city":{"type":"string","description":"The city, in English."},"days":{"type":["integer","null"],"format":"uint8","minimum":0,"maximum":255,"description":"Days ahead; 1 when absent."}},"required":["city"],"additionalProperties":false}"#
/// );
///
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// // The fn is still an ordinary fn...
/// assert_eq!(get_weather("Oslo".into(), None).await, "sunny in Oslo for 1 day(s)");
/// // ...and the tool decodes the model's arguments into its parameters.
/// let result = toolkit.execute_json("get_weather", r#"{"city":"Chennai","days":"x"}"#).await;
/// assert!(result.is_error);
/// assert_eq!(
///     result.output,
///     "invalid arguments for `get_weather`: `days`: invalid type: string \"x\", expected u8"
/// );
/// # });
/// # Ok::<(), toolnexus::Error>(())
/// ```
///
/// # The attribute
///
/// `#[tool]`, or with keys, each at most once: `name = "..."` (what the model calls; 1 to 64
/// characters from `[A-Za-z0-9_-]`, checked at compile time; default: the fn's name),
/// `description = "..."` (default: the fn's `///` doc), and `crate = "path"` (where
/// `toolnexus` is, for a renamed dependency). Anything else is a compile error, and so is a tool
/// with no description at all.
///
/// Descriptions, the tool's and each parameter's, come from `///` lines: each line trimmed,
/// the lines of a paragraph joined with one space, paragraphs separated by a blank line.
///
/// # Parameters
///
/// Each parameter is a property of the argument object, in declaration order; its `///` doc is
/// the property's description; its type gives the schema through schemars (`i64` is
/// `integer`, `f64` is `number`, `Option<T>` is not required, your own structs and enums deriving
/// `serde::Deserialize` and `schemars::JsonSchema` nest). Types are owned (`String`, not
/// `&str`). Absent, `null`, `""` or blank arguments mean `{}`, so tools without parameters or
/// with only optional ones need no arguments.
///
/// **Unknown fields are rejected**: an argument the fn does not take gives an error result
/// naming it, and the schema says `"additionalProperties": false` accordingly.
///
/// Two markers change what a parameter is:
/// - `#[state]`: not in the schema. It becomes a field of the tool type with the parameter's
///   name, filled in by you (`FindUser { db: db.clone() }`): application state without
///   globals. A `&T` parameter makes the field a `T` lent to each call; any other type must be
///   `Clone` and is cloned for each call (an `Arc` is the usual choice). State is
///   `Send + Sync + 'static`. Without `#[state]` parameters the tool type is a unit struct.
/// - `#[args]`: the one parameter that takes the whole argument object, a struct that derives
///   [`ToolArgs`] (see there).
///
/// ```
/// use std::sync::{Arc, atomic::{AtomicU64, Ordering}};
/// use toolnexus::{tool, Toolkit};
///
/// /// Adds to the shared counter and returns the new total.
/// #[tool]
/// fn add_to_counter(#[state] counter: Arc<AtomicU64>, amount: u64) -> u64 {
///     counter.fetch_add(amount, Ordering::SeqCst) + amount
/// }
///
/// let counter = Arc::new(AtomicU64::new(0));
/// let toolkit = Toolkit::new().with(AddToCounter { counter: Arc::clone(&counter) })?;
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// assert_eq!(toolkit.execute_json("add_to_counter", r#"{"amount":5}"#).await.output, "5");
/// # });
/// assert_eq!(counter.load(Ordering::SeqCst), 5);
/// # Ok::<(), toolnexus::Error>(())
/// ```
///
/// # Return types
///
/// Resolved through traits on the concrete type, so aliases such as `anyhow::Result<T>` and
/// `std::io::Result<T>` work. In this order: anything [`IntoToolResult`] (`String`, `&str`,
/// `Cow<str>`, [`ToolResult`] passed through, [`Json`], and `Result` of those) is used as is;
/// `Result<T: Serialize, E: Display>` gives `T` as compact JSON text or, for `Err`, an error
/// result with the error's `Display`; any other `T: Serialize` is its compact JSON text (so
/// `()` is `null`). Anything else is a compile error on the return type.
///
/// # Running
///
/// The generated `execute_json` decodes the text straight into the parameters (no
/// intermediate `serde_json::Value`); `execute` writes the value out as text and decodes that,
/// so each tool compiles one decoder. Decoding, cloning `#[state]` and the call all happen
/// inside the returned future; run through a [`Toolkit`], a panic in any of them becomes an
/// error result (the toolkit guards every call; a direct `execute` does not). A plain `fn`
/// runs inline on the executor's thread, so it should not block; make blocking work an
/// `async fn` that uses your runtime's blocking pool. The schema is computed once per tool, on
/// first use, and shared by every call and request body.
///
/// # Compile errors
///
/// Misuse is a compile error on the offending token: a generic fn, `self`, a pattern parameter,
/// `impl Trait` or a reference as a parameter type, a parameter type that is not `Deserialize`
/// or not `JsonSchema`, an unsupported return type, an invalid name. The fn is still emitted,
/// so one mistake gives one error. `#[tool]` goes on free fns (at module level or in a block),
/// not on methods. The tool type's name must be free: `fn search` next to your own
/// `struct Search` collides; rename one of them.
#[doc(inline)]
pub use toolnexus_macros::tool;
pub use tools_array::ToolsArray;
pub use turn::Turn;

// Documented in toolnexus-macros; the trait of the same name shows the example.
#[doc(inline)]
pub use toolnexus_macros::ToolArgs;

/// Re-exported so `impl Tool` blocks need no direct dependency on `async-trait`.
pub use async_trait::async_trait;

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
    pub use crate::providers::strict_prune_work;
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
