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

mod keywords;
mod structure;

use serde_json::{Map, Value};

use crate::schema::merge;
use crate::schema::walk::{self, MAX_DEPTH};
use crate::values::error::SchemaError;
use keywords::{bound, count, examples, required, with_notes, Node, Out};
use structure::Nested;

/// How many times one `$ref` may be expanded inside itself before the schema there becomes
/// `{}` (any value): a `Tree` of trees of trees is described exactly, deeper levels are free.
pub(crate) const RECURSION_LIMIT: usize = 3;

/// How many subschemas inlining may produce: mutually recursive types that branch could
/// otherwise grow the lowered schema exponentially.
const MAX_NODES: usize = 10_000;

/// The schema as Gemini must receive it, or `None` when the schema as written already fits.
pub(crate) fn lower(schema: &Value) -> Result<Option<Value>, SchemaError> {
    let mut root = walk::common_root(schema);
    merge::merge_root_all_of(&mut root, PROVIDER)?;
    walk::refuse_at_root(&root, PROVIDER, &["anyOf", "oneOf", "enum", "const", "not"])?;
    let mut lowering = Lowering {
        root: schema,
        expanding: Vec::new(),
        nodes: 0,
        depth: 0,
    };
    let out = lowering.schema(&root, "")?;
    if out.get("anyOf").is_some() || out.get("type").and_then(Value::as_str) != Some("object") {
        return Err(refuse(
            "",
            "the root must stay one object with `properties`; a choice of shapes cannot be sent",
        ));
    }
    Ok((out != *schema).then_some(out))
}

pub(super) struct Lowering<'a> {
    /// The schema as written: what local `$ref`s point into.
    root: &'a Value,
    /// The `$ref`s being expanded, outermost first.
    expanding: Vec<String>,
    /// Subschemas produced so far.
    nodes: usize,
    /// How deep the subschema being lowered nests (the root: 0).
    depth: usize,
}

impl Nested for Lowering<'_> {
    /// A subschema of the one being lowered, at `path`: one level deeper while it is lowered.
    fn nested(&mut self, schema: &Value, path: &str) -> Result<Value, SchemaError> {
        self.depth += 1;
        let out = self.schema(schema, path);
        self.depth -= 1;
        out
    }
}

impl Lowering<'_> {
    fn schema(&mut self, schema: &Value, path: &str) -> Result<Value, SchemaError> {
        if self.depth > MAX_DEPTH {
            return Err(refuse(
                path,
                format!("the schema nests deeper than {MAX_DEPTH} levels"),
            ));
        }
        self.nodes += 1;
        if self.nodes > MAX_NODES {
            return Err(refuse(path,
                format!("inlining the `$ref`s gives more than {MAX_NODES} subschemas; simplify the recursive types"),
            ));
        }
        let map = match schema {
            Value::Bool(true) => return Ok(Value::Object(Map::new())),
            Value::Bool(false) => {
                return Err(refuse(
                    path,
                    "`false` (no value is valid) cannot be expressed; remove the property",
                ))
            }
            Value::Object(map) => map,
            other => {
                return Err(refuse(
                    path,
                    format!(
                        "a schema must be an object or a boolean, not {}",
                        crate::values::text::kind(other)
                    ),
                ))
            }
        };
        if let Some(reference) = map.get("$ref") {
            return self.reference(map, reference, path);
        }
        if map.contains_key("allOf") {
            let merged = merge::merge_all_of(self.root, map)
                .map_err(|e| refuse(&walk::push(path, "allOf"), e))?;
            return self.nested(&Value::Object(merged), path);
        }
        self.object(map, path)
    }

    fn reference(
        &mut self,
        map: &Map<String, Value>,
        reference: &Value,
        path: &str,
    ) -> Result<Value, SchemaError> {
        let here = walk::push(path, "$ref");
        let Value::String(reference) = reference else {
            return Err(refuse(&here, "`$ref` must be a string"));
        };
        let Some(target) = walk::resolve(self.root, reference) else {
            return Err(refuse(&here,
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
                merge::merge_into(&mut siblings, target).map_err(|e| refuse(&here, e))?;
                Value::Object(siblings)
            }
            other if siblings.is_empty() => other.clone(),
            _ => {
                return Err(refuse(
                    &here,
                    "a `$ref` to a boolean schema cannot carry other keywords",
                ))
            }
        };
        self.expanding.push(reference.clone());
        let out = self.nested(&combined, path);
        self.expanding.pop();
        out
    }

    fn object(&mut self, map: &Map<String, Value>, path: &str) -> Result<Value, SchemaError> {
        let node = Node::new(map);
        let mut out = Out::new(map);
        for (key, value) in map {
            let here = walk::push(path, key);
            match key.as_str() {
                "type" => node.types(&here, &mut out)?,
                "nullable" | "additionalItems" => {}
                "const" | "enum" => node.values(key, value, &here, &mut out)?,
                "anyOf" | "oneOf" => structure::choice(self, &node, key, value, &here, &mut out)?,
                "properties" => structure::properties(self, value, &here, &mut out)?,
                "required" => required(value, &here, &mut out)?,
                "items" => structure::items(self, &node, value, &here, &mut out)?,
                "prefixItems" => {
                    let rest = map.get("items").filter(|v| !v.is_array());
                    structure::tuple(self, value, rest, node.max_items, &here, &mut out)?;
                }
                "additionalProperties" if !value.is_boolean() => {
                    structure::map_values(self, value, &here, &mut out)?;
                }
                "exclusiveMinimum" | "exclusiveMaximum" => node.exclusive(key, value, &mut out),
                "minimum" | "maximum" => bound(key, value, &here, &mut out)?,
                "minLength" | "maxLength" | "minItems" | "maxItems" | "minProperties"
                | "maxProperties" => count(key, value, &here, &mut out)?,
                "format" => node.format(value, &mut out),
                "examples" if !map.contains_key("example") => examples(value, &mut out),
                "description" | "title" | "pattern" | "default" | "example"
                | "propertyOrdering" => {
                    out.map.insert(key.clone(), value.clone());
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
        Ok(node.finish(out))
    }
}

/// How refusals name this provider.
pub(crate) const PROVIDER: &str = "gemini";

/// A refusal of the schema at `here`, naming Gemini as the provider.
fn refuse(here: &str, reason: impl Into<String>) -> crate::values::error::SchemaError {
    crate::schema::walk::error(PROVIDER, here, reason)
}

/// Formats Gemini documents, per type; any other `format` is dropped.
pub(crate) fn format_ok(ty: Option<&str>, format: &str) -> bool {
    matches!(
        (ty, format),
        (Some("string"), "enum" | "date-time")
            | (Some("integer"), "int32" | "int64")
            | (Some("number"), "float" | "double")
    )
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    /// An object whose property `d` is `arrays` arrays deep around a string.
    fn nested(arrays: usize) -> serde_json::Value {
        let mut deep = json!({"type": "string"});
        for _ in 0..arrays {
            deep = json!({"type": "array", "items": deep});
        }
        json!({"type": "object", "properties": {"d": deep}})
    }

    #[test]
    fn the_depth_bound_counts_each_subschema_once() {
        // The root is level 0, `d` level 1, the string at `arrays + 1`.
        assert!(super::lower(&nested(MAX - 1)).is_ok());
        let err = super::lower(&nested(MAX)).unwrap_err();
        assert!(err.reason.contains("deeper than 64 levels"), "{err}");
        let here = format!("/properties/d{}", "/items".repeat(MAX));
        assert_eq!(err.path, here);
    }

    const MAX: usize = super::MAX_DEPTH;
}
