//! Reading a typed answer out of a turn, a response or a text, by the crate's decoding rules.

use serde::de::DeserializeOwned;
use serde_json::Value;

use super::{bounds, AnswerError, Output};
use crate::decode::decode_text;
use crate::turn::Turn;
use crate::values::call::{Arguments, ToolCall};
use crate::values::dialect::Dialect;

impl<T: DeserializeOwned> Output<T> {
    /// The typed answer of a turn: the arguments of its call of the output tool, else the
    /// model's text (a refusal is [`AnswerError::Refused`]). A turn with calls of other tools
    /// only is [`AnswerError::NoAnswer`]: run them and go on.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolnexus::{AnswerError, Dialect, Output, Toolkit};
    ///
    /// #[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
    /// struct Pick { choice: String }
    ///
    /// let output = Output::<Pick>::new()?;
    /// let refusal = json!({"choices": [{"finish_reason": "stop", "message": {"role": "assistant",
    ///     "content": null, "refusal": "I can't help with that."}}]});
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// let turn = Toolkit::new().respond(&refusal, Dialect::OpenAiChat).await?;
    /// assert!(matches!(output.parse(&turn),
    ///     Err(AnswerError::Refused { reason, .. }) if reason == "I can't help with that."));
    /// # Ok::<(), Box<dyn std::error::Error>>(()) }).unwrap();
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn parse(&self, turn: &Turn) -> Result<T, AnswerError> {
        self.parse_parts(turn.dialect(), &turn.calls, &turn.model_turn)
    }

    /// [`Output::parse`] on a response body that was not answered by a toolkit (no tools, or
    /// structured output only). A response stopped for safety or refused is
    /// [`AnswerError::Refused`]; one that cannot be read, [`AnswerError::Response`].
    pub fn parse_response(&self, dialect: Dialect, response: &Value) -> Result<T, AnswerError> {
        let (calls, turn) = dialect.read_calls(response)?;
        self.parse_parts(dialect, &calls, &turn.build())
    }

    /// Reads the answer's JSON text into `T` (a Markdown code fence around it is taken off).
    pub fn parse_text(&self, text: &str) -> Result<T, AnswerError> {
        let text = unfenced(text);
        if let Err(refused) = self.limits.check_text(&self.name, text) {
            return Err(AnswerError::Invalid {
                path: None,
                message: limit_message(&self.name, &refused.output),
            });
        }
        let problem = match decode_text(text) {
            Ok(answer) => return self.within_bounds(text, None).map(|()| answer),
            Err(problem) => problem,
        };
        // Strict mode's `null` for an optional field means absent. An `Option` takes its `null`
        // as it is, so only an answer that failed is pruned and decoded again.
        if text.contains("null") {
            if let Ok(mut value) = serde_json::from_str::<Value>(text) {
                self.schema.strict_nulls_to_absent(&mut value);
                let answer = decode_text(&value.to_string()).map_err(AnswerError::invalid)?;
                return self.within_bounds(text, Some(&value)).map(|()| answer);
            }
        }
        Err(AnswerError::invalid(problem))
    }

    /// The schema's bounds checked on an answer that decoded (`text`, or `value` when it was
    /// already read): what a provider's strict subset leaves to the description.
    fn within_bounds(&self, text: &str, value: Option<&Value>) -> Result<(), AnswerError> {
        if !self.bounds {
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
        bounds::check(self.schema.as_value(), value)
            .map_err(|(path, message)| AnswerError::Invalid { path, message })
    }

    /// Reads an output tool call's arguments into `T`.
    pub(crate) fn parse_arguments(&self, arguments: &Arguments) -> Result<T, AnswerError> {
        match arguments {
            Arguments::Absent => self.parse_text("{}"),
            Arguments::Text(text) => self.parse_text(text),
            Arguments::Value(value) => {
                if let Err(refused) = self.limits.check_value(&self.name, value) {
                    return Err(AnswerError::Invalid {
                        path: None,
                        message: limit_message(&self.name, &refused.output),
                    });
                }
                self.parse_text(&value.to_string())
            }
        }
    }

    fn parse_parts(
        &self,
        dialect: Dialect,
        calls: &[ToolCall],
        model_turn: &[Value],
    ) -> Result<T, AnswerError> {
        if let Some(call) = calls.iter().find(|call| call.name == self.name) {
            return self.parse_arguments(&call.arguments);
        }
        let wire = dialect.wire();
        if let Some(reason) = wire.refusal(model_turn) {
            return Err(AnswerError::Refused { dialect, reason });
        }
        let text = wire.text(model_turn);
        if !calls.is_empty() || text.trim().is_empty() {
            return Err(AnswerError::NoAnswer { dialect });
        }
        self.parse_text(&text)
    }
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
fn limit_message(name: &str, message: &str) -> String {
    let prefix = format!("invalid arguments for `{name}`: ");
    message
        .strip_prefix(&prefix)
        .unwrap_or(message)
        .replace("the arguments are", "the answer is")
}
