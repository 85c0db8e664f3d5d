//! A model's tool call as the provider sent it: [`ToolCall`] and its [`Arguments`].

use serde_json::Value;

/// One tool call a model asked for, as the provider sent it.
///
/// `arguments` are kept as received: JSON text for OpenAI, an object for Anthropic and Gemini.
/// They are only checked when the call is executed, so a call with bad arguments still gets
/// its (error) result.
///
/// ```
/// use toolnexus::{Arguments, ToolCall};
///
/// let call = ToolCall::new("call_abc123", "get_weather", Arguments::Text(r#"{"city":"Paris"}"#.into()));
/// assert_eq!(call.id.as_deref(), Some("call_abc123"));
/// assert_eq!(call.name, "get_weather");
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct ToolCall {
    /// The provider's id for the call (`call_...`, `toolu_...`). Every dialect sends one except
    /// Gemini, where it is optional: without one, a result is matched to its call by position.
    pub id: Option<String>,
    /// The tool the model wants to run.
    pub name: String,
    /// The arguments, as received.
    pub arguments: Arguments,
}

impl ToolCall {
    /// A call with an id.
    pub fn new(id: impl Into<String>, name: impl Into<String>, arguments: Arguments) -> Self {
        Self {
            id: Some(id.into()),
            name: name.into(),
            arguments,
        }
    }
}

/// A call's arguments, as the provider sent them.
///
/// Whatever the form, the same rules apply when the call runs: absent, `null`, `""` or
/// whitespace mean `{}`; text that is not JSON, or JSON that is not an object, gives an error
/// result and the tool does not run.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum Arguments {
    /// No arguments were sent (Gemini may leave `args` out): the tool gets `{}`.
    #[default]
    Absent,
    /// JSON text, as OpenAI sends it. Executed through [`Tool::execute_json`](crate::Tool::execute_json),
    /// so a typed tool decodes it without building a [`Value`] first.
    Text(String),
    /// A JSON value, as Anthropic and Gemini send it. Executed through
    /// [`Tool::execute`](crate::Tool::execute).
    Value(Value),
}

impl Arguments {
    /// Arguments from a JSON field that may be absent: text stays text, `null` or a missing field
    /// is [`Arguments::Absent`], anything else is kept as a value (and refused when the call runs
    /// unless it is an object).
    pub(crate) fn from_field(field: Option<&Value>) -> Self {
        match field {
            None | Some(Value::Null) => Arguments::Absent,
            Some(Value::String(text)) => Arguments::Text(text.clone()),
            Some(other) => Arguments::Value(other.clone()),
        }
    }

    /// Arguments from a field that the dialect defines as an object (Anthropic `input`, Gemini
    /// `args`): `null` or a missing field is [`Arguments::Absent`]; anything else is kept as a
    /// value, so a string there is refused when the call runs rather than parsed as JSON.
    pub(crate) fn from_object_field(field: Option<&Value>) -> Self {
        match field {
            None | Some(Value::Null) => Arguments::Absent,
            Some(other) => Arguments::Value(other.clone()),
        }
    }
}
