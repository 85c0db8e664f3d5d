//! `$ref`s: a reference must resolve in what is sent.
//!
//! [`check`] refuses, in the schema as written, a reference that resolves nowhere or points
//! outside the schema (providers fetch nothing). [`relocate`] then keeps every reference of a
//! provider's form resolvable: when a lowering drops the part a reference points into (strict
//! mode keeps only the keywords it documents, so OpenAPI's `components` goes; a merged root
//! `allOf` goes too), the target is copied under `$defs` and the reference rewritten to it.

use std::collections::{HashMap, HashSet};

use serde_json::{Map, Value};

use super::pointer::{pointer, resolve};
use super::ANY_PROVIDER;
use crate::schema::walk::{self, MAX_DEPTH};
use crate::SchemaError;

/// Refuses the first `$ref` of `root` that does not resolve inside it, following references into
/// parts that are no subschema keyword (OpenAPI's `components`, say) to check those parts too.
pub(crate) fn check(root: &Value) -> Result<(), SchemaError> {
    let mut seen = HashSet::new();
    let mut pending: Vec<(&Value, String)> = vec![(root, String::new())];
    while let Some((schema, path)) = pending.pop() {
        let mut found = Vec::new();
        collect(schema, &path, 0, &mut found);
        for (at, reference) in found {
            let at = walk::push(&at, "$ref");
            let Value::String(r) = reference else {
                return Err(SchemaError::new(at, "`$ref` must be a string"));
            };
            let Some(p) = pointer(r) else {
                let mut e = SchemaError::new(
                    at,
                    if r.starts_with('#') {
                        format!(
                            "`{}` names an anchor; refer to the schema by JSON Pointer \
                             (`#/$defs/...`) instead",
                            crate::values::text::echo(r)
                        )
                    } else {
                        format!(
                            "`{}` points outside this schema; providers do not fetch schemas: put \
                             it under `$defs` and refer to `#/$defs/...`",
                            crate::values::text::echo(r)
                        )
                    },
                );
                e.provider = Some(ANY_PROVIDER);
                return Err(e);
            };
            let target = if p.is_empty() {
                Some(root)
            } else {
                root.pointer(&p)
            };
            match target {
                Some(target) => {
                    if seen.insert(p.to_string()) {
                        pending.push((target, p.into_owned()));
                    }
                }
                None => {
                    return Err(SchemaError::new(
                        at,
                        format!(
                            "`{}` does not resolve: there is nothing at `{}` in this schema",
                            crate::values::text::echo(r),
                            crate::values::text::echo(&p)
                        ),
                    ))
                }
            }
        }
    }
    Ok(())
}

/// The decoded JSON Pointers of every schema a `$ref` of `root` reaches, directly or through other
/// references (the root itself left out), in the order first reached. References that do not
/// resolve are skipped ([`check`] refuses them).
pub(crate) fn targets(root: &Value) -> Vec<String> {
    let mut seen: HashSet<String> = HashSet::new();
    let mut order = Vec::new();
    let mut pending: Vec<&Value> = vec![root];
    while let Some(schema) = pending.pop() {
        let mut found = Vec::new();
        collect(schema, "", 0, &mut found);
        for (_, r) in found {
            let Some(p) = r.as_str().and_then(pointer) else {
                continue;
            };
            if p.is_empty() || seen.contains(p.as_ref()) {
                continue;
            }
            if let Some(target) = root.pointer(&p) {
                seen.insert(p.to_string());
                order.push(p.into_owned());
                pending.push(target);
            }
        }
    }
    order
}

/// Every `$ref` value at a subschema position of `schema`, with the path of the schema holding it.
fn collect<'a>(schema: &'a Value, path: &str, depth: usize, out: &mut Vec<(String, &'a Value)>) {
    let Value::Object(map) = schema else {
        return;
    };
    if depth > MAX_DEPTH {
        // Every lowering refuses this depth with its own message.
        return;
    }
    if let Some(r) = map.get("$ref") {
        out.push((path.to_owned(), r));
    }
    for (key, value) in map {
        let key = key.as_str();
        match value {
            Value::Array(list) if walk::LIST.contains(&key) => {
                let here = walk::push(path, key);
                for (i, sub) in list.iter().enumerate() {
                    collect(sub, &walk::push(&here, &i.to_string()), depth + 1, out);
                }
            }
            Value::Object(m) if walk::MAP.contains(&key) => {
                let here = walk::push(path, key);
                for (name, sub) in m {
                    collect(sub, &walk::push(&here, name), depth + 1, out);
                }
            }
            sub @ Value::Object(_) if walk::ONE.contains(&key) => {
                collect(sub, &walk::push(path, key), depth + 1, out)
            }
            _ => {}
        }
    }
}

/// The first `$ref` of `root` (with the path of the schema holding it) that does not resolve in
/// `root` itself.
pub(crate) fn first_dangling(root: &Value) -> Option<(String, String)> {
    let mut found = Vec::new();
    collect(root, "", 0, &mut found);
    found.into_iter().find_map(|(at, r)| match r {
        Value::String(r) if resolve(root, r).is_some() => None,
        r => Some((at, r.as_str().map_or_else(|| r.to_string(), str::to_owned))),
    })
}

/// Whether `reference` is one strict mode takes: the root (`#`) or one whole definition
/// (`#/$defs/Name`, `#/definitions/Name`) of `root`.
pub(crate) fn is_definition(root: &Value, reference: &str) -> bool {
    let Some(p) = pointer(reference) else {
        return false;
    };
    if p.is_empty() {
        return true;
    }
    ["/$defs/", "/definitions/"].iter().any(|prefix| {
        p.strip_prefix(prefix)
            .is_some_and(|name| !name.contains('/') && root.pointer(&p).is_some())
    })
}

/// Moves every reference of `out` that `keep` refuses under `$defs`: its target, looked up in
/// `source` (the schema `out` was lowered from), is copied to `$defs/<name>` (a new name, never
/// one already taken) and the reference rewritten to `#/$defs/<name>`. References inside the
/// copies are handled the same way. A reference whose target is nowhere is left as it is.
///
/// Returns whether anything moved.
pub(crate) fn relocate(
    out: &mut Value,
    source: &Value,
    keep: &dyn Fn(&Value, &str) -> bool,
) -> bool {
    let mut moved: HashMap<String, String> = HashMap::new();
    let mut any = false;
    loop {
        let mut found = Vec::new();
        collect(out, "", 0, &mut found);
        let mut rewrites: Vec<(String, String)> = Vec::new();
        let mut pending: Vec<(String, String)> = Vec::new();
        for (at, r) in found {
            let Value::String(r) = r else { continue };
            match moved.get(r) {
                Some(to) => rewrites.push((at, to.clone())),
                None if !keep(out, r) => pending.push((at, r.clone())),
                None => {}
            }
        }
        for (at, r) in pending {
            let to = match moved.get(&r) {
                Some(to) => to.clone(),
                None => {
                    let Some(target) = resolve(source, &r).or_else(|| resolve(out, &r)).cloned()
                    else {
                        continue;
                    };
                    let to = define(out, &r, target);
                    moved.insert(r, to.clone());
                    to
                }
            };
            rewrites.push((at, to));
        }
        let mut changed = false;
        for (at, to) in rewrites {
            if let Some(Value::Object(node)) = out.pointer_mut(&at) {
                if node.get("$ref").and_then(Value::as_str) != Some(to.as_str()) {
                    node.insert("$ref".into(), Value::from(to));
                    changed = true;
                }
            }
        }
        if !changed {
            return any;
        }
        any = true;
    }
}

/// Puts `target` under `$defs` of `out` with a fresh name derived from `reference`; returns the
/// reference to it.
fn define(out: &mut Value, reference: &str, target: Value) -> String {
    let Value::Object(root) = out else {
        return reference.to_owned();
    };
    let last = pointer(reference)
        .and_then(|p| {
            p.rsplit('/')
                .next()
                .map(|t| t.replace("~1", "/").replace("~0", "~"))
        })
        .unwrap_or_default();
    let base: String = last
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.') {
                c
            } else {
                '_'
            }
        })
        .collect();
    let base = if base.is_empty() {
        "def".to_owned()
    } else {
        base
    };
    let defs = root
        .entry("$defs")
        .or_insert_with(|| Value::Object(Map::new()));
    if !defs.is_object() {
        *defs = Value::Object(Map::new());
    }
    let Value::Object(defs) = defs else {
        return reference.to_owned();
    };
    let mut name = base.clone();
    let mut n = 1;
    while defs.contains_key(&name) {
        n += 1;
        name = format!("{base}_{n}");
    }
    defs.insert(name.clone(), target);
    format!("#/$defs/{name}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn pointers_are_percent_decoded() {
        assert_eq!(pointer("#/$defs/My%20Type").unwrap(), "/$defs/My Type");
        assert_eq!(pointer("#").unwrap(), "");
        assert!(pointer("#anchor").is_none());
        assert!(pointer("other.json#/a").is_none());
    }

    #[test]
    fn check_follows_references_into_any_part() {
        let ok = json!({"type": "object", "properties": {"p": {"$ref": "#/components/schemas/P"}},
            "components": {"schemas": {"P": {"type": "object", "properties": {"q": {"$ref": "#/components/schemas/Q"}}},
                                       "Q": {"type": "string"}}}});
        assert!(check(&ok).is_ok());
        let bad = json!({"type": "object", "properties": {"p": {"$ref": "#/components/schemas/P"}},
            "components": {"schemas": {"P": {"type": "object", "properties": {"q": {"$ref": "#/components/schemas/Q"}}}}}});
        let err = check(&bad).unwrap_err();
        assert_eq!(err.path, "/components/schemas/P/properties/q/$ref");
    }

    #[test]
    fn relocation_copies_targets_and_rewrites_recursively() {
        let source = json!({"type": "object", "properties": {"t": {"$ref": "#/components/schemas/T"}},
            "$defs": {"T": {"type": "integer"}},
            "components": {"schemas": {"T": {"type": "array", "items": {"$ref": "#/components/schemas/T"}}}}});
        let mut out = source.clone();
        out.as_object_mut().unwrap().shift_remove("components");
        assert!(relocate(&mut out, &source, &|root, r| is_definition(
            root, r
        )));
        assert_eq!(out["properties"]["t"], json!({"$ref": "#/$defs/T_2"}));
        assert_eq!(
            out["$defs"]["T_2"],
            json!({"type": "array", "items": {"$ref": "#/$defs/T_2"}})
        );
        assert_eq!(out["$defs"]["T"], json!({"type": "integer"}));
    }
}
