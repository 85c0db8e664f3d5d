//! One conversation, any provider: a [`Transcript`] read from one dialect's message history and
//! rendered for another, with what did not survive reported as [`Loss`]es.
//!
//! What moves: the user's text and media, the host's instructions, the model's text and calls
//! (each call's arguments as sent), and each call's result (its text, error flag and media).
//! Call ids are fitted to the target's rule by one [`IdMap`], calls and results alike, so every
//! call keeps exactly one result. What the target cannot take is repaired and reported:
//!
//! | what | how | reported as |
//! |---|---|---|
//! | reasoning another dialect made (signed or encrypted, so only its maker takes it back) | left out, or sent as text ([`Reasoning::AsText`]) | [`Loss::ReasoningDropped`], [`Loss::ReasoningAsText`] |
//! | a call without a result (a cut-off turn) | answered with an error result | [`Loss::UnansweredCall`] |
//! | a result whose call is not in the conversation | left out | [`Loss::ResultWithoutCall`] |
//! | instructions, for a target that keeps them outside its messages | in [`Moved::system`] | [`Loss::SystemMovedOut`] |
//! | a user's medium the target's user messages cannot carry ([`Dialect::accepted_user_media`](crate::Dialect::accepted_user_media)) | a note naming it follows the text | [`Loss::MediaAsNote`] |
//!
//! (Anthropic, Gemini and Bedrock keep instructions outside the messages.)
//!
//! A model turn that stays in its own dialect, with its ids unchanged, goes back exactly as it
//! was read (its reasoning signatures included). Results and user messages are rendered as the
//! target's own `render_results` and `user_message` write them, so the target's rules hold
//! (Anthropic's and Bedrock's results in one user turn, media each provider takes). A call
//! rendered for Gemini carries the signature Gemini's documentation gives for calls another
//! model made.
//!
//! ```
//! use serde_json::json;
//! use toolnexus::transcript::Transcript;
//! use toolnexus::Dialect;
//!
//! let history = [
//!     json!({"role": "system", "content": "Be brief."}),
//!     json!({"role": "user", "content": "Weather in Paris?"}),
//!     json!({"role": "assistant", "content": null, "tool_calls": [{"id": "call_1",
//!         "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\":\"Paris\"}"}}]}),
//!     json!({"role": "tool", "tool_call_id": "call_1", "content": "sunny"}),
//! ];
//! let transcript = Transcript::read(Dialect::OpenAiChat, &history)?;
//! let moved = transcript.render(Dialect::Anthropic);
//! assert_eq!(moved.system.as_deref(), Some("Be brief."));
//! assert_eq!(moved.messages[1], json!({"role": "assistant", "content": [{"type": "tool_use",
//!     "id": "call_1", "name": "get_weather", "input": {"city": "Paris"}}]}));
//! assert_eq!(moved.messages[2]["content"][0]["tool_use_id"], "call_1");
//! # Ok::<(), toolnexus::transcript::TranscriptError>(())
//! ```

mod render;

use serde_json::Value;

use crate::values::dialect::Dialect;
pub use crate::values::ids::{IdMap, IdRule};
use crate::values::transcript::History;
pub use crate::values::transcript::{
    Answered, Loss, Message, Native, Part, Transcript, TranscriptError, VERSION,
};

/// What to do with reasoning another dialect made, which the target cannot take back.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum Reasoning {
    /// Leave it out ([`Loss::ReasoningDropped`]).
    #[default]
    Drop,
    /// Send its text as text of the model's turn ([`Loss::ReasoningAsText`]).
    AsText,
}

/// A transcript rendered for one dialect: the history to send, the instructions where the
/// dialect keeps them outside it, and what did not survive.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Moved {
    /// The instructions, for a dialect that takes them as a request member of their own
    /// (Anthropic's `system`, Gemini's `systemInstruction`, Bedrock's `system`); `None` where the
    /// history holds them, or there are none.
    pub system: Option<String>,
    /// The history, in the dialect's own messages.
    pub messages: Vec<Value>,
    /// What did not survive, in the order met.
    pub losses: Vec<Loss>,
}

impl Transcript {
    /// An empty transcript of the current [`VERSION`].
    #[must_use]
    pub fn new() -> Self {
        Self {
            version: VERSION,
            messages: Vec::new(),
        }
    }

    /// A transcript of `dialect`'s message history: the messages of a request (what
    /// `Turn::into_messages`, `Dialect::user_message` and the provider's own SDK write), the
    /// instructions included where the dialect keeps them there.
    ///
    /// # Errors
    /// A message the dialect does not write (an unknown role or block type, a call or result
    /// without what it needs), named by its index and the field; when another dialect reads the
    /// whole history, the error names it ([`TranscriptError::looks_like`]).
    pub fn read(dialect: Dialect, messages: &[Value]) -> Result<Self, TranscriptError> {
        Self::read_as(dialect, messages).map_err(|mut error| {
            // Only when reading failed: is this another dialect's history?
            error.looks_like = Dialect::ALL
                .into_iter()
                .filter(|&other| other != dialect)
                .find(|&other| Self::read_as(other, messages).is_ok());
            error
        })
    }

    fn read_as(dialect: Dialect, messages: &[Value]) -> Result<Self, TranscriptError> {
        let wire = dialect.wire();
        let mut history = History::new(dialect);
        for (at, message) in messages.iter().enumerate() {
            history.at = at;
            wire.read_message(message, &mut history)?;
        }
        Ok(Self {
            version: VERSION,
            messages: history.messages,
        })
    }

    /// A transcript from its JSON form (as `serde_json::to_value` wrote it).
    ///
    /// # Errors
    /// JSON that is no transcript, or a transcript of another [`VERSION`].
    pub fn from_json(value: Value) -> Result<Self, TranscriptError> {
        let problem = |problem: String| TranscriptError {
            dialect: None,
            message: None,
            path: String::new(),
            problem,
            looks_like: None,
        };
        let version = value.get("version").and_then(Value::as_u64);
        if version != Some(u64::from(VERSION)) {
            return Err(problem(format!(
                "a transcript of version {} cannot be read by this version ({VERSION})",
                version.map_or_else(|| "(none)".to_owned(), |v| v.to_string())
            )));
        }
        serde_json::from_value(value).map_err(|error| problem(error.to_string()))
    }

    /// The transcript as `dialect`'s history, reasoning another dialect made left out.
    #[must_use]
    pub fn render(&self, dialect: Dialect) -> Moved {
        self.render_with(dialect, Reasoning::Drop)
    }

    /// The transcript as `dialect`'s history, reasoning another dialect made handled as
    /// `reasoning` says.
    #[must_use]
    pub fn render_with(&self, dialect: Dialect, reasoning: Reasoning) -> Moved {
        render::render(self, dialect, reasoning)
    }
}

impl Default for Transcript {
    fn default() -> Self {
        Self::new()
    }
}
