//! Asking from inside a tool: the user (elicitation) and the client's model (sampling).
//!
//! A tool that needs something only the user can give (a confirmation, a choice, a missing
//! detail) asks for it with [`CallContext::elicit`](crate::CallContext::elicit): an
//! [`Elicitation`] is a message and a form (a flat object of text, number, yes/no and choice
//! fields, the restricted JSON Schema MCP allows), and the answer an [`Elicited`]: the form's
//! content, checked against the form, or the user's no. Served by `McpServer` the question goes
//! to the MCP client as `elicitation/create`, when the client declared the `elicitation`
//! capability; in a toolkit's own turns it goes to the handler the host set with
//! [`Hooks::on_elicit`](crate::Hooks::on_elicit). With neither, or when the wait ends, it is an
//! [`AskError`], whose text the tool can hand the model as an error result.
//!
//! A tool that needs a completion from a model, without holding a key to one, asks the
//! client's with [`CallContext::sample`](crate::CallContext::sample): a [`Sampling`] request
//! (messages, a system prompt, the most tokens, model hints), answered with [`Sampled`] text.
//! It goes the same ways: to an MCP client that declared `sampling` (`sampling/createMessage`),
//! or to [`Hooks::on_sample`](crate::Hooks::on_sample).
//!
//! ```
//! use serde_json::json;
//! use toolnexus::ask::{AskError, Elicitation, Elicited};
//! use toolnexus::{tool, CallContext, ToolResult};
//!
//! /// Deletes a branch, after asking.
//! #[tool]
//! async fn delete_branch(branch: String, ctx: CallContext) -> ToolResult {
//!     let form = Elicitation::form(
//!         format!("Delete `{branch}`?"),
//!         json!({"type": "object",
//!                "properties": {"sure": {"type": "boolean", "title": "Yes, delete it"}},
//!                "required": ["sure"]}),
//!     );
//!     let form = match form {
//!         Ok(form) => form,
//!         Err(e) => return ToolResult::error(e.to_string()),
//!     };
//!     match ctx.elicit(form).await {
//!         Ok(Elicited::Accept(answer)) if answer["sure"] == true => {
//!             ToolResult::ok(format!("deleted {branch}"))
//!         }
//!         Ok(_) => ToolResult::ok("the user kept the branch"),
//!         Err(e) => ToolResult::error(e.to_string()),
//!     }
//! }
//!
//! // Nobody to ask (no MCP client, no handler): a clear error the model can read.
//! # tokio::runtime::Builder::new_current_thread().enable_time().build().unwrap().block_on(async {
//! let err = CallContext::new()
//!     .elicit(Elicitation::form("Sure?", json!({"type": "object", "properties": {}})).unwrap())
//!     .await
//!     .unwrap_err();
//! assert_eq!(err, AskError::NoOneToAsk);
//! # });
//! ```

mod form;
mod sampling;

pub use sampling::{Sampled, Sampling, SamplingRole, SAMPLING_TIMEOUT};

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use serde_json::{Map, Value};

/// A question for the user: a message and the form the answer fills in.
///
/// The form is the restricted JSON Schema of MCP's elicitation (protocol 2025-06-18 and
/// later): an object whose properties are each a string (`minLength`, `maxLength`, a `format`
/// of `email`, `uri`, `date` or `date-time`), a number or integer (`minimum`, `maximum`), a
/// boolean, a single choice (a string with `enum`, optionally `enumNames`, or `oneOf` of
/// `{"const", "title"}`) or a multiple choice (an array of such strings, `minItems`,
/// `maxItems`); each may have a `title`, a `description` and a `default`. Anything else
/// (a nested object, a `$ref`, a type list) is refused when the question is made, before it
/// is sent.
#[derive(Debug, Clone, PartialEq)]
pub struct Elicitation {
    message: String,
    schema: Map<String, Value>,
    timeout: Duration,
}

/// How long a question waits for its answer unless [`Elicitation::with_timeout`] says
/// otherwise: a person reads and types.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(300);

impl Elicitation {
    /// A question with `message` and the form `schema` (see [`Elicitation`] for what a form
    /// may hold); [`AskError::BadForm`] names the first thing outside it.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolnexus::ask::{AskError, Elicitation};
    ///
    /// let form = json!({"type": "object", "properties": {
    ///     "email": {"type": "string", "format": "email"},
    ///     "plan": {"type": "string", "oneOf": [{"const": "free", "title": "Free"},
    ///                                          {"const": "pro", "title": "Pro"}]}},
    ///     "required": ["email"]});
    /// assert!(Elicitation::form("Sign up", form).is_ok());
    ///
    /// let nested = json!({"type": "object", "properties": {"address": {"type": "object"}}});
    /// let err = Elicitation::form("Where?", nested).unwrap_err();
    /// assert_eq!(
    ///     err.to_string(),
    ///     "the question's form cannot be sent: `properties.address`: a field is a string, a \
    ///      number, an integer, a boolean or an array of choices, not `object`"
    /// );
    /// ```
    pub fn form(message: impl Into<String>, schema: Value) -> Result<Self, AskError> {
        let schema = form::check_form(schema).map_err(AskError::BadForm)?;
        Ok(Self {
            message: message.into(),
            schema,
            timeout: DEFAULT_TIMEOUT,
        })
    }

    /// The same question, waiting at most `timeout` for its answer
    /// ([`AskError::TimedOut`] after that); [`DEFAULT_TIMEOUT`] otherwise.
    #[must_use]
    pub fn with_timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// The message shown to the user.
    #[must_use]
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The form, as sent (`requestedSchema`).
    #[must_use]
    pub fn schema(&self) -> &Map<String, Value> {
        &self.schema
    }

    /// How long the question waits for its answer.
    #[must_use]
    pub fn timeout(&self) -> Duration {
        self.timeout
    }
}

/// The user's answer to an [`Elicitation`].
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Elicited {
    /// The user filled in the form: its content, checked against it (every required field,
    /// each of its type, within its bounds and choices, no field the form does not have).
    Accept(Map<String, Value>),
    /// The user said no to giving it.
    Decline,
    /// The user dismissed the question without choosing.
    Cancel,
}

/// Why a question got no answer. Its text says what happened in words a model can act on, so
/// a tool may return it as an error result.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum AskError {
    /// Nobody can be asked: the call is not served to an MCP client, and the host set no
    /// [`Hooks::on_elicit`](crate::Hooks::on_elicit) (or, to sample,
    /// [`Hooks::on_sample`](crate::Hooks::on_sample)).
    NoOneToAsk,
    /// The MCP client did not declare the capability the request needs, or its protocol has no
    /// requests from the server.
    NotSupported {
        /// `elicitation` or `sampling`.
        capability: &'static str,
    },
    /// The question's form is not the restricted form (see [`Elicitation`]): what is wrong.
    BadForm(String),
    /// The sampling request cannot be sent (no messages, no tokens, …): what is wrong.
    BadRequest(String),
    /// The answer does not fit what was asked (a question's form; a sampling answer with no
    /// text): what is wrong (the answer itself is not repeated).
    BadAnswer(String),
    /// No answer came within the question's timeout.
    TimedOut(Duration),
    /// The call was cancelled while it waited.
    Cancelled,
    /// Asking failed on the way (the connection closed, the client answered with an error).
    Failed(String),
}

impl fmt::Display for AskError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NoOneToAsk => f.write_str(
                "nobody can be asked here: no MCP client and no handler the host set; go on \
                 without the answer or say what is needed",
            ),
            Self::NotSupported {
                capability: "sampling",
            } => f.write_str(
                "no model can be asked here: the MCP client does not take sampling requests \
                 (no `sampling` capability); go on without it",
            ),
            Self::NotSupported { capability } => write!(
                f,
                "the user cannot be asked here: the MCP client does not take questions \
                 (no `{capability}` capability); go on without the answer or say what is needed"
            ),
            Self::BadForm(why) => write!(f, "the question's form cannot be sent: {why}"),
            Self::BadRequest(why) => write!(f, "the sampling request cannot be sent: {why}"),
            Self::BadAnswer(why) => write!(f, "the answer does not fit what was asked: {why}"),
            Self::TimedOut(after) => write!(f, "no answer came within {after:?}"),
            Self::Cancelled => f.write_str("the call was cancelled while waiting for the user"),
            Self::Failed(why) => write!(f, "asking failed: {why}"),
        }
    }
}

impl std::error::Error for AskError {}

/// What an answer is on its way: a boxed future, so any handler fits one type.
pub type Answering<T = Elicited> = Pin<Box<dyn Future<Output = Result<T, AskError>> + Send>>;

/// Whoever answers a call's questions and sampling requests: the MCP client, or the host's
/// hooks.
pub(crate) trait Ask: Send + Sync {
    /// Asks the user `question`.
    fn elicit(&self, question: Elicitation) -> Answering;
    /// Asks the model for a completion of `request`.
    fn sample(&self, request: Sampling) -> Answering<Sampled>;
}

/// A call's [`Ask`], shared by every clone of its context.
pub(crate) type Asker = Arc<dyn Ask>;

/// `answer` to `question` held to its form: an accepted content that does not fit is
/// [`AskError::BadAnswer`].
pub(crate) fn checked(question: &Elicitation, answer: Elicited) -> Result<Elicited, AskError> {
    match answer {
        Elicited::Accept(content) => form::check_answer(&question.schema, &content)
            .map(|()| Elicited::Accept(content))
            .map_err(AskError::BadAnswer),
        other => Ok(other),
    }
}

/// `content`, an accepted answer to `question`, with the form's `default` for each field it
/// leaves out (SEP-1034: a client applies the defaults the user did not change).
#[cfg(feature = "mcp")]
pub(crate) fn with_defaults(
    question: &Elicitation,
    mut content: Map<String, Value>,
) -> Map<String, Value> {
    form::fill_defaults(&question.schema, &mut content);
    content
}

#[cfg(test)]
mod tests;
