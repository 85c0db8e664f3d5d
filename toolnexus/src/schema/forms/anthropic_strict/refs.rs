//! The `$ref`s of a strict form: each must resolve in what is sent, and none may make the
//! schema recursive (Anthropic's strict mode documents recursive schemas as not supported).

use std::collections::HashSet;

use serde_json::Value;

use crate::schema::walk;

/// The first `$ref` in `schema` that does not resolve in `root`.
pub(super) fn dangling(root: &Value, schema: &Value) -> Option<String> {
    match schema {
        Value::Object(map) => {
            if let Some(Value::String(r)) = map.get("$ref") {
                if walk::resolve(root, r).is_none() {
                    return Some(r.clone());
                }
            }
            map.iter()
                .filter(|(k, _)| *k != "description" && *k != "enum" && *k != "const")
                .find_map(|(_, v)| dangling(root, v))
        }
        Value::Array(items) => items.iter().find_map(|v| dangling(root, v)),
        _ => None,
    }
}

/// A `$ref` of `root` that leads back to itself through the schemas it points at, if one does.
pub(super) fn recursive(root: &Value) -> Option<String> {
    let mut done = HashSet::new();
    let mut from_root = Vec::new();
    refs_in(root, &mut from_root);
    from_root
        .into_iter()
        .find_map(|r| cycle(root, r, &mut Vec::new(), &mut done))
}

/// Follows `reference` depth first; `open` holds the references on the way to it.
fn cycle<'a>(
    root: &'a Value,
    reference: &'a str,
    open: &mut Vec<&'a str>,
    done: &mut HashSet<&'a str>,
) -> Option<String> {
    if open.contains(&reference) {
        return Some(reference.to_owned());
    }
    if !done.insert(reference) {
        return None;
    }
    let target = walk::resolve(root, reference)?;
    let mut inner = Vec::new();
    refs_in(target, &mut inner);
    open.push(reference);
    let found = inner.into_iter().find_map(|r| cycle(root, r, open, done));
    open.pop();
    found
}

/// The `$ref`s in `schema`, definitions included (one that refers to itself is recursive
/// even where nothing uses it: the API reads every definition sent).
fn refs_in<'a>(schema: &'a Value, out: &mut Vec<&'a str>) {
    match schema {
        Value::Object(map) => {
            if let Some(Value::String(r)) = map.get("$ref") {
                out.push(r);
            }
            for (key, value) in map {
                if !matches!(key.as_str(), "description" | "enum" | "const") {
                    refs_in(value, out);
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|v| refs_in(v, out)),
        _ => {}
    }
}
