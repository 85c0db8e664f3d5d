//! Gemini: the generateContent `tools` array ([`to_gemini`]; JSON Schema through
//! [`ToolsOptions::with_json_schema`](crate::ToolsOptions::with_json_schema)) with the schemas
//! Gemini accepts ([`InputSchema::for_gemini`](crate::InputSchema::for_gemini)), and the round trip ([`Dialect::Gemini`](crate::Dialect::Gemini)).

use serde_json::{Map, Value};

use crate::wire::{declaration, sendable};
use crate::Tool;

mod calls;
mod choice;
pub(crate) mod conversation;
mod history;
mod stream;
mod text_event;
mod wire;

pub(crate) use wire::GeminiWire;

pub(crate) use calls::finished;

/// The Gemini generateContent `tools` array.
///
/// Gemini groups every tool in ONE wrapper, `{"functionDeclarations":[{"name","description",
/// "parameters"}, ...]}`, so the result always has exactly one entry, in tool order. No tools
/// still give one wrapper with an empty list, `[{"functionDeclarations":[]}]` (leave `tools` out
/// of the request yourself when you have none).
///
/// A tool whose schema cannot be used is left out, as by [`to_openai`](crate::to_openai).
///
/// ```
/// use serde_json::json;
/// use toolnexus::{to_gemini, NativeTool};
///
/// let ping = NativeTool::of("ping", "Health check", json!({"type": "object", "properties": {}}),
///     |_| async { "pong" })?;
/// assert_eq!(
///     serde_json::to_string(&to_gemini(&[ping]))?,
///     r#"[{"functionDeclarations":[{"name":"ping","description":"Health check","parameters":{"type":"object","properties":{}}}]}]"#
/// );
/// assert_eq!(to_gemini::<NativeTool>(&[]), vec![json!({"functionDeclarations": []})]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn to_gemini<T: Tool>(tools: &[T]) -> Vec<Value> {
    let declarations: Vec<Value> = sendable(tools)
        .map(|t| {
            let schema = t.input_schema().for_gemini().clone();
            Value::Object(declaration(t, "parameters", schema))
        })
        .collect();
    let mut wrapper = Map::with_capacity(1);
    wrapper.insert("functionDeclarations".into(), Value::Array(declarations));
    vec![Value::Object(wrapper)]
}

/// The Gemini generateContent `tools` array with each tool's schema as JSON Schema
/// ([`ToolsOptions::with_json_schema`](crate::ToolsOptions::with_json_schema)):
/// `[{"functionDeclarations":[{"name","description","parametersJsonSchema"}, ...]}]`.
///
/// Gemini takes a function's parameters either as `parameters` ([`to_gemini`]: an OpenAPI 3.0
/// subset, into which this crate lowers each schema, inlining references and turning what it
/// cannot say into description text) or as `parametersJsonSchema` (JSON Schema as it is,
/// `$ref`, `$defs`, `anyOf`, `oneOf`, `additionalProperties` and tuples included), never both.
/// This adapter sends the latter: the schema Anthropic gets
/// ([`InputSchema::for_gemini_json_schema`](crate::InputSchema::for_gemini_json_schema)).
/// Pick it for recursive types, maps and exact choices; pick [`to_gemini`] for the widest
/// support (older models, Vertex AI features that read `parameters`). One wrapper always, as
/// [`to_gemini`].
///
/// ```
/// use serde_json::json;
/// use toolnexus::{Dialect, NativeTool, Toolkit, ToolsOptions};
///
/// let tags = NativeTool::of("tag", "Tag a document",
///     json!({"type": "object", "properties": {"tags": {"type": "object",
///            "additionalProperties": {"type": "string"}}}}),
///     |_| async { "tagged" })?;
/// assert_eq!(
///     Toolkit::new().with(tags)?
///         .tools_json_for(Dialect::Gemini, ToolsOptions::default().with_json_schema(true))
///         .get(),
///     r#"[{"functionDeclarations":[{"name":"tag","description":"Tag a document","parametersJsonSchema":{"type":"object","properties":{"tags":{"type":"object","additionalProperties":{"type":"string"}}}}}]}]"#
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub(crate) fn to_gemini_json_schema<T: Tool>(tools: &[T]) -> Vec<Value> {
    let declarations: Vec<Value> = sendable(tools)
        .map(|t| {
            let schema = t.input_schema().for_gemini_json_schema().clone();
            Value::Object(declaration(t, "parametersJsonSchema", schema))
        })
        .collect();
    let mut wrapper = Map::with_capacity(1);
    wrapper.insert("functionDeclarations".into(), Value::Array(declarations));
    vec![Value::Object(wrapper)]
}
