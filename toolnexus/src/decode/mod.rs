//! Decoding what a model sent into arguments: the rules for every dialect, in one place.
//!
//! Absent, `null`, `""` or whitespace mean `{}`. Anything that is not JSON, or JSON that is not
//! an object, is refused before the tool runs, with a message the model can act on. The field
//! path in an error message is read off the text ([`path`]). A whole-number float where an
//! integer goes is read as that integer ([`numbers`]).

use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use crate::values::result::{Failure, ToolResult};
use crate::values::text::{cut_pieces, kind};

mod numbers;
mod path;

pub(crate) use numbers::whole_number;
use path::{path_at, path_text, Segment};

/// Parses argument text into an object [`Value`] (see the module rules).
pub(crate) fn parse_object(tool: &str, text: &str) -> Result<Value, ToolResult> {
    let text = text.trim();
    if text.is_empty() || text == "null" {
        return Ok(Value::Object(Map::new()));
    }
    match serde_json::from_str::<Value>(text) {
        Ok(value) => object(tool, value),
        Err(e) => Err(not_json(&e).for_tool(tool)),
    }
}

/// Checks that an argument value is an object; `null` becomes `{}`.
pub(crate) fn object(tool: &str, value: Value) -> Result<Value, ToolResult> {
    match value {
        Value::Object(_) => Ok(value),
        Value::Null => Ok(Value::Object(Map::new())),
        other => Err(not_object(&other).for_tool(tool)),
    }
}

/// Decodes argument text straight into `T`, without an intermediate [`Value`].
///
/// On an error the field path for the message (``invalid arguments for `t`: `days`: ...``) is
/// read off the text at the position serde_json reports, so decoding itself tracks nothing: only
/// the call of `T::deserialize` is generic, and everything around it is one shared function,
/// so each tool compiles one decoder of its own and little else.
pub fn decode_str<T: DeserializeOwned>(tool: &str, text: &str) -> Result<T, ToolResult> {
    decode_text(text).map_err(|problem| problem.for_tool(tool))
}

/// [`decode_str`] with what went wrong as a [`Problem`], for a caller that words it itself
/// (a typed answer).
pub(crate) fn decode_text<T: DeserializeOwned>(text: &str) -> Result<T, Problem> {
    let text = object_text(text)?;
    let mut de = serde_json::Deserializer::from_str(text);
    match T::deserialize(&mut de) {
        Ok(value) => match end(de) {
            Ok(()) => Ok(value),
            Err(refused) => Err(refused),
        },
        // A whole-number float where an integer goes (`2.0`): decoded once more, as the integer
        // (the retyped text has no whole-number float left, so this recurses once at most).
        Err(e) => match numbers::whole_floats_as_integers(text) {
            Some(retyped) => decode_text(&retyped),
            None => Err(decode_error(text, &e)),
        },
    }
}

/// What is wrong with a text that was to be decoded, before it is worded for a tool's arguments
/// ([`Problem::for_tool`]) or for a typed answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Problem {
    /// Not JSON: serde_json's description.
    NotJson(String),
    /// JSON, but not an object: what it is (`a string`), and whether it is a string holding the
    /// JSON text of an object (encoded twice).
    NotObject {
        found: &'static str,
        encoded_twice: bool,
    },
    /// A value that does not fit: its field path (`None` for the object itself) and what is
    /// wrong, with the pieces of model input in it cut and neutralised.
    Field {
        path: Option<String>,
        message: String,
    },
}

impl Problem {
    /// The error result a tool call gets for it.
    #[cold]
    pub(crate) fn for_tool(self, tool: &str) -> ToolResult {
        let message = match self {
            Self::NotJson(e) => format!(
                "invalid arguments for `{tool}`: the arguments are not valid JSON ({e}); send one JSON object"
            ),
            Self::NotObject {
                encoded_twice: true,
                ..
            } => format!(
                "invalid arguments for `{tool}`: expected a JSON object, got a string that holds \
                 the JSON text of one; send the object itself, not a string"
            ),
            Self::NotObject { found, .. } => {
                format!("invalid arguments for `{tool}`: expected a JSON object, got {found}")
            }
            Self::Field {
                path: None,
                message,
            } => format!("invalid arguments for `{tool}`: {message}"),
            Self::Field {
                path: Some(path),
                message,
            } => format!("invalid arguments for `{tool}`: `{path}`: {message}"),
        };
        ToolResult::failed(message, Failure::InvalidArguments)
    }
}

/// Decodes an argument value into `T`; `null` means `{}`.
///
/// The value is written out as JSON text and decoded by [`decode_str`]: one decoder per tool
/// instead of two, for a text the size of the arguments (bounded by `Limits`).
pub fn decode_value<T: DeserializeOwned>(tool: &str, value: Value) -> Result<T, ToolResult> {
    match value_text(tool, value) {
        Ok(text) => decode_str(tool, &text),
        Err(refused) => Err(refused),
    }
}

/// The JSON text of an argument value, which must be an object (`null` is `{}`).
pub(crate) fn value_text(tool: &str, value: Value) -> Result<String, ToolResult> {
    match object(tool, value)? {
        Value::Object(map) if map.is_empty() => Ok("{}".to_owned()),
        value => Ok(value.to_string()),
    }
}

/// Argument text ready to decode: trimmed, `""` and `null` as `{}`; anything but an object is
/// refused with what it is.
///
/// Inlined into each tool's decoder (release builds only; a debug build calls it), so the common
/// case costs two byte compares and no call.
#[inline]
fn object_text(text: &str) -> Result<&str, Problem> {
    // `{...}` as models send it has nothing to trim (checking both ends is all `trim` would do).
    if text.starts_with('{') && text.ends_with('}') {
        return Ok(text);
    }
    other_text(text)
}

/// [`object_text`] for text that is not `{...}` as it stands.
fn other_text(text: &str) -> Result<&str, Problem> {
    let trimmed = text.trim();
    let text = if trimmed.is_empty() || trimmed == "null" {
        "{}"
    } else {
        trimmed
    };
    if !text.starts_with('{') {
        // Not an object: find out what it is, only to say so.
        return Err(match serde_json::from_str::<Value>(text) {
            Ok(value) => not_object(&value),
            Err(e) => not_json(&e),
        });
    }
    Ok(text)
}

/// Text after the object (`{"a":1} x`) is as malformed as text before it.
#[inline]
fn end(de: serde_json::Deserializer<serde_json::de::StrRead<'_>>) -> Result<(), Problem> {
    let mut de = de;
    de.end().map_err(|e| not_json(&e))
}

/// The message for a decoding error, with the path of the field it is about.
#[cold]
fn decode_error(text: &str, e: &serde_json::Error) -> Problem {
    // An unknown variant of `{"Variant": ...}` is about the enum, and a duplicate field about
    // the object: neither about the key just read (serde raises them between key and value).
    let message = e.to_string();
    let about_object =
        message.starts_with("unknown variant") || message.starts_with("duplicate field");
    let mut offset = error_offset(text, e);
    let expected_value = message.starts_with("expected value");
    // An enum given an object with more than one key: serde_json stops at the `,` after the
    // first, and the error is about that object.
    let extra_keys = expected_value && text.as_bytes().get(offset) == Some(&b',');
    if expected_value && !extra_keys {
        // serde_json counts the byte it peeked at: the value starts there, unread.
        offset = offset.saturating_sub(1);
    }
    let mut path = path_at(text, offset, about_object);
    if extra_keys && matches!(path.last(), Some(Segment::Key(_))) {
        path.pop();
    }
    if !(e.is_syntax() || e.is_eof()) {
        return invalid(&path, e);
    }
    // serde_json reports some type mismatches in valid JSON as syntax errors (an enum given
    // `false` is "expected value"), which would tell the model its valid JSON is not JSON.
    // Read the text as a value to find out: either say where the JSON really is broken, or
    // say what was found where.
    let parsed = match serde_json::from_str::<Value>(text) {
        Ok(parsed) => parsed,
        Err(e) => return not_json(&e),
    };
    let message = without_position(e);
    if message.starts_with("expected value") {
        let found = path
            .iter()
            .try_fold(&parsed, |value, segment| match segment {
                Segment::Key(key) => value.get(key),
                Segment::Index(index) => value.get(index),
            });
        // What serde_json's value decoder says of an enum given this value.
        if let Some(Err(found)) =
            found.map(|found| serde::Deserializer::deserialize_enum(found, "", &[], NoEnum))
        {
            return invalid(&path, &found);
        }
    }
    if message.starts_with("expected `,` or") {
        // serde_json reads an i128 or u128 as digits only, and stops at a fraction or exponent.
        if let Some(float) = numbers::float_before(text, offset) {
            let found = format!("invalid type: floating point `{float}`, expected an integer");
            return with_path(&path, &found);
        }
    }
    if message.starts_with("trailing characters") {
        return with_path(&path, "too many elements");
    }
    // Valid JSON all the same: never call it malformed.
    with_path(&path, &message)
}

/// The byte offset serde_json's line and column point at.
fn error_offset(text: &str, e: &serde_json::Error) -> usize {
    let line_start: usize = text
        .split_inclusive('\n')
        .take(e.line().saturating_sub(1))
        .map(str::len)
        .sum();
    (line_start + e.column()).min(text.len())
}

/// A visitor that accepts no enum: only its caller's error message is wanted.
struct NoEnum;
impl<'de> serde::de::Visitor<'de> for NoEnum {
    type Value = ();
    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("string or map")
    }
}

fn invalid(path: &[Segment], inner: &serde_json::Error) -> Problem {
    if inner.is_syntax() || inner.is_eof() {
        return not_json(inner);
    }
    with_path(path, &without_position(inner))
}

/// The message, with the pieces of model input in it cut and neutralised (serde's message
/// quotes what the model sent: a key, a string, a variant, which may be a megabyte).
fn with_path(path: &[Segment], message: &str) -> Problem {
    let message = cut_pieces(message);
    let path = path_text(path);
    Problem::Field {
        path: (path != ".").then_some(path),
        message,
    }
}

fn not_json(e: &serde_json::Error) -> Problem {
    Problem::NotJson(e.to_string())
}

fn not_object(value: &Value) -> Problem {
    // Arguments encoded twice (an Anthropic `input` or Gemini `args` given as the JSON text of
    // the object): say so, and what to send instead.
    let encoded_twice = match value {
        Value::String(text) => {
            let text = text.trim();
            text.starts_with('{') && serde_json::from_str::<serde::de::IgnoredAny>(text).is_ok()
        }
        _ => false,
    };
    Problem::NotObject {
        found: kind(value),
        encoded_twice,
    }
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

#[cfg(test)]
mod tests;
