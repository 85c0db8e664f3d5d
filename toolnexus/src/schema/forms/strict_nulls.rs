//! Calls made under OpenAI strict mode: every `null` the schema as written does not accept is
//! an argument the model left out, removed before the tool decodes.
//!
//! The walk is driven by the value, and linear in its size: each container is matched against
//! the SET of subschemas that describe it (the branches of a choice and the targets of `$ref`s
//! followed, each subschema once), so a recursive schema (a filter of filters, whose properties
//! several branches declare alike) never multiplies the work per level. A container costs at
//! most one look at each subschema of the tool's schema; arrays share one set for all items.

use std::collections::HashSet;

use serde_json::Value;

use crate::schema::walk::{self, MAX_DEPTH};

/// Removes, throughout `args`, every key whose value is `null` where the schema (`root`, the
/// schema as written) does not accept `null` for it. Returns the work done: how many
/// subschemas were looked at, summed over the containers of `args` (the tests count it).
pub(crate) fn nulls_to_absent(root: &Value, args: &mut Value) -> usize {
    let mut walk = Walk { root, work: 0 };
    if args.is_object() || args.is_array() {
        let flat = walk.flatten(&[root]);
        walk.prune(&flat, args, 0);
    }
    walk.work
}

struct Walk<'s> {
    root: &'s Value,
    work: usize,
}

impl<'s> Walk<'s> {
    /// `value` (an object or an array) described by every schema in `flat` (already flattened).
    fn prune(&mut self, flat: &[&'s Value], value: &mut Value, depth: usize) {
        if depth > MAX_DEPTH || flat.is_empty() {
            return;
        }
        match value {
            Value::Object(obj) => {
                let mut absent = Vec::new();
                for (key, v) in obj.iter_mut() {
                    let declared: Vec<&'s Value> = flat
                        .iter()
                        .filter_map(|s| s.get("properties")?.get(key.as_str()))
                        .collect();
                    if declared.is_empty() {
                        continue;
                    }
                    match v {
                        Value::Null
                            if declared.iter().all(|s| !walk::allows_null(self.root, s, 0)) =>
                        {
                            absent.push(key.clone());
                        }
                        Value::Object(_) | Value::Array(_) => {
                            let inner = self.flatten(&declared);
                            self.prune(&inner, v, depth + 1);
                        }
                        _ => {}
                    }
                }
                for key in absent {
                    obj.shift_remove(&key);
                }
            }
            Value::Array(items) => {
                let item_schemas: Vec<&'s Value> = flat
                    .iter()
                    .filter_map(|s| s.get("items"))
                    .filter(|s| s.is_object())
                    .collect();
                if item_schemas.is_empty() {
                    return;
                }
                // One set for every item.
                let inner = self.flatten(&item_schemas);
                for item in items.iter_mut().filter(|i| i.is_object() || i.is_array()) {
                    self.prune(&inner, item, depth + 1);
                }
            }
            _ => {}
        }
    }

    /// `schemas` with their `$ref`s followed and their `anyOf`/`oneOf`/`allOf` branches listed,
    /// each subschema once (so a `$ref` cycle ends too).
    fn flatten(&mut self, schemas: &[&'s Value]) -> Vec<&'s Value> {
        let mut out: Vec<&'s Value> = Vec::new();
        // What `out` holds, for a schema with many subschemas (a few are compared directly).
        let mut seen: Option<HashSet<*const Value>> = None;
        let mut stack: Vec<&'s Value> = schemas.iter().rev().copied().collect();
        while let Some(schema) = stack.pop() {
            let Value::Object(map) = schema else {
                continue;
            };
            let new = match &mut seen {
                Some(seen) => seen.insert(schema),
                None if out.len() < 32 => !out.iter().any(|s| std::ptr::eq(*s, schema)),
                None => {
                    let set = seen.insert(out.iter().map(|s| *s as *const Value).collect());
                    set.insert(schema)
                }
            };
            if !new {
                continue;
            }
            self.work += 1;
            out.push(schema);
            let first = stack.len();
            if let Some(target) = map
                .get("$ref")
                .and_then(Value::as_str)
                .and_then(|r| walk::resolve(self.root, r))
            {
                stack.push(target);
            }
            for key in ["anyOf", "oneOf", "allOf"] {
                if let Some(Value::Array(branches)) = map.get(key) {
                    stack.extend(branches);
                }
            }
            // Depth-first, in the order written.
            stack[first..].reverse();
        }
        out
    }
}
