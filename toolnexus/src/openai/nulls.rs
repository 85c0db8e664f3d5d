//! Calls made under OpenAI strict mode: every `null` the schema as written does not accept is
//! an argument the model left out, removed before the tool decodes.

use serde_json::Value;

use crate::schema::walk::{self, MAX_DEPTH};

/// Removes, throughout `args`, every key whose value is `null` where the schema (`root`, the
/// schema as written) does not accept `null` for it.
pub(crate) fn nulls_to_absent(root: &Value, args: &mut Value) {
    prune(root, &[root], args, 0);
}

/// `schemas`: every schema that describes `value` (the branches of a choice included).
fn prune(root: &Value, schemas: &[&Value], value: &mut Value, depth: usize) {
    if depth > MAX_DEPTH {
        return;
    }
    let mut flat = Vec::new();
    for s in schemas {
        flatten(root, s, &mut flat, depth);
    }
    match value {
        Value::Object(obj) => {
            let mut absent = Vec::new();
            for (key, v) in obj.iter_mut() {
                let declared: Vec<&Value> = flat
                    .iter()
                    .filter_map(|s| s.get("properties")?.get(key))
                    .collect();
                if declared.is_empty() {
                    continue;
                }
                if v.is_null() {
                    if declared.iter().all(|s| !walk::allows_null(root, s, 0)) {
                        absent.push(key.clone());
                    }
                } else {
                    prune(root, &declared, v, depth + 1);
                }
            }
            for key in absent {
                obj.shift_remove(&key);
            }
        }
        Value::Array(items) => {
            let item_schemas: Vec<&Value> = flat
                .iter()
                .filter_map(|s| s.get("items"))
                .filter(|s| !s.is_array())
                .collect();
            if item_schemas.is_empty() {
                return;
            }
            for item in items {
                prune(root, &item_schemas, item, depth + 1);
            }
        }
        _ => {}
    }
}

/// `schema` with `$ref`s followed and `anyOf`/`oneOf`/`allOf` branches listed, into `out`.
fn flatten<'a>(root: &'a Value, schema: &'a Value, out: &mut Vec<&'a Value>, depth: usize) {
    if depth > MAX_DEPTH {
        return;
    }
    let Value::Object(map) = schema else {
        return;
    };
    out.push(schema);
    if let Some(target) = map
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(|r| walk::resolve(root, r))
    {
        flatten(root, target, out, depth + 1);
    }
    for key in ["anyOf", "oneOf", "allOf"] {
        if let Some(Value::Array(branches)) = map.get(key) {
            for b in branches {
                flatten(root, b, out, depth + 1);
            }
        }
    }
}
