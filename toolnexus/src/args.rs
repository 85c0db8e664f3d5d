//! Turning what a model sent into arguments: the SPEC §5 rules, one place.
//!
//! Absent, `null`, `""` or whitespace mean `{}`. Anything that is not JSON, or JSON that is not
//! an object, is refused before the tool runs, with a message the model can act on.

use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use crate::schema::kind;
use crate::ToolResult;

/// Parses argument text into an object [`Value`] (see the module rules).
pub(crate) fn parse_object(tool: &str, text: &str) -> Result<Value, ToolResult> {
    let text = text.trim();
    if text.is_empty() || text == "null" {
        return Ok(Value::Object(Map::new()));
    }
    match serde_json::from_str::<Value>(text) {
        Ok(value) => object(tool, value),
        Err(e) => Err(not_json(tool, &e)),
    }
}

/// Checks that an argument value is an object; `null` becomes `{}`.
pub(crate) fn object(tool: &str, value: Value) -> Result<Value, ToolResult> {
    match value {
        Value::Object(_) => Ok(value),
        Value::Null => Ok(Value::Object(Map::new())),
        other => Err(not_object(tool, &other)),
    }
}

/// Decodes argument text straight into `T`, without an intermediate [`Value`].
pub fn decode_str<T: DeserializeOwned>(tool: &str, text: &str) -> Result<T, ToolResult> {
    let trimmed = text.trim();
    let text = if trimmed.is_empty() || trimmed == "null" {
        "{}"
    } else {
        trimmed
    };
    if !text.starts_with('{') {
        // Not an object: find out what it is, only to say so.
        return Err(match serde_json::from_str::<Value>(text) {
            Ok(value) => not_object(tool, &value),
            Err(e) => not_json(tool, &e),
        });
    }
    let mut de = serde_json::Deserializer::from_str(text);
    let value: T = serde_path_to_error::deserialize(&mut de).map_err(|e| invalid(tool, &e))?;
    // Text after the object (`{"a":1} x`) is as malformed as text before it.
    de.end().map_err(|e| not_json(tool, &e))?;
    Ok(value)
}

/// Decodes an argument value into `T`; `null` means `{}`.
pub fn decode_value<T: DeserializeOwned>(tool: &str, value: Value) -> Result<T, ToolResult> {
    let value = object(tool, value)?;
    serde_path_to_error::deserialize(value).map_err(|e| invalid(tool, &e))
}

fn invalid(tool: &str, e: &serde_path_to_error::Error<serde_json::Error>) -> ToolResult {
    let inner = e.inner();
    if inner.is_syntax() || inner.is_eof() {
        return not_json(tool, inner);
    }
    let message = without_position(inner);
    let path = e.path().to_string();
    if path == "." || path.is_empty() {
        ToolResult::error(format!("invalid arguments for `{tool}`: {message}"))
    } else {
        ToolResult::error(format!(
            "invalid arguments for `{tool}`: `{path}`: {message}"
        ))
    }
}

fn not_json(tool: &str, e: &serde_json::Error) -> ToolResult {
    ToolResult::error(format!(
        "invalid arguments for `{tool}`: the arguments are not valid JSON ({e}); send one JSON object"
    ))
}

fn not_object(tool: &str, value: &Value) -> ToolResult {
    ToolResult::error(format!(
        "invalid arguments for `{tool}`: expected a JSON object, got {}",
        kind(value)
    ))
}

/// serde_json's message without its ` at line L column C` suffix, which says nothing to a model.
fn without_position(e: &serde_json::Error) -> String {
    let text = e.to_string();
    let suffix = format!(" at line {} column {}", e.line(), e.column());
    match text.strip_suffix(&suffix) {
        Some(head) if e.line() > 0 => head.to_owned(),
        _ => text,
    }
}
