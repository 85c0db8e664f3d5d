//! The round trip's common vocabulary: a model's [`ToolCall`], the [`Dialect`] it came in, and
//! the [`ResponseError`] for a response that is not what its dialect says.
//!
//! Each dialect reads calls out of a provider response with `parse_calls`, repeats the model's
//! turn with `model_turn` and renders results with `render_results`:
//!
//! | dialect | module | results go back as |
//! |---|---|---|
//! | [`Dialect::OpenAiChat`] | [`openai::chat`](crate::openai::chat) | one `{"role":"tool"}` message per call |
//! | [`Dialect::OpenAiResponses`] | [`openai::responses`](crate::openai::responses) | one `function_call_output` item per call |
//! | [`Dialect::Anthropic`] | [`anthropic`](crate::anthropic) | one `user` message of `tool_result` blocks |
//! | [`Dialect::Gemini`] | [`gemini`](crate::gemini) | one `user` content of `functionResponse` parts |

use std::fmt;

use serde_json::{Map, Value};

use crate::schema::kind;
use crate::{anthropic, gemini, openai, ToolResult};

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

/// The four wire dialects of the round trip.
///
/// Each one reads calls out of a response ([`Dialect::parse_calls`]) and renders results as the
/// message(s) the provider expects in the next request ([`Dialect::render_results`]);
/// [`Toolkit::respond`](crate::Toolkit::respond) does both and runs the calls in between.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Dialect {
    /// OpenAI Chat Completions (and the many servers compatible with it).
    OpenAiChat,
    /// The OpenAI Responses API.
    OpenAiResponses,
    /// The Anthropic Messages API.
    Anthropic,
    /// Gemini `generateContent` (Developer API and Vertex AI).
    Gemini,
}

impl Dialect {
    /// The API's name, as error messages say it.
    ///
    /// ```
    /// assert_eq!(toolnexus::Dialect::Gemini.api_name(), "Gemini generateContent");
    /// ```
    pub fn api_name(self) -> &'static str {
        match self {
            Dialect::OpenAiChat => "OpenAI Chat Completions",
            Dialect::OpenAiResponses => "OpenAI Responses",
            Dialect::Anthropic => "Anthropic Messages",
            Dialect::Gemini => "Gemini generateContent",
        }
    }

    /// Parses a response body; text that is not JSON gives [`ResponseError::NotJson`].
    ///
    /// ```
    /// use toolnexus::Dialect;
    ///
    /// let err = Dialect::OpenAiChat.parse_body(r#"{"choices":[{"message":"#).unwrap_err();
    /// assert_eq!(
    ///     err.to_string(),
    ///     "the OpenAI Chat Completions response is not valid JSON: EOF while parsing a value at line 1 column 23"
    /// );
    /// ```
    pub fn parse_body(self, body: &str) -> Result<Value, ResponseError> {
        serde_json::from_str(body).map_err(|e| ResponseError::NotJson {
            dialect: self,
            detail: e.to_string(),
        })
    }

    /// The tool calls in a response, in the order the model made them. A response without calls
    /// (the model answered in text) gives an empty list.
    ///
    /// See each dialect's `parse_calls` for the exact rules: [`openai::chat::parse_calls`],
    /// [`openai::responses::parse_calls`], [`anthropic::parse_calls`], [`gemini::parse_calls`].
    pub fn parse_calls(self, response: &Value) -> Result<Vec<ToolCall>, ResponseError> {
        match self {
            Dialect::OpenAiChat => openai::chat::parse_calls(response),
            Dialect::OpenAiResponses => openai::responses::parse_calls(response),
            Dialect::Anthropic => anthropic::parse_calls(response),
            Dialect::Gemini => gemini::parse_calls(response),
        }
    }

    /// The model's own turn, as the next request repeats it before the results: the assistant
    /// message (Chat Completions: `role`, `content`, `tool_calls` and a non-null `refusal`, without
    /// response-only fields such as `annotations`), all `output` items (Responses: reasoning items
    /// included, as the API wants them back), `{"role":"assistant","content":[...]}` (Anthropic:
    /// the blocks as sent, thinking blocks included) or `candidates[0].content` (Gemini, thought
    /// signatures included).
    ///
    /// One repair only: a call's arguments of a type the provider would refuse in a request (not
    /// a string for OpenAI, not an object for Anthropic and Gemini) are replaced by their JSON
    /// text or `{}`; such a call was answered with an error anyway.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolnexus::Dialect;
    ///
    /// let response = json!({"type": "message", "role": "assistant", "stop_reason": "tool_use",
    ///     "content": [{"type": "tool_use", "id": "toolu_01A", "name": "ping", "input": {}}]});
    /// assert_eq!(
    ///     Dialect::Anthropic.model_turn(&response)?,
    ///     [json!({"role": "assistant", "content": response["content"]})]
    /// );
    /// # Ok::<(), toolnexus::ResponseError>(())
    /// ```
    pub fn model_turn(self, response: &Value) -> Result<Vec<Value>, ResponseError> {
        match self {
            Dialect::OpenAiChat => openai::chat::model_turn(response),
            Dialect::OpenAiResponses => openai::responses::model_turn(response),
            Dialect::Anthropic => anthropic::model_turn(response),
            Dialect::Gemini => gemini::model_turn(response),
        }
    }

    /// The next request's message(s) carrying `results`, each paired with its call, in order.
    /// No calls give an empty list (never an empty message).
    ///
    /// [`Toolkit::execute_calls`](crate::Toolkit::execute_calls) returns one result per call in
    /// call order, so `calls.iter().zip(&results)` pairs them.
    pub fn render_results<'a>(
        self,
        answered: impl IntoIterator<Item = (&'a ToolCall, &'a ToolResult)>,
    ) -> Vec<Value> {
        match self {
            Dialect::OpenAiChat => openai::chat::render_results(answered),
            Dialect::OpenAiResponses => openai::responses::render_results(answered),
            Dialect::Anthropic => anthropic::render_results(answered),
            Dialect::Gemini => gemini::render_results(answered),
        }
    }
}

impl fmt::Display for Dialect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.api_name())
    }
}

/// The longest provider-supplied text (an error message, a finish reason) echoed in a
/// [`ResponseError`]; a hostile or broken server may send anything.
const MAX_ECHO: usize = 300;

/// A response that is not what its dialect says, so its calls cannot be read.
///
/// Never caused by a tool or by bad arguments (those are error results the model reads); this is
/// for the response itself: not JSON, a missing or mistyped field, a response cut off at the
/// token limit, or an error object where a response was expected. No call of such a response
/// is run. The `Display` text says what was expected and where.
///
/// ```
/// use serde_json::json;
/// use toolnexus::Dialect;
///
/// let err = Dialect::OpenAiChat.parse_calls(&json!({"choices": []})).unwrap_err();
/// assert_eq!(
///     err.to_string(),
///     "unexpected OpenAI Chat Completions response: expected a non-empty array at `choices`, found an empty array"
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ResponseError {
    /// The body is not JSON (truncated, or not a response at all).
    NotJson {
        /// The dialect that was expected.
        dialect: Dialect,
        /// serde_json's description of the problem.
        detail: String,
    },
    /// A field is missing or has the wrong type.
    Malformed {
        /// The dialect that was expected.
        dialect: Dialect,
        /// Where, as a path from the root: `choices[0].message.tool_calls[1].function.name`.
        path: String,
        /// What the dialect puts there: `an array`, `a string`.
        expected: &'static str,
        /// What was there instead: `nothing`, `a number`, ... (never the value itself).
        found: &'static str,
    },
    /// The response stopped before it was complete (the output token limit, a malformed call,
    /// a blocked prompt): its calls may be cut off, so none are run.
    Incomplete {
        /// The dialect that was expected.
        dialect: Dialect,
        /// What the provider said, e.g. ``finish_reason` is `length``.
        reason: String,
    },
    /// The provider sent an error object instead of a response.
    Provider {
        /// The dialect that was expected.
        dialect: Dialect,
        /// The provider's message (at most 300 characters of it).
        message: String,
    },
}

impl ResponseError {
    /// The dialect whose response was expected.
    pub fn dialect(&self) -> Dialect {
        match self {
            ResponseError::NotJson { dialect, .. }
            | ResponseError::Malformed { dialect, .. }
            | ResponseError::Incomplete { dialect, .. }
            | ResponseError::Provider { dialect, .. } => *dialect,
        }
    }
}

impl fmt::Display for ResponseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ResponseError::NotJson { dialect, detail } => {
                write!(f, "the {dialect} response is not valid JSON: {detail}")
            }
            ResponseError::Malformed {
                dialect,
                path,
                expected,
                found,
            } => write!(
                f,
                "unexpected {dialect} response: expected {expected} at `{path}`, found {found}"
            ),
            ResponseError::Incomplete { dialect, reason } => write!(
                f,
                "the {dialect} response is incomplete ({reason}); its tool calls may be cut off, \
                 so none were run"
            ),
            ResponseError::Provider { dialect, message } => {
                write!(
                    f,
                    "{dialect} returned an error instead of a response: {message}"
                )
            }
        }
    }
}

impl std::error::Error for ResponseError {}

/// Where a field of a response is, for an error message: `base`, then `[index]` when there is
/// one, then `field` (`choices[0].message.tool_calls` `[2]` `.function.name`). Built for every
/// field read and rendered only for an error, so reading a good response formats nothing.
#[derive(Clone, Copy)]
pub(crate) struct At<'a> {
    base: &'a str,
    index: Option<usize>,
    field: &'static str,
}

impl<'a> At<'a> {
    /// Item `index` of the array at `base`.
    pub(crate) fn item(base: &'a str, index: usize) -> Self {
        At {
            base,
            index: Some(index),
            field: "",
        }
    }

    /// `field` (with its leading `.`) under this place.
    pub(crate) fn field(self, field: &'static str) -> Self {
        At { field, ..self }
    }
}

impl<'a> From<&'a str> for At<'a> {
    fn from(base: &'a str) -> Self {
        At {
            base,
            index: None,
            field: "",
        }
    }
}

impl fmt::Display for At<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.base)?;
        if let Some(index) = self.index {
            write!(f, "[{index}]")?;
        }
        f.write_str(self.field)
    }
}

/// Reads a response by path, turning every surprise into a [`ResponseError`].
pub(crate) struct Reader {
    pub(crate) dialect: Dialect,
}

impl Reader {
    pub(crate) fn malformed<'p>(
        &self,
        path: impl Into<At<'p>>,
        expected: &'static str,
        found: Option<&Value>,
    ) -> ResponseError {
        ResponseError::Malformed {
            dialect: self.dialect,
            path: path.into().to_string(),
            expected,
            found: found.map_or("nothing", kind),
        }
    }

    pub(crate) fn incomplete(&self, reason: String) -> ResponseError {
        ResponseError::Incomplete {
            dialect: self.dialect,
            reason,
        }
    }

    /// The response's root object; an error object there (`{"error": {...}}` or Anthropic's
    /// `{"type":"error", ...}`) becomes [`ResponseError::Provider`].
    pub(crate) fn root<'v>(
        &self,
        response: &'v Value,
    ) -> Result<&'v serde_json::Map<String, Value>, ResponseError> {
        let Value::Object(root) = response else {
            return Err(ResponseError::Malformed {
                dialect: self.dialect,
                path: "(root)".to_owned(),
                expected: "a JSON object",
                found: kind(response),
            });
        };
        if let Some(error) = root.get("error").filter(|e| !e.is_null()) {
            let message = error
                .get("message")
                .and_then(Value::as_str)
                .or_else(|| error.as_str())
                .unwrap_or("(no message)");
            return Err(ResponseError::Provider {
                dialect: self.dialect,
                message: echo(message),
            });
        }
        Ok(root)
    }

    /// A required array field.
    pub(crate) fn array<'p, 'v>(
        &self,
        parent: &'v serde_json::Map<String, Value>,
        key: &str,
        path: impl Into<At<'p>>,
    ) -> Result<&'v Vec<Value>, ResponseError> {
        match parent.get(key) {
            Some(Value::Array(items)) => Ok(items),
            other => Err(self.malformed(path, "an array", other)),
        }
    }

    /// An array field that may be absent or `null` (an empty list then).
    pub(crate) fn optional_array<'p, 'v>(
        &self,
        parent: &'v serde_json::Map<String, Value>,
        key: &str,
        path: impl Into<At<'p>>,
    ) -> Result<&'v [Value], ResponseError> {
        match parent.get(key) {
            None | Some(Value::Null) => Ok(&[]),
            Some(Value::Array(items)) => Ok(items),
            other => Err(self.malformed(path, "an array", other)),
        }
    }

    /// A required object.
    pub(crate) fn object<'p, 'v>(
        &self,
        value: Option<&'v Value>,
        path: impl Into<At<'p>>,
    ) -> Result<&'v serde_json::Map<String, Value>, ResponseError> {
        match value {
            Some(Value::Object(map)) => Ok(map),
            other => Err(self.malformed(path, "an object", other)),
        }
    }

    /// A required string field.
    pub(crate) fn string<'p, 'v>(
        &self,
        parent: &'v serde_json::Map<String, Value>,
        key: &str,
        path: impl Into<At<'p>>,
    ) -> Result<&'v str, ResponseError> {
        match parent.get(key) {
            Some(Value::String(s)) => Ok(s),
            other => Err(self.malformed(path, "a string", other)),
        }
    }
}

/// In a repeated model turn, arguments that must be JSON text (OpenAI): a value that is not a
/// string becomes its JSON text, a missing one `"{}"`, so the next request is not refused for
/// what the model sent.
pub(crate) fn repair_text_arguments(holder: &mut Value, key: &str) {
    if let Value::Object(map) = holder {
        match map.get(key) {
            Some(Value::String(_)) => {}
            None | Some(Value::Null) => {
                map.insert(key.to_owned(), "{}".into());
            }
            Some(other) => {
                let text = other.to_string();
                map.insert(key.to_owned(), text.into());
            }
        }
    }
}

/// In a repeated model turn, arguments that must be an object (Anthropic `input`, Gemini `args`):
/// anything else present becomes `{}` (the call itself was answered with an error).
pub(crate) fn repair_object_arguments(holder: &mut Value, key: &str) {
    if let Value::Object(map) = holder {
        if map.get(key).is_some_and(|v| !v.is_object()) {
            map.insert(key.to_owned(), Value::Object(Map::new()));
        }
    }
}

/// Provider text for an error message, cut to [`MAX_ECHO`] characters.
pub(crate) fn echo(text: &str) -> String {
    shorten(text, MAX_ECHO)
}

/// `text` cut to `max` characters (an ellipsis marks the cut), so what a model or provider sent
/// is echoed back at a bounded size.
pub(crate) fn shorten(text: &str, max: usize) -> String {
    if text.chars().count() > max {
        text.chars().take(max).chain(['…']).collect()
    } else {
        text.to_owned()
    }
}

/// The text a result carries to the model; an error's is never empty (Anthropic rejects empty
/// error content, and an empty error helps no model).
pub(crate) fn result_text(result: &ToolResult) -> &str {
    if result.is_error && result.output.trim().is_empty() {
        "the tool failed without a message"
    } else {
        &result.output
    }
}
