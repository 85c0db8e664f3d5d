//! Turning what a model sent into arguments: the SPEC §5 rules, one place.
//!
//! Absent, `null`, `""` or whitespace mean `{}`. Anything that is not JSON, or JSON that is not
//! an object, is refused before the tool runs, with a message the model can act on.

use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use crate::schema::kind;
use crate::ToolResult;

/// Bounds on what one call's arguments may cost, checked before anything is decoded.
///
/// A [`Toolkit`](crate::Toolkit) applies them to every call it executes; exceeding one gives an
/// error result and the tool does not run. The defaults (1 MiB, 64 levels) are far above what a
/// real tool call needs and far below what could hurt the host.
///
/// ```
/// use toolnexus::{Limits, Toolkit};
///
/// let toolkit = Toolkit::new().with_limits(Limits { max_bytes: 64 * 1024, max_depth: 16 });
/// assert_eq!(toolkit.limits().max_depth, 16);
/// assert_eq!(Limits::default(), Limits { max_bytes: 1024 * 1024, max_depth: 64 });
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// The most bytes of argument JSON (text as sent, or the size of an object as it would be
    /// sent) one call may carry.
    pub max_bytes: usize,
    /// The deepest nesting of arrays and objects; the argument object itself is level 1.
    pub max_depth: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_bytes: 1024 * 1024,
            max_depth: 64,
        }
    }
}

impl Limits {
    /// Checks argument text, with one pass over its bytes.
    pub(crate) fn check_text(&self, tool: &str, text: &str) -> Result<(), ToolResult> {
        if text.len() > self.max_bytes {
            return Err(self.too_large(tool, text.len()));
        }
        let (mut depth, mut in_string, mut escaped) = (0usize, false, false);
        for &b in text.as_bytes() {
            if in_string {
                match b {
                    _ if escaped => escaped = false,
                    b'\\' => escaped = true,
                    b'"' => in_string = false,
                    _ => {}
                }
                continue;
            }
            match b {
                b'"' => in_string = true,
                b'{' | b'[' => {
                    depth += 1;
                    if depth > self.max_depth {
                        return Err(self.too_deep(tool));
                    }
                }
                b'}' | b']' => depth = depth.saturating_sub(1),
                _ => {}
            }
        }
        Ok(())
    }

    /// Checks an argument value without recursion: its depth, and its size as compact JSON
    /// (counted, not built; escapes inside strings are not counted).
    pub(crate) fn check_value(&self, tool: &str, value: &Value) -> Result<(), ToolResult> {
        let mut size = 0usize;
        let mut stack: Vec<(&Value, usize)> = vec![(value, 1)];
        while let Some((v, depth)) = stack.pop() {
            size += match v {
                Value::Null => 4,
                Value::Bool(b) => 4 + usize::from(!*b),
                Value::Number(n) => n.to_string().len(),
                Value::String(s) => s.len() + 2,
                Value::Array(items) => {
                    if depth > self.max_depth {
                        return Err(self.too_deep(tool));
                    }
                    stack.extend(items.iter().map(|i| (i, depth + 1)));
                    2 + items.len().saturating_sub(1)
                }
                Value::Object(map) => {
                    if depth > self.max_depth {
                        return Err(self.too_deep(tool));
                    }
                    stack.extend(map.values().map(|i| (i, depth + 1)));
                    2 + map.len().saturating_sub(1) + map.keys().map(|k| k.len() + 3).sum::<usize>()
                }
            };
            if size > self.max_bytes {
                return Err(self.too_large(tool, size));
            }
        }
        Ok(())
    }

    fn too_large(&self, tool: &str, size: usize) -> ToolResult {
        ToolResult::error(format!(
            "invalid arguments for `{tool}`: the arguments are larger than {} bytes ({}{size} bytes); send less data",
            self.max_bytes,
            if size > self.max_bytes { "at least " } else { "" },
        ))
    }

    fn too_deep(&self, tool: &str) -> ToolResult {
        ToolResult::error(format!(
            "invalid arguments for `{tool}`: the arguments are nested deeper than {} levels",
            self.max_depth
        ))
    }
}

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
    let value: T = match serde_path_to_error::deserialize(&mut de) {
        Ok(value) => value,
        // serde_json reports some type mismatches as syntax errors (an enum given `false` is
        // "expected value"), which would tell the model its valid JSON is not JSON. Only on this
        // error path: read the text as a value, and either say where the JSON really is broken
        // or decode the value, which names the field and the expected type.
        Err(e) if e.inner().is_syntax() || e.inner().is_eof() => {
            return match serde_json::from_str::<Value>(text) {
                Ok(parsed) => decode_value(tool, parsed),
                Err(e) => Err(not_json(tool, &e)),
            };
        }
        Err(e) => return Err(invalid(tool, &e)),
    };
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
