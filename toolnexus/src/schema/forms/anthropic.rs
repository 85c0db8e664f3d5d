//! Lowering a schema to what Anthropic accepts.
//!
//! Anthropic takes JSON Schema 2020-12 with a root that is one plain object: `$schema` goes,
//! `properties` is added when missing, a root `allOf` is merged, and a root `anyOf` or `oneOf`
//! is refused. Older drafts' spellings that 2020-12 reads differently are rewritten to their
//! 2020-12 equivalents (`$schema` is gone, so 2020-12 is how it is read): a list-valued `items` (draft 7 tuples) becomes `prefixItems` (and
//! `additionalItems` becomes `items`), and draft 4's boolean `exclusiveMinimum`/`exclusiveMaximum`
//! next to `minimum`/`maximum` become numeric bounds. Nothing else changes.

use serde_json::Value;

use crate::schema::{merge, walk};
use crate::values::error::SchemaError;

const PROVIDER: &str = "anthropic";

/// The schema as Anthropic must receive it, or `None` when the schema as written already fits.
pub(crate) fn lower(schema: &Value) -> Result<Option<Value>, SchemaError> {
    let mut out = walk::common_root(schema);
    merge::merge_root_all_of(&mut out, PROVIDER)?;
    walk::refuse_at_root(&out, PROVIDER, &["anyOf", "oneOf"])?;
    walk::to_2020_12(&mut out, PROVIDER, "", 0)?;
    Ok((out != *schema).then_some(out))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn fitting_schema_unchanged_and_root_fixed() {
        let s = json!({"type": "object", "properties": {}, "additionalProperties": false});
        assert_eq!(lower(&s).unwrap(), None);
        let s = json!({"$schema": "x", "type": "object", "allOf": [{"properties": {"a": {"type": "string"}}, "required": ["a"]}]});
        assert_eq!(
            lower(&s).unwrap().unwrap(),
            json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]})
        );
        let s = json!({"type": "object", "anyOf": [{"required": ["a"]}, {"required": ["b"]}]});
        assert_eq!(lower(&s).unwrap_err().path, "/anyOf");
    }

    #[test]
    fn older_drafts_are_spelled_the_2020_12_way() {
        let s = json!({"type": "object", "properties": {
            "t": {"type": "array", "items": [{"type": "integer"}, {"type": "string"}], "additionalItems": false},
            "n": {"type": "number", "minimum": 0, "exclusiveMinimum": true, "maximum": 9, "exclusiveMaximum": false}
        }});
        assert_eq!(
            lower(&s).unwrap().unwrap(),
            json!({"type": "object", "properties": {
                "t": {"type": "array", "prefixItems": [{"type": "integer"}, {"type": "string"}], "items": false},
                "n": {"type": "number", "exclusiveMinimum": 0, "maximum": 9}
            }})
        );
    }
}
