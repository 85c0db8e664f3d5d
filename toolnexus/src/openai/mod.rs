//! OpenAI: the Chat Completions `tools` array, and the schema rules OpenAI enforces.

use serde_json::{json, Value};

use crate::Tool;

pub(crate) mod lower;

/// The OpenAI Chat Completions `tools` array: one
/// `{"type":"function","function":{"name","description","parameters"}}` per tool, in order.
/// No tools give `[]`.
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
    tools
        .iter()
        .map(|t| {
            json!({
                "type": "function",
                "function": {
                    "name": t.name(),
                    "description": t.description(),
                    "parameters": t.input_schema().for_openai(),
                }
            })
        })
        .collect()
}

pub(crate) mod strict;
pub use strict::{to_openai_responses, to_openai_strict};
