//! What every provider's lowering shares: JSON Pointer paths, `$ref` resolution, the subschema
//! keywords of JSON Schema 2020-12, "does this schema accept `null`", and the root steps
//! (`allOf` merging itself is in [`merge`](super::merge)).

use serde_json::{Map, Value};

use crate::values::error::SchemaError;

/// How deep a schema may nest before lowering refuses it (a hand-built schema could recurse
/// through `$ref` forever or nest absurdly deep; stack space must stay bounded).
pub(crate) const MAX_DEPTH: usize = 64;

/// The string `format`s every strict subset keeps: those OpenAI's strict mode documents, which
/// Anthropic's SDK keeps too (with `uri` besides).
pub(crate) const STRICT_FORMATS: &[&str] = &[
    "date-time",
    "time",
    "date",
    "duration",
    "email",
    "hostname",
    "ipv4",
    "ipv6",
    "uuid",
];

/// `path` extended by one JSON Pointer token (escaping `~` and `/`).
pub(crate) fn push(path: &str, token: &str) -> String {
    let mut out = String::with_capacity(path.len() + token.len() + 1);
    out.push_str(path);
    out.push('/');
    for c in token.chars() {
        match c {
            '~' => out.push_str("~0"),
            '/' => out.push_str("~1"),
            c => out.push(c),
        }
    }
    out
}

/// The schema a local `$ref` (`#`, `#/$defs/Name`, `#/definitions/Name`) points at in `root`.
pub(crate) fn resolve<'a>(root: &'a Value, reference: &str) -> Option<&'a Value> {
    super::pointer::resolve(root, reference)
}

/// Keywords whose value is one subschema.
pub(crate) const ONE: &[&str] = &[
    "additionalProperties",
    "items",
    "additionalItems",
    "not",
    "if",
    "then",
    "else",
    "contains",
    "propertyNames",
    "unevaluatedProperties",
    "unevaluatedItems",
];
/// Keywords whose value maps names to subschemas.
pub(crate) const MAP: &[&str] = &[
    "properties",
    "patternProperties",
    "$defs",
    "definitions",
    "dependentSchemas",
];
/// Keywords whose value is a list of subschemas.
pub(crate) const LIST: &[&str] = &["anyOf", "oneOf", "allOf", "prefixItems", "items"];

/// Calls `f` on every direct subschema of `schema` with its path; stops at the first error.
pub(crate) fn each_child_mut<E>(
    schema: &mut Map<String, Value>,
    path: &str,
    f: &mut dyn FnMut(&mut Value, &str) -> Result<(), E>,
) -> Result<(), E> {
    for (key, value) in schema.iter_mut() {
        let key = key.as_str();
        let here = push(path, key);
        match value {
            Value::Array(list) if LIST.contains(&key) => {
                for (i, sub) in list.iter_mut().enumerate() {
                    f(sub, &push(&here, &i.to_string()))?;
                }
            }
            Value::Object(map) if MAP.contains(&key) => {
                for (name, sub) in map.iter_mut() {
                    f(sub, &push(&here, name))?;
                }
            }
            sub @ (Value::Object(_) | Value::Bool(_)) if ONE.contains(&key) => f(sub, &here)?,
            _ => {}
        }
    }
    Ok(())
}

/// The `type` keyword as a list (`"string"` and `["string"]` alike); `None` when absent.
pub(crate) fn types(schema: &Map<String, Value>) -> Option<Vec<&str>> {
    match schema.get("type")? {
        Value::String(t) => Some(vec![t.as_str()]),
        Value::Array(list) => Some(list.iter().filter_map(Value::as_str).collect()),
        _ => None,
    }
}

/// Whether `null` is a valid instance of `schema` (following local `$ref`s in `root`).
///
/// Errs on the side of "yes" where it cannot tell (an unresolvable `$ref`, absurd depth), so a
/// caller that turns `null` into "absent" only does so when `null` is certainly invalid.
pub(crate) fn allows_null(root: &Value, schema: &Value, depth: usize) -> bool {
    if depth > MAX_DEPTH {
        return true;
    }
    let map = match schema {
        Value::Bool(b) => return *b,
        Value::Object(map) => map,
        _ => return true,
    };
    if map.get("nullable") == Some(&Value::Bool(true)) {
        return true;
    }
    if let Some(t) = types(map) {
        if !t.contains(&"null") {
            return false;
        }
    }
    if let Some(Value::Array(values)) = map.get("enum") {
        if !values.contains(&Value::Null) {
            return false;
        }
    }
    if let Some(c) = map.get("const") {
        if !c.is_null() {
            return false;
        }
    }
    if let Some(Value::String(r)) = map.get("$ref") {
        if let Some(target) = resolve(root, r) {
            if !allows_null(root, target, depth + 1) {
                return false;
            }
        }
    }
    for key in ["anyOf", "oneOf"] {
        if let Some(Value::Array(branches)) = map.get(key) {
            if !branches.iter().any(|b| allows_null(root, b, depth + 1)) {
                return false;
            }
        }
    }
    if let Some(Value::Array(branches)) = map.get("allOf") {
        if !branches.iter().all(|b| allows_null(root, b, depth + 1)) {
            return false;
        }
    }
    true
}

/// The root of `schema` with `$schema` removed and `properties` present (right after `type`).
///
/// The common first step of every provider's lowering.
pub(crate) fn common_root(schema: &Value) -> Value {
    let Value::Object(root) = schema else {
        return schema.clone();
    };
    let has_props = root.contains_key("properties");
    let mut out = Map::with_capacity(root.len() + 1);
    for (key, value) in root {
        if key == "$schema" {
            continue;
        }
        out.insert(key.clone(), value.clone());
        if key == "type" && !has_props {
            out.insert("properties".into(), Value::Object(Map::new()));
        }
    }
    Value::Object(out)
}

/// An error for `provider` at `path`.
pub(crate) fn error(provider: &'static str, path: &str, reason: impl Into<String>) -> SchemaError {
    let mut e = SchemaError::new(path, reason);
    e.provider = Some(provider);
    e
}

/// Refuses the first of `keywords` present at the root.
pub(crate) fn refuse_at_root(
    root: &Value,
    provider: &'static str,
    keywords: &[&str],
) -> Result<(), SchemaError> {
    let Value::Object(map) = root else {
        return Ok(());
    };
    match keywords.iter().find(|k| map.contains_key(**k)) {
        Some(k) => Err(error(
            provider,
            &push("", k),
            format!(
                "`{k}` is not allowed at the root; the arguments must be one object with \
                 `properties` (an enum or a choice of shapes as the whole argument object cannot \
                 be expressed: wrap it in a property)"
            ),
        )),
        None => Ok(()),
    }
}

/// Rewrites draft 4/7 spellings that mean something else (or are invalid) in 2020-12, which is
/// how a schema without `$schema` is read: a list-valued `items` becomes `prefixItems` (and
/// `additionalItems` becomes `items`); a boolean `exclusiveMinimum`/`exclusiveMaximum` becomes
/// the numeric bound.
pub(crate) fn to_2020_12(
    schema: &mut Value,
    provider: &'static str,
    path: &str,
    depth: usize,
) -> Result<(), SchemaError> {
    if depth > MAX_DEPTH {
        return Err(error(
            provider,
            path,
            format!("the schema nests deeper than {MAX_DEPTH} levels"),
        ));
    }
    let Value::Object(map) = schema else {
        return Ok(());
    };
    if map.get("items").is_some_and(Value::is_array) && !map.contains_key("prefixItems") {
        let rest = map.shift_remove("additionalItems");
        *map = std::mem::take(map)
            .into_iter()
            .map(|(k, v)| {
                if k == "items" {
                    ("prefixItems".to_owned(), v)
                } else {
                    (k, v)
                }
            })
            .collect();
        if let Some(rest) = rest {
            map.insert("items".into(), rest);
        }
    }
    for (flag, bound) in [
        ("exclusiveMinimum", "minimum"),
        ("exclusiveMaximum", "maximum"),
    ] {
        match map.get(flag) {
            Some(Value::Bool(true)) => {
                if let Some(b) = map.shift_remove(bound) {
                    rename(map, flag, b);
                } else {
                    map.shift_remove(flag);
                }
            }
            Some(Value::Bool(false)) => {
                map.shift_remove(flag);
            }
            _ => {}
        }
    }
    each_child_mut(map, path, &mut |sub, here| {
        to_2020_12(sub, provider, here, depth + 1)
    })
}

/// Sets `key` to `value` where `key` already is.
fn rename(map: &mut Map<String, Value>, key: &str, value: Value) {
    if let Some(slot) = map.get_mut(key) {
        *slot = value;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn pointer_tokens_are_escaped() {
        assert_eq!(push("/properties", "a/b~c"), "/properties/a~1b~0c");
    }

    #[test]
    fn null_acceptance() {
        let root = json!({"$defs": {"N": {"type": "null"}, "S": {"type": "string"}}});
        let yes = [
            json!({}),
            json!(true),
            json!({"type": ["string", "null"]}),
            json!({"anyOf": [{"type": "string"}, {"type": "null"}]}),
            json!({"$ref": "#/$defs/N"}),
            json!({"nullable": true, "type": "string"}),
        ];
        let no = [
            json!(false),
            json!({"type": "string"}),
            json!({"enum": ["a"]}),
            json!({"const": 1}),
            json!({"$ref": "#/$defs/S"}),
            json!({"oneOf": [{"type": "string"}, {"type": "integer"}]}),
        ];
        for s in &yes {
            assert!(allows_null(&root, s, 0), "{s}");
        }
        for s in &no {
            assert!(!allows_null(&root, s, 0), "{s}");
        }
    }
}
