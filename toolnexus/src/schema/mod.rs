//! [`InputSchema`]: a tool's argument schema as written, with a slot per provider for the form
//! that provider gets (filled once, by the constructors in `providers`); the schema walk every
//! lowering shares is in [`walk`] and [`merge`]. Knows no provider.

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
    pub(crate) fn form(&self, pick: fn(&Forms) -> &Form) -> Result<&Value, &SchemaError> {
        match pick(&self.forms) {
            Ok(Some(lowered)) => Ok(lowered),
            Err(error) => Err(error),
            Ok(None) => Ok(&self.value),
        }
    }

    /// Each provider's form, for the accessors in `dispatch::forms`.
    pub(crate) fn forms_ref(&self) -> &Forms {
        &self.forms
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
    pub fn error(&self) -> Option<&SchemaError> {
        self.error.as_ref()
    }

    /// The schema as written.
    pub fn as_value(&self) -> &Value {
        &self.value
    }

    /// The schema as written, taken out.
    pub fn into_value(self) -> Value {
        self.value
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
