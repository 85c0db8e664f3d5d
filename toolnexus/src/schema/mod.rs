//! Schemas: [`InputSchema`] (`input`), a tool's argument schema as written with each provider's
//! form, made once by its constructors; the forms themselves, one lowering per provider form
//! (`forms`); and the schema walk every lowering shares ([`walk`], [`merge`], [`refs`]). Knows
//! no provider's wire: the providers take the forms made here.

use serde_json::{Map, Value};

use crate::values::error::SchemaError;

mod any_of;
pub(crate) mod forms;
pub(crate) mod handwritten;
mod input;
mod integers;
pub(crate) mod merge;
mod nullable;
mod pointer;
pub(crate) mod refs;
pub(crate) mod walk;

pub use input::{strict_prune_work, InputSchema};

/// How a refusal names the providers when none of them can take the schema.
pub(crate) const ANY_PROVIDER: &str = "any provider";

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
