//! The host's side of a pending call: the [`Request`] to show whoever decides, and their
//! [`Answer`], in the JSON shapes of the Python `toolnexus` package (`Request{id, kind, prompt,
//! data, expiresAt}`, `Answer{id, ok, data, reason}`).

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use super::PendingCall;
use crate::values::call::Arguments;
use crate::values::result::{Failure, ToolResult};

/// The question an awaiting call puts to whoever decides ([`PendingCall::request`]): the Python
/// package's `Request`, with `kind` `"approval"` and `data` holding the tool's name, the
/// arguments as the model sent them (`arguments`: JSON text stays a string), the turn's nonce
/// (`turn`) and the call's `digest`, which binds it to its turn, key, tool and arguments.
///
/// ```json
/// {"id": "call_2", "kind": "approval", "prompt": "`rm` may destroy data (its hints say so); allow this call?",
///  "data": {"tool": "rm", "arguments": "{\"path\":\"/tmp/x\"}", "turn": "9e1d…", "digest": "5f2c…"}}
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Request {
    /// The call's key ([`PendingCall::key`]); the answer repeats it.
    pub id: String,
    /// `"approval"`.
    pub kind: String,
    /// What to show whoever decides: the policy's prompt.
    pub prompt: String,
    /// `{"tool", "arguments", "turn", "digest"}`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<Value>,
    /// When the question lapses (RFC 3339), if the host sets one; never set by this crate.
    #[serde(rename = "expiresAt", default, skip_serializing_if = "Option::is_none")]
    pub expires_at: Option<String>,
}

impl Request {
    pub(crate) fn for_call(call: &PendingCall, prompt: &str) -> Self {
        let arguments = match call.arguments() {
            Arguments::Absent => Value::Null,
            Arguments::Text(text) => Value::String(text.clone()),
            Arguments::Value(value) => value.clone(),
        };
        Self {
            id: call.key.clone(),
            kind: "approval".to_owned(),
            prompt: prompt.to_owned(),
            data: Some(
                json!({"tool": call.name(), "arguments": arguments, "turn": call.turn(),
                       "digest": call.digest()}),
            ),
            expires_at: None,
        }
    }
}

/// Why an answer says no: the Python package's `reason` (`declined`, `cancelled`, `expired`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum AnswerReason {
    /// Whoever decides said no.
    Declined,
    /// The question was dismissed.
    Cancelled,
    /// No answer came in time.
    Expired,
}

/// The host's answer to one call of a [`PendingTurn`](super::PendingTurn): approve it, approve
/// it with other arguments, or deny it with a message the model reads.
///
/// Bound to the call it was given for: its key, and the digest of that call of that turn
/// ([`PendingCall::digest`]: the turn's nonce, the key, the tool, its kind and arguments).
/// [`Toolkit::resume`](crate::Toolkit::resume) refuses an answer without a digest, or whose
/// digest is not the call's, and names what differs when the answer says its turn and tool.
/// Its JSON is the Python package's `Answer`:
/// `{"id", "ok", "data": {"turn", "tool", "digest", "arguments"?, "message"?}, "reason"?}`.
///
/// ```
/// use serde_json::json;
/// use toolnexus::approval::{Answer, AnswerReason};
///
/// let answer: Answer = serde_json::from_value(json!({"id": "call_2", "ok": false,
///     "reason": "declined", "data": {"digest": "00", "message": "not that folder"}}))?;
/// assert_eq!(answer.id(), "call_2");
/// assert!(!answer.approves());
/// assert_eq!(answer.reason(), Some(AnswerReason::Declined));
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Answer {
    id: String,
    ok: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    data: Option<AnswerData>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    reason: Option<AnswerReason>,
}

/// An answer's `data`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct AnswerData {
    /// The nonce of the turn it was given for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    turn: Option<String>,
    /// The tool of the call it was given for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    tool: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    digest: Option<String>,
    /// Approved with these arguments instead of the model's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    arguments: Option<Value>,
    /// Denied: what the model reads.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    message: Option<String>,
}

impl Answer {
    /// Approves `call` as the model made it.
    #[must_use]
    pub fn approve(call: &PendingCall) -> Self {
        Self::new(call, true, None, None, None)
    }

    /// Approves `call` with `arguments` instead of the model's. They are judged like the
    /// model's own: limits, the policy's rules (a rule that refuses them refuses the call, the
    /// approval notwithstanding), decoding into the tool's types, hooks; bad ones are an error
    /// result the model reads.
    #[must_use]
    pub fn approve_with(call: &PendingCall, arguments: Value) -> Self {
        Self::new(call, true, Some(arguments), None, None)
    }

    /// Denies `call`; the model reads `message` as the call's error result.
    pub fn deny(call: &PendingCall, message: impl Into<String>) -> Self {
        let reason = Some(AnswerReason::Declined);
        Self::new(call, false, None, Some(message.into()), reason)
    }

    fn new(
        call: &PendingCall,
        ok: bool,
        arguments: Option<Value>,
        message: Option<String>,
        reason: Option<AnswerReason>,
    ) -> Self {
        let data = AnswerData {
            turn: Some(call.turn()),
            tool: Some(call.name().to_owned()),
            digest: Some(call.digest()),
            arguments,
            message,
        };
        Self {
            id: call.key.clone(),
            ok,
            data: Some(data),
            reason,
        }
    }

    /// The key of the call it answers.
    #[must_use]
    pub fn id(&self) -> &str {
        &self.id
    }

    /// Whether it approves the call.
    #[must_use]
    pub fn approves(&self) -> bool {
        self.ok
    }

    /// Why it says no, if it gives a reason.
    #[must_use]
    pub fn reason(&self) -> Option<AnswerReason> {
        self.reason
    }

    /// The digest of the call it was given for.
    pub(crate) fn digest(&self) -> Option<&str> {
        self.data.as_ref()?.digest.as_deref()
    }

    /// The nonce of the turn it says it was given for.
    pub(crate) fn turn(&self) -> Option<&str> {
        self.data.as_ref()?.turn.as_deref()
    }

    /// The tool it says it was given for.
    pub(crate) fn tool(&self) -> Option<&str> {
        self.data.as_ref()?.tool.as_deref()
    }

    /// The arguments it approves instead of the model's.
    pub(crate) fn edited(&self) -> Option<&Value> {
        self.data.as_ref()?.arguments.as_ref()
    }

    /// The error result a denied call of `tool` gets.
    pub(crate) fn denial(&self, tool: &str) -> ToolResult {
        let message = self.data.as_ref().and_then(|d| d.message.as_deref());
        let why = match (message, self.reason) {
            (Some(message), _) => message,
            (None, Some(AnswerReason::Cancelled)) => "the request for approval was cancelled",
            (None, Some(AnswerReason::Expired)) => "the request for approval expired",
            (None, _) => "the host declined this call",
        };
        ToolResult::failed(format!("`{tool}` was not run: {why}"), Failure::Refused)
    }
}
