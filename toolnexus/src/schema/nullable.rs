//! OpenAPI's `nullable: true` in JSON Schema's words: `null` joins `type` and
//! `enum`, a `const` becomes a two-value `enum`, a choice gets a `{"type": "null"}` branch, and
//! a reference (or anything else `null` cannot simply join) is wrapped in `anyOf` with
//! `{"type": "null"}`. See [`handwritten`](super::handwritten).

use serde_json::{json, Map, Value};

use crate::schema::walk::{self, MAX_DEPTH};

/// Replaces every `nullable: true` below the root by its JSON Schema form (see the module docs).
pub(super) fn nullable_to_json_schema(schema: &mut Value, depth: usize) {
    let Value::Object(map) = schema else {
        return;
    };
    if depth > MAX_DEPTH {
        return;
    }
    let _ = walk::each_child_mut::<()>(map, "", &mut |sub, _| {
        nullable_to_json_schema(sub, depth + 1);
        Ok(())
    });
    if depth == 0 || map.get("nullable") != Some(&Value::Bool(true)) {
        return;
    }
    map.shift_remove("nullable");
    allow_null(map);
}

/// Lets the object schema `map` accept `null` too, keeping everything else it accepts.
fn allow_null(map: &mut Map<String, Value>) {
    let opaque = ["$ref", "allOf", "not", "if", "then", "else"]
        .iter()
        .any(|k| map.contains_key(*k));
    if opaque {
        // Wrap it, keeping the annotations outside where the model reads them.
        let mut outside = Map::new();
        for k in ["description", "title"] {
            if let Some(v) = map.shift_remove(k) {
                outside.insert(k.into(), v);
            }
        }
        let inner = std::mem::take(map);
        *map = outside;
        map.insert(
            "anyOf".into(),
            json!([Value::Object(inner), {"type": "null"}]),
        );
        return;
    }
    let push_null = |list: &mut Vec<Value>| {
        if !list.contains(&Value::Null) {
            list.push(Value::Null);
        }
    };
    if let Some(c) = map.get("const") {
        if !c.is_null() {
            // `const: c` becomes `enum: [c, null]` where it is.
            *map = std::mem::take(map)
                .into_iter()
                .map(|(k, v)| {
                    if k == "const" {
                        ("enum".to_owned(), json!([v, null]))
                    } else {
                        (k, v)
                    }
                })
                .collect();
        }
    }
    match map.get_mut("type") {
        Some(Value::String(t)) if t != "null" => {
            let t = std::mem::take(t);
            map.insert("type".into(), json!([t, "null"]));
        }
        Some(Value::Array(list)) if !list.contains(&Value::from("null")) => {
            list.push(Value::from("null"));
        }
        _ => {}
    }
    if let Some(Value::Array(values)) = map.get_mut("enum") {
        push_null(values);
    }
    for key in ["anyOf", "oneOf"] {
        if let Some(Value::Array(branches)) = map.get(key) {
            let root = Value::Null;
            if !branches.iter().any(|b| walk::allows_null(&root, b, 0)) {
                if let Some(Value::Array(branches)) = map.get_mut(key) {
                    branches.push(json!({"type": "null"}));
                }
            }
        }
    }
}
