//! A conversation that belongs to no provider: [`Transcript`], its [`Message`]s and their
//! [`Part`]s, and the [`Loss`]es a move between dialects reports. Plain values, read from a
//! dialect's history by its provider folder (through a [`History`] being built) and rendered
//! by the `transcript` module above the providers.

use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::dialect::Dialect;
use super::media::Media;
use super::result::ToolResult;

/// The version of the JSON form a [`Transcript`] is written with (its `version` member).
pub const VERSION: u32 = 1;

/// A conversation that belongs to no provider: what was said, by whom, which calls the model
/// made and what each returned. Read from any dialect's message history
/// ([`Transcript::read`](crate::transcript::Transcript::read)) and rendered for any
/// ([`Transcript::render`](crate::transcript::Transcript::render)).
///
/// Its JSON form, `{"version": 1, "messages": [...]}`, is for a host that stores a
/// conversation: each message is tagged by `role` (`system`, `user`, `assistant`, `tool`),
/// each part of the model's turn by `type` (`text`, `reasoning`, `call`), and a transcript of
/// another version is refused when read back.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Transcript {
    /// [`VERSION`], the form this transcript is written in.
    pub version: u32,
    /// The messages, in order.
    pub messages: Vec<Message>,
}

/// One message of a [`Transcript`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "role", rename_all = "snake_case")]
#[non_exhaustive]
pub enum Message {
    /// The host's instructions (a `system` or `developer` message, where the dialect keeps
    /// them in the history).
    System {
        /// What they say.
        text: String,
    },
    /// The user's message: its text, then its images and files.
    User {
        /// What the user wrote.
        text: String,
        /// Images and files after the text.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        media: Vec<Media>,
    },
    /// The model's turn: its text, reasoning and calls, in order.
    Assistant {
        /// What the turn holds.
        parts: Vec<Part>,
        /// The turn as its own dialect wrote it, sent back as it is when the conversation stays
        /// in that dialect and its ids do not change (reasoning signatures and anything else
        /// the provider wants back unchanged).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        native: Option<Native>,
    },
    /// The results of the calls of the model turn before it.
    #[serde(rename = "tool")]
    Results {
        /// One per call, each naming its call.
        results: Vec<Answered>,
    },
}

/// One part of the model's turn.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
#[non_exhaustive]
pub enum Part {
    /// Text the model wrote.
    Text {
        /// The text.
        text: String,
    },
    /// The model's reasoning, which only the dialect that made it takes back (signed or
    /// encrypted): moved to another dialect it is dropped or turned into text, as the host
    /// chooses, and reported as a [`Loss`].
    Reasoning {
        /// The reasoning's text, where the provider shows it (empty when redacted or
        /// encrypted).
        text: String,
        /// The dialect that made it.
        dialect: Dialect,
    },
    /// Something only the dialect that made it runs or reads back, such as a search the
    /// provider ran itself (Anthropic's `server_tool_use` and `tool_search_tool_result`
    /// blocks, Responses' `tool_search_call` and `tool_search_output` items): kept in the
    /// turn's native form, left out (a [`Loss`]) in another dialect.
    Provider {
        /// What the dialect calls it (its block or item `type`).
        kind: String,
        /// The dialect that made it.
        dialect: Dialect,
    },
    /// A call of a tool.
    Call {
        /// The call's id as sent (`None`: the dialect sent none, as older Gemini models do).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<String>,
        /// The tool's name.
        name: String,
        /// The arguments as sent: an object, or the JSON text when it was no object.
        arguments: Value,
    },
}

/// A call's result in a [`Message::Results`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Answered {
    /// The id of the call it answers (`None`: the dialect sent none; it then answers the first
    /// call of its `name` not yet answered).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// The name of the tool, where the dialect gives it with the result (Gemini).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The result.
    pub result: ToolResult,
}

/// A model turn as its own dialect wrote it (one message, or the output items of a Responses
/// turn).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Native {
    /// The dialect it was read from.
    pub dialect: Dialect,
    /// Its message(s), as read.
    pub messages: Vec<Value>,
}

/// What did not survive a move into another dialect, with the index of the message of the
/// [`Transcript`] it concerns.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[non_exhaustive]
pub enum Loss {
    /// Reasoning another dialect made, which the target cannot take: left out.
    ReasoningDropped {
        /// The message's index.
        message: usize,
        /// The dialect that made it.
        from: Dialect,
    },
    /// Reasoning another dialect made, sent as text in the model's turn instead.
    ReasoningAsText {
        /// The message's index.
        message: usize,
        /// The dialect that made it.
        from: Dialect,
    },
    /// Something only the dialect that made it reads back (a search the provider ran itself):
    /// left out.
    ProviderItemDropped {
        /// The message's index.
        message: usize,
        /// What the dialect calls it (its block or item `type`).
        item: String,
    },
    /// A call without a result (a turn that was cut off): answered with an error result, as
    /// every dialect wants each call answered.
    UnansweredCall {
        /// The index of the model turn that made it.
        message: usize,
        /// The tool's name.
        name: String,
    },
    /// A result whose call is not in the conversation: left out.
    ResultWithoutCall {
        /// The index of the message that held it.
        message: usize,
        /// The id it named (empty when it named none).
        id: String,
    },
    /// Media of a user message that the target's user messages cannot carry (a file for
    /// Cohere, audio for Anthropic): a text note naming it stands in for it.
    MediaAsNote {
        /// The message's index.
        message: usize,
        /// The medium's MIME type.
        mime_type: String,
    },
    /// Instructions the target keeps outside its messages (Anthropic's `system`, Gemini's
    /// `systemInstruction`, Bedrock's `system`): moved to [`Moved::system`](crate::transcript::Moved::system).
    SystemMovedOut {
        /// The message's index.
        message: usize,
    },
}

/// A history that could not be read as its dialect: which message, where in it, and what was
/// expected there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TranscriptError {
    /// The dialect the history was read as (`None`: a transcript's JSON form).
    pub dialect: Option<Dialect>,
    /// The index of the message (`None`: the transcript as a whole).
    pub message: Option<usize>,
    /// Where in the message (`content[2].type`).
    pub path: String,
    /// What was expected there, and what came.
    pub problem: String,
    /// Another dialect that reads the whole history, when one does: the history was most
    /// likely read as the wrong dialect.
    pub looks_like: Option<Dialect>,
}

impl fmt::Display for TranscriptError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.dialect, self.message) {
            (Some(dialect), Some(index)) => write!(
                f,
                "message {index} of the {dialect:?} history, at `{}`: {}",
                self.path, self.problem
            )?,
            _ => write!(f, "the transcript: {}", self.problem)?,
        }
        match self.looks_like {
            Some(other) => write!(
                f,
                " (this looks like a {other} history: read it with `Dialect::{}`)",
                other.variant_name()
            ),
            None => Ok(()),
        }
    }
}

impl std::error::Error for TranscriptError {}

/// A transcript being read from a dialect's history, one message at a time: what a provider
/// folder's reader adds to.
#[derive(Debug)]
pub(crate) struct History {
    pub(crate) dialect: Dialect,
    pub(crate) messages: Vec<Message>,
    /// The index of the message being read, for errors.
    pub(crate) at: usize,
}

impl History {
    pub(crate) fn new(dialect: Dialect) -> Self {
        Self {
            dialect,
            messages: Vec::new(),
            at: 0,
        }
    }

    /// The error of the message being read: at `path`, `problem`.
    pub(crate) fn error(
        &self,
        path: impl Into<String>,
        problem: impl Into<String>,
    ) -> TranscriptError {
        TranscriptError {
            dialect: Some(self.dialect),
            message: Some(self.at),
            path: path.into(),
            problem: problem.into(),
            looks_like: None,
        }
    }

    pub(crate) fn system(&mut self, text: String) {
        self.messages.push(Message::System { text });
    }

    pub(crate) fn user(&mut self, text: String, media: Vec<Media>) {
        self.messages.push(Message::User { text, media });
    }

    /// A model turn; `native` is the message (or item) read, which a model turn of several items
    /// (Responses) adds to the turn before it, with its parts.
    pub(crate) fn assistant(&mut self, parts: Vec<Part>, native: Value, continues: bool) {
        if continues {
            if let Some(Message::Assistant {
                parts: have,
                native: Some(turn),
            }) = self.messages.last_mut()
            {
                joined(have, parts);
                turn.messages.push(native);
                return;
            }
        }
        let mut have = Vec::with_capacity(parts.len());
        joined(&mut have, parts);
        self.messages.push(Message::Assistant {
            parts: have,
            native: Some(Native {
                dialect: self.dialect,
                messages: vec![native],
            }),
        });
    }

    /// A result, added to the results message it follows, or starting one.
    pub(crate) fn result(&mut self, id: Option<String>, name: Option<String>, result: ToolResult) {
        let answered = Answered { id, name, result };
        if let Some(Message::Results { results }) = self.messages.last_mut() {
            results.push(answered);
        } else {
            self.messages.push(Message::Results {
                results: vec![answered],
            });
        }
    }
}

/// `parts` added to `have`, a text right after a text joined to it (a format that splits the
/// model's text over parts, as Gemini's may, says one text).
fn joined(have: &mut Vec<Part>, parts: Vec<Part>) {
    for part in parts {
        if let (Some(Part::Text { text: last }), Part::Text { text }) = (have.last_mut(), &part) {
            last.push_str(text);
            continue;
        }
        have.push(part);
    }
}
