//! OpenAI: the Chat Completions `tools` array, the schema rules OpenAI enforces, and the round
//! trip for [`chat`] (Chat Completions) and [`responses`] (the Responses API).

use serde_json::{Map, Value};

use crate::Tool;

pub mod chat;
pub(crate) mod lower;
pub mod responses;

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
            let mut function = Map::with_capacity(3);
            function.insert("name".into(), Value::String(t.name().to_owned()));
            function.insert(
                "description".into(),
                Value::String(t.description().to_owned()),
            );
            function.insert("parameters".into(), t.input_schema().for_openai().clone());
            let mut entry = Map::with_capacity(2);
            entry.insert("type".into(), Value::String("function".to_owned()));
            entry.insert("function".into(), Value::Object(function));
            Value::Object(entry)
        })
        .collect()
}

pub(crate) mod strict;
pub(crate) mod strict_limits;
pub use strict::{to_openai_responses, to_openai_strict};
