//! Output schemas for generated tools: a `#[tool]` whose return type is [`Json<T>`] (or a
//! `Result` of one) with `T: Serialize + JsonSchema` gets `Tool::output_schema()` from `T`'s
//! schema, and its result carries the value as `metadata.structuredContent` next to the JSON
//! text. Resolved through the same autoref probes as the return conversion (see the parent
//! module): any other return type has no output schema and converts as before.

use std::fmt::Display;
use std::sync::OnceLock;

use serde::Serialize;
use serde_json::{json, Value};

use super::Probe;
use crate::values::result::{error_text, Json, ToolResult};

/// The output schema of `T` when its root is an object (what MCP's `outputSchema` must be).
fn object_schema(schema: schemars::Schema) -> Option<Value> {
    let value = crate::schema::from_root(schema);
    (value.get("type") == Some(&Value::String("object".into()))).then_some(value)
}

/// The schema of `T`, generated as input schemas are (subschemas inlined).
#[must_use]
pub fn output_schema_of<T: schemars::JsonSchema>() -> Option<Value> {
    object_schema(crate::schema::generator().into_root_schema_for::<T>())
}

/// A generated tool's output schema, computed on first use.
pub fn output_once(
    cell: &'static OnceLock<Option<Value>>,
    make: fn() -> Option<Value>,
) -> Option<&'static Value> {
    cell.get_or_init(make).as_ref()
}

/// Priority 1: `Json<T>` with a schema.
pub trait OutputViaJson {
    /// How to make the output schema.
    fn output_schema(&self) -> fn() -> Option<Value>;
}
impl<T: schemars::JsonSchema> OutputViaJson for &&Probe<Json<T>> {
    fn output_schema(&self) -> fn() -> Option<Value> {
        output_schema_of::<T>
    }
}

/// Priority 2: `Result<Json<T>, E>` with a schema.
pub trait OutputViaResult {
    /// How to make the output schema.
    fn output_schema(&self) -> fn() -> Option<Value>;
}
impl<T: schemars::JsonSchema, E> OutputViaResult for &Probe<Result<Json<T>, E>> {
    fn output_schema(&self) -> fn() -> Option<Value> {
        output_schema_of::<T>
    }
}

/// Otherwise: no output schema.
pub trait OutputNone {
    /// How to make the output schema.
    fn output_schema(&self) -> fn() -> Option<Value>;
}
impl<T> OutputNone for Probe<T> {
    fn output_schema(&self) -> fn() -> Option<Value> {
        || None
    }
}

/// Priority 0 of the return conversion: a `Json<T>` (or `Result` of one) whose `T` has a
/// schema converts with its structured value kept.
pub trait ViaStructured {
    /// The conversion to use.
    fn tool_result_kind(&self) -> StructuredTag {
        StructuredTag
    }
}
impl<T: Serialize + schemars::JsonSchema> ViaStructured for &&&Probe<Json<T>> {}
impl<T: Serialize + schemars::JsonSchema, E: Display> ViaStructured
    for &&&Probe<Result<Json<T>, E>>
{
}

/// Converts a `Json<T>` or `Result<Json<T>, E>`: the JSON text as the output and, when it is an
/// object, the value as `metadata.structuredContent`.
#[derive(Debug)]
pub struct StructuredTag;
impl StructuredTag {
    /// The result of `value`.
    pub fn convert<R: IntoStructured>(self, value: R) -> ToolResult {
        value.into_structured()
    }
}

/// What [`StructuredTag`] converts.
pub trait IntoStructured {
    /// The result, with its structured value.
    fn into_structured(self) -> ToolResult;
}
impl<T: Serialize> IntoStructured for Json<T> {
    fn into_structured(self) -> ToolResult {
        structured(serde_json::to_value(&self.0))
    }
}
impl<T: Serialize, E: Display> IntoStructured for Result<Json<T>, E> {
    fn into_structured(self) -> ToolResult {
        match self {
            Ok(value) => value.into_structured(),
            Err(error) => ToolResult::error(error_text(&error)),
        }
    }
}

/// [`IntoStructured`] past its one generic step.
fn structured(value: Result<Value, serde_json::Error>) -> ToolResult {
    match value {
        Ok(value) => {
            let result = ToolResult::ok(value.to_string());
            if value.is_object() {
                result.with_metadata(json!({ "structuredContent": value }))
            } else {
                result
            }
        }
        Err(error) => ToolResult::error(format!(
            "the tool's output could not be encoded as JSON: {error}"
        )),
    }
}
