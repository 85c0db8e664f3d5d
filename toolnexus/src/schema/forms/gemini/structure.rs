//! Gemini lowering, the keywords whose subschemas are lowered in turn: `anyOf`/`oneOf`,
//! `properties`, `items` and tuples, and a map's `additionalProperties`.

use serde_json::{Map, Value};

use super::keywords::{is_only_null, one_string_enum, summary, Node, Out};
use super::refuse;
use crate::schema::walk;
use crate::values::error::SchemaError;

/// What these keywords need of the lowering: a subschema lowered in turn, one level deeper
/// (the lowering in `lower` is the one implementation).
pub(super) trait Nested {
    /// `schema`, a subschema at `path`, lowered.
    fn nested(&mut self, schema: &Value, path: &str) -> Result<Value, SchemaError>;
}

/// `anyOf`/`oneOf`: the branches lowered; `[X, null]` is `X` made nullable, and unit
/// variants with docs become one string `enum`.
pub(super) fn choice(
    lowering: &mut impl Nested,
    node: &Node<'_>,
    key: &str,
    value: &Value,
    here: &str,
    out: &mut Out,
) -> Result<(), SchemaError> {
    let Value::Array(branches) = value else {
        return Err(refuse(here, format!("`{key}` must be a list")));
    };
    if key == "oneOf" && node.map.contains_key("anyOf") {
        return Err(refuse(
            here,
            "`oneOf` next to `anyOf` cannot be expressed; merge them",
        ));
    }
    let mut lowered = Vec::with_capacity(branches.len());
    let mut any_null = false;
    for (i, branch) in branches.iter().enumerate() {
        if is_only_null(branch) {
            any_null = true;
            continue;
        }
        let b = lowering.nested(branch, &walk::push(here, &i.to_string()))?;
        if b.get("nullable") == Some(&Value::Bool(true)) {
            any_null = true;
        }
        if !lowered.contains(&b) {
            lowered.push(b);
        }
    }
    out.null_named |= any_null;
    out.null_ok &= any_null;
    match lowered.len() {
        0 => {}
        1 if !node.map.contains_key("type") => {
            // `anyOf: [X, null]`: X itself, the parent's own keys winning.
            if let Some(Value::Object(only)) = lowered.pop() {
                for (k, v) in only {
                    let taken =
                        out.map.contains_key(&k) || (k != *key && node.map.contains_key(&k));
                    if k != "nullable" && !taken {
                        out.map.insert(k, v);
                    }
                }
            }
        }
        _ => match one_string_enum(&lowered) {
            // Unit variants with docs: one enum reads better than a choice.
            Some((values, docs)) if !node.map.contains_key("type") => {
                out.map.insert("type".into(), Value::from("string"));
                out.map.insert("nullable".into(), Value::Bool(false));
                out.map.insert("enum".into(), Value::Array(values));
                out.notes.extend(docs);
            }
            _ => {
                out.map.insert("anyOf".into(), Value::Array(lowered));
            }
        },
    }
    Ok(())
}

/// `properties`: each one lowered.
pub(super) fn properties(
    lowering: &mut impl Nested,
    value: &Value,
    here: &str,
    out: &mut Out,
) -> Result<(), SchemaError> {
    let Value::Object(props) = value else {
        return Err(refuse(here, "`properties` must be an object"));
    };
    let mut lowered = Map::with_capacity(props.len());
    for (name, sub) in props {
        lowered.insert(name.clone(), lowering.nested(sub, &walk::push(here, name))?);
    }
    out.map.insert("properties".into(), Value::Object(lowered));
    Ok(())
}

/// `items`: one schema lowered, or draft 7's list of them as a tuple.
pub(super) fn items(
    lowering: &mut impl Nested,
    node: &Node<'_>,
    value: &Value,
    here: &str,
    out: &mut Out,
) -> Result<(), SchemaError> {
    match value {
        // Draft 7 tuples: a list of item schemas, then `additionalItems`.
        Value::Array(_) if !node.map.contains_key("prefixItems") => {
            tuple(
                lowering,
                value,
                node.map.get("additionalItems"),
                node.max_items,
                here,
                out,
            )?;
        }
        Value::Array(_) => {}
        _ if node.map.contains_key("prefixItems") => {}
        sub => {
            let lowered = lowering.nested(sub, here)?;
            out.map.insert("items".into(), lowered);
        }
    }
    Ok(())
}

/// A map's `additionalProperties` schema: dropped, its value type noted.
pub(super) fn map_values(
    lowering: &mut impl Nested,
    value: &Value,
    here: &str,
    out: &mut Out,
) -> Result<(), SchemaError> {
    let values = lowering.nested(value, here)?;
    out.notes
        .push(format!("any keys; each value: {}", summary(&values)));
    Ok(())
}

/// A tuple (`prefixItems`, or draft 7's list-valued `items`) as one `items` schema.
/// `rest` is what follows the listed positions (`items` next to `prefixItems`).
pub(super) fn tuple(
    lowering: &mut impl Nested,
    prefix: &Value,
    rest: Option<&Value>,
    max_items: Option<u64>,
    here: &str,
    out: &mut Out,
) -> Result<(), SchemaError> {
    let Value::Array(prefix) = prefix else {
        return Err(refuse(here, "`prefixItems` must be a list"));
    };
    let mut positions = Vec::with_capacity(prefix.len());
    for (i, sub) in prefix.iter().enumerate() {
        positions.push(lowering.nested(sub, &walk::push(here, &i.to_string()))?);
    }
    let mut kinds: Vec<Value> = Vec::new();
    for p in &positions {
        if !kinds.contains(p) {
            kinds.push(p.clone());
        }
    }
    match rest {
        Some(Value::Bool(false)) => {
            // No more items than positions; `maxItems` as written wins when tighter.
            let max = out
                .map
                .entry("maxItems")
                .or_insert_with(|| Value::from(prefix.len()));
            if max.as_u64().is_some_and(|m| m > prefix.len() as u64) {
                *max = Value::from(prefix.len());
            }
        }
        Some(rest) => {
            let r = lowering.nested(rest, here)?;
            if !kinds.contains(&r) {
                kinds.push(r);
            }
        }
        // schemars closes a tuple with `maxItems` alone.
        None if max_items.is_some_and(|m| m <= prefix.len() as u64) => {}
        None => kinds.push(Value::Object(Map::new())),
    }
    let items = if kinds.len() == 1 {
        kinds.remove(0)
    } else if kinds
        .iter()
        .any(|k| k.as_object().is_some_and(Map::is_empty))
    {
        Value::Object(Map::new())
    } else {
        let mut any = Map::new();
        any.insert("anyOf".into(), Value::Array(kinds));
        Value::Object(any)
    };
    out.map.insert("items".into(), items);
    let order: Vec<String> = positions.iter().map(summary).collect();
    out.notes
        .push(format!("items in this order: [{}]", order.join(", ")));
    Ok(())
}
