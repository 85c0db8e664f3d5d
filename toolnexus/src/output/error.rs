//! [`AnswerError`]: why a typed answer could not be had, and what to tell the model.

use std::fmt;

use crate::decode::Problem;
use crate::response::ResponseError;
use crate::values::dialect::Dialect;

/// Why a response gave no typed answer ([`Output::parse`](crate::Output::parse) and the other
/// readers of [`Output`](crate::Output)).
///
/// Whose mistake it is decides what to do: [`Invalid`](AnswerError::Invalid) is the model's
/// (send [`retry_message`](AnswerError::retry_message) back and ask again),
/// [`Refused`](AnswerError::Refused) is the model's or the provider's choice (change the
/// request), [`NoAnswer`](AnswerError::NoAnswer) means the turn was not the last one (run its
/// calls and go on), [`Response`](AnswerError::Response) is a response that could not be read.
///
/// ```
/// use toolnexus::{AnswerError, Output};
///
/// #[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
/// struct Forecast { city: String, days: u8 }
///
/// let output = Output::<Forecast>::new()?;
/// let err = output.parse_text(r#"{"city": "Oslo", "days": "three"}"#).unwrap_err();
/// assert!(matches!(&err, AnswerError::Invalid { path: Some(path), .. } if path == "days"));
/// assert_eq!(
///     err.retry_message().unwrap(),
///     "Your answer does not match the required schema: `days`: invalid type: string \"three\", \
///      expected u8. Answer again with JSON that matches it."
/// );
/// # Ok::<(), toolnexus::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum AnswerError {
    /// The model refused to answer (OpenAI's `refusal`), or the provider stopped it for safety
    /// (Anthropic's `refusal` stop, a Gemini `SAFETY` finish, a Bedrock guardrail, OpenAI's
    /// `content_filter`). Not the model's formatting mistake: asking again unchanged will not help.
    Refused {
        /// The dialect the response was read as.
        dialect: Dialect,
        /// The model's refusal text, or what the provider said (``stop_reason` is `refusal``).
        reason: String,
    },
    /// The answer is not JSON of the requested type: the model's mistake, worth one more try
    /// with [`retry_message`](AnswerError::retry_message).
    Invalid {
        /// The field path (`items[2].price`), `None` when the answer as a whole is wrong.
        path: Option<String>,
        /// What is wrong, as serde says it (`invalid type: string "x", expected u8`), with the
        /// pieces of the model's text in it cut short.
        message: String,
    },
    /// The turn holds no answer: the model called other tools (run them and go on), or wrote
    /// nothing.
    NoAnswer {
        /// The dialect the response was read as.
        dialect: Dialect,
    },
    /// The response could not be read (see [`ResponseError`]); a refusal or safety stop is
    /// [`Refused`](AnswerError::Refused) instead.
    Response(ResponseError),
}

impl AnswerError {
    /// For [`Invalid`](AnswerError::Invalid): the text to send back to the model as the next
    /// user message (or as the output tool's error result), naming the field and what to fix.
    #[must_use]
    pub fn retry_message(&self) -> Option<String> {
        match self {
            Self::Invalid { .. } => Some(format!(
                "Your answer does not match the required schema: {}. Answer again with JSON that \
                 matches it.",
                self.detail()
            )),
            _ => None,
        }
    }

    /// `` `path`: message ``, or the message alone.
    fn detail(&self) -> String {
        match self {
            Self::Invalid {
                path: Some(path),
                message,
            } => format!("`{path}`: {message}"),
            Self::Invalid {
                path: None,
                message,
            } => message.clone(),
            _ => String::new(),
        }
    }

    /// The answer's decoding problem, worded for an answer.
    pub(crate) fn invalid(problem: Problem) -> Self {
        let (path, message) = match problem {
            Problem::NotJson(e) => (None, format!("the answer is not valid JSON ({e})")),
            Problem::NotObject {
                encoded_twice: true,
                ..
            } => (
                None,
                "expected a JSON object, got a string that holds the JSON text of one".to_owned(),
            ),
            Problem::NotObject { found, .. } => {
                (None, format!("expected a JSON object, got {found}"))
            }
            Problem::Field { path, message } => (path, message),
        };
        Self::Invalid { path, message }
    }
}

impl From<ResponseError> for AnswerError {
    /// A response stopped for safety or refused ([`ResponseError::Stopped`]) is
    /// [`AnswerError::Refused`]; any other is [`AnswerError::Response`].
    fn from(error: ResponseError) -> Self {
        match error {
            ResponseError::Stopped {
                dialect, reason, ..
            } => Self::Refused { dialect, reason },
            other => Self::Response(other),
        }
    }
}

impl fmt::Display for AnswerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Refused { dialect, reason } => {
                write!(f, "the {dialect} model refused to answer: {reason}")
            }
            Self::Invalid { .. } => {
                write!(f, "the answer does not match its type: {}", self.detail())
            }
            Self::NoAnswer { dialect } => {
                write!(f, "the {dialect} response holds no answer")
            }
            Self::Response(error) => error.fmt(f),
        }
    }
}

impl std::error::Error for AnswerError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Response(error) => Some(error),
            _ => None,
        }
    }
}
