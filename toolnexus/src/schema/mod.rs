//! [`InputSchema`]: a tool's argument schema, checked once and prepared once per provider.

use std::borrow::Cow;
use std::fmt;

use serde::Serialize;
use serde_json::{Map, Value};

use crate::{anthropic, gemini, openai, SchemaError};

pub(crate) mod handwritten;
pub(crate) mod refs;
pub(crate) mod walk;

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
///     "the input schema is invalid (at /type): the root must be `\"type\": \"object\"`, \
///      not `\"string\"`; wrap the value in an object property"
/// );
/// # Ok::<(), toolnexus::SchemaError>(())
/// ```
#[derive(Clone, PartialEq)]
pub struct InputSchema {
    value: Value,
    openai: Option<Value>,
    anthropic: Option<Value>,
    gemini: Option<Value>,
    openai_strict: Result<Value, SchemaError>,
    /// Set only by `#[tool]` code whose generated schema could not be used; `Toolkit::add` refuses it.
    error: Option<SchemaError>,
}

impl InputSchema {
    /// Checks `value` and prepares it for every provider (SPEC §4), once.
    ///
    /// Refused: a root that is not a JSON object with `"type": "object"`, `properties` that
    /// is not an object, and a schema some provider cannot be sent even after lowering: a
    /// combinator or `enum` at the root (`anyOf`/`oneOf` for all, plus `enum`/`const`/`not` for
    /// OpenAI and Gemini; a root `allOf` is merged instead), and for Gemini a `false` schema, a
    /// non-local `$ref`, an `allOf` whose branches contradict each other, or recursion that
    /// inlines to more than 10,000 subschemas. The error names the provider and the JSON
    /// Pointer path; [`SchemaError::for_tool`] adds the tool. Strict mode never refuses: see
    /// [`InputSchema::for_openai_strict`].
    ///
    /// ```
    /// use serde_json::json;
    /// use toolnexus::InputSchema;
    ///
    /// let err = InputSchema::new(json!({
    ///     "type": "object",
    ///     "properties": {"never": false},
    /// })).unwrap_err();
    /// assert_eq!(
    ///     err.for_tool("pick").to_string(),
    ///     "the input schema of `pick` cannot be sent to gemini (at /properties/never): \
    ///      `false` (no value is valid) cannot be expressed; remove the property"
    /// );
    /// ```
    pub fn new(value: Value) -> Result<Self, SchemaError> {
        let spelled = handwritten::spell(&value)?;
        refs::check(&value)?;
        let as_written = matches!(spelled.json, Cow::Borrowed(_));
        let openai = json_form(
            openai::lower::lower(&spelled.json)?,
            &spelled.json,
            as_written,
        );
        let anthropic = json_form(
            anthropic::lower::lower(&spelled.json)?,
            &spelled.json,
            as_written,
        );
        let gemini = match gemini::lower::lower(&spelled.gemini)? {
            Some(lowered) => Some(lowered),
            None if spelled.gemini_as_written => None,
            None => Some(spelled.gemini.into_owned()),
        };
        let openai_strict = openai::strict::strict(openai.as_ref().unwrap_or(&value));
        Ok(Self {
            value,
            openai,
            anthropic,
            gemini,
            openai_strict,
            error: None,
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
        let value = Value::Object(root);
        Self {
            openai_strict: openai::strict::strict(&value),
            value,
            openai: None,
            anthropic: None,
            gemini: None,
            error: None,
        }
    }

    /// Not public API: the schema of a `#[tool]` whose generated schema was refused. It renders
    /// as [`InputSchema::empty`] and carries `error`, so registering the tool fails with it
    /// instead of the generated code panicking.
    #[doc(hidden)]
    pub fn invalid(error: SchemaError) -> Self {
        Self {
            error: Some(error),
            ..Self::empty()
        }
    }

    /// Not public API: the error of an [`InputSchema::invalid`] schema.
    #[doc(hidden)]
    pub fn error(&self) -> Option<&SchemaError> {
        self.error.as_ref()
    }

    /// The canonical schema of a Rust type, generated by schemars.
    ///
    /// This is what `#[tool]` uses for its arguments. Canonical means: JSON Schema 2020-12
    /// without `$schema` and without the root `title`, subschemas inlined wherever schemars can
    /// (recursive types keep `$defs`), and a root with `"type": "object"` and `properties`
    /// (also when there are none). `required` appears only when something is required; an
    /// `Option` field is optional and carries no `"default": null`.
    ///
    /// Refused: a type whose schema is not an object (an enum or a number, say); wrap it in a
    /// struct.
    ///
    /// ```
    /// #[derive(schemars::JsonSchema)]
    /// struct Args {
    ///     /// The city to look up.
    ///     city: String,
    ///     days: Option<u8>,
    /// }
    ///
    /// let schema = toolnexus::InputSchema::of::<Args>()?;
    /// assert_eq!(
    ///     serde_json::to_string(schema.as_value())?,
    ///     r#"{"type":"object","properties":{"city":{"type":"string","description":"The city to look up."},"days":{"type":["integer","null"],"format":"uint8","minimum":0,"maximum":255}},"required":["city"]}"#
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn of<T: schemars::JsonSchema>() -> Result<Self, SchemaError> {
        let mut settings = schemars::generate::SchemaSettings::draft2020_12();
        settings.inline_subschemas = true;
        settings.meta_schema = None;
        let schema = settings.into_generator().into_root_schema_for::<T>();
        Self::new(canonical(schema.to_value()))
    }

    /// The schema as written.
    pub fn as_value(&self) -> &Value {
        &self.value
    }

    /// The schema as written, taken out.
    pub fn into_value(self) -> Value {
        self.value
    }

    /// The schema as sent to OpenAI (`function.parameters`): the schema as written with
    /// `$schema` removed, `properties` present, a root `allOf` merged and `"items": {}` on every
    /// array schema without `items`.
    pub fn for_openai(&self) -> &Value {
        self.openai.as_ref().unwrap_or(&self.value)
    }

    /// The schema as sent to Anthropic (`input_schema`): the schema as written with `$schema`
    /// removed, `properties` present and a root `allOf` merged.
    pub fn for_anthropic(&self) -> &Value {
        self.anthropic.as_ref().unwrap_or(&self.value)
    }

    /// The schema as sent to Gemini (`functionDeclarations[].parameters`).
    ///
    /// Gemini takes an OpenAPI 3.0 subset: `$ref`s are inlined (a recursive type is described
    /// three levels deep, deeper levels accept any value), `oneOf` becomes `anyOf`, a nullable
    /// type becomes one type with `"nullable": true`, and what Gemini cannot express (integer
    /// enums, exclusive bounds on numbers, map value types, tuple order, ...) is dropped from
    /// the schema and appended to the `description` as text. No valid argument object becomes
    /// invalid.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolnexus::InputSchema;
    ///
    /// let schema = InputSchema::new(json!({
    ///     "type": "object",
    ///     "properties": {
    ///         "days": {"type": ["integer", "null"], "exclusiveMinimum": 0},
    ///         "unit": {"oneOf": [{"const": "C"}, {"const": "F"}]},
    ///     },
    /// }))?;
    /// assert_eq!(schema.for_gemini(), &json!({
    ///     "type": "object",
    ///     "properties": {
    ///         "days": {"type": "integer", "nullable": true, "minimum": 1},
    ///         "unit": {"type": "string", "enum": ["C", "F"]},
    ///     },
    /// }));
    /// # Ok::<(), toolnexus::SchemaError>(())
    /// ```
    pub fn for_gemini(&self) -> &Value {
        self.gemini.as_ref().unwrap_or(&self.value)
    }

    /// The schema as sent to Gemini as JSON Schema (`functionDeclarations[].parametersJsonSchema`,
    /// see [`to_gemini_json_schema`](crate::to_gemini_json_schema)): the same form Anthropic
    /// gets ([`InputSchema::for_anthropic`]), JSON Schema 2020-12 as written, with `$ref`,
    /// `$defs`, `anyOf`, `oneOf`, `additionalProperties`, tuples and bounds kept.
    pub fn for_gemini_json_schema(&self) -> &Value {
        self.for_anthropic()
    }

    /// The schema for OpenAI strict mode (`"strict": true`), or why this tool cannot be strict.
    ///
    /// Strict mode needs `"additionalProperties": false` on every object and every property in
    /// `required`; an optional property is made nullable instead (`["integer", "null"]`, or an
    /// `anyOf` with `{"type": "null"}`), so a call made under strict mode carries `null` for an
    /// argument the model leaves out: run [`InputSchema::strict_nulls_to_absent`] on it before
    /// deserializing. Computed once, in [`InputSchema::new`].
    ///
    /// Not possible (the error says where and why; the tool is then sent non-strict): an open
    /// map (`HashMap<String, T>`, `additionalProperties` with a schema), a value without a type
    /// (`serde_json::Value`), tuples, `not`, `if`/`then`/`else`, `patternProperties`.
    /// `oneOf` is sent as `anyOf`; `minLength`, `maxLength`, `uniqueItems`, `minProperties` and
    /// `maxProperties` move into the description; `default` and `format`s strict mode does not
    /// list are dropped.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolnexus::InputSchema;
    ///
    /// let schema = InputSchema::new(json!({
    ///     "type": "object",
    ///     "properties": {"city": {"type": "string"}, "days": {"type": "integer"}},
    ///     "required": ["city"],
    /// }))?;
    /// assert_eq!(schema.for_openai_strict().unwrap(), &json!({
    ///     "type": "object",
    ///     "properties": {"city": {"type": "string"}, "days": {"type": ["integer", "null"]}},
    ///     "required": ["city", "days"],
    ///     "additionalProperties": false,
    /// }));
    ///
    /// let map = InputSchema::new(json!({
    ///     "type": "object",
    ///     "properties": {"tags": {"type": "object", "additionalProperties": {"type": "string"}}},
    /// }))?;
    /// assert_eq!(
    ///     map.for_openai_strict().unwrap_err().to_string(),
    ///     "the input schema cannot be sent to openai strict mode (at \
    ///      /properties/tags/additionalProperties): an object with free-form keys (a map) cannot \
    ///      be strict; every key must be listed"
    /// );
    /// # Ok::<(), toolnexus::SchemaError>(())
    /// ```
    pub fn for_openai_strict(&self) -> Result<&Value, &SchemaError> {
        self.openai_strict.as_ref()
    }

    /// Turns every `null` the schema as written does not accept into an absent key, throughout
    /// `args` (nested objects and arrays of objects included).
    ///
    /// Under OpenAI strict mode an optional argument is required and nullable, so the model
    /// sends `"days": null` where it means "not given". After this call, an `Option<T>` field
    /// gets `None` either way (its schema accepts `null`, so its `null` stays), and a
    /// `#[serde(default)]` field gets its default instead of failing on `null`. Keys the
    /// schema does not describe, and values that are not objects or arrays, are left alone.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolnexus::InputSchema;
    ///
    /// let schema = InputSchema::new(json!({
    ///     "type": "object",
    ///     "properties": {
    ///         "city": {"type": "string"},
    ///         "days": {"type": "integer", "default": 1},
    ///         "note": {"type": ["string", "null"]},
    ///     },
    ///     "required": ["city"],
    /// }))?;
    /// let mut args = json!({"city": "Oslo", "days": null, "note": null});
    /// schema.strict_nulls_to_absent(&mut args);
    /// assert_eq!(args, json!({"city": "Oslo", "note": null}));
    /// # Ok::<(), toolnexus::SchemaError>(())
    /// ```
    pub fn strict_nulls_to_absent(&self, args: &mut Value) {
        openai::strict::nulls_to_absent(&self.value, args);
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

/// A JSON Schema provider's form: `lowered`, or `spelled` when the provider takes that as it is
/// (`None`: the schema as written), with every `$ref` resolvable in it (a target the lowering
/// dropped, such as a merged root `allOf`, is moved under `$defs`).
fn json_form(lowered: Option<Value>, spelled: &Value, as_written: bool) -> Option<Value> {
    let mut out = match lowered {
        Some(lowered) => lowered,
        None if as_written => return None,
        None => spelled.clone(),
    };
    refs::relocate(&mut out, spelled, &|root, r| {
        refs::resolve(root, r).is_some()
    });
    Some(out)
}

/// Puts a generated root in canonical form (see [`InputSchema::of`]).
fn canonical(value: Value) -> Value {
    let Value::Object(mut root) = value else {
        return value;
    };
    root.shift_remove("$schema");
    root.shift_remove("title");
    // schemars writes `additionalProperties` (from `deny_unknown_fields`) before `properties`;
    // a hand-written schema has it last, after `required`.
    if let Some(extra) = root.shift_remove("additionalProperties") {
        root.insert("additionalProperties".into(), extra);
    }
    if root.get("type").and_then(Value::as_str) != Some("object") || root.contains_key("properties")
    {
        return Value::Object(root);
    }
    // No fields: `properties` still goes right after `type`, where a hand-written schema has it.
    let mut out = Map::with_capacity(root.len() + 1);
    for (key, value) in root {
        let is_type = key == "type";
        out.insert(key, value);
        if is_type {
            out.insert("properties".into(), Value::Object(Map::new()));
        }
    }
    Value::Object(out)
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
