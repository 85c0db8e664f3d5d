//! Gemini lowering, the keywords that need no subschema lowered: `type`, `enum`/`const`,
//! bounds, counts, `format`, `examples`, `required`, and the finishing rules (arrays get
//! `items`, `required` names get a property, `nullable` when every keyword lets `null` pass).

use serde_json::{Map, Value};

use super::{format_ok, refuse};
use crate::schema::walk;
use crate::values::error::SchemaError;

/// What one schema object says that several keywords read.
pub(super) struct Node<'m> {
    pub(super) map: &'m Map<String, Value>,
    /// `type` as a list without `null` (which becomes `nullable`); `None` when absent.
    types: Option<Vec<&'m str>>,
    pub(super) max_items: Option<u64>,
}

/// The schema being built: keys in the order the input had them.
pub(super) struct Out {
    pub(super) map: Map<String, Value>,
    pub(super) notes: Vec<String>,
    /// Some keyword names `null` as valid...
    pub(super) null_named: bool,
    /// ...and none refuses it: then `nullable: true`.
    pub(super) null_ok: bool,
}

impl<'m> Node<'m> {
    pub(super) fn new(map: &'m Map<String, Value>) -> Self {
        Node {
            map,
            types: walk::types(map).map(|t| t.into_iter().filter(|t| *t != "null").collect()),
            max_items: map.get("maxItems").and_then(Value::as_u64),
        }
    }

    /// The one type, when `type` names exactly one besides `null`.
    fn single(&self) -> Option<&'m str> {
        match self.types.as_deref() {
            Some([one]) => Some(*one),
            _ => None,
        }
    }

    /// `type`: one name, or a list as `anyOf`; `nullable` keeps its place (see [`Out::finish`]).
    pub(super) fn types(&self, here: &str, out: &mut Out) -> Result<(), SchemaError> {
        match self.types.as_deref() {
            Some([]) | None => {}
            Some([one]) => {
                out.map.insert("type".into(), Value::from(*one));
            }
            Some(many) => {
                let branches = many
                    .iter()
                    .map(|t| {
                        let mut b = Map::new();
                        b.insert("type".into(), Value::from(*t));
                        Value::Object(b)
                    })
                    .collect();
                if self.map.contains_key("anyOf") || self.map.contains_key("oneOf") {
                    return Err(refuse(
                        here,
                        "a list of types next to `anyOf`/`oneOf` cannot be expressed",
                    ));
                }
                out.map.insert("anyOf".into(), Value::Array(branches));
            }
        }
        out.map.insert("nullable".into(), Value::Bool(false));
        Ok(())
    }

    /// `const` and `enum`: string values stay an `enum`; others become a note.
    pub(super) fn values(
        &self,
        key: &str,
        value: &Value,
        here: &str,
        out: &mut Out,
    ) -> Result<(), SchemaError> {
        let values: Vec<Value> = if key == "const" {
            vec![value.clone()]
        } else {
            match value {
                Value::Array(values) => values.clone(),
                _ => return Err(refuse(here, "`enum` must be a list")),
            }
        };
        let has_null = values.contains(&Value::Null);
        out.null_named |= has_null;
        out.null_ok &= has_null;
        let values: Vec<Value> = values.into_iter().filter(|v| !v.is_null()).collect();
        let strings = values.iter().all(Value::is_string);
        if values.is_empty() {
            // Only `null`: said by `nullable`.
        } else if strings && matches!(self.types.as_deref(), None | Some(["string"])) {
            if self.types.is_none() {
                out.map.insert("type".into(), Value::from("string"));
                out.map.insert("nullable".into(), Value::Bool(false));
            }
            out.map.insert("enum".into(), Value::Array(values));
        } else {
            // Untyped, but every value has one type: say it (no valid value lost).
            if let (None, Some(t)) = (&self.types, common_type(&values)) {
                out.map.insert("type".into(), Value::from(t));
                out.map.insert("nullable".into(), Value::Bool(false));
            }
            let listed: Vec<String> = values.iter().map(Value::to_string).collect();
            out.notes.push(if listed.len() == 1 {
                format!("must be {}", listed[0])
            } else {
                format!("one of: {}", listed.join(", "))
            });
        }
        Ok(())
    }

    /// `exclusiveMinimum`/`exclusiveMaximum`: exact on an integer, a note otherwise.
    pub(super) fn exclusive(&self, key: &str, value: &Value, out: &mut Out) {
        let lower = key == "exclusiveMinimum";
        let bound_key = if lower { "minimum" } else { "maximum" };
        let bound = match value {
            Value::Number(n) => Some(n.clone()),
            // Draft 4: a flag on `minimum`/`maximum`.
            Value::Bool(true) => self.map.get(bound_key).and_then(Value::as_number).cloned(),
            _ => None,
        };
        if let Some(bound) = bound {
            match (self.single(), exact_integer(&bound)) {
                (Some("integer"), Some(n)) => {
                    let tighter = if lower { n + 1 } else { n - 1 };
                    let current = self.map.get(bound_key).and_then(Value::as_f64);
                    let keep = match current {
                        Some(c) if value.is_number() => {
                            if lower {
                                c >= tighter as f64
                            } else {
                                c <= tighter as f64
                            }
                        }
                        _ => false,
                    };
                    if !keep {
                        out.map.insert(bound_key.into(), Value::from(tighter));
                    }
                }
                _ => out.notes.push(format!(
                    "{} {bound}",
                    if lower { "greater than" } else { "less than" }
                )),
            }
        }
    }

    /// `format`: kept when Gemini documents it for the type.
    pub(super) fn format(&self, value: &Value, out: &mut Out) {
        if let Value::String(f) = value {
            if format_ok(self.single(), f) {
                out.map.insert("format".into(), value.clone());
            }
        }
    }

    /// The schema built, with the rules every object follows.
    pub(super) fn finish(&self, mut out: Out) -> Value {
        // Arrays always have `items`; `required` names always have a property.
        if self.single() == Some("array") && !out.map.contains_key("items") {
            out.map.insert("items".into(), Value::Object(Map::new()));
        }
        if let Some(Value::Array(required)) = out.map.get("required").cloned() {
            let props = out
                .map
                .entry("properties")
                .or_insert_with(|| Value::Object(Map::new()));
            if let Value::Object(props) = props {
                for name in required.iter().filter_map(Value::as_str) {
                    if !props.contains_key(name) {
                        props.insert(name.to_owned(), Value::Object(Map::new()));
                    }
                }
            }
        }
        out.finish()
    }
}

/// `minimum`/`maximum`: kept (an exclusive bound may already have written a tighter one).
pub(super) fn bound(
    key: &str,
    value: &Value,
    here: &str,
    out: &mut Out,
) -> Result<(), SchemaError> {
    if !value.is_number() {
        return Err(refuse(here, format!("`{key}` must be a number")));
    }
    // An exclusive bound on an integer may already have written a tighter one.
    out.map
        .entry(key.to_owned())
        .or_insert_with(|| value.clone());
    Ok(())
}

/// `minLength`, `maxItems`, ...: whole numbers, kept.
pub(super) fn count(
    key: &str,
    value: &Value,
    here: &str,
    out: &mut Out,
) -> Result<(), SchemaError> {
    if !value.is_u64() {
        return Err(refuse(here, format!("`{key}` must be a whole number")));
    }
    out.map
        .entry(key.to_owned())
        .or_insert_with(|| value.clone());
    Ok(())
}

/// `examples`: the first one, as OpenAPI's `example`.
pub(super) fn examples(value: &Value, out: &mut Out) {
    if let Some(first) = value.as_array().and_then(|l| l.first()) {
        out.map.insert("example".into(), first.clone());
    }
}

/// `required`: a list of names, kept.
pub(super) fn required(value: &Value, here: &str, out: &mut Out) -> Result<(), SchemaError> {
    let Value::Array(names) = value else {
        return Err(refuse(here, "`required` must be a list of names"));
    };
    if names.iter().any(|n| !n.is_string()) {
        return Err(refuse(here, "`required` must be a list of names"));
    }
    out.map.insert("required".into(), value.clone());
    Ok(())
}

impl Out {
    /// An empty schema for `map`, with what its `type` and `nullable` say about `null`.
    pub(super) fn new(map: &Map<String, Value>) -> Self {
        // Whether `null` passes each keyword that says something about it; `nullable` is only
        // set when every one of them lets it through and at least one names it.
        // OpenAPI's own `nullable: true` (a schema written for Gemini) widens `type` to null.
        let nullable_flag = map.get("nullable") == Some(&Value::Bool(true));
        let mut out = Self {
            map: Map::with_capacity(map.len() + 1),
            notes: Vec::new(),
            null_named: nullable_flag,
            null_ok: true,
        };
        if let Some(t) = walk::types(map) {
            out.null_ok = nullable_flag || t.contains(&"null");
            out.null_named |= out.null_ok;
        }
        out
    }

    fn finish(mut self) -> Value {
        // `nullable` sits where `type` was (a placeholder); it goes when false.
        if self.null_named && self.null_ok {
            self.map.insert("nullable".into(), Value::Bool(true));
        } else {
            self.map.shift_remove("nullable");
        }
        if !self.notes.is_empty() {
            let description = self.map.get("description").and_then(Value::as_str);
            let text = with_notes(description, &self.notes);
            self.map.insert("description".into(), Value::from(text));
        }
        Value::Object(self.map)
    }
}

/// `description` with the constraints Gemini cannot express appended, in parentheses.
pub(super) fn with_notes(description: Option<&str>, notes: &[String]) -> String {
    let notes = notes.join("; ");
    match description.map(str::trim_end) {
        Some(d) if !d.is_empty() => format!("{d} ({notes})"),
        _ => format!("({notes})"),
    }
}

/// A short text for a lowered schema in a note: its type (`integer`, `string or null`), or its
/// JSON when it says more than that.
pub(super) fn summary(schema: &Value) -> String {
    let Value::Object(map) = schema else {
        return schema.to_string();
    };
    let plain = map.keys().all(|k| {
        matches!(
            k.as_str(),
            "type" | "nullable" | "format" | "description" | "title"
        )
    });
    match map.get("type").and_then(Value::as_str) {
        Some(t) if plain => {
            if map.get("nullable") == Some(&Value::Bool(true)) {
                format!("{t} or null")
            } else {
                t.to_owned()
            }
        }
        None if map.is_empty() => "any value".to_owned(),
        _ => schema.to_string(),
    }
}

/// When every branch is a string enum (with at most a description), their values in order and
/// the descriptions as `value: description` notes.
pub(super) fn one_string_enum(branches: &[Value]) -> Option<(Vec<Value>, Vec<String>)> {
    let mut values: Vec<Value> = Vec::new();
    let mut docs = Vec::new();
    for b in branches {
        let map = b.as_object()?;
        if map.get("type")? != "string"
            || map
                .keys()
                .any(|k| !matches!(k.as_str(), "type" | "enum" | "description"))
        {
            return None;
        }
        let listed = map.get("enum")?.as_array()?;
        if let Some(d) = map.get("description").and_then(Value::as_str) {
            let names: Vec<&str> = listed.iter().filter_map(Value::as_str).collect();
            docs.push(format!("{}: {}", names.join(", "), d.trim_end_matches('.')));
        }
        for v in listed {
            if !values.contains(v) {
                values.push(v.clone());
            }
        }
    }
    Some((values, docs))
}

/// The one Gemini type all `values` have (`integer` when every number is whole), if any.
fn common_type(values: &[Value]) -> Option<&'static str> {
    let kind = |v: &Value| match v {
        Value::Bool(_) => Some("boolean"),
        Value::Number(n) if n.is_i64() || n.is_u64() => Some("integer"),
        Value::Number(_) => Some("number"),
        _ => None,
    };
    let first = kind(values.first()?)?;
    let mut all = first;
    for v in values {
        match (all, kind(v)?) {
            (a, b) if a == b => {}
            ("integer", "number") | ("number", "integer") => all = "number",
            _ => return None,
        }
    }
    Some(all)
}

/// Whether the only value `schema` accepts is `null`.
pub(super) fn is_only_null(schema: &Value) -> bool {
    let Value::Object(map) = schema else {
        return false;
    };
    let only_null_type = match map.get("type") {
        Some(Value::String(t)) => t == "null",
        Some(Value::Array(l)) => l.iter().all(|t| t == "null") && !l.is_empty(),
        _ => false,
    };
    only_null_type
        || map.get("const") == Some(&Value::Null)
        || map.get("enum") == Some(&Value::Array(vec![Value::Null]))
}

/// `n` as an integer when it has no fractional part.
fn exact_integer(n: &serde_json::Number) -> Option<i64> {
    if let Some(i) = n.as_i64() {
        return Some(i);
    }
    let f = n.as_f64()?;
    (f.fract() == 0.0 && f.abs() < 9.0e15).then_some(f as i64)
}
