//! [`InputSchema`]: a tool's argument schema, checked once and prepared once per provider.

use std::fmt;

use serde::Serialize;
use serde_json::{Map, Value};

use crate::{anthropic, gemini, openai, SchemaError};

/// A tool's input schema: a JSON Schema whose root is an object.
///
/// Built once per tool. [`InputSchema::new`] checks the root and prepares the form each provider
/// accepts, so rendering a request body never recomputes a schema. The schema as written is
/// kept byte for byte (keys stay in the order they were written) and is what each provider gets
/// whenever it already meets that provider's rules.
///
/// ```
/// use serde_json::json;
/// use toolnexus::InputSchema;
///
/// let schema = InputSchema::new(json!({
///     "type": "object",
///     "properties": {"city": {"type": "string"}},
///     "required": ["city"],
/// }))?;
/// assert_eq!(schema.as_value()["required"][0], "city");
///
/// let err = InputSchema::new(json!({"type": "string"})).unwrap_err();
/// assert_eq!(
///     err.to_string(),
///     "the input schema is invalid (at /type): the root must be `\"type\": \"object\"`; \
///      wrap the value in an object property"
/// );
/// # Ok::<(), toolnexus::SchemaError>(())
/// ```
#[derive(Clone, PartialEq)]
pub struct InputSchema {
    value: Value,
    openai: Option<Value>,
    anthropic: Option<Value>,
    gemini: Option<Value>,
}

impl InputSchema {
    /// Checks `value` and prepares it for every provider.
    ///
    /// Refused: a root that is not a JSON object with `"type": "object"`, and `properties` that
    /// is not an object.
    pub fn new(value: Value) -> Result<Self, SchemaError> {
        check_root(&value)?;
        let openai = openai::lower::lower(&value)?;
        let anthropic = anthropic::lower::lower(&value)?;
        let gemini = gemini::lower::lower(&value)?;
        Ok(Self {
            value,
            openai,
            anthropic,
            gemini,
        })
    }

    /// The schema of a tool without parameters: `{"type":"object","properties":{}}`.
    ///
    /// ```
    /// let s = toolnexus::InputSchema::empty();
    /// assert_eq!(serde_json::to_string(s.as_value()).unwrap(), r#"{"type":"object","properties":{}}"#);
    /// ```
    pub fn empty() -> Self {
        let mut root = Map::new();
        root.insert("type".into(), Value::from("object"));
        root.insert("properties".into(), Value::Object(Map::new()));
        Self {
            value: Value::Object(root),
            openai: None,
            anthropic: None,
            gemini: None,
        }
    }

    /// The schema as written.
    pub fn as_value(&self) -> &Value {
        &self.value
    }

    /// The schema as written, taken out.
    pub fn into_value(self) -> Value {
        self.value
    }

    /// The schema as sent to OpenAI (`function.parameters`).
    pub fn for_openai(&self) -> &Value {
        self.openai.as_ref().unwrap_or(&self.value)
    }

    /// The schema as sent to Anthropic (`input_schema`).
    pub fn for_anthropic(&self) -> &Value {
        self.anthropic.as_ref().unwrap_or(&self.value)
    }

    /// The schema as sent to Gemini (`functionDeclarations[].parameters`).
    pub fn for_gemini(&self) -> &Value {
        self.gemini.as_ref().unwrap_or(&self.value)
    }
}

impl fmt::Debug for InputSchema {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.value, f)
    }
}

impl Serialize for InputSchema {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.value.serialize(serializer)
    }
}

impl TryFrom<Value> for InputSchema {
    type Error = SchemaError;
    fn try_from(value: Value) -> Result<Self, SchemaError> {
        Self::new(value)
    }
}

fn check_root(value: &Value) -> Result<(), SchemaError> {
    let Some(root) = value.as_object() else {
        return Err(SchemaError::new(
            "",
            format!(
                "the root must be a JSON object with `\"type\": \"object\"`, not {}",
                kind(value)
            ),
        ));
    };
    if root.get("type").and_then(Value::as_str) != Some("object") {
        return Err(SchemaError::new(
            "/type",
            "the root must be `\"type\": \"object\"`; wrap the value in an object property",
        ));
    }
    if let Some(props) = root.get("properties") {
        if !props.is_object() {
            return Err(SchemaError::new(
                "/properties",
                "`properties` must be an object",
            ));
        }
    }
    Ok(())
}

/// `a string`, `an array`, ...: how a JSON value is named in messages.
pub(crate) fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}
