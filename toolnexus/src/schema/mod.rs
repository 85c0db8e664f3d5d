//! [`InputSchema`]: a tool's argument schema as written, with a slot per provider for the form
//! that provider gets, and the accessors that hand each form out. The slots are filled once, by
//! the constructors, which run every provider's lowering and so live above the providers, in
//! `dispatch::forms` (the one type whose inherent methods are in two files). The schema walk
//! every lowering shares is in [`walk`] and [`merge`]. Knows no provider.

use std::fmt;
use std::sync::Arc;

use serde::Serialize;
use serde_json::{Map, Value};

use crate::values::error::SchemaError;

mod any_of;
pub(crate) mod handwritten;
mod integers;
pub(crate) mod merge;
mod nullable;
mod pointer;
pub(crate) mod refs;
pub(crate) mod walk;

/// How a refusal names the providers when none of them can take the schema.
pub(crate) const ANY_PROVIDER: &str = "any provider";

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
    /// Each provider's form (made in `providers`), boxed so a schema stays small.
    forms: Box<Forms>,
    /// Where the schema places integers, for [`InputSchema::whole_floats_to_integers`];
    /// `None` when it has none.
    integers: Option<Arc<integers::Integers>>,
    /// Set only for a `#[tool]` whose generated schema could not be used: the adapters leave the
    /// tool out and `Toolkit::add` refuses it.
    error: Option<SchemaError>,
}

/// One provider's form of a schema: `Ok(None)` when the schema as written fits that provider,
/// `Err` when it cannot have one (optional modes only); see [`InputSchema::form`].
pub(crate) type Form = Result<Option<Value>, SchemaError>;

/// The form of a schema for each provider, by name.
#[derive(Clone, PartialEq)]
pub(crate) struct Forms {
    /// OpenAI's (Chat Completions and the Responses API, non-strict).
    pub(crate) openai: Form,
    /// OpenAI strict mode's.
    pub(crate) openai_strict: Form,
    /// Anthropic's (and Bedrock Converse's).
    pub(crate) anthropic: Form,
    /// Gemini's `parameters` (the OpenAPI subset).
    pub(crate) gemini: Form,
    /// Anthropic strict mode's (structured outputs, strict tools): `Err` where it would refuse
    /// an answer the schema allows.
    pub(crate) anthropic_strict: Form,
    /// When `anthropic_strict` is `Err`: the strict form all the same, for structured outputs
    /// (which have no other form).
    pub(crate) anthropic_closest: Option<Value>,
}

impl InputSchema {
    /// A schema as written (already checked) with its providers' forms.
    pub(crate) fn from_forms(value: Value, forms: Forms) -> Self {
        Self {
            integers: integers::Integers::of(&value).map(Arc::new),
            value,
            forms: Box::new(forms),
            error: None,
        }
    }

    /// Turns every whole-number float of `args` (`2.0`, as Gemini sends every number) that the
    /// schema places an integer at (`"type": "integer"`, `["integer", "null"]`, through
    /// `properties`, `items`, `$ref` or a choice with an integer branch) into that integer;
    /// `2.5`, and a float where the schema says `number` or nothing, stay as sent. For tools
    /// that read a hand-written schema's arguments as a [`Value`] ([`NativeTool`](crate::NativeTool),
    /// MCP tools); free for a schema without integers (prepared once, with the schema).
    pub(crate) fn whole_floats_to_integers(&self, args: &mut Value) {
        if let Some(integers) = &self.integers {
            integers.apply(args);
        }
    }

    /// The form `pick` chooses: the lowered schema, the schema as written when it fits, or why
    /// there is none.
    fn form(&self, pick: fn(&Forms) -> &Form) -> Result<&Value, &SchemaError> {
        match pick(&self.forms) {
            Ok(Some(lowered)) => Ok(lowered),
            Err(error) => Err(error),
            Ok(None) => Ok(&self.value),
        }
    }

    /// The same schema carrying `error` (see [`InputSchema::error`]).
    pub(crate) fn with_error(mut self, error: SchemaError) -> Self {
        self.error = Some(error);
        self
    }

    /// Why this schema cannot be used, if it cannot: only the schema of a `#[tool]` whose
    /// generated schema was refused (say a recursive type too large to inline for Gemini) has
    /// an error. Such a schema reads as `{"type":"object","properties":{}}` but is never sent:
    /// the adapters ([`to_openai`](crate::to_openai) and the others) leave its tool out, and
    /// [`Toolkit::add`](crate::Toolkit::add) refuses it with this error. A schema from
    /// [`InputSchema::new`] or [`InputSchema::of`] never has one (they return the error instead).
    #[must_use]
    pub fn error(&self) -> Option<&SchemaError> {
        self.error.as_ref()
    }

    /// The schema as written.
    #[must_use]
    pub fn as_value(&self) -> &Value {
        &self.value
    }

    /// The schema as written, taken out.
    #[must_use]
    pub fn into_value(self) -> Value {
        self.value
    }

    /// The schema as sent to OpenAI (`function.parameters`): the schema as written with
    /// `$schema` removed, `properties` present, a root `allOf` merged and `"items": {}` on every
    /// array schema without `items`.
    #[must_use]
    pub fn for_openai(&self) -> &Value {
        self.form(|f| &f.openai).unwrap_or(self.as_value())
    }

    /// The schema as sent to Anthropic (`input_schema`): the schema as written with `$schema`
    /// removed, `properties` present and a root `allOf` merged.
    #[must_use]
    pub fn for_anthropic(&self) -> &Value {
        self.form(|f| &f.anthropic).unwrap_or(self.as_value())
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
    #[must_use]
    pub fn for_gemini(&self) -> &Value {
        self.form(|f| &f.gemini).unwrap_or(self.as_value())
    }

    /// The schema as sent to Gemini as JSON Schema (`functionDeclarations[].parametersJsonSchema`,
    /// see [`ToolsOptions::with_json_schema`](crate::ToolsOptions::with_json_schema)): the form Anthropic gets
    /// ([`InputSchema::for_anthropic`]), JSON Schema 2020-12 as written, with `$ref`, `$defs`,
    /// `anyOf`, `oneOf`, `additionalProperties`, tuples and bounds kept.
    #[must_use]
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
    /// (`serde_json::Value`), tuples, `not`, `if`/`then`/`else`, `patternProperties`, and a
    /// schema past one of OpenAI's documented limits: more than 10 levels of nesting, 5,000
    /// object properties, 1,000 enum values, 120,000 characters of property names, definition
    /// names, enum and const values, or 15,000 characters in one enum of more than 250 values.
    /// `oneOf` is sent as `anyOf`; `minLength`, `maxLength`, `uniqueItems`, `minProperties` and
    /// `maxProperties` move into the description; `default` and `format`s strict mode does not
    /// list are dropped. A `$ref` into a part strict mode does not send (OpenAPI's
    /// `#/components/schemas/...`) has its target moved under `$defs`, so every reference
    /// resolves in what is sent.
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
        self.form(|f| &f.openai_strict)
    }

    /// The schema for Anthropic strict mode: structured outputs (`output_config.format`,
    /// Bedrock's `outputConfig.textFormat`) and strict tools (`"strict": true`,
    /// [`ToolsOptions::with_strict`](crate::ToolsOptions::with_strict)), or why it cannot be strict.
    ///
    /// Exactly the schema Anthropic's own Python SDK sends for it: a fixed point of the SDK's
    /// `transform_schema`. Only the keywords the API supports stay (`type`, `anyOf` (`oneOf`
    /// is sent as `anyOf`), `allOf`, `enum`, `const`, `$ref`, `$defs`, `description`, `title`,
    /// `properties`, `required`, `items`, ten string `format`s and a `minItems` of 0 or 1); every
    /// object gets `"additionalProperties": false`; every other keyword (`minimum`, `maxLength`,
    /// `pattern`, a `format` such as `uint8`, ...) is written into the `description` as the SDK
    /// writes it: `{minimum: 0, maximum: 255}`, after the description and a blank line. A type
    /// list (`["integer", "null"]`, which the SDK cannot read) becomes an `anyOf` with a
    /// `{"type": "null"}` branch. The model is then held to the structure only; a typed
    /// answer's [`Output::parse`](crate::Output::parse) still enforces what `T` enforces.
    ///
    /// Not possible (the error says where; a strict tool is then sent as
    /// [`to_anthropic`](crate::to_anthropic) sends it, without `strict`): an open map
    /// (`HashMap<String, T>`), an object without `properties`, a value of any type
    /// (`serde_json::Value`), an `allOf` of objects that cannot be merged, and a recursive
    /// schema (a `$ref` back to itself), which Anthropic documents as not supported.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolnexus::InputSchema;
    ///
    /// #[derive(schemars::JsonSchema)]
    /// struct Args {
    ///     /// Days ahead.
    ///     days: Option<u8>,
    /// }
    /// let schema = InputSchema::of::<Args>()?;
    /// assert_eq!(schema.for_anthropic_strict().unwrap(), &json!({
    ///     "type": "object",
    ///     "properties": {"days": {"anyOf": [
    ///         {"type": "integer", "description": "{format: uint8, minimum: 0, maximum: 255}"},
    ///         {"type": "null"}], "description": "Days ahead."}},
    ///     "additionalProperties": false,
    /// }));
    /// # Ok::<(), toolnexus::SchemaError>(())
    /// ```
    pub fn for_anthropic_strict(&self) -> Result<&Value, &SchemaError> {
        self.form(|f| &f.anthropic_strict)
    }

    /// The schema Anthropic's structured outputs get: [`InputSchema::for_anthropic_strict`],
    /// or where that is refused, the same transform all the same (a map as an empty object).
    pub(crate) fn for_anthropic_answer(&self) -> &Value {
        match (self.for_anthropic_strict(), &self.forms.anthropic_closest) {
            (Ok(strict), _) => strict,
            (Err(_), Some(closest)) => closest,
            (Err(_), None) => self.for_anthropic(),
        }
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

/// `{"type":"object","properties":{}}`: the schema of a tool without parameters.
pub(crate) fn empty_object() -> Value {
    let mut root = Map::new();
    root.insert("type".into(), Value::from("object"));
    root.insert("properties".into(), Value::Object(Map::new()));
    Value::Object(root)
}

/// The canonical schema of `T` as schemars generates it (see `InputSchema::of`), unchecked.
pub(crate) fn generated<T: schemars::JsonSchema>() -> Value {
    from_root(generator().into_root_schema_for::<T>())
}

/// The schemars generator of [`generated`]: draft 2020-12, subschemas inline.
pub(crate) fn generator() -> schemars::SchemaGenerator {
    let mut settings = schemars::generate::SchemaSettings::draft2020_12();
    settings.inline_subschemas = true;
    settings.meta_schema = None;
    settings.into_generator()
}

/// [`generated`] past its one generic step, so each type compiles only that step.
pub(crate) fn from_root(schema: schemars::Schema) -> Value {
    canonical(schema.to_value())
}

/// Puts a generated root in canonical form (see [`InputSchema::of`]).
pub(crate) fn canonical(value: Value) -> Value {
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
