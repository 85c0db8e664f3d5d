//! A model's tool call as the provider sent it: [`ToolCall`], its [`Arguments`] and its
//! [`CallKind`].

use serde_json::Value;

/// One tool call a model asked for, as the provider sent it.
///
/// `arguments` are kept as received: JSON text for OpenAI and Cohere, an object for Anthropic,
/// Gemini and Bedrock.
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
#[derive(Debug, Clone, PartialEq, Default)]
#[non_exhaustive]
pub struct ToolCall {
    /// The provider's id for the call (`call_...`, `toolu_...`). Every dialect sends one except
    /// Gemini, where it is optional: without one, a result is matched to its call by position.
    pub id: Option<String>,
    /// The tool the model wants to run.
    pub name: String,
    /// The arguments, as received.
    pub arguments: Arguments,
    /// A function call (the only kind a toolkit runs), or a call of a type it does not run.
    pub kind: CallKind,
}

impl ToolCall {
    /// A function call with an id.
    pub fn new(id: impl Into<String>, name: impl Into<String>, arguments: Arguments) -> Self {
        Self {
            id: Some(id.into()),
            name: name.into(),
            arguments,
            kind: CallKind::Function,
        }
    }

    /// A function call without an id (Gemini may send none): its result is matched to it by
    /// position.
    ///
    /// ```
    /// use toolnexus::{Arguments, CallKind, ToolCall};
    ///
    /// let call = ToolCall::without_id("add", Arguments::Absent);
    /// assert_eq!((call.id, call.kind), (None, CallKind::Function));
    /// ```
    pub fn without_id(name: impl Into<String>, arguments: Arguments) -> Self {
        Self {
            id: None,
            name: name.into(),
            arguments,
            kind: CallKind::Function,
        }
    }

    /// This call with `kind` (a call of a type a toolkit does not run is answered, never run).
    #[must_use]
    pub fn with_kind(mut self, kind: CallKind) -> Self {
        self.kind = kind;
        self
    }
}

/// What kind of call a model made.
///
/// A toolkit declares function tools, and runs function calls. A model may still make a call of
/// another type (OpenAI's free-form `custom` tool calls, when the request also declared custom
/// tools): such a call is never run, yet it is answered like any other, with an error result
/// that names its type, in the result shape of that type (Chat: a `tool` message; Responses: a
/// `custom_tool_call_output` item), because the next request must answer every call.
///
/// ```
/// use toolnexus::{CallKind, Dialect};
///
/// let response = serde_json::json!({"choices": [{"finish_reason": "tool_calls", "message": {
///     "role": "assistant", "tool_calls": [{"id": "call_1", "type": "custom",
///         "custom": {"name": "sql", "input": "SELECT 1"}}]}}]});
/// let calls = Dialect::OpenAiChat.parse_calls(&response)?;
/// assert_eq!(calls[0].kind, CallKind::Unsupported("custom".into()));
/// assert_eq!(calls[0].name, "sql");
/// # Ok::<(), toolnexus::ResponseError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum CallKind {
    /// A function call: run through the toolkit.
    #[default]
    Function,
    /// A call of another type, as the provider named it (`custom`, `custom_tool_call`):
    /// answered with an error result naming the type, never run.
    Unsupported(String),
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
            None | Some(Value::Null) => Self::Absent,
            Some(Value::String(text)) => Self::Text(text.clone()),
            Some(other) => Self::Value(other.clone()),
        }
    }

    /// Arguments from a field that the dialect defines as an object (Anthropic `input`, Gemini
    /// `args`): `null` or a missing field is [`Arguments::Absent`]; anything else is kept as a
    /// value, so a string there is refused when the call runs rather than parsed as JSON.
    pub(crate) fn from_object_field(field: Option<&Value>) -> Self {
        match field {
            None | Some(Value::Null) => Self::Absent,
            Some(other) => Self::Value(other.clone()),
        }
    }
}
