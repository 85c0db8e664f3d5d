//! Merging `allOf` branches into one schema (what Gemini needs everywhere and every provider at
//! the root).

use serde_json::{Map, Value};

use super::walk::{self, resolve, MAX_DEPTH};
use crate::values::error::SchemaError;

/// `schema` (an object with `allOf`) with its `allOf` branches merged into it.
///
/// Branches that are local `$ref`s are resolved in `root` first. Keys that do not conflict are
/// copied; `properties` merge per name (one property in two branches becomes an `allOf` of both
/// for the caller to merge further down), `required` is the union, `type` and `enum` the
/// intersection, numeric and length bounds the stricter one, annotations (`description`,
/// `title`, ...) the first seen. Anything else that differs is an error naming the keyword.
pub(crate) fn merge_all_of(
    root: &Value,
    schema: &Map<String, Value>,
) -> Result<Map<String, Value>, String> {
    merge_open(root, schema, &mut Vec::new())
}

/// [`merge_all_of`] inside the expansion of the `$ref`s in `open`: a reference that comes back
/// to itself through `allOf` (`D = allOf[{$ref: D}, ...]`) cannot be merged, and is refused
/// rather than expanded forever.
fn merge_open(
    root: &Value,
    schema: &Map<String, Value>,
    open: &mut Vec<String>,
) -> Result<Map<String, Value>, String> {
    let mut out = schema.clone();
    let Some(Value::Array(branches)) = out.shift_remove("allOf") else {
        return Err("`allOf` must be a list of schemas".into());
    };
    for (i, branch) in branches.iter().enumerate() {
        let branch = match branch {
            Value::Bool(true) => continue,
            Value::Object(map) => map,
            _ => {
                return Err(format!(
                    "`allOf` branch {i} is not an object schema and cannot be merged"
                ))
            }
        };
        let branch = expand(root, branch, open)?;
        merge_into(&mut out, &branch).map_err(|e| format!("`allOf` branch {i}: {e}"))?;
    }
    Ok(out)
}

/// `branch` with its own `$ref` and `allOf` folded in, so it can be merged key by key.
fn expand(
    root: &Value,
    branch: &Map<String, Value>,
    open: &mut Vec<String>,
) -> Result<Map<String, Value>, String> {
    if open.len() > MAX_DEPTH {
        return Err("`$ref`s nest too deep to merge".into());
    }
    let mut out = branch.clone();
    let mut opened = false;
    if let Some(Value::String(r)) = out.shift_remove("$ref") {
        if open.contains(&r) {
            return Err(format!(
                "`$ref` `{r}` refers to itself through `allOf`, which cannot be merged"
            ));
        }
        let target = resolve(root, &r)
            .and_then(Value::as_object)
            .ok_or_else(|| format!("`$ref` `{r}` does not point at an object schema here"))?;
        // An error ends the whole merge, so `open` is left as it is then.
        open.push(r);
        opened = true;
        let target = expand(root, target, open)?;
        merge_into(&mut out, &target)?;
    }
    let merged = if out.contains_key("allOf") {
        merge_open(root, &out, open)
    } else {
        Ok(out)
    };
    if opened {
        open.pop();
    }
    merged
}

const LOWER_BOUNDS: &[&str] = &[
    "minimum",
    "exclusiveMinimum",
    "minLength",
    "minItems",
    "minProperties",
];
const UPPER_BOUNDS: &[&str] = &[
    "maximum",
    "exclusiveMaximum",
    "maxLength",
    "maxItems",
    "maxProperties",
];
const ANNOTATIONS: &[&str] = &[
    "description",
    "title",
    "default",
    "examples",
    "example",
    "$comment",
    "$id",
    "deprecated",
    "readOnly",
    "writeOnly",
    "format",
];

/// Merges `other` into `acc` (both object schemas) as `allOf: [acc, other]` would constrain.
pub(crate) fn merge_into(
    acc: &mut Map<String, Value>,
    other: &Map<String, Value>,
) -> Result<(), String> {
    for (key, theirs) in other {
        let Some(ours) = acc.get_mut(key) else {
            acc.insert(key.clone(), theirs.clone());
            continue;
        };
        if ours == theirs || ANNOTATIONS.contains(&key.as_str()) {
            continue;
        }
        match key.as_str() {
            "properties" => {
                let (Value::Object(ours), Value::Object(theirs)) = (ours, theirs) else {
                    return Err("`properties` must be an object".into());
                };
                for (name, s) in theirs {
                    match ours.get_mut(name) {
                        None => {
                            ours.insert(name.clone(), s.clone());
                        }
                        Some(o) if o == s => {}
                        Some(o) => {
                            let both = Value::Array(vec![o.take(), s.clone()]);
                            let mut wrapper = Map::new();
                            wrapper.insert("allOf".into(), both);
                            *o = Value::Object(wrapper);
                        }
                    }
                }
            }
            "required" => {
                let (Value::Array(ours), Value::Array(theirs)) = (ours, theirs) else {
                    return Err("`required` must be a list".into());
                };
                for name in theirs {
                    if !ours.contains(name) {
                        ours.push(name.clone());
                    }
                }
            }
            "type" => {
                let as_list = |v: &Value| -> Vec<Value> {
                    match v {
                        Value::Array(l) => l.clone(),
                        v => vec![v.clone()],
                    }
                };
                let theirs = as_list(theirs);
                let mut both: Vec<Value> = as_list(ours)
                    .into_iter()
                    .filter(|t| {
                        theirs.contains(t)
                            || (t == "integer" && theirs.contains(&Value::from("number")))
                    })
                    .collect();
                if both.is_empty() {
                    return Err("the branches' `type`s have nothing in common".into());
                }
                *ours = if both.len() == 1 {
                    both.remove(0)
                } else {
                    Value::Array(both)
                };
            }
            "enum" => {
                let (Value::Array(ours), Value::Array(theirs)) = (ours, theirs) else {
                    return Err("`enum` must be a list".into());
                };
                ours.retain(|v| theirs.contains(v));
            }
            k if LOWER_BOUNDS.contains(&k) || UPPER_BOUNDS.contains(&k) => {
                let (Some(a), Some(b)) = (ours.as_f64(), theirs.as_f64()) else {
                    return Err(format!("`{k}` must be a number"));
                };
                let take_theirs = if LOWER_BOUNDS.contains(&k) {
                    b > a
                } else {
                    b < a
                };
                if take_theirs {
                    *ours = theirs.clone();
                }
            }
            k => return Err(format!("the branches disagree on `{k}`")),
        }
    }
    Ok(())
}

/// Merges a root `allOf` into the root (every provider wants plain properties at the top).
pub(crate) fn merge_root_all_of(
    root: &mut Value,
    provider: &'static str,
) -> Result<(), SchemaError> {
    let Value::Object(map) = &*root else {
        return Ok(());
    };
    if !map.contains_key("allOf") {
        return Ok(());
    }
    let merged = merge_all_of(root, map).map_err(|reason| {
        walk::error(
            provider,
            "/allOf",
            format!(
                "{reason}; a combinator at the root cannot be sent, so write the properties out"
            ),
        )
    })?;
    *root = Value::Object(merged);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn all_of_merges_properties_required_and_bounds() {
        let root = json!({"$defs": {"A": {"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"]}}});
        let s = json!({"allOf": [
            {"$ref": "#/$defs/A"},
            {"properties": {"b": {"type": "string"}}, "required": ["b"], "minProperties": 1},
            {"minProperties": 2, "type": ["object", "null"]}
        ]});
        let merged = merge_all_of(&root, s.as_object().unwrap()).unwrap();
        assert_eq!(
            Value::Object(merged),
            json!({"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "string"}},
                   "required": ["a", "b"], "minProperties": 2})
        );
        let clash = json!({"allOf": [{"type": "string"}, {"type": "integer"}]});
        assert_eq!(
            merge_all_of(&root, clash.as_object().unwrap()).unwrap_err(),
            "`allOf` branch 1: the branches' `type`s have nothing in common"
        );
    }

    #[test]
    fn a_reference_back_to_itself_through_all_of_is_refused_not_expanded_forever() {
        // Found by tests/sdk's random schemas: this overflowed the stack.
        let root = json!({"$defs": {"D": {"allOf": [{"$ref": "#/$defs/D"}, {"type": "integer"}]}}});
        let d = root["$defs"]["D"].as_object().unwrap();
        assert_eq!(
            merge_all_of(&root, d).unwrap_err(),
            "`$ref` `#/$defs/D` refers to itself through `allOf`, which cannot be merged"
        );
        // The same definition used twice side by side is no cycle.
        let root = json!({"$defs": {"P": {"properties": {"x": {"type": "number"}}}}});
        let s = json!({"allOf": [{"$ref": "#/$defs/P"}, {"$ref": "#/$defs/P"}]});
        assert!(merge_all_of(&root, s.as_object().unwrap()).is_ok());
    }
}
