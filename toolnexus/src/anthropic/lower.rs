//! Lowering a schema to what Anthropic accepts (SPEC §4).
//!
//! Anthropic takes JSON Schema 2020-12 with a root that is one plain object: `$schema` goes,
//! `properties` is added when missing, a root `allOf` is merged, and a root `anyOf` or `oneOf`
//! is refused. Nothing below the root changes.

use serde_json::Value;

use crate::schema::walk;
use crate::SchemaError;

const PROVIDER: &str = "anthropic";

/// The schema as Anthropic must receive it, or `None` when the schema as written already fits.
pub(crate) fn lower(schema: &Value) -> Result<Option<Value>, SchemaError> {
    let mut out = walk::common_root(schema);
    walk::merge_root_all_of(&mut out, PROVIDER)?;
    walk::refuse_at_root(&out, PROVIDER, &["anyOf", "oneOf"])?;
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
}
