//! Anthropic: the Messages `tools` array ([`to_anthropic`]; strict mode through
//! [`ToolsOptions::with_strict`](crate::ToolsOptions::with_strict)) with the schemas Anthropic
//! accepts ([`InputSchema::for_anthropic`](crate::InputSchema::for_anthropic)), and the round trip ([`Dialect::Anthropic`](crate::Dialect::Anthropic)).

use serde_json::Value;

use crate::wire::{declaration, sendable};
use crate::Tool;

mod calls;
mod choice;
pub(crate) mod conversation;
mod history;
mod stream;
mod strict;
mod wire;

pub(crate) use wire::AnthropicWire;

/// The Anthropic Messages `tools` array: one `{"name","description","input_schema"}` per tool,
/// in order. No tools give `[]`.
///
/// A tool whose schema cannot be used is left out, as by [`to_openai`](crate::to_openai).
///
/// ```
/// use serde_json::json;
/// use toolnexus::{to_anthropic, NativeTool};
///
/// let ping = NativeTool::of("ping", "Health check", json!({"type": "object", "properties": {}}),
///     |_| async { "pong" })?;
/// assert_eq!(
///     serde_json::to_string(&to_anthropic(&[ping]))?,
///     r#"[{"name":"ping","description":"Health check","input_schema":{"type":"object","properties":{}}}]"#
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn to_anthropic<T: Tool>(tools: &[T]) -> Vec<Value> {
    sendable(tools)
        .map(|t| {
            let schema = t.input_schema().for_anthropic().clone();
            Value::Object(declaration(t, "input_schema", schema))
        })
        .collect()
}
