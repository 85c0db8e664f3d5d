//! Lowering a schema to what OpenAI accepts.
//!
//! OpenAI (non-strict) takes JSON Schema nearly as written. It refuses a root that is not one
//! plain object (`anyOf`, `oneOf`, `allOf`, `enum`, `const` or `not` at the top) and arrays
//! without `items`. So: `$schema` goes, `properties` is added when missing, a root `allOf` is
//! merged, the other root combinators are refused, older drafts' tuple and exclusive-bound
//! spellings are rewritten the 2020-12 way (the dialect a schema without `$schema` is read in),
//! and `"items": {}` (which accepts exactly what a missing `items` accepts) is added to every
//! array schema without one.

use serde_json::{Map, Value};

use crate::schema::merge;
use crate::schema::walk::{self, MAX_DEPTH};
use crate::values::error::SchemaError;

const PROVIDER: &str = "openai";

/// The schema as OpenAI must receive it, or `None` when the schema as written already fits.
pub(crate) fn lower(schema: &Value) -> Result<Option<Value>, SchemaError> {
    let mut out = walk::common_root(schema);
    merge::merge_root_all_of(&mut out, PROVIDER)?;
    walk::refuse_at_root(&out, PROVIDER, &["anyOf", "oneOf", "enum", "const", "not"])?;
    walk::to_2020_12(&mut out, PROVIDER, "", 0)?;
    add_items(&mut out, "", 0)?;
    Ok((out != *schema).then_some(out))
}

/// Adds `"items": {}` to every array schema that has none.
fn add_items(schema: &mut Value, path: &str, depth: usize) -> Result<(), SchemaError> {
    if depth > MAX_DEPTH {
        return Err(walk::error(
            PROVIDER,
            path,
            format!("the schema nests deeper than {MAX_DEPTH} levels"),
        ));
    }
    let Value::Object(map) = schema else {
        return Ok(());
    };
    let is_array = walk::types(map).is_some_and(|t| t.contains(&"array"));
    if is_array && !map.contains_key("items") {
        map.insert("items".into(), Value::Object(Map::new()));
    }
    walk::each_child_mut(map, path, &mut |sub, here| add_items(sub, here, depth + 1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_fitting_schema_is_left_alone() {
        let s = json!({"type": "object", "properties": {"a": {"type": "array", "items": {"type": "integer"}}}});
        assert_eq!(lower(&s).unwrap(), None);
    }

    #[test]
    fn arrays_get_items_and_schema_goes() {
        let s = json!({"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
            "properties": {"a": {"type": ["array", "null"]}, "t": {"type": "array", "prefixItems": [{"type": "integer"}]}}});
        assert_eq!(
            lower(&s).unwrap().unwrap(),
            json!({"type": "object", "properties": {"a": {"type": ["array", "null"], "items": {}},
                "t": {"type": "array", "prefixItems": [{"type": "integer"}], "items": {}}}})
        );
    }

    #[test]
    fn root_combinators_are_refused_with_their_path() {
        let s = json!({"type": "object", "oneOf": [{"properties": {"a": {"type": "string"}}}]});
        assert_eq!(
            lower(&s).unwrap_err().to_string(),
            "the input schema cannot be sent to openai (at /oneOf): `oneOf` is not allowed at the \
             root; the arguments must be one object with `properties` (an enum or a choice of \
             shapes as the whole argument object cannot be expressed: wrap it in a property)"
        );
    }
}
