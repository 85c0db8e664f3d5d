//! What strict mode sends, checked: every `$ref` resolves in it, and it is within
//! OpenAI's documented size limits.
//!
//! OpenAI's Structured Outputs guide, "Supported schemas"
//! (<https://developers.openai.com/api/docs/guides/structured-outputs#supported-schemas>, the
//! rules strict function calling follows), documents:
//! - "A schema may have up to 5000 object properties total, with up to 10 levels of nesting."
//! - "In a schema, total string length of all property names, definition names, enum values,
//!   and const values cannot exceed 120,000 characters."
//! - "A schema may have up to 1000 enum values across all enum properties."
//! - "For a single enum property with string values, the total string length of all enum values
//!   cannot exceed 15,000 characters when there are more than 250 enum values."
//!
//! How nesting is counted follows OpenAI's own client-side check in the official Java SDK
//! (`openai-java`, `JsonSchemaValidator`, `MAX_NESTING_DEPTH = 10`): the root is level 0 and
//! every step into a subschema (a property, `items`, an `anyOf` branch, a definition) is one
//! level more; references are not followed. Enum values are counted as sent (a `null` that
//! strict mode adds for an optional property included), strings by their characters, other
//! values by their JSON text. A schema past any limit is sent non-strict, and
//! [`InputSchema::for_openai_strict`](crate::InputSchema::for_openai_strict) says which limit.

use serde_json::Value;

use crate::schema::{refs, walk};
use crate::values::error::SchemaError;

/// Most levels of nesting below the root.
pub(crate) const MAX_NESTING: usize = 10;
/// Most object properties in all.
pub(crate) const MAX_PROPERTIES: usize = 5000;
/// Most enum values in all.
pub(crate) const MAX_ENUM_VALUES: usize = 1000;
/// Most characters of property names, definition names, enum and const values in all.
pub(crate) const MAX_TOTAL_CHARS: usize = 120_000;
/// An enum of more string values than this is limited to [`MAX_LARGE_ENUM_CHARS`].
pub(crate) const LARGE_ENUM: usize = 250;
/// Most characters of the values of one string enum of more than [`LARGE_ENUM`] values.
pub(crate) const MAX_LARGE_ENUM_CHARS: usize = 15_000;

const PROVIDER: &str = "openai strict mode";
const FALLBACK: &str = "the tool is sent non-strict";

#[derive(Default)]
struct Size {
    properties: usize,
    enum_values: usize,
    chars: usize,
}

/// Refuses a strict schema with a reference that does not resolve in it, or past any of
/// OpenAI's documented limits, naming what and where.
pub(crate) fn check(schema: &Value) -> Result<(), SchemaError> {
    if let Some((at, r)) = refs::first_dangling(schema) {
        return Err(walk::error(
            PROVIDER,
            &walk::push(&at, "$ref"),
            format!(
                "`{}` would not resolve in the strict schema; put its target under `$defs`",
                crate::values::text::echo(&r)
            ),
        ));
    }
    let mut size = Size::default();
    node(schema, "", 0, &mut size)?;
    let totals = [
        (
            size.properties,
            MAX_PROPERTIES,
            "object properties",
            "object properties in all",
        ),
        (
            size.enum_values,
            MAX_ENUM_VALUES,
            "enum values",
            "enum values in all",
        ),
        (
            size.chars,
            MAX_TOTAL_CHARS,
            "characters of property names, definition names, enum and const values",
            "characters of names and values in all",
        ),
    ];
    for (count, max, what, limit) in totals {
        if count > max {
            return Err(walk::error(
                PROVIDER,
                "",
                format!(
                    "the schema has {count} {what}; OpenAI documents at most {max} {limit} for \
                     strict mode, so {FALLBACK}"
                ),
            ));
        }
    }
    Ok(())
}

fn chars(value: &Value) -> usize {
    match value {
        Value::String(s) => s.chars().count(),
        other => other.to_string().chars().count(),
    }
}

fn node(schema: &Value, path: &str, depth: usize, size: &mut Size) -> Result<(), SchemaError> {
    let Value::Object(map) = schema else {
        return Ok(());
    };
    if depth > MAX_NESTING {
        return Err(walk::error(
            PROVIDER,
            path,
            format!(
                "this subschema is at level {depth}: more than {MAX_NESTING} levels of nesting, \
                 OpenAI's documented limit for strict mode, so {FALLBACK}"
            ),
        ));
    }
    if let Some(Value::Array(values)) = map.get("enum") {
        size.enum_values += values.len();
        let total: usize = values.iter().map(chars).sum();
        size.chars += total;
        let strings = values.iter().filter(|v| v.is_string()).count();
        if strings > LARGE_ENUM && values.iter().all(|v| v.is_string() || v.is_null()) {
            let string_chars: usize = values.iter().filter(|v| v.is_string()).map(chars).sum();
            if string_chars > MAX_LARGE_ENUM_CHARS {
                return Err(walk::error(
                    PROVIDER,
                    &walk::push(path, "enum"),
                    format!(
                        "this enum's {strings} string values have {string_chars} characters; \
                         OpenAI documents at most {MAX_LARGE_ENUM_CHARS} for an enum of more \
                         than {LARGE_ENUM} values in strict mode, so {FALLBACK}"
                    ),
                ));
            }
        }
    }
    if let Some(c) = map.get("const") {
        size.chars += chars(c);
    }
    for (key, value) in map {
        match (key.as_str(), value) {
            ("properties", Value::Object(props)) => {
                let here = walk::push(path, "properties");
                for (name, sub) in props {
                    size.properties += 1;
                    size.chars += name.chars().count();
                    node(sub, &walk::push(&here, name), depth + 1, size)?;
                }
            }
            ("$defs" | "definitions", Value::Object(defs)) => {
                let here = walk::push(path, key);
                for (name, sub) in defs {
                    size.chars += name.chars().count();
                    node(sub, &walk::push(&here, name), depth + 1, size)?;
                }
            }
            ("anyOf", Value::Array(branches)) => {
                let here = walk::push(path, "anyOf");
                for (i, sub) in branches.iter().enumerate() {
                    node(sub, &walk::push(&here, &i.to_string()), depth + 1, size)?;
                }
            }
            ("items" | "additionalProperties", sub @ Value::Object(_)) => {
                node(sub, &walk::push(path, key), depth + 1, size)?;
            }
            _ => {}
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn depth_counts_every_step_into_a_subschema() {
        // root (0) -> list (1) -> its items (2) -> x (3): an array of objects is two levels.
        let s = json!({"type": "object", "properties": {"list": {"type": "array",
            "items": {"type": "object", "properties": {"x": {"type": "string"}}}}}});
        let mut size = Size::default();
        assert!(node(&s, "", 7, &mut size).is_ok());
        let err = node(&s, "", 8, &mut size).unwrap_err();
        assert_eq!(err.path, "/properties/list/items/properties/x");
    }

    #[test]
    fn definitions_names_and_consts_count_as_characters() {
        let s =
            json!({"$defs": {"abc": {"const": "xy"}}, "properties": {"de": {"enum": [1, null]}}});
        let mut size = Size::default();
        node(&s, "", 0, &mut size).unwrap();
        assert_eq!(
            (size.properties, size.enum_values, size.chars),
            (1, 2, 3 + 2 + 2 + 1 + 4)
        );
    }
}
