//! Decoding what a model sent into arguments: the rules for every dialect, in one place.
//!
//! Absent, `null`, `""` or whitespace mean `{}`. Anything that is not JSON, or JSON that is not
//! an object, is refused before the tool runs, with a message the model can act on.

use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use crate::result::ToolResult;
use crate::text::{cut_pieces, echo_name, kind};

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
            // A whole-number float where an integer goes (`2.0`): read as the integer. The text
            // is read as a value for that, on this error path only.
            if let Ok(mut parsed) = serde_json::from_str::<Value>(text) {
                if whole_floats_as_integers(&mut parsed) {
                    return decode_object(tool, parsed);
                }
            }
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
    let mut value = object(tool, value)?;
    // As in `decode_str`: plain serde first (from a borrow, so an error can decode the value
    // again with the field path for the message).
    if let Ok(decoded) = T::deserialize(&value) {
        return Ok(decoded);
    }
    // A whole-number float where an integer goes (`2.0`, as Gemini sends every number): read
    // as the integer, and decode once more.
    if whole_floats_as_integers(&mut value) {
        return decode_object(tool, value);
    }
    serde_path_to_error::deserialize(value).map_err(|e| invalid(tool, &e))
}

/// Decodes an argument object with whole-number floats already made integers; an error names
/// the field.
fn decode_object<T: DeserializeOwned>(tool: &str, value: Value) -> Result<T, ToolResult> {
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
    // serde's message and the path echo what the model sent (a key, a string, a variant),
    // which may be a megabyte: each such piece is cut and neutralised.
    let message = cut_pieces(&without_position(inner));
    let path = path_text(e.path());
    if path.is_empty() {
        ToolResult::error(format!("invalid arguments for `{tool}`: {message}"))
    } else {
        ToolResult::error(format!(
            "invalid arguments for `{tool}`: `{path}`: {message}"
        ))
    }
}

/// `path` as serde_path_to_error writes it (`a.b[0].c`), each key cut to
/// [`MAX_PIECE`](crate::text::MAX_PIECE)
/// characters and neutralised; empty for the root.
fn path_text(path: &serde_path_to_error::Path) -> String {
    use serde_path_to_error::Segment;
    let mut out = String::new();
    for segment in path.iter() {
        match segment {
            Segment::Seq { index } => {
                out.push('[');
                out.push_str(&index.to_string());
                out.push(']');
                continue;
            }
            _ if out.is_empty() => {}
            _ => out.push('.'),
        }
        match segment {
            Segment::Map { key } => out.push_str(&echo_name(key)),
            Segment::Enum { variant } => out.push_str(&echo_name(variant)),
            _ => out.push('?'),
        }
    }
    out
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

/// Rewrites, throughout `value`, every float that is a whole number within i64 or u64 (`2.0`,
/// `-7.0`, `1e3`) as that integer; returns whether anything changed. Without recursion.
///
/// Gemini sends every number as a double (its `args` is a protobuf Struct), and other models
/// write `2.0` too. serde refuses a float for an integer type even when it is whole, so an
/// argument that failed to decode is decoded once more after this: a whole-number float then
/// reaches an integer parameter as that integer on every path, while `2.5` (or `1e19` for an
/// `i64`) is still refused. A decode that succeeds never gets here, so a `Value` or `f64`
/// parameter sees its number exactly as sent.
fn whole_floats_as_integers(value: &mut Value) -> bool {
    let mut changed = false;
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        match v {
            Value::Array(items) => stack.extend(items.iter_mut()),
            Value::Object(map) => stack.extend(map.values_mut()),
            Value::Number(n) if n.is_f64() => {
                if let Some(whole) = n.as_f64().and_then(whole_number) {
                    *n = whole;
                    changed = true;
                }
            }
            _ => {}
        }
    }
    changed
}

/// `f` as an integer [`Number`](serde_json::Number), when it is one that i64 or u64 holds
/// exactly.
fn whole_number(f: f64) -> Option<serde_json::Number> {
    // 2^63 and 2^64 are exact as f64; `as` saturates, so compare before converting.
    const I64_END: f64 = 9_223_372_036_854_775_808.0;
    const U64_END: f64 = 18_446_744_073_709_551_616.0;
    if f.fract() != 0.0 || !f.is_finite() {
        return None;
    }
    if (-I64_END..I64_END).contains(&f) {
        Some((f as i64).into())
    } else if (0.0..U64_END).contains(&f) {
        Some((f as u64).into())
    } else {
        None
    }
}
