//! Small text helpers: what a model or provider sent, echoed at a bounded size; how a JSON value
//! is named in messages; the text a result carries to the model.

use serde_json::Value;

use crate::result::ToolResult;

/// The longest provider-supplied text (an error message, a finish reason) echoed in a
/// [`ResponseError`](crate::ResponseError); a hostile or broken server may send anything.
const MAX_ECHO: usize = 300;

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
