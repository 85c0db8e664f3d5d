//! [`InputSchema`]: a tool's argument schema as written, with a slot per provider form, filled
//! once by the constructors ([`InputSchema::new`] runs every lowering of `forms`, where a schema
//! no provider can take is refused), and the accessors that hand each form out.

use std::borrow::Cow;
use std::fmt;
use std::sync::Arc;

use serde::Serialize;
use serde_json::Value;

use super::forms::{anthropic, anthropic_strict, gemini, openai, openai_strict, strict_nulls};
use super::{handwritten, integers, refs, Form, Forms};
use crate::values::error::SchemaError;

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

impl InputSchema {
    /// Checks `value` and prepares it for every provider, once.
    ///
    /// Read as people hand-write schemas: a root with `properties` but no `type` is an object,
    /// OpenAPI's upper-case type names (`"OBJECT"`, `"STRING"`) are lower-cased for the JSON
    /// Schema providers (Gemini takes them as written), `nullable: true` allows `null` for
    /// every provider, and a root `anyOf` whose branches only list `required` properties
    /// becomes optional properties with the rule ("at least one of ...") in the root's
    /// `description`.
    ///
    /// Refused: a root that is not an object (a `type` other than `object`, or neither `type`
    /// nor `properties`), `properties` that is not an object, a type name JSON Schema does not
    /// have, a `$ref` that resolves nowhere in the schema or points into another document, and
    /// a schema some provider cannot be sent even after lowering: a combinator or `enum` at the
    /// root (`oneOf` and an `anyOf` of shapes for all, plus `enum`/`const`/`not` for OpenAI and
    /// Gemini; a root `allOf` is merged instead), and for Gemini a `false` schema, an `allOf`
    /// whose branches contradict each other, or recursion that inlines to more than 10,000
    /// subschemas. The error names the provider and the JSON Pointer path;
    /// [`SchemaError::for_tool`] adds the tool. Strict mode never refuses: see
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
        let openai = json_form(openai::lower(&spelled.json)?, &spelled.json, as_written);
        let anthropic = json_form(anthropic::lower(&spelled.json)?, &spelled.json, as_written);
        let gemini = match gemini::lower(&spelled.gemini)? {
            Some(lowered) => Some(lowered),
            None if spelled.gemini_as_written => None,
            None => Some(spelled.gemini.into_owned()),
        };
        let strict = openai_strict::strict(openai.as_ref().unwrap_or(&value)).map(Some);
        let (anthropic_strict, anthropic_closest) =
            anthropic_strict::form(anthropic.as_ref().unwrap_or(&value), &value);
        let forms = Forms {
            openai: Ok(openai),
            openai_strict: strict,
            anthropic: Ok(anthropic),
            gemini: Ok(gemini),
            anthropic_strict,
            anthropic_closest,
        };
        Ok(Self::from_forms(value, forms))
    }

    /// The schema of a tool without parameters: `{"type":"object","properties":{}}`.
    ///
    /// ```
    /// let s = toolnexus::InputSchema::empty();
    /// assert_eq!(serde_json::to_string(s.as_value()).unwrap(), r#"{"type":"object","properties":{}}"#);
    /// ```
    pub fn empty() -> Self {
        let value = super::empty_object();
        let strict = openai_strict::strict(&value).map(Some);
        let (anthropic_strict, anthropic_closest) = anthropic_strict::form(&value, &value);
        let forms = Forms {
            openai: Ok(None),
            openai_strict: strict,
            anthropic: Ok(None),
            gemini: Ok(None),
            anthropic_strict,
            anthropic_closest,
        };
        Self::from_forms(value, forms)
    }

    /// The schema of a `#[tool]` whose generated schema was refused: [`InputSchema::empty`]
    /// carrying `error` (see [`InputSchema::error`]), so the generated code never panics, the
    /// adapters leave the tool out and registering it fails with the error.
    pub(crate) fn invalid(error: SchemaError) -> Self {
        Self::empty().with_error(error)
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
        Self::new(super::generated::<T>())
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
    ///
    /// Linear in the size of `args`: each object or array costs at most one look at each
    /// subschema of the schema, whatever the nesting and however many branches of a recursive
    /// schema declare the same properties.
    pub fn strict_nulls_to_absent(&self, args: &mut Value) {
        strict_nulls::nulls_to_absent(self.as_value(), args);
    }

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

/// [`InputSchema::strict_nulls_to_absent`](crate::InputSchema::strict_nulls_to_absent), returning the work it did: how many subschemas it
/// looked at, summed over the objects and arrays of `args`. Not public API: the tests and the
/// fuzz target count it to check that pruning stays linear (a counter, not a clock).
#[doc(hidden)]
pub fn strict_prune_work(schema: &InputSchema, args: &mut Value) -> usize {
    strict_nulls::nulls_to_absent(schema.as_value(), args)
}

impl TryFrom<Value> for InputSchema {
    type Error = SchemaError;
    fn try_from(value: Value) -> Result<Self, SchemaError> {
        Self::new(value)
    }
}

/// A JSON Schema provider's form: `lowered`, or `spelled` when the provider takes that as it is
/// (`None`: the schema as written), with every `$ref` resolvable in it (a target the lowering
/// dropped, such as a merged root `allOf`'s, is moved under `$defs`).
fn json_form(lowered: Option<Value>, spelled: &Value, as_written: bool) -> Option<Value> {
    let mut out = match lowered {
        Some(lowered) => lowered,
        None if as_written => return None,
        None => spelled.clone(),
    };
    refs::relocate(&mut out, spelled, &|root, r| {
        crate::schema::walk::resolve(root, r).is_some()
    });
    Some(out)
}
