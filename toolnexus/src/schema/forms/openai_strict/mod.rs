//! OpenAI strict mode (`"strict": true`): lowering a schema to the form it needs. The
//! tool shapes that carry it are in the `openai` module; the `null`-means-absent rule for calls
//! made under it is in `openai::nulls`.
//!
//! Strict mode constrains the model's output to the schema, which works for a subset of JSON
//! Schema only: every object lists all its keys (`additionalProperties: false`, every property
//! in `required`), so an optional property becomes required and nullable, and the model sends
//! `null` where it means "absent". [`InputSchema::strict_nulls_to_absent`](crate::InputSchema::strict_nulls_to_absent)
//! undoes that before the arguments are deserialized.
//!
//! A schema strict mode cannot describe (an open map such as `HashMap<String, T>`, a value that
//! may be anything such as `serde_json::Value`, a tuple, `not`, `if`/`then`/`else`, ...) is not
//! bent into one: the tool is sent non-strict and
//! [`InputSchema::for_openai_strict`](crate::InputSchema::for_openai_strict) says why.

mod limits;

use std::borrow::Cow;

use serde_json::{json, Map, Value};

use crate::schema::walk::{self, MAX_DEPTH};
use crate::schema::{merge, refs};
use crate::values::error::SchemaError;

/// How a strict-mode refusal names the provider.
const PROVIDER: &str = "openai strict mode";

/// Keywords strict mode cannot take at all: the tool falls back to non-strict.
const REFUSED: &[&str] = &[
    "not",
    "if",
    "then",
    "else",
    "dependentRequired",
    "dependentSchemas",
    "dependencies",
    "patternProperties",
    "propertyNames",
    "unevaluatedProperties",
    "unevaluatedItems",
    "contains",
    "prefixItems",
    "additionalItems",
];

/// Constraints strict mode does not list: kept as text in `description`, then dropped.
const NOTED: &[&str] = &[
    "minLength",
    "maxLength",
    "uniqueItems",
    "minProperties",
    "maxProperties",
    "minContains",
    "maxContains",
];

/// The keywords strict mode documents; any other keyword still left (an annotation such as
/// `default`, `examples`, `$comment`, or a keyword JSON Schema does not define, such as
/// OpenAPI's `nullable`) is dropped, which changes nothing about which values are valid.
const KEPT: &[&str] = &[
    "type",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "anyOf",
    "enum",
    "const",
    "$ref",
    "$defs",
    "definitions",
    "description",
    "title",
    "pattern",
    "format",
    "multipleOf",
    "maximum",
    "exclusiveMaximum",
    "minimum",
    "exclusiveMinimum",
    "minItems",
    "maxItems",
];

/// The strict-mode form of `schema` (the schema as sent to OpenAI non-strict), or why there is
/// none.
/// A reference to anything but the root or a whole definition (OpenAPI's
/// `#/components/schemas/P`, a part strict mode does not send) has its target moved under
/// `$defs` first; what is sent is checked by [`limits`].
pub(crate) fn strict(schema: &Value) -> Result<Value, SchemaError> {
    let mut out = schema.clone();
    let root = if refs::relocate(&mut out, schema, &|root, r| refs::is_definition(root, r)) {
        Cow::Owned(out.clone())
    } else {
        Cow::Borrowed(schema)
    };
    Strict { root: &root }.node(&mut out, "", 0)?;
    limits::check(&out)?;
    Ok(out)
}

struct Strict<'a> {
    /// The non-strict schema: what `$ref`s point into.
    root: &'a Value,
}

impl Strict<'_> {
    fn node(&self, schema: &mut Value, path: &str, depth: usize) -> Result<(), SchemaError> {
        if depth > MAX_DEPTH {
            return Err(walk::error(
                PROVIDER,
                path,
                format!("the schema nests deeper than {MAX_DEPTH} levels"),
            ));
        }
        let map = match schema {
            Value::Object(map) => map,
            Value::Bool(true) => return Err(any_value(path)),
            // `additionalProperties: false`, which strict mode itself asks for.
            Value::Bool(false) => return Ok(()),
            _ => {
                return Err(walk::error(
                    PROVIDER,
                    path,
                    "a schema must be an object or a boolean",
                ))
            }
        };
        if let Some(k) = REFUSED.iter().find(|k| map.contains_key(**k)) {
            return Err(walk::error(
                PROVIDER,
                &walk::push(path, k),
                format!("`{k}` is not supported in strict mode"),
            ));
        }
        if map.get("items").is_some_and(Value::is_array) {
            return Err(walk::error(
                PROVIDER,
                &walk::push(path, "items"),
                "tuples are not supported in strict mode",
            ));
        }
        if map.contains_key("$ref") && map.len() > 1 {
            // Strict mode refuses keywords next to `$ref` ("$ref cannot have keywords"). A
            // description stays outside a one-branch `anyOf` (inlining instead would never end
            // for a recursive type, the one case schemars writes `$ref` for).
            if let Some(k) = map.keys().find(|k| {
                !matches!(k.as_str(), "$ref" | "description" | "title")
                    && KEPT.contains(&k.as_str())
            }) {
                return Err(walk::error(
                    PROVIDER,
                    &walk::push(path, k),
                    format!(
                        "`{k}` next to `$ref` cannot be strict; move it into the referenced schema"
                    ),
                ));
            }
            let reference = map.shift_remove("$ref").unwrap_or_default();
            map.retain(|k, _| matches!(k.as_str(), "description" | "title"));
            map.insert("anyOf".into(), json!([{"$ref": reference}]));
        }
        if map.contains_key("allOf") {
            *map = merge::merge_all_of(self.root, map)
                .map_err(|e| walk::error(PROVIDER, &walk::push(path, "allOf"), e))?;
        }
        if map.contains_key("oneOf") {
            if map.contains_key("anyOf") {
                return Err(walk::error(
                    PROVIDER,
                    &walk::push(path, "oneOf"),
                    "`oneOf` next to `anyOf` is not supported in strict mode",
                ));
            }
            // The model then may send a value matching two branches; the deserializer decides.
            *map = map
                .iter()
                .map(|(k, v)| {
                    (
                        if k == "oneOf" {
                            "anyOf".to_owned()
                        } else {
                            k.clone()
                        },
                        v.clone(),
                    )
                })
                .collect();
        }
        // `anyOf: [{anyOf: [A, B]}, null]` (an optional choice) reads better flat.
        if let Some(Value::Array(branches)) = map.get_mut("anyOf") {
            let mut flat = Vec::with_capacity(branches.len());
            for b in branches.drain(..) {
                match b {
                    Value::Object(mut inner) if inner.len() == 1 && inner.contains_key("anyOf") => {
                        if let Some(Value::Array(list)) = inner.shift_remove("anyOf") {
                            flat.extend(list);
                        }
                    }
                    b => flat.push(b),
                }
            }
            *branches = flat;
        }
        let typed = ["type", "anyOf", "$ref", "enum", "const"]
            .iter()
            .any(|k| map.contains_key(*k));
        if !typed {
            return Err(any_value(path));
        }
        // A `format` strict mode does not document is dropped (an annotation: nothing valid
        // changes).
        if let Some(Value::String(f)) = map.get("format") {
            if !walk::STRICT_FORMATS.contains(&f.as_str()) {
                map.shift_remove("format");
            }
        }
        let mut notes = Vec::new();
        for k in NOTED {
            if let Some(v) = map.shift_remove(*k) {
                notes.push(format!("{k}: {v}"));
            }
        }
        map.retain(|k, _| KEPT.contains(&k.as_str()));
        if !notes.is_empty() {
            let text = match map.get("description").and_then(Value::as_str) {
                Some(d) => format!("{d} ({})", notes.join("; ")),
                None => format!("({})", notes.join("; ")),
            };
            map.insert("description".into(), Value::from(text));
        }

        let is_object = walk::types(map).is_some_and(|t| t.contains(&"object"))
            || map.contains_key("properties");
        if is_object {
            self.object(map, path, depth)?;
        }
        let done = format!("{}/", walk::push(path, "properties"));
        walk::each_child_mut(map, path, &mut |sub, here| {
            // Properties were handled by `object` (each wrapped to allow null where needed).
            if is_object && here.starts_with(&done) {
                return Ok(());
            }
            self.node(sub, here, depth + 1)
        })
    }

    /// Closes an object: no other keys, every property required, optional ones nullable.
    fn object(
        &self,
        map: &mut Map<String, Value>,
        path: &str,
        depth: usize,
    ) -> Result<(), SchemaError> {
        match map.get("additionalProperties") {
            None | Some(Value::Bool(false)) => {}
            Some(_) => return Err(walk::error(
                PROVIDER,
                &walk::push(path, "additionalProperties"),
                "an object with free-form keys (a map) cannot be strict; every key must be listed",
            )),
        }
        if !map.get("properties").is_some_and(Value::is_object) {
            if !path.is_empty() {
                return Err(walk::error(
                    PROVIDER,
                    path,
                    "an object without `properties` accepts any keys and cannot be strict",
                ));
            }
            map.insert("properties".into(), Value::Object(Map::new()));
        }
        let required: Vec<Value> = match map.get("required") {
            Some(Value::Array(r)) => r.clone(),
            _ => Vec::new(),
        };
        if let Some(missing) = required.iter().find(|r| {
            !map["properties"]
                .as_object()
                .is_some_and(|p| r.as_str().is_some_and(|r| p.contains_key(r)))
        }) {
            return Err(walk::error(
                PROVIDER,
                &walk::push(path, "required"),
                format!("{missing} is required but has no property; strict mode would forbid it"),
            ));
        }
        let here = walk::push(path, "properties");
        let Some(Value::Object(props)) = map.get_mut("properties") else {
            return Ok(());
        };
        let mut all = Vec::with_capacity(props.len());
        for (name, prop) in props.iter_mut() {
            let at = walk::push(&here, name);
            self.node(prop, &at, depth + 1)?;
            if !required.contains(&Value::from(name.as_str())) {
                make_nullable(self.root, prop);
            }
            all.push(Value::from(name.as_str()));
        }
        map.insert("required".into(), Value::Array(all));
        map.insert("additionalProperties".into(), Value::Bool(false));
        Ok(())
    }
}

fn any_value(path: &str) -> SchemaError {
    walk::error(
        PROVIDER,
        path,
        "this value may be anything (no `type`), which strict mode cannot describe",
    )
}

/// Lets `schema` (already strict) accept `null` too, the way strict mode spells it.
fn make_nullable(root: &Value, schema: &mut Value) {
    if walk::allows_null(root, schema, 0) {
        return;
    }
    let Value::Object(map) = schema else {
        return;
    };
    let push_null = |list: &mut Value| {
        if let Value::Array(l) = list {
            if !l.contains(&Value::Null) {
                l.push(Value::Null);
            }
        }
    };
    if map.contains_key("const") {
        // `const: c` becomes `enum: [c]` in place, so `null` can join it.
        *map = std::mem::take(map)
            .into_iter()
            .map(|(k, v)| {
                if k == "const" {
                    ("enum".to_owned(), json!([v]))
                } else {
                    (k, v)
                }
            })
            .collect();
    }
    match map.get_mut("type") {
        Some(Value::String(t)) => {
            let t = std::mem::take(t);
            map.insert("type".into(), json!([t, "null"]));
            if let Some(e) = map.get_mut("enum") {
                push_null(e);
            }
            return;
        }
        Some(list @ Value::Array(_)) => {
            if let Value::Array(l) = list {
                l.push(Value::from("null"));
            }
            if let Some(e) = map.get_mut("enum") {
                push_null(e);
            }
            return;
        }
        _ => {}
    }
    if let Some(Value::Array(branches)) = map.get_mut("anyOf") {
        branches.push(json!({"type": "null"}));
        return;
    }
    if let Some(e) = map.get_mut("enum") {
        push_null(e);
        return;
    }
    // A `$ref`: wrap it, keeping the description outside where the model reads it.
    let description = map.shift_remove("description");
    let inner = std::mem::take(map);
    if let Some(d) = description {
        map.insert("description".into(), d);
    }
    map.insert(
        "anyOf".into(),
        json!([Value::Object(inner), {"type": "null"}]),
    );
}
