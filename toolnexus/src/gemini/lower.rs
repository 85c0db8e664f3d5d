//! Lowering a schema to what Gemini accepts.
//!
//! Gemini's `parameters` is an OpenAPI 3.0 subset, checked key by key by Google's SDK
//! (`google-genai`'s `types.Schema` forbids unknown keys) and by the server. The lowered schema
//! only uses `type` (one name), `nullable`, `description`, `title`, `enum` (strings only),
//! `format` (the ones Gemini documents), `properties`, `required`, `items`, `anyOf`, `minimum`,
//! `maximum`, `minLength`, `maxLength`, `pattern`, `minItems`, `maxItems`, `minProperties`,
//! `maxProperties`, `default`, `example` and `propertyOrdering`.
//!
//! Each rewrite keeps every valid argument object valid; where Gemini cannot express a
//! constraint, the schema accepts more and the constraint is appended to `description` as text
//! (the tool's own deserializer still enforces it and answers the model with an error):
//!
//! | written | sent to Gemini |
//! |---|---|
//! | `$ref` / `$defs` | inlined; a recursive `$ref` is expanded [`RECURSION_LIMIT`] levels deep, then the schema there is `{}` (any value) with a note |
//! | `allOf` | merged into one schema |
//! | `oneOf` | `anyOf` (accepts values matching several branches too) |
//! | `const: v` | `enum: [v]` (a string); any other value as below |
//! | `type: [T, "null"]`, `anyOf: [X, {type: null}]` | `type: T` / `X`, plus `nullable: true` |
//! | `type: [A, B]` | `anyOf: [{type: A}, {type: B}]` |
//! | `enum` of non-strings | dropped, "one of: ..." noted; an untyped one gets the values' common `type` |
//! | `oneOf` of string `const`s (unit variants with docs) | one string `enum`, the docs noted |
//! | `exclusiveMinimum: n` on an integer | `minimum: n + 1` (exact); on a number: a note |
//! | `prefixItems` (tuples) | `items` (the one item schema, or `anyOf` of them) and a note with the order; `minItems`/`maxItems` kept |
//! | `true`, `{}` | `{}` (any value) |
//! | `false` | refused: nothing is valid there |
//! | `additionalProperties` | dropped; a map's value schema is noted (`HashMap<String, T>` becomes an `object` without `properties`) |
//! | array without `items` | `items: {}` |
//! | `required` name missing from `properties` | that property added as `{}` |
//! | `examples: [a, ...]` | `example: a` |
//! | `format` Gemini does not list | dropped (an annotation) |
//! | `multipleOf`, `uniqueItems`, `not`, `patternProperties`, ... | dropped, noted |
//! | `$schema`, `$id`, `$comment`, `deprecated`, unknown keys | dropped |

use serde_json::{Map, Value};

use crate::schema::walk::{self, MAX_DEPTH};
use crate::SchemaError;

const PROVIDER: &str = "gemini";

/// How many times one `$ref` may be expanded inside itself before the schema there becomes
/// `{}` (any value): a `Tree` of trees of trees is described exactly, deeper levels are free.
pub(crate) const RECURSION_LIMIT: usize = 3;

/// How many subschemas inlining may produce: mutually recursive types that branch could
/// otherwise grow the lowered schema exponentially.
const MAX_NODES: usize = 10_000;

/// Formats Gemini documents, per type; any other `format` is dropped.
fn format_ok(ty: Option<&str>, format: &str) -> bool {
    matches!(
        (ty, format),
        (Some("string"), "enum" | "date-time")
            | (Some("integer"), "int32" | "int64")
            | (Some("number"), "float" | "double")
    )
}

/// The schema as Gemini must receive it, or `None` when the schema as written already fits.
pub(crate) fn lower(schema: &Value) -> Result<Option<Value>, SchemaError> {
    let mut root = walk::common_root(schema);
    walk::merge_root_all_of(&mut root, PROVIDER)?;
    walk::refuse_at_root(&root, PROVIDER, &["anyOf", "oneOf", "enum", "const", "not"])?;
    let mut lowering = Lowering {
        root: schema,
        expanding: Vec::new(),
        nodes: 0,
    };
    let out = lowering.schema(&root, "", 0)?;
    if out.get("anyOf").is_some() || out.get("type").and_then(Value::as_str) != Some("object") {
        return Err(walk::error(
            PROVIDER,
            "",
            "the root must stay one object with `properties`; a choice of shapes cannot be sent",
        ));
    }
    Ok((out != *schema).then_some(out))
}

struct Lowering<'a> {
    /// The schema as written: what local `$ref`s point into.
    root: &'a Value,
    /// The `$ref`s being expanded, outermost first.
    expanding: Vec<String>,
    /// Subschemas produced so far.
    nodes: usize,
}

/// The schema being built: keys in the order the input had them.
struct Out {
    map: Map<String, Value>,
    notes: Vec<String>,
    nullable: bool,
}

impl Lowering<'_> {
    fn schema(&mut self, schema: &Value, path: &str, depth: usize) -> Result<Value, SchemaError> {
        if depth > MAX_DEPTH {
            return Err(walk::error(
                PROVIDER,
                path,
                format!("the schema nests deeper than {MAX_DEPTH} levels"),
            ));
        }
        self.nodes += 1;
        if self.nodes > MAX_NODES {
            return Err(walk::error(
                PROVIDER,
                path,
                format!("inlining the `$ref`s gives more than {MAX_NODES} subschemas; simplify the recursive types"),
            ));
        }
        let map = match schema {
            Value::Bool(true) => return Ok(Value::Object(Map::new())),
            Value::Bool(false) => {
                return Err(walk::error(
                    PROVIDER,
                    path,
                    "`false` (no value is valid) cannot be expressed; remove the property",
                ))
            }
            Value::Object(map) => map,
            other => {
                return Err(walk::error(
                    PROVIDER,
                    path,
                    format!(
                        "a schema must be an object or a boolean, not {}",
                        crate::schema::kind(other)
                    ),
                ))
            }
        };
        if let Some(reference) = map.get("$ref") {
            return self.reference(map, reference, path, depth);
        }
        if map.contains_key("allOf") {
            let merged = walk::merge_all_of(self.root, map)
                .map_err(|e| walk::error(PROVIDER, &walk::push(path, "allOf"), e))?;
            return self.schema(&Value::Object(merged), path, depth + 1);
        }
        self.object(map, path, depth)
    }

    fn reference(
        &mut self,
        map: &Map<String, Value>,
        reference: &Value,
        path: &str,
        depth: usize,
    ) -> Result<Value, SchemaError> {
        let here = walk::push(path, "$ref");
        let Value::String(reference) = reference else {
            return Err(walk::error(PROVIDER, &here, "`$ref` must be a string"));
        };
        let Some(target) = walk::resolve(self.root, reference) else {
            return Err(walk::error(
                PROVIDER,
                &here,
                format!("`{reference}` does not point into this schema; only local references (`#/$defs/...`) can be inlined"),
            ));
        };
        let mut siblings = map.clone();
        siblings.shift_remove("$ref");
        let seen = self.expanding.iter().filter(|r| *r == reference).count();
        if seen >= RECURSION_LIMIT {
            // Deeper levels of a recursive type: any value, so no valid call is refused.
            let description = siblings
                .get("description")
                .or_else(|| target.get("description"))
                .and_then(Value::as_str);
            let note = "nested deeper than the schema describes: same shape as the level above";
            let mut out = Map::new();
            out.insert(
                "description".into(),
                Value::from(with_notes(description, &[note.into()])),
            );
            return Ok(Value::Object(out));
        }
        let combined = match target {
            Value::Object(target) => {
                // Siblings of `$ref` (a description, say) apply alongside the target and win.
                walk::merge_into(&mut siblings, target)
                    .map_err(|e| walk::error(PROVIDER, &here, e))?;
                Value::Object(siblings)
            }
            other if siblings.is_empty() => other.clone(),
            _ => {
                return Err(walk::error(
                    PROVIDER,
                    &here,
                    "a `$ref` to a boolean schema cannot carry other keywords",
                ))
            }
        };
        self.expanding.push(reference.clone());
        let out = self.schema(&combined, path, depth + 1);
        self.expanding.pop();
        out
    }

    fn object(
        &mut self,
        map: &Map<String, Value>,
        path: &str,
        depth: usize,
    ) -> Result<Value, SchemaError> {
        let mut out = Out {
            map: Map::with_capacity(map.len() + 1),
            notes: Vec::new(),
            nullable: false,
        };
        // `type` as a list without `null` (which becomes `nullable`); `None` when absent.
        let types: Option<Vec<&str>> =
            walk::types(map).map(|t| t.into_iter().filter(|t| *t != "null").collect());
        let max_items = map.get("maxItems").and_then(Value::as_u64);
        let single = match types.as_deref() {
            Some([one]) => Some(*one),
            _ => None,
        };
        // Whether `null` passes each keyword that says something about it; `nullable` is only
        // set when every one of them lets it through and at least one names it.
        // OpenAPI's own `nullable: true` (a schema written for Gemini) widens `type` to null.
        let nullable_flag = map.get("nullable") == Some(&Value::Bool(true));
        let mut null_named = nullable_flag;
        let mut null_ok = true;
        if let Some(t) = walk::types(map) {
            null_ok = nullable_flag || t.contains(&"null");
            null_named |= null_ok;
        }

        for (key, value) in map {
            let here = walk::push(path, key);
            match key.as_str() {
                "type" => {
                    match types.as_deref() {
                        Some([]) | None => {}
                        Some([one]) => {
                            out.map.insert("type".into(), Value::from(*one));
                        }
                        Some(many) => {
                            let branches = many
                                .iter()
                                .map(|t| {
                                    let mut b = Map::new();
                                    b.insert("type".into(), Value::from(*t));
                                    Value::Object(b)
                                })
                                .collect();
                            if map.contains_key("anyOf") || map.contains_key("oneOf") {
                                return Err(walk::error(
                                    PROVIDER,
                                    &here,
                                    "a list of types next to `anyOf`/`oneOf` cannot be expressed",
                                ));
                            }
                            out.map.insert("anyOf".into(), Value::Array(branches));
                        }
                    }
                    out.map.insert("nullable".into(), Value::Bool(false));
                }
                "nullable" => {}
                "const" | "enum" => {
                    let values: Vec<Value> = if key == "const" {
                        vec![value.clone()]
                    } else {
                        match value {
                            Value::Array(values) => values.clone(),
                            _ => return Err(walk::error(PROVIDER, &here, "`enum` must be a list")),
                        }
                    };
                    let has_null = values.contains(&Value::Null);
                    null_named |= has_null;
                    null_ok &= has_null;
                    let values: Vec<Value> = values.into_iter().filter(|v| !v.is_null()).collect();
                    let strings = values.iter().all(Value::is_string);
                    if values.is_empty() {
                        // Only `null`: said by `nullable`.
                    } else if strings && matches!(types.as_deref(), None | Some(["string"])) {
                        if types.is_none() {
                            out.map.insert("type".into(), Value::from("string"));
                            out.map.insert("nullable".into(), Value::Bool(false));
                        }
                        out.map.insert("enum".into(), Value::Array(values));
                    } else {
                        // Untyped, but every value has one type: say it (no valid value lost).
                        if let (None, Some(t)) = (&types, common_type(&values)) {
                            out.map.insert("type".into(), Value::from(t));
                            out.map.insert("nullable".into(), Value::Bool(false));
                        }
                        let listed: Vec<String> = values.iter().map(Value::to_string).collect();
                        out.notes.push(if listed.len() == 1 {
                            format!("must be {}", listed[0])
                        } else {
                            format!("one of: {}", listed.join(", "))
                        });
                    }
                }
                "anyOf" | "oneOf" => {
                    let Value::Array(branches) = value else {
                        return Err(walk::error(
                            PROVIDER,
                            &here,
                            format!("`{key}` must be a list"),
                        ));
                    };
                    if key == "oneOf" && map.contains_key("anyOf") {
                        return Err(walk::error(
                            PROVIDER,
                            &here,
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
                        let b =
                            self.schema(branch, &walk::push(&here, &i.to_string()), depth + 1)?;
                        if b.get("nullable") == Some(&Value::Bool(true)) {
                            any_null = true;
                        }
                        if !lowered.contains(&b) {
                            lowered.push(b);
                        }
                    }
                    null_named |= any_null;
                    null_ok &= any_null;
                    match lowered.len() {
                        0 => {}
                        1 if !map.contains_key("type") => {
                            // `anyOf: [X, null]`: X itself, the parent's own keys winning.
                            if let Some(Value::Object(only)) = lowered.pop() {
                                for (k, v) in only {
                                    let taken = out.map.contains_key(&k)
                                        || (k != *key && map.contains_key(&k));
                                    if k != "nullable" && !taken {
                                        out.map.insert(k, v);
                                    }
                                }
                            }
                        }
                        _ => match one_string_enum(&lowered) {
                            // Unit variants with docs: one enum reads better than a choice.
                            Some((values, docs)) if !map.contains_key("type") => {
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
                }
                "properties" => {
                    let Value::Object(props) = value else {
                        return Err(walk::error(
                            PROVIDER,
                            &here,
                            "`properties` must be an object",
                        ));
                    };
                    let mut lowered = Map::with_capacity(props.len());
                    for (name, sub) in props {
                        lowered.insert(
                            name.clone(),
                            self.schema(sub, &walk::push(&here, name), depth + 1)?,
                        );
                    }
                    out.map.insert("properties".into(), Value::Object(lowered));
                }
                "required" => {
                    let Value::Array(names) = value else {
                        return Err(walk::error(
                            PROVIDER,
                            &here,
                            "`required` must be a list of names",
                        ));
                    };
                    if names.iter().any(|n| !n.is_string()) {
                        return Err(walk::error(
                            PROVIDER,
                            &here,
                            "`required` must be a list of names",
                        ));
                    }
                    out.map.insert("required".into(), value.clone());
                }
                "items" => match value {
                    // Draft 7 tuples: a list of item schemas, then `additionalItems`.
                    Value::Array(_) if !map.contains_key("prefixItems") => {
                        self.tuple(
                            value,
                            map.get("additionalItems"),
                            max_items,
                            &here,
                            depth,
                            &mut out,
                        )?;
                    }
                    Value::Array(_) => {}
                    _ if map.contains_key("prefixItems") => {}
                    sub => {
                        let lowered = self.schema(sub, &here, depth + 1)?;
                        out.map.insert("items".into(), lowered);
                    }
                },
                "prefixItems" => {
                    let rest = map.get("items").filter(|v| !v.is_array());
                    self.tuple(value, rest, max_items, &here, depth, &mut out)?;
                }
                "additionalItems" => {}
                "additionalProperties" if !value.is_boolean() => {
                    let values = self.schema(value, &here, depth + 1)?;
                    out.notes
                        .push(format!("any keys; each value: {}", summary(&values)));
                }
                "exclusiveMinimum" | "exclusiveMaximum" => {
                    let lower = key == "exclusiveMinimum";
                    let bound_key = if lower { "minimum" } else { "maximum" };
                    let bound = match value {
                        Value::Number(n) => Some(n.clone()),
                        // Draft 4: a flag on `minimum`/`maximum`.
                        Value::Bool(true) => map.get(bound_key).and_then(Value::as_number).cloned(),
                        _ => None,
                    };
                    if let Some(bound) = bound {
                        match (single, exact_integer(&bound)) {
                            (Some("integer"), Some(n)) => {
                                let tighter = if lower { n + 1 } else { n - 1 };
                                let current = map.get(bound_key).and_then(Value::as_f64);
                                let keep = match current {
                                    Some(c) if value.is_number() => {
                                        if lower {
                                            c >= tighter as f64
                                        } else {
                                            c <= tighter as f64
                                        }
                                    }
                                    _ => false,
                                };
                                if !keep {
                                    out.map.insert(bound_key.into(), Value::from(tighter));
                                }
                            }
                            _ => out.notes.push(format!(
                                "{} {bound}",
                                if lower { "greater than" } else { "less than" }
                            )),
                        }
                    }
                }
                "minimum" | "maximum" => {
                    if !value.is_number() {
                        return Err(walk::error(
                            PROVIDER,
                            &here,
                            format!("`{key}` must be a number"),
                        ));
                    }
                    // An exclusive bound on an integer may already have written a tighter one.
                    out.map.entry(key.clone()).or_insert_with(|| value.clone());
                }
                "format" => {
                    if let Value::String(f) = value {
                        if format_ok(single, f) {
                            out.map.insert("format".into(), value.clone());
                        }
                    }
                }
                "examples" if !map.contains_key("example") => {
                    if let Some(first) = value.as_array().and_then(|l| l.first()) {
                        out.map.insert("example".into(), first.clone());
                    }
                }
                "description" | "title" | "pattern" | "default" | "example"
                | "propertyOrdering" => {
                    out.map.insert(key.clone(), value.clone());
                }
                "minLength" | "maxLength" | "minItems" | "maxItems" | "minProperties"
                | "maxProperties" => {
                    if !value.is_u64() {
                        return Err(walk::error(
                            PROVIDER,
                            &here,
                            format!("`{key}` must be a whole number"),
                        ));
                    }
                    out.map.entry(key.clone()).or_insert_with(|| value.clone());
                }
                "multipleOf"
                | "uniqueItems"
                | "contains"
                | "minContains"
                | "maxContains"
                | "not"
                | "if"
                | "then"
                | "else"
                | "patternProperties"
                | "propertyNames"
                | "dependentRequired"
                | "dependentSchemas"
                | "dependencies"
                | "unevaluatedProperties"
                | "unevaluatedItems" => {
                    out.notes.push(format!("{key}: {value}"));
                }
                // Annotations and keywords Gemini has no use for.
                _ => {}
            }
        }

        // Arrays always have `items`; `required` names always have a property.
        if single == Some("array") && !out.map.contains_key("items") {
            out.map.insert("items".into(), Value::Object(Map::new()));
        }
        if let Some(Value::Array(required)) = out.map.get("required").cloned() {
            let props = out
                .map
                .entry("properties")
                .or_insert_with(|| Value::Object(Map::new()));
            if let Value::Object(props) = props {
                for name in required.iter().filter_map(Value::as_str) {
                    if !props.contains_key(name) {
                        props.insert(name.to_owned(), Value::Object(Map::new()));
                    }
                }
            }
        }

        out.nullable = null_named && null_ok;
        Ok(out.finish())
    }

    /// A tuple (`prefixItems`, or draft 7's list-valued `items`) as one `items` schema.
    /// `rest` is what follows the listed positions (`items` next to `prefixItems`).
    fn tuple(
        &mut self,
        prefix: &Value,
        rest: Option<&Value>,
        max_items: Option<u64>,
        here: &str,
        depth: usize,
        out: &mut Out,
    ) -> Result<(), SchemaError> {
        let Value::Array(prefix) = prefix else {
            return Err(walk::error(PROVIDER, here, "`prefixItems` must be a list"));
        };
        let mut positions = Vec::with_capacity(prefix.len());
        for (i, sub) in prefix.iter().enumerate() {
            positions.push(self.schema(sub, &walk::push(here, &i.to_string()), depth + 1)?);
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
                let r = self.schema(rest, here, depth + 1)?;
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
}

impl Out {
    fn finish(mut self) -> Value {
        // `nullable` sits where `type` was (a placeholder); it goes when false.
        if self.nullable {
            self.map.insert("nullable".into(), Value::Bool(true));
        } else {
            self.map.shift_remove("nullable");
        }
        if !self.notes.is_empty() {
            let description = self.map.get("description").and_then(Value::as_str);
            let text = with_notes(description, &self.notes);
            self.map.insert("description".into(), Value::from(text));
        }
        Value::Object(self.map)
    }
}

/// `description` with the constraints Gemini cannot express appended, in parentheses.
fn with_notes(description: Option<&str>, notes: &[String]) -> String {
    let notes = notes.join("; ");
    match description.map(str::trim_end) {
        Some(d) if !d.is_empty() => format!("{d} ({notes})"),
        _ => format!("({notes})"),
    }
}

/// A short text for a lowered schema in a note: its type (`integer`, `string or null`), or its
/// JSON when it says more than that.
fn summary(schema: &Value) -> String {
    let Value::Object(map) = schema else {
        return schema.to_string();
    };
    let plain = map.keys().all(|k| {
        matches!(
            k.as_str(),
            "type" | "nullable" | "format" | "description" | "title"
        )
    });
    match map.get("type").and_then(Value::as_str) {
        Some(t) if plain => {
            if map.get("nullable") == Some(&Value::Bool(true)) {
                format!("{t} or null")
            } else {
                t.to_owned()
            }
        }
        None if map.is_empty() => "any value".to_owned(),
        _ => schema.to_string(),
    }
}

/// When every branch is a string enum (with at most a description), their values in order and
/// the descriptions as `value: description` notes.
fn one_string_enum(branches: &[Value]) -> Option<(Vec<Value>, Vec<String>)> {
    let mut values: Vec<Value> = Vec::new();
    let mut docs = Vec::new();
    for b in branches {
        let map = b.as_object()?;
        if map.get("type")? != "string"
            || map
                .keys()
                .any(|k| !matches!(k.as_str(), "type" | "enum" | "description"))
        {
            return None;
        }
        let listed = map.get("enum")?.as_array()?;
        if let Some(d) = map.get("description").and_then(Value::as_str) {
            let names: Vec<&str> = listed.iter().filter_map(Value::as_str).collect();
            docs.push(format!("{}: {}", names.join(", "), d.trim_end_matches('.')));
        }
        for v in listed {
            if !values.contains(v) {
                values.push(v.clone());
            }
        }
    }
    Some((values, docs))
}

/// The one Gemini type all `values` have (`integer` when every number is whole), if any.
fn common_type(values: &[Value]) -> Option<&'static str> {
    let kind = |v: &Value| match v {
        Value::Bool(_) => Some("boolean"),
        Value::Number(n) if n.is_i64() || n.is_u64() => Some("integer"),
        Value::Number(_) => Some("number"),
        _ => None,
    };
    let first = kind(values.first()?)?;
    let mut all = first;
    for v in values {
        match (all, kind(v)?) {
            (a, b) if a == b => {}
            ("integer", "number") | ("number", "integer") => all = "number",
            _ => return None,
        }
    }
    Some(all)
}

/// Whether the only value `schema` accepts is `null`.
fn is_only_null(schema: &Value) -> bool {
    let Value::Object(map) = schema else {
        return false;
    };
    let only_null_type = match map.get("type") {
        Some(Value::String(t)) => t == "null",
        Some(Value::Array(l)) => l.iter().all(|t| t == "null") && !l.is_empty(),
        _ => false,
    };
    only_null_type
        || map.get("const") == Some(&Value::Null)
        || map.get("enum") == Some(&Value::Array(vec![Value::Null]))
}

/// `n` as an integer when it has no fractional part.
fn exact_integer(n: &serde_json::Number) -> Option<i64> {
    if let Some(i) = n.as_i64() {
        return Some(i);
    }
    let f = n.as_f64()?;
    (f.fract() == 0.0 && f.abs() < 9.0e15).then_some(f as i64)
}
