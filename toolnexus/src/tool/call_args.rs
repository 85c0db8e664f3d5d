//! What a call hands a tool ([`Tool::call`](crate::Tool::call)): the model's argument object,
//! as the JSON text it came as or as a value.

use serde_json::Value;

use crate::decode;
use crate::values::result::ToolResult;

/// The arguments of one call, in the form they came: the one way into a tool,
/// [`Tool::call`](crate::Tool::call), takes either, whatever the toolkit's configuration.
///
/// OpenAI sends arguments as JSON text, and a toolkit hands that text on unread, so a tool that
/// decodes into its own types reads it once; every other provider sends a value, and a policy
/// rule, a before hook or OpenAI strict mode read the text into a value before the tool runs.
/// [`CallArgs::into_object`] gives the argument object either way.
///
/// ```
/// use serde_json::json;
/// use toolnexus::CallArgs;
///
/// let text = CallArgs::Text(r#"{"city": "Oslo"}"#);
/// assert_eq!(text.into_object("weather").unwrap(), json!({"city": "Oslo"}));
/// assert_eq!(CallArgs::Text("").into_object("weather").unwrap(), json!({}));
/// let value = CallArgs::Value(json!({"city": "Oslo"}));
/// assert_eq!(value.into_object("weather").unwrap(), json!({"city": "Oslo"}));
///
/// // Not an object: an error result the model can read and fix, naming the tool.
/// let refused = CallArgs::Text("[1, 2]").into_object("weather").unwrap_err();
/// assert!(refused.is_error);
/// assert!(refused.output.contains("weather"), "{}", refused.output);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub enum CallArgs<'a> {
    /// The argument object as a value (`{}` when the model sent none).
    Value(Value),
    /// The argument object's JSON text exactly as the model sent it, not read yet (empty text
    /// and `null` mean `{}`).
    Text(&'a str),
}

impl CallArgs<'_> {
    /// The argument object: the value, or the text read into one. Empty text and `null` are
    /// `{}`; text that is not JSON, and JSON that is not an object, are the error result the
    /// model reads ([`ToolResult::error`] naming `tool`), and the tool should not run.
    pub fn into_object(self, tool: &str) -> Result<Value, ToolResult> {
        match self {
            Self::Value(value) => decode::object(tool, value),
            Self::Text(text) => decode::parse_object(tool, text),
        }
    }
}
