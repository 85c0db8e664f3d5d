//! OpenAI: the `tools` arrays ([`to_openai`]; strict mode and the Responses API through
//! [`Toolkit::tools_for`](crate::Toolkit::tools_for)) with the schemas OpenAI accepts
//! ([`InputSchema::for_openai`](crate::InputSchema::for_openai)), and the round trip for [`chat`] (Chat Completions) and [`responses`] (the
//! Responses API). OpenAI-compatible servers (Ollama, vLLM, Mistral, ...) differ from it in
//! small ways each [`Profile`] states as data.

use serde_json::{Map, Value};

use crate::tool::Tool;
use crate::wire::{declaration, function, function_tools, sendable};

pub mod chat;
mod chat_stream;
mod choice;
pub(crate) mod conversation;
mod history;
mod profile;
pub mod responses;
mod responses_stream;
mod text_events;
mod wire;

pub use profile::Profile;
pub(crate) use wire::{ChatWire, ResponsesWire};

/// The OpenAI Chat Completions `tools` array: one
/// `{"type":"function","function":{"name","description","parameters"}}` per tool, in order.
/// No tools give `[]`.
///
/// A tool whose schema cannot be used (a `#[tool]` whose generated schema was refused, see
/// [`InputSchema::error`](crate::InputSchema::error)) is left out, never sent with a made-up
/// schema; every adapter does the same. To be told instead, register the tools in a
/// [`Toolkit`](crate::Toolkit): [`Toolkit::add`](crate::Toolkit::add) refuses such a tool with
/// the error, naming the tool and the path.
///
/// ```
/// use serde_json::json;
/// use toolnexus::{to_openai, NativeTool};
///
/// let ping = NativeTool::of("ping", "Health check", json!({"type": "object", "properties": {}}),
///     |_| async { "pong" })?;
/// assert_eq!(
///     serde_json::to_string(&to_openai(&[ping]))?,
///     r#"[{"type":"function","function":{"name":"ping","description":"Health check","parameters":{"type":"object","properties":{}}}}]"#
/// );
/// assert!(to_openai::<toolnexus::NativeTool>(&[]).is_empty());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn to_openai<T: Tool>(tools: &[T]) -> Vec<Value> {
    function_tools(tools)
}

/// The OpenAI Chat Completions `tools` array with strict mode on wherever the tool allows it
/// ([`ToolsOptions::with_strict`](crate::ToolsOptions::with_strict)):
/// `{"type":"function","function":{"name","description","parameters","strict":true}}`.
///
/// A tool whose schema cannot be strict (see
/// [`InputSchema::for_openai_strict`](crate::InputSchema::for_openai_strict) for why) is sent
/// as [`to_openai`] sends it, with `"strict": false`. Calls made under strict
/// mode send `null` for optional arguments the model leaves out: pass the arguments through
/// [`InputSchema::strict_nulls_to_absent`](crate::InputSchema::strict_nulls_to_absent) first.
///
/// ```
/// use serde_json::json;
/// use toolnexus::{Dialect, NativeTool, Toolkit, ToolsOptions};
///
/// let search = NativeTool::of("search", "Search the docs",
///     json!({"type": "object", "properties": {"q": {"type": "string"}, "limit": {"type": "integer"}},
///            "required": ["q"]}),
///     |_| async { "no results" })?;
/// let toolkit = Toolkit::new().with(search)?;
/// assert_eq!(
///     toolkit.tools_for(Dialect::OpenAiChat, ToolsOptions::default().with_strict(true))[0],
///     json!({"type": "function", "function": {"name": "search", "description": "Search the docs",
///         "parameters": {"type": "object",
///             "properties": {"q": {"type": "string"}, "limit": {"type": ["integer", "null"]}},
///             "required": ["q", "limit"], "additionalProperties": false},
///         "strict": true}})
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub(crate) fn to_openai_strict<T: Tool>(tools: &[T]) -> Vec<Value> {
    sendable(tools)
        .map(|t| {
            let schema = t.input_schema();
            let (parameters, strict) = match schema.for_openai_strict() {
                Ok(s) => (s, true),
                Err(_) => (schema.for_openai(), false),
            };
            let mut declaration = declaration(t, "parameters", parameters.clone());
            declaration.insert("strict".into(), strict.into());
            function(declaration)
        })
        .collect()
}

/// The OpenAI Responses API `tools` array: one flat
/// `{"type":"function","name","description","parameters","strict"}` per tool, in order.
///
/// `strict` is always sent (the Responses API turns strict mode on when it is left out). With
/// `strict: true` ([`ToolsOptions::with_strict`](crate::ToolsOptions::with_strict)), a tool whose schema cannot be strict is sent with `"strict": false` and its
/// non-strict schema; [`InputSchema::for_openai_strict`](crate::InputSchema::for_openai_strict)
/// says why.
///
/// ```
/// use serde_json::json;
/// use toolnexus::{Dialect, NativeTool, Toolkit, ToolsOptions};
///
/// let ping = NativeTool::of("ping", "Health check", json!({"type": "object", "properties": {}}),
///     |_| async { "pong" })?;
/// let toolkit = Toolkit::new().with(ping)?;
/// let responses = |options| toolkit.tools_json_for(Dialect::OpenAiResponses, options).get();
/// assert_eq!(
///     responses(ToolsOptions::default()),
///     r#"[{"type":"function","name":"ping","description":"Health check","parameters":{"type":"object","properties":{}},"strict":false}]"#
/// );
/// assert_eq!(
///     responses(ToolsOptions::default().with_strict(true)),
///     r#"[{"type":"function","name":"ping","description":"Health check","parameters":{"type":"object","properties":{},"required":[],"additionalProperties":false},"strict":true}]"#
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub(crate) fn to_openai_responses<T: Tool>(tools: &[T], strict: bool) -> Vec<Value> {
    sendable(tools)
        .map(|t| {
            let schema = t.input_schema();
            let strict_schema = if strict {
                schema.for_openai_strict().ok()
            } else {
                None
            };
            let parameters = strict_schema.unwrap_or(schema.for_openai()).clone();
            // The Responses API's function tool is flat: `type` first, then the declaration.
            let mut entry = Map::with_capacity(5);
            entry.insert("type".into(), "function".into());
            entry.extend(declaration(t, "parameters", parameters));
            entry.insert("strict".into(), strict_schema.is_some().into());
            Value::Object(entry)
        })
        .collect()
}
