//! The providers side by side: [`InputSchema`]'s constructors, which run each provider's
//! lowering once ([`InputSchema::new`]), where a schema that any provider cannot take is
//! refused, and [`InputSchema::strict_nulls_to_absent`], which runs OpenAI's. Each form is a
//! named field of `Forms`, handed out by the accessors beside the type in `schema`; a provider
//! that takes one of them (Bedrock takes Anthropic's) adds nothing here. These methods are here,
//! not beside the type, because `schema` is below the providers whose code they run: the one
//! type whose inherent methods are in two files (ARCHITECTURE.md's one seam).

use std::borrow::Cow;

use serde_json::Value;

use crate::schema::{self, handwritten, refs, Forms, InputSchema};
use crate::values::error::SchemaError;
use crate::{anthropic, gemini, openai};

/// The constructors that prepare a schema's forms for the providers.
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
        let strict = openai::strict::strict(openai.as_ref().unwrap_or(&value)).map(Some);
        let (anthropic_strict, anthropic_closest) =
            anthropic::structured::form(anthropic.as_ref().unwrap_or(&value), &value);
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
        let value = schema::empty_object();
        let strict = openai::strict::strict(&value).map(Some);
        let (anthropic_strict, anthropic_closest) = anthropic::structured::form(&value, &value);
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
        Self::new(schema::generated::<T>())
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
        openai::nulls::nulls_to_absent(self.as_value(), args);
    }
}

/// [`InputSchema::strict_nulls_to_absent`], returning the work it did: how many subschemas it
/// looked at, summed over the objects and arrays of `args`. Not public API: the tests and the
/// fuzz target count it to check that pruning stays linear (a counter, not a clock).
#[doc(hidden)]
pub fn strict_prune_work(schema: &InputSchema, args: &mut Value) -> usize {
    openai::nulls::nulls_to_absent(schema.as_value(), args)
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
