//! Decoding what a model sent into arguments: the rules for every dialect, in one place.
//!
//! Absent, `null`, `""` or whitespace mean `{}`. Anything that is not JSON, or JSON that is not
//! an object, is refused before the tool runs, with a message the model can act on.

use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use crate::result::ToolResult;
use crate::text::kind;

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
///
/// Only when serde_json calls the text malformed is it read again as a [`Value`], so the message
/// says either where the JSON really is broken or, for valid JSON of the wrong shape (serde_json
/// reports some type mismatches as syntax errors), which field has which wrong type.
pub fn decode_str<T: DeserializeOwned>(tool: &str, text: &str) -> Result<T, ToolResult> {
    // `{...}` as models send it has nothing to trim (checking both ends is all `trim` would do).
    let text = if text.starts_with('{') && text.ends_with('}') {
        text
    } else {
        let trimmed = text.trim();
        if trimmed.is_empty() || trimmed == "null" {
            "{}"
        } else {
            trimmed
        }
    };
    if !text.starts_with('{') {
        // Not an object: find out what it is, only to say so.
        return Err(match serde_json::from_str::<Value>(text) {
            Ok(value) => not_object(tool, &value),
            Err(e) => not_json(tool, &e),
        });
    }
    // Plain serde_json first: tracking the field path costs as much again as decoding (an owned
    // String per key), and only an error needs it, so an error is decoded a second time, with
    // the path, for the message.
    let mut de = serde_json::Deserializer::from_str(text);
    let value: T = match T::deserialize(&mut de) {
        Ok(value) => value,
        Err(_) => {
            de = serde_json::Deserializer::from_str(text);
            match serde_path_to_error::deserialize(&mut de) {
                Ok(value) => value,
                // serde_json reports some type mismatches as syntax errors (an enum given `false`
                // is "expected value"), which would tell the model its valid JSON is not JSON.
                // Only on this error path: read the text as a value, and either say where the
                // JSON really is broken or decode the value, which names the field and the
                // expected type.
                Err(e) if e.inner().is_syntax() || e.inner().is_eof() => {
                    return match serde_json::from_str::<Value>(text) {
                        Ok(parsed) => decode_value(tool, parsed),
                        Err(e) => Err(not_json(tool, &e)),
                    };
                }
                Err(e) => return Err(invalid(tool, &e)),
            }
        }
    };
    // Text after the object (`{"a":1} x`) is as malformed as text before it.
    de.end().map_err(|e| not_json(tool, &e))?;
    Ok(value)
}

/// Decodes an argument value into `T`; `null` means `{}`.
pub fn decode_value<T: DeserializeOwned>(tool: &str, value: Value) -> Result<T, ToolResult> {
    let value = object(tool, value)?;
    // As in `decode_str`: plain serde first (from a borrow, so an error can decode the value
    // again with the field path for the message).
    match T::deserialize(&value) {
        Ok(decoded) => Ok(decoded),
        Err(_) => serde_path_to_error::deserialize(value).map_err(|e| invalid(tool, &e)),
    }
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
