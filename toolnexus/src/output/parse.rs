//! What [`Output`]'s parse methods share: the answer found in a turn's calls or text, arguments
//! held to the limits, the schema's bounds checked, a code fence taken off.

use serde::de::DeserializeOwned;
use serde_json::Value;

use super::{bounds, AnswerError, Output};
use crate::values::call::{Arguments, ToolCall};
use crate::values::dialect::Dialect;

/// The schema's bounds checked on an answer that decoded (`text`, or `value` when it was
/// already read): what a provider's strict subset leaves to the description.
pub(super) fn within_bounds<T>(
    output: &Output<T>,
    text: &str,
    value: Option<&Value>,
) -> Result<(), AnswerError> {
    if !output.bounds {
        return Ok(());
    }
    let read;
    let value = match value {
        Some(value) => value,
        None => {
            read = serde_json::from_str::<Value>(text).unwrap_or(Value::Null);
            &read
        }
    };
    bounds::check(output.schema.as_value(), value)
        .map_err(|(path, message)| AnswerError::Invalid { path, message })
}

/// Reads an output tool call's arguments into `T`.
pub(super) fn arguments<T: DeserializeOwned>(
    output: &Output<T>,
    arguments: &Arguments,
) -> Result<T, AnswerError> {
    match arguments {
        Arguments::Absent => output.parse_text("{}"),
        Arguments::Text(text) => output.parse_text(text),
        Arguments::Value(value) => {
            if let Err(refused) = output.limits.check_value(&output.name, value) {
                return Err(AnswerError::Invalid {
                    path: None,
                    message: limit_message(&output.name, &refused.output),
                });
            }
            output.parse_text(&value.to_string())
        }
    }
}

pub(super) fn parts<T: DeserializeOwned>(
    output: &Output<T>,
    dialect: Dialect,
    calls: &[ToolCall],
    model_turn: &[Value],
) -> Result<T, AnswerError> {
    if let Some(call) = calls.iter().find(|call| call.name == output.name) {
        return arguments(output, &call.arguments);
    }
    let wire = dialect.wire();
    if let Some(reason) = wire.refusal(model_turn) {
        return Err(AnswerError::Refused { dialect, reason });
    }
    let text = wire.text(model_turn);
    if !calls.is_empty() || text.trim().is_empty() {
        return Err(AnswerError::NoAnswer { dialect });
    }
    output.parse_text(&text)
}

/// The text inside a Markdown code fence (```` ```json ... ``` ````), or the text trimmed.
pub(super) fn unfenced(text: &str) -> &str {
    let trimmed = text.trim();
    let Some(rest) = trimmed.strip_prefix("```") else {
        return trimmed;
    };
    match (rest.find('\n'), rest.strip_suffix("```")) {
        (Some(newline), Some(_)) if newline < rest.len() - 3 => {
            rest[newline + 1..rest.len() - 3].trim()
        }
        _ => trimmed,
    }
}

/// A limit's message about arguments, said of the answer.
pub(super) fn limit_message(name: &str, message: &str) -> String {
    let prefix = format!("invalid arguments for `{name}`: ");
    message
        .strip_prefix(&prefix)
        .unwrap_or(message)
        .replace("the arguments are", "the answer is")
}
