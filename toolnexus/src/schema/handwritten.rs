//! Schemas as people hand-write them, read the way their authors mean them before any
//! provider's lowering runs:
//!
//! - a root with `properties` (or `required`) but no `type` is an object: `"type": "object"` is
//!   added in front;
//! - OpenAPI's upper-case type names (`OBJECT`, `STRING`, ..., Gemini's own spelling), like any
//!   other capitalisation of the seven JSON Schema types, are accepted and written lower-case;
//!   any other name is refused where it is;
//! - OpenAPI's `nullable: true` means `null` is allowed. JSON Schema providers get it the JSON
//!   Schema way: `null` joins `type` (`["string", "null"]`) and `enum`, a `const` becomes a
//!   two-value `enum`, a choice gets a `{"type": "null"}` branch, and a reference is wrapped in
//!   `anyOf: [{"$ref": ...}, {"type": "null"}]`. Gemini reads `nullable` itself. At the root it
//!   says nothing (the arguments are always an object) and is dropped;
//! - a root `anyOf` whose branches only list `required` properties ("at least one of these")
//!   cannot be sent to any provider as is: it is dropped, every property stays optional, and the
//!   rule is appended to the root's `description`, where the model reads it. The schema then
//!   accepts more than the rule allows; the tool itself still decides.
//!
//! Nothing here changes a schema that needs none of it: the result borrows the schema as written.

use std::borrow::Cow;

use serde_json::{Map, Value};

use crate::schema::walk::{self, MAX_DEPTH};
use crate::schema::{any_of, nullable, refs};
use crate::SchemaError;

/// The seven type names of JSON Schema.
const TYPES: [&str; 7] = [
    "string", "number", "integer", "boolean", "object", "array", "null",
];

/// The schema as written, read as its author means it (see the module docs).
pub(crate) struct Spelled<'a> {
    /// For JSON Schema providers (OpenAI, Anthropic, Gemini's `parametersJsonSchema`).
    pub json: Cow<'a, Value>,
    /// For Gemini's `parameters`: as `json`, but `nullable` kept (Gemini reads it).
    pub gemini: Cow<'a, Value>,
    /// `gemini` differs from the schema as written in the case of type names at most, which
    /// Gemini takes either way: when it needs no lowering, the schema as written is sent.
    pub gemini_as_written: bool,
}

/// Checks the root and the type names of `value` and spells it for each kind of provider.
pub(crate) fn spell(value: &Value) -> Result<Spelled<'_>, SchemaError> {
    check_root(value)?;
    let mut scan = Scan::default();
    scan.node(value, "", 0)?;
    // Schemas reached only through a `$ref` (OpenAPI's `components`, say) are read the same way.
    let targets = refs::targets(value);
    for p in &targets {
        if let Some(target) = value.pointer(p) {
            scan.node(target, p, 1)?;
        }
    }
    let root = value.as_object().map(|r| {
        (
            !r.contains_key("type"),
            r.contains_key("anyOf"),
            r.get("nullable") == Some(&Value::Bool(true)),
        )
    });
    let (untyped, any_of, root_nullable) = root.unwrap_or_default();
    if !(untyped || any_of || root_nullable || scan.upper_case || scan.nullable) {
        return Ok(Spelled {
            json: Cow::Borrowed(value),
            gemini: Cow::Borrowed(value),
            gemini_as_written: true,
        });
    }

    let mut base = value.clone();
    if let Value::Object(root) = &mut base {
        if untyped {
            let rest = std::mem::take(root);
            root.insert("type".into(), Value::from("object"));
            root.extend(rest);
        }
        if root_nullable {
            root.shift_remove("nullable");
        }
        if any_of {
            any_of::lower_root_any_of(root)?;
        }
    }
    lower_case_types(&mut base, 0);
    for p in &targets {
        if let Some(target) = base.pointer_mut(p) {
            lower_case_types(target, 1);
        }
    }
    let gemini_as_written = !untyped && !any_of && !root_nullable;
    let mut json = base.clone();
    // Targets first: rewriting the tree could move what their pointers point at.
    for p in &targets {
        if let Some(target) = json.pointer_mut(p) {
            nullable::nullable_to_json_schema(target, 1);
        }
    }
    nullable::nullable_to_json_schema(&mut json, 0);
    let owned = |v: Value| {
        if v == *value {
            Cow::Borrowed(value)
        } else {
            Cow::Owned(v)
        }
    };
    Ok(Spelled {
        json: owned(json),
        gemini: owned(base),
        gemini_as_written,
    })
}

/// Refuses a root that cannot be an argument object, saying what it is instead.
pub(crate) fn check_root(value: &Value) -> Result<(), SchemaError> {
    let Some(root) = value.as_object() else {
        return Err(SchemaError::new(
            "",
            format!(
                "the root must be a JSON object with `\"type\": \"object\"`, not {}",
                crate::values::text::kind(value)
            ),
        ));
    };
    match root.get("type") {
        Some(Value::String(t)) if t.eq_ignore_ascii_case("object") => {}
        Some(other) => {
            return Err(SchemaError::new(
                "/type",
                format!(
                    "the root must be `\"type\": \"object\"`, not `{other}`; wrap the value in an \
                     object property"
                ),
            ))
        }
        None if root.contains_key("properties") || root.contains_key("required") => {}
        None => {
            return Err(SchemaError::new(
                "/type",
                "the root must be `\"type\": \"object\"`; it has no `type` and no `properties` \
                 (either one makes it an object)",
            ))
        }
    }
    if let Some(props) = root.get("properties") {
        if !props.is_object() {
            return Err(SchemaError::new(
                "/properties",
                "`properties` must be an object",
            ));
        }
    }
    Ok(())
}

/// What a read-only pass over every subschema found.
#[derive(Default)]
struct Scan {
    /// A type name not written lower-case.
    upper_case: bool,
    /// A `nullable: true` below the root.
    nullable: bool,
}

impl Scan {
    fn node(&mut self, schema: &Value, path: &str, depth: usize) -> Result<(), SchemaError> {
        let Value::Object(map) = schema else {
            return Ok(());
        };
        if depth > MAX_DEPTH {
            // Every provider's lowering refuses this, with its own message.
            return Ok(());
        }
        match map.get("type") {
            Some(Value::String(t)) => self.type_name(t, &walk::push(path, "type"))?,
            Some(Value::Array(list)) => {
                let here = walk::push(path, "type");
                for (i, t) in list.iter().enumerate() {
                    let at = walk::push(&here, &i.to_string());
                    match t {
                        Value::String(t) => self.type_name(t, &at)?,
                        other => {
                            return Err(SchemaError::new(
                                at,
                                format!(
                                    "a type must be a name, not {}",
                                    crate::values::text::kind(other)
                                ),
                            ))
                        }
                    }
                }
            }
            Some(other) => {
                return Err(SchemaError::new(
                    walk::push(path, "type"),
                    format!(
                        "`type` must be a name or a list of names, not {}",
                        crate::values::text::kind(other)
                    ),
                ))
            }
            None => {}
        }
        if depth > 0 && map.get("nullable") == Some(&Value::Bool(true)) {
            self.nullable = true;
        }
        each_child(map, path, &mut |sub, here| self.node(sub, here, depth + 1))
    }

    fn type_name(&mut self, name: &str, path: &str) -> Result<(), SchemaError> {
        if TYPES.contains(&name) {
            return Ok(());
        }
        if TYPES.iter().any(|t| t.eq_ignore_ascii_case(name)) {
            self.upper_case = true;
            return Ok(());
        }
        Err(SchemaError::new(
            path,
            format!(
                "`{}` is not a JSON Schema type; use one of `string`, `number`, `integer`, \
                 `boolean`, `object`, `array`, `null`",
                crate::values::text::echo(name)
            ),
        ))
    }
}

/// Calls `f` on every direct subschema of `schema` with its path (read-only `each_child_mut`).
fn each_child<E>(
    schema: &Map<String, Value>,
    path: &str,
    f: &mut dyn FnMut(&Value, &str) -> Result<(), E>,
) -> Result<(), E> {
    for (key, value) in schema {
        let key = key.as_str();
        match value {
            Value::Array(list) if walk::LIST.contains(&key) => {
                let here = walk::push(path, key);
                for (i, sub) in list.iter().enumerate() {
                    f(sub, &walk::push(&here, &i.to_string()))?;
                }
            }
            Value::Object(map) if walk::MAP.contains(&key) => {
                let here = walk::push(path, key);
                for (name, sub) in map {
                    f(sub, &walk::push(&here, name))?;
                }
            }
            sub @ (Value::Object(_) | Value::Bool(_)) if walk::ONE.contains(&key) => {
                f(sub, &walk::push(path, key))?
            }
            _ => {}
        }
    }
    Ok(())
}

/// Writes every type name lower-case (they were all checked by [`Scan`]).
fn lower_case_types(schema: &mut Value, depth: usize) {
    let Value::Object(map) = schema else {
        return;
    };
    if depth > MAX_DEPTH {
        return;
    }
    match map.get_mut("type") {
        Some(Value::String(t)) => t.make_ascii_lowercase(),
        Some(Value::Array(list)) => {
            for t in list {
                if let Value::String(t) = t {
                    t.make_ascii_lowercase();
                }
            }
        }
        _ => {}
    }
    let _ = walk::each_child_mut::<()>(map, "", &mut |sub, _| {
        lower_case_types(sub, depth + 1);
        Ok(())
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_schema_needing_nothing_is_borrowed() {
        let v = json!({"type": "object", "properties": {"a": {"type": ["string", "null"]}}});
        let s = spell(&v).unwrap();
        assert!(matches!(s.json, Cow::Borrowed(_)));
        assert!(matches!(s.gemini, Cow::Borrowed(_)));
        assert!(s.gemini_as_written);
    }

    #[test]
    fn upper_case_keeps_gemini_bytes_and_lowers_for_json_schema() {
        let v =
            json!({"type": "OBJECT", "properties": {"a": {"type": "String", "nullable": true}}});
        let s = spell(&v).unwrap();
        assert_eq!(
            *s.json,
            json!({"type": "object", "properties": {"a": {"type": ["string", "null"]}}})
        );
        assert_eq!(
            *s.gemini,
            json!({"type": "object", "properties": {"a": {"type": "string", "nullable": true}}})
        );
        assert!(s.gemini_as_written);
    }

    #[test]
    fn nullable_forms() {
        let v = json!({"type": "object", "nullable": true, "properties": {
            "c": {"const": "x", "nullable": true},
            "o": {"oneOf": [{"type": "string"}, {"type": "null"}], "nullable": true},
            "a": {"allOf": [{"type": "string"}], "nullable": true, "title": "T"},
            "any": {"nullable": true}}});
        let s = spell(&v).unwrap();
        assert_eq!(
            *s.json,
            json!({"type": "object", "properties": {
                "c": {"enum": ["x", null]},
                "o": {"oneOf": [{"type": "string"}, {"type": "null"}]},
                "a": {"title": "T", "anyOf": [{"allOf": [{"type": "string"}]}, {"type": "null"}]},
                "any": {}}})
        );
        assert!(!s.gemini_as_written);
    }

    #[test]
    fn a_root_any_of_without_description_gets_one_where_it_was() {
        let v = json!({"properties": {"a": {}, "b": {}}, "anyOf": [{"required": ["a"]}, {"required": ["b"]}], "required": []});
        let s = spell(&v).unwrap();
        assert_eq!(
            serde_json::to_string(&*s.json).unwrap(),
            r#"{"type":"object","properties":{"a":{},"b":{}},"description":"At least one of these must be given: `a`; `b`.","required":[]}"#
        );
    }
}
