//! Reading a provider response: [`ResponseError`] for a response that is not what its dialect
//! says, the path-aware reader every provider uses, and the repairs a repeated model turn needs.

use std::fmt;

use serde_json::{Map, Value};

use crate::dialect::Dialect;
use crate::text::{echo, kind};

/// A response that is not what its dialect says, so its calls cannot be read.
///
/// Never caused by a tool or by bad arguments (those are error results the model reads); this is
/// for the response itself: not JSON, a missing or mistyped field, a response cut off at the
/// token limit, or an error object where a response was expected. No call of such a response
/// is run. The `Display` text says what was expected and where.
///
/// ```
/// use serde_json::json;
/// use toolnexus::Dialect;
///
/// let err = Dialect::OpenAiChat.parse_calls(&json!({"choices": []})).unwrap_err();
/// assert_eq!(
///     err.to_string(),
///     "unexpected OpenAI Chat Completions response: expected a non-empty array at `choices`, found an empty array"
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ResponseError {
    /// The body is not JSON (truncated, or not a response at all).
    NotJson {
        /// The dialect that was expected.
        dialect: Dialect,
        /// serde_json's description of the problem.
        detail: String,
    },
    /// A field is missing or has the wrong type.
    Malformed {
        /// The dialect that was expected.
        dialect: Dialect,
        /// Where, as a path from the root: `choices[0].message.tool_calls[1].function.name`.
        path: String,
        /// What the dialect puts there: `an array`, `a string`.
        expected: &'static str,
        /// What was there instead: `nothing`, `a number`, ... (never the value itself).
        found: &'static str,
    },
    /// The response stopped before it was complete (the output token limit, a malformed call,
    /// a blocked prompt): its calls may be cut off, so none are run.
    Incomplete {
        /// The dialect that was expected.
        dialect: Dialect,
        /// What the provider said, e.g. ``finish_reason` is `length``.
        reason: String,
    },
    /// The provider stopped the turn for safety (a content filter, a refusal, recitation, ...)
    /// or for another reason than finishing it: none of its calls are run, since they were not
    /// meant to be. Drop the turn (never append it without results for its calls) and change
    /// the request before asking again.
    Stopped {
        /// The dialect that was expected.
        dialect: Dialect,
        /// What the provider said, e.g. ``stop_reason` is `refusal``.
        reason: String,
    },
    /// The provider sent an error object instead of a response, or beside one (`"error"` with
    /// a message, a code or `true`; `null`, `false` and empty values are no error).
    Provider {
        /// The dialect that was expected.
        dialect: Dialect,
        /// The provider's message (at most 300 characters of it).
        message: String,
    },
}

impl ResponseError {
    /// The dialect whose response was expected.
    pub fn dialect(&self) -> Dialect {
        match self {
            ResponseError::NotJson { dialect, .. }
            | ResponseError::Malformed { dialect, .. }
            | ResponseError::Incomplete { dialect, .. }
            | ResponseError::Stopped { dialect, .. }
            | ResponseError::Provider { dialect, .. } => *dialect,
        }
    }
}

impl fmt::Display for ResponseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ResponseError::NotJson { dialect, detail } => {
                write!(f, "the {dialect} response is not valid JSON: {detail}")
            }
            ResponseError::Malformed {
                dialect,
                path,
                expected,
                found,
            } => write!(
                f,
                "unexpected {dialect} response: expected {expected} at `{path}`, found {found}"
            ),
            ResponseError::Incomplete { dialect, reason } => write!(
                f,
                "the {dialect} response is incomplete ({reason}); its tool calls may be cut off, \
                 so none were run"
            ),
            ResponseError::Stopped { dialect, reason } => write!(
                f,
                "the {dialect} response was stopped by the provider; none of its tool calls \
                 were run ({reason})"
            ),
            ResponseError::Provider { dialect, message } => {
                write!(
                    f,
                    "{dialect} returned an error instead of a response: {message}"
                )
            }
        }
    }
}

impl std::error::Error for ResponseError {}

/// Where a field of a response is, for an error message: `base`, then `[index]` when there is
/// one, then `field` (`choices[0].message.tool_calls` `[2]` `.function.name`). Built for every
/// field read and rendered only for an error, so reading a good response formats nothing.
#[derive(Clone, Copy)]
pub(crate) struct At<'a> {
    base: &'a str,
    index: Option<usize>,
    field: &'static str,
}

impl<'a> At<'a> {
    /// Item `index` of the array at `base`.
    pub(crate) fn item(base: &'a str, index: usize) -> Self {
        At {
            base,
            index: Some(index),
            field: "",
        }
    }

    /// `field` (with its leading `.`) under this place.
    pub(crate) fn field(self, field: &'static str) -> Self {
        At { field, ..self }
    }
}

impl<'a> From<&'a str> for At<'a> {
    fn from(base: &'a str) -> Self {
        At {
            base,
            index: None,
            field: "",
        }
    }
}

impl fmt::Display for At<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.base)?;
        if let Some(index) = self.index {
            write!(f, "[{index}]")?;
        }
        f.write_str(self.field)
    }
}

/// Reads a response by path, turning every surprise into a [`ResponseError`].
pub(crate) struct Reader {
    pub(crate) dialect: Dialect,
}

impl Reader {
    pub(crate) fn malformed<'p>(
        &self,
        path: impl Into<At<'p>>,
        expected: &'static str,
        found: Option<&Value>,
    ) -> ResponseError {
        ResponseError::Malformed {
            dialect: self.dialect,
            path: path.into().to_string(),
            expected,
            found: found.map_or("nothing", kind),
        }
    }

    pub(crate) fn incomplete(&self, reason: String) -> ResponseError {
        ResponseError::Incomplete {
            dialect: self.dialect,
            reason,
        }
    }

    /// A turn the provider stopped for safety or another reason than finishing it.
    pub(crate) fn stopped(&self, reason: String) -> ResponseError {
        ResponseError::Stopped {
            dialect: self.dialect,
            reason,
        }
    }

    /// The response's root object; an error there (`{"error": {...}}`, Anthropic's
    /// `{"type":"error", ...}`) becomes [`ResponseError::Provider`]. An `error` field that
    /// carries nothing (`null`, `false`, `0`, `""`, `{}`, `[]`, an object of nulls) is no error:
    /// some servers send one beside every response.
    pub(crate) fn root<'v>(
        &self,
        response: &'v Value,
    ) -> Result<&'v serde_json::Map<String, Value>, ResponseError> {
        let Value::Object(root) = response else {
            return Err(ResponseError::Malformed {
                dialect: self.dialect,
                path: "(root)".to_owned(),
                expected: "a JSON object",
                found: kind(response),
            });
        };
        if let Some(error) = field(root, "error").filter(|e| carries_error(e)) {
            let message = error
                .get("message")
                .and_then(Value::as_str)
                .or_else(|| error.as_str())
                .unwrap_or("(no message)");
            return Err(ResponseError::Provider {
                dialect: self.dialect,
                message: echo(message),
            });
        }
        Ok(root)
    }

    /// A required array field.
    pub(crate) fn array<'p, 'v>(
        &self,
        parent: &'v serde_json::Map<String, Value>,
        key: &str,
        path: impl Into<At<'p>>,
    ) -> Result<&'v Vec<Value>, ResponseError> {
        match field(parent, key) {
            Some(Value::Array(items)) => Ok(items),
            other => Err(self.malformed(path, "an array", other)),
        }
    }

    /// An array field that may be absent or `null` (an empty list then).
    pub(crate) fn optional_array<'p, 'v>(
        &self,
        parent: &'v serde_json::Map<String, Value>,
        key: &str,
        path: impl Into<At<'p>>,
    ) -> Result<&'v [Value], ResponseError> {
        match field(parent, key) {
            None | Some(Value::Null) => Ok(&[]),
            Some(Value::Array(items)) => Ok(items),
            other => Err(self.malformed(path, "an array", other)),
        }
    }

    /// A required object.
    pub(crate) fn object<'p, 'v>(
        &self,
        value: Option<&'v Value>,
        path: impl Into<At<'p>>,
    ) -> Result<&'v serde_json::Map<String, Value>, ResponseError> {
        match value {
            Some(Value::Object(map)) => Ok(map),
            other => Err(self.malformed(path, "an object", other)),
        }
    }

    /// A required string field.
    pub(crate) fn string<'p, 'v>(
        &self,
        parent: &'v serde_json::Map<String, Value>,
        key: &str,
        path: impl Into<At<'p>>,
    ) -> Result<&'v str, ResponseError> {
        match field(parent, key) {
            Some(Value::String(s)) => Ok(s),
            other => Err(self.malformed(path, "a string", other)),
        }
    }
}

/// Whether an `error` field says something went wrong: `true`, a non-blank string, a number
/// other than 0, or a list or object with such a member. `null`, `false`, `0`, `""`, `{}`,
/// `[]` and `{"message": null}` do not.
/// (Past 8 levels of nesting, anything is taken as an error.)
pub(crate) fn carries_error(error: &Value) -> bool {
    fn carries(error: &Value, depth: usize) -> bool {
        match error {
            _ if depth > 8 => true,
            Value::Null => false,
            Value::Bool(b) => *b,
            Value::Number(n) => n.as_f64() != Some(0.0),
            Value::String(s) => !s.trim().is_empty(),
            Value::Array(items) => items.iter().any(|e| carries(e, depth + 1)),
            Value::Object(map) => map.values().any(|e| carries(e, depth + 1)),
        }
    }
    carries(error, 0)
}

/// Up to this many keys, [`field`] scans an object's entries instead of hashing the key.
const SCANNED_KEYS: usize = 8;

/// `map[key]` for the objects of a response: a scan of the entries up to [`SCANNED_KEYS`] keys
/// (no hash of the key, most of the cost of a lookup there), the map's index past them.
pub(crate) fn field<'v>(map: &'v Map<String, Value>, key: &str) -> Option<&'v Value> {
    if map.len() <= SCANNED_KEYS {
        map.iter().find_map(|(k, v)| (k == key).then_some(v))
    } else {
        map.get(key)
    }
}

/// [`field`], mutably.
pub(crate) fn field_mut<'v>(map: &'v mut Map<String, Value>, key: &str) -> Option<&'v mut Value> {
    if map.len() <= SCANNED_KEYS {
        map.iter_mut().find_map(|(k, v)| (k == key).then_some(v))
    } else {
        map.get_mut(key)
    }
}

/// In a repeated model turn, arguments that must be JSON text (OpenAI): a value that is not a
/// string becomes its JSON text, a missing one `"{}"`, so the next request is not refused for
/// what the model sent.
pub(crate) fn repair_text_arguments(holder: &mut Value, key: &str) {
    if let Value::Object(map) = holder {
        match field(map, key) {
            Some(Value::String(_)) => {}
            None | Some(Value::Null) => {
                map.insert(key.to_owned(), "{}".into());
            }
            Some(other) => {
                let text = other.to_string();
                map.insert(key.to_owned(), text.into());
            }
        }
    }
}

/// In a repeated model turn, arguments that must be an object (Anthropic `input`, Gemini `args`):
/// anything else present becomes `{}` (the call itself was answered with an error).
pub(crate) fn repair_object_arguments(holder: &mut Value, key: &str) {
    if let Value::Object(map) = holder {
        if field(map, key).is_some_and(|v| !v.is_object()) {
            map.insert(key.to_owned(), Value::Object(Map::new()));
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{json, Map, Value};

    use super::{field, field_mut};

    fn object(keys: usize) -> Map<String, Value> {
        (0..keys).map(|i| (format!("k{i}"), json!(i))).collect()
    }

    #[test]
    fn a_field_is_found_by_its_key_in_small_and_large_objects() {
        // Up to 8 keys the entries are scanned; past them the map's index answers.
        for keys in [0, 1, 8, 9, 40] {
            let mut map = object(keys);
            for i in 0..keys {
                assert_eq!(
                    field(&map, &format!("k{i}")),
                    Some(&json!(i)),
                    "{keys} keys"
                );
            }
            assert_eq!(field(&map, "k"), None, "{keys} keys");
            assert_eq!(field(&map, &format!("k{keys}")), None, "{keys} keys");
            if keys > 0 {
                let last = format!("k{}", keys - 1);
                *field_mut(&mut map, &last).expect("present") = json!("changed");
                assert_eq!(map[&last], "changed", "{keys} keys");
            }
            assert!(field_mut(&mut map, "absent").is_none());
        }
    }
}
