//! Lowering a schema to what Gemini accepts (SPEC §4).

use serde_json::Value;

use crate::SchemaError;

/// The schema as Gemini must receive it, or `None` when the schema as written already fits.
pub(crate) fn lower(_schema: &Value) -> Result<Option<Value>, SchemaError> {
    Ok(None)
}
