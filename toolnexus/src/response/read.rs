//! The path-aware reader every provider uses (every surprise a [`ResponseError`]), and the
//! repairs a repeated model turn needs.

use std::fmt;

use serde_json::{Map, Value};

use super::{passing, ResponseError, TokenLimit};
use crate::values::call::{CallKind, ToolCall};
use crate::values::dialect::Dialect;
use crate::values::text::{echo, kind};

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
            ran: Default::default(),
            dialect: self.dialect,
            path: path.into().to_string(),
            expected,
            found: found.map_or("nothing", kind),
        }
    }

    pub(crate) fn incomplete(&self, reason: String) -> ResponseError {
        ResponseError::Incomplete {
            ran: Default::default(),
            dialect: self.dialect,
            reason,
        }
    }

    /// A turn cut off by a token limit.
    pub(crate) fn truncated(&self, limit: TokenLimit, reason: String) -> ResponseError {
        ResponseError::Truncated {
            ran: Default::default(),
            dialect: self.dialect,
            limit,
            reason,
        }
    }

    /// The provider's error object (or `true`, or a bare message or code): its message, its kind
    /// (`type`, else `status`, else `code`) and whether any of those says it is passing.
    pub(crate) fn provider(&self, error: &Value) -> ResponseError {
        let text = |key: &str| -> Option<String> {
            match error.get(key)? {
                Value::String(s) if !s.trim().is_empty() => Some(s.clone()),
                Value::Number(n) => Some(n.to_string()),
                _ => None,
            }
        };
        let kinds: Vec<String> = ["type", "status", "code"]
            .into_iter()
            .filter_map(text)
            .collect();
        let code = match error {
            Value::Number(n) => Some(n.to_string()),
            _ => kinds.first().cloned(),
        };
        let message = match (error.get("message").and_then(Value::as_str), error) {
            (Some(message), _) => echo(message),
            (None, Value::String(message)) => echo(message),
            (None, _) => match &code {
                Some(code) => format!("(no message; the error is `{}`)", echo(code)),
                None => "(no message)".to_owned(),
            },
        };
        let retry = passing(kinds.iter().chain(&code).map(String::as_str));
        ResponseError::Provider {
            ran: Default::default(),
            dialect: self.dialect,
            message,
            code: code.map(|c| echo(&c)),
            retry,
        }
    }

    /// A turn the provider stopped for safety or another reason than finishing it.
    pub(crate) fn stopped(&self, reason: String) -> ResponseError {
        ResponseError::Stopped {
            ran: Default::default(),
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
                ran: Default::default(),
                dialect: self.dialect,
                path: "(root)".to_owned(),
                expected: "a JSON object",
                found: kind(response),
            });
        };
        if let Some(error) = field(root, "error").filter(|e| carries_error(e)) {
            return Err(self.provider(error));
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

    /// An optional string field, such as a stop reason: absent or `null` is `None`, and any
    /// other type makes the response malformed (a reason that is not a string is no reason to
    /// run its calls).
    pub(crate) fn optional_string<'p, 'v>(
        &self,
        parent: &'v serde_json::Map<String, Value>,
        key: &str,
        path: impl Into<At<'p>>,
    ) -> Result<Option<&'v str>, ResponseError> {
        match field(parent, key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s)),
            other => Err(self.malformed(path, "a string", other)),
        }
    }

    /// The kind of an OpenAI-shaped call's `type` (Chat, Cohere) at `path`: absent, `null` or
    /// `function` is a function call, any other name a call answered and never run.
    pub(crate) fn function_kind<'p>(
        &self,
        call: &serde_json::Map<String, Value>,
        path: impl Into<At<'p>>,
    ) -> Result<CallKind, ResponseError> {
        Ok(match self.optional_string(call, "type", path)? {
            None | Some("function") => CallKind::Function,
            Some(other) => CallKind::Unsupported(other.to_owned()),
        })
    }

    /// The calls of the list at `base`, in order: each item an object, read by `call`, the
    /// format's per-call parser (an item that is no call gives none).
    pub(crate) fn calls<'v>(
        &self,
        items: &'v [Value],
        base: &'static str,
        call: impl Fn(&'v Map<String, Value>, At<'_>) -> Result<Option<ToolCall>, ResponseError>,
    ) -> Result<Vec<ToolCall>, ResponseError> {
        let mut calls = Vec::new();
        for (i, item) in items.iter().enumerate() {
            let at = At::item(base, i);
            calls.extend(call(self.object(Some(item), at)?, at)?);
        }
        Ok(calls)
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

/// A repeated assistant message with OpenAI-shaped `tool_calls` (`{"function": {"arguments"}}`:
/// OpenAI Chat, Cohere): the members `keys` of `message` that are present and not empty (no
/// `null`, no `""`, no `[]`, which the APIs refuse in a request) copied into `turn`, and each
/// call's arguments made JSON text ([`repair_text_arguments`]).
pub(crate) fn keep_function_calls(
    message: &Map<String, Value>,
    turn: &mut Map<String, Value>,
    keys: &[&str],
) {
    for &key in keys {
        match field(message, key) {
            None | Some(Value::Null) => {}
            Some(Value::String(s)) if s.is_empty() => {}
            Some(Value::Array(items)) if items.is_empty() => {}
            Some(value) => {
                turn.insert(key.into(), value.clone());
            }
        }
    }
    if let Some(Value::Array(calls)) = field_mut(turn, "tool_calls") {
        for call in calls.iter_mut().filter_map(Value::as_object_mut) {
            if let Some(function) = field_mut(call, "function") {
                repair_text_arguments(function, "arguments");
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
