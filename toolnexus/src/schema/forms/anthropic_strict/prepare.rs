//! One level of a schema rewritten into what Anthropic's SDK reads the same way twice, so its
//! `transform_schema` gives a fixed point, without making an answer the schema allows invalid:
//! a type list (`["integer", "null"]`, on which the SDK fails) becomes an `anyOf` of one type
//! each; `allOf` is merged and a `type` next to `anyOf` is distributed into its branches (each
//! object is closed, so objects only compose as one); keywords next to `$ref` move beside it into
//! a one-branch `anyOf`; a schema without a type gets the one its keywords say, or any value.

use std::borrow::Cow;

use serde_json::{json, Map, Value};

use crate::schema::merge;

/// What a level may need from its caller: an answer the schema allows that no schema of the
/// subset can keep, said once.
pub(super) type Narrow<'a> = &'a mut dyn FnMut(&str);

/// The JSON types a keyword constrains; none: it is about any value (`description`, `not`).
fn types_of(key: &str) -> &'static [&'static str] {
    match key {
        "properties"
        | "required"
        | "additionalProperties"
        | "patternProperties"
        | "propertyNames"
        | "minProperties"
        | "maxProperties"
        | "dependentRequired"
        | "dependentSchemas"
        | "dependencies"
        | "unevaluatedProperties" => &["object"],
        "items" | "prefixItems" | "additionalItems" | "minItems" | "maxItems" | "uniqueItems"
        | "contains" | "minContains" | "maxContains" | "unevaluatedItems" => &["array"],
        "minLength" | "maxLength" | "pattern" | "contentEncoding" | "contentMediaType" => {
            &["string"]
        }
        "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" | "multipleOf" => {
            &["integer", "number"]
        }
        "format" => &["string", "integer", "number"],
        _ => &[],
    }
}

/// Whether the SDK keeps `value` as an `enum` member or a `const`.
pub(super) fn is_primitive(value: &Value) -> bool {
    !matches!(value, Value::Array(_) | Value::Object(_))
}

/// Whether `map` is a set of literals (`enum`, `const`), which the SDK keeps without a type.
pub(super) fn has_literals(map: &Map<String, Value>) -> bool {
    let listed = matches!(map.get("enum"), Some(Value::Array(e))
        if !e.is_empty() && e.iter().all(is_primitive));
    listed || map.get("const").is_some_and(is_primitive)
}

/// Any value, in the subset: each type once (objects and arrays without their contents).
pub(super) fn any_value() -> Value {
    json!([{"type": "string"}, {"type": "number"}, {"type": "boolean"},
           {"type": "object", "properties": {}, "additionalProperties": false},
           {"type": "array"}, {"type": "null"}])
}

/// `map` rewritten so the SDK reads it as it means (see the module's rules); `root` is what its
/// `$ref`s point into.
pub(super) fn level<'a>(
    map: &'a Map<String, Value>,
    root: &Value,
    narrow: Narrow<'_>,
) -> Cow<'a, Map<String, Value>> {
    let mut map = Cow::Borrowed(map);
    if map.contains_key("$ref") && map.keys().any(|k| k != "$ref" && k != "$defs") {
        let mut out = Map::with_capacity(map.len());
        for (key, value) in map.iter() {
            match key.as_str() {
                "$ref" => out.insert("anyOf".into(), json!([{"$ref": value}])),
                _ => out.insert(key.clone(), value.clone()),
            };
        }
        map = Cow::Owned(out);
    }
    if map.contains_key("$ref") || has_literals(&map) {
        return map;
    }
    if map.contains_key("allOf") {
        match merge::merge_all_of(root, &map) {
            Ok(merged) => map = Cow::Owned(merged),
            Err(_) => narrow_if_object(&map, "allOf", narrow),
        }
    }
    let choice = ["anyOf", "oneOf"]
        .into_iter()
        .find(|k| map.get(*k).is_some_and(Value::is_array));
    if let (Some(choice), true) = (choice, map.contains_key("type")) {
        map = Cow::Owned(distribute(&map, choice, root, narrow));
    }
    if map.get("type").is_some_and(Value::is_array) && !map.contains_key("anyOf") {
        map = Cow::Owned(split(&map));
    }
    let combined = ["anyOf", "oneOf", "allOf"]
        .iter()
        .any(|k| map.get(*k).is_some_and(Value::is_array));
    if !combined && !matches!(map.get("type"), Some(Value::String(_))) {
        map = Cow::Owned(typed(&map, narrow));
    }
    if map.get("items").is_some_and(|i| !i.is_object()) {
        // `true` (any item) or a closed tuple's `false`: the SDK reads only a schema there.
        map.to_mut().shift_remove("items");
    }
    map
}

/// Says the schema cannot be kept when the parts of a combinator `key` are objects.
fn narrow_if_object(map: &Map<String, Value>, key: &str, narrow: Narrow<'_>) {
    let object = |v: &Value| {
        v.get("type").and_then(Value::as_str) == Some("object") || v.get("properties").is_some()
    };
    let parts = map.get(key).and_then(Value::as_array).map(Vec::as_slice);
    if object(&Value::Object(map.clone())) || parts.unwrap_or_default().iter().any(object) {
        narrow(&format!(
            "an `{key}` of objects cannot be kept: each object is closed \
             (`additionalProperties: false`), so their keys exclude each other"
        ));
    }
}

/// The typed part of `map` (`type` and the keywords of its types) and the rest.
fn typed_part(map: &Map<String, Value>) -> (Map<String, Value>, Map<String, Value>) {
    let mut part = Map::new();
    let mut rest = Map::new();
    for (key, value) in map {
        if key == "type" || !types_of(key).is_empty() {
            part.insert(key.clone(), value.clone());
        } else {
            rest.insert(key.clone(), value.clone());
        }
    }
    (part, rest)
}

/// A `type` next to `anyOf` (or `oneOf`) merged into each branch: the SDK keeps only the
/// choice, and closes each branch object on its own.
fn distribute(
    map: &Map<String, Value>,
    choice: &str,
    root: &Value,
    narrow: Narrow<'_>,
) -> Map<String, Value> {
    let (part, mut rest) = typed_part(map);
    let branches = rest
        .shift_remove(choice)
        .and_then(|b| b.as_array().cloned())
        .unwrap_or_default();
    let merged: Result<Vec<Value>, String> = branches
        .iter()
        .map(|branch| {
            let mut both = Map::with_capacity(1);
            both.insert("allOf".into(), json!([part, branch]));
            merge::merge_all_of(root, &both).map(Value::Object)
        })
        .collect();
    let mut out = Map::with_capacity(rest.len() + 1);
    match merged {
        Ok(merged) => out.insert("anyOf".into(), Value::Array(merged)),
        Err(_) => {
            let parts = json!([part, {"anyOf": branches}]);
            let mut all = Map::new();
            all.insert("allOf".into(), parts);
            narrow_if_object(&all, "allOf", narrow);
            out.insert(
                "allOf".into(),
                all.shift_remove("allOf").unwrap_or_default(),
            )
        }
    };
    out.extend(rest);
    out
}

/// A type list as an `anyOf` of one type each (`null` last), each with the keywords of its
/// type; the keywords of no listed type stay outside.
fn split(map: &Map<String, Value>) -> Map<String, Value> {
    let names: Vec<&str> = map
        .get("type")
        .and_then(Value::as_array)
        .map(|t| t.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let null = names.contains(&"null");
    let types: Vec<&str> = names.iter().copied().filter(|t| *t != "null").collect();
    let mut out = Map::with_capacity(map.len());
    if types.len() + usize::from(null) == 1 {
        for (key, value) in map {
            let value = if key == "type" {
                Value::from(types.first().copied().unwrap_or("null"))
            } else {
                value.clone()
            };
            out.insert(key.clone(), value);
        }
        return out;
    }
    let mut branches: Vec<Map<String, Value>> = types
        .iter()
        .map(|t| {
            let mut b = Map::new();
            b.insert("type".into(), Value::from(*t));
            b
        })
        .collect();
    for (key, value) in map {
        if key == "type" {
            out.insert("anyOf".into(), Value::Null);
            continue;
        }
        let of = types_of(key);
        let mut placed = false;
        for (branch, t) in branches.iter_mut().zip(&types) {
            if of.contains(t) {
                branch.insert(key.clone(), value.clone());
                placed = true;
            }
        }
        if !placed {
            out.insert(key.clone(), value.clone());
        }
    }
    let mut list: Vec<Value> = branches.into_iter().map(Value::Object).collect();
    if null {
        list.push(json!({"type": "null"}));
    }
    if list.is_empty() {
        out.shift_remove("anyOf");
    } else {
        out.insert("anyOf".into(), Value::Array(list));
    }
    out
}

/// A schema without a type: the type its keywords are about (`properties`: an object), or any
/// value.
fn typed(map: &Map<String, Value>, narrow: Narrow<'_>) -> Map<String, Value> {
    let mut kinds = map.keys().flat_map(|k| types_of(k).iter().copied());
    let kind = kinds.next().filter(|first| {
        let mut same = map.keys().flat_map(|k| types_of(k).iter().copied());
        same.all(|t| t == *first || (*first == "integer" && t == "number"))
    });
    let mut out = Map::with_capacity(map.len() + 1);
    match kind {
        Some(kind) => {
            let kind = if kind == "integer" { "number" } else { kind };
            out.insert("type".into(), Value::from(kind));
        }
        None => {
            narrow("a value of any type (no `type`, such as `serde_json::Value`) cannot be kept");
            out.insert("anyOf".into(), any_value());
        }
    }
    out.extend(map.iter().map(|(k, v)| (k.clone(), v.clone())));
    out
}
