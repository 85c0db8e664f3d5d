//! A [`PendingTurn`]'s JSON form, version 2 (the approval guide documents it):
//!
//! ```json
//! {"version": 2, "dialect": "OpenAiChat", "nonce": "…32 hex digits…", "modelTurn": [...],
//!  "calls": [{"id": "call_1", "name": "list", "argumentsText": "{\"path\":\"/tmp\"}",
//!             "digest": "…", "status": "ready"},
//!            {"id": "call_2", "name": "rm", "arguments": {"path": "/tmp/x"},
//!             "digest": "…", "status": "awaiting", "prompt": "…"}]}
//! ```
//!
//! A call of a streamed turn that already ran is `"status": "done"` with its `"result"`
//! (`ToolResult`'s serde form).
//!
//! The sealed form ends with one more member, `"seal"` (see `seal`).
//!
//! Reading it back checks the version and recomputes every digest; read without a key, it also
//! checks the calls against the model turn (`derive`).

use std::borrow::Cow;

use serde::de::Error as _;
use serde::ser::SerializeStruct;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;

use super::{derive, digest, seal, PendingCall, PendingTurn, SealKey, Status, Trust};
use crate::values::approval::{ApprovalError, VERSION};
use crate::values::call::{Arguments, CallKind, ToolCall};
use crate::values::dialect::Dialect;
use crate::values::result::ToolResult;

/// About the length of [`PendingTurn::to_json`]'s text, so that it is written into one
/// allocation: the arguments (twice: in the model's turn and in the calls, escaped) and the
/// fixed members of each call.
pub(super) fn size_hint(turn: &PendingTurn) -> usize {
    let arguments: usize = turn
        .calls
        .iter()
        .map(|c| match &c.call.arguments {
            Arguments::Text(text) => text.len(),
            _ => 64,
        })
        .sum();
    256 + 3 * arguments + 256 * turn.calls.len()
}

/// A pending turn read from unsealed text: checked against its model turn.
pub(super) fn parse(text: &str) -> Result<PendingTurn, ApprovalError> {
    read(text)?.unsealed()
}

/// A pending turn read from text sealed with `key`: its seal checked before it is read.
pub(super) fn parse_sealed(text: &str, key: &SealKey) -> Result<PendingTurn, ApprovalError> {
    seal::open(text, key)?;
    let stored = read(text)?;
    if stored.seal.is_none() {
        return Err(ApprovalError::BadSeal);
    }
    let mut turn = stored.check(Digests::Sealed)?;
    turn.trust = Trust::Sealed;
    Ok(turn)
}

fn read(text: &str) -> Result<Stored<'_>, ApprovalError> {
    match serde_json::from_str::<Stored>(text) {
        Ok(stored) => Ok(stored),
        Err(error) => {
            // Another version may have another shape: its number is the better error.
            let version = match serde_json::from_str::<Value>(text) {
                Ok(Value::Object(object)) => Some(object.get("version").and_then(Value::as_u64)),
                _ => None,
            };
            match version {
                Some(version) if version != Some(VERSION) => Err(ApprovalError::Version {
                    found: version.unwrap_or(0),
                }),
                _ => Err(ApprovalError::Malformed {
                    reason: error.to_string(),
                }),
            }
        }
    }
}

impl Serialize for PendingTurn {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut turn = serializer.serialize_struct("PendingTurn", 5)?;
        turn.serialize_field("version", &VERSION)?;
        turn.serialize_field("dialect", Dialect::variant_name(self.dialect))?;
        turn.serialize_field("nonce", &digest::hex(&self.nonce))?;
        turn.serialize_field("modelTurn", &self.model_turn)?;
        turn.serialize_field("calls", &self.calls)?;
        turn.end()
    }
}

impl Serialize for PendingCall {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let call = &self.call;
        let mut out = serializer.serialize_struct("PendingCall", 7)?;
        if let Some(id) = &call.id {
            out.serialize_field("id", id)?;
        }
        out.serialize_field("name", &call.name)?;
        if let CallKind::Unsupported(kind) = &call.kind {
            out.serialize_field("type", kind)?;
        }
        match &call.arguments {
            Arguments::Absent => {}
            Arguments::Text(text) => out.serialize_field("argumentsText", text)?,
            Arguments::Value(value) => out.serialize_field("arguments", value)?,
        }
        let digits = digest::hex_digits(&self.digest);
        out.serialize_field("digest", std::str::from_utf8(&digits).unwrap_or_default())?;
        match &self.status {
            Status::Ready => out.serialize_field("status", "ready")?,
            Status::Awaiting { prompt } => {
                out.serialize_field("status", "awaiting")?;
                out.serialize_field("prompt", prompt)?;
            }
            Status::Refused { reason } => {
                out.serialize_field("status", "refused")?;
                out.serialize_field("reason", reason)?;
            }
            Status::Done { result } => {
                out.serialize_field("status", "done")?;
                out.serialize_field("result", result)?;
            }
        }
        out.end()
    }
}

impl<'de> Deserialize<'de> for PendingTurn {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Stored::<'de>::deserialize(deserializer)?
            .unsealed()
            .map_err(D::Error::custom)
    }
}

/// Where a stored turn's digests come from.
#[derive(Clone, Copy)]
enum Digests {
    /// Derived again from each call, and refused unless they match the stored ones.
    Derived,
    /// Read as stored: the turn's seal held.
    Sealed,
}

/// The JSON form as read, before it is checked. What the pending turn does not keep (the
/// dialect's name, each call's digest and status) is borrowed from the text when it has no
/// escapes.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Stored<'a> {
    version: u64,
    #[serde(borrow)]
    dialect: Cow<'a, str>,
    #[serde(borrow)]
    nonce: Cow<'a, str>,
    model_turn: Vec<Value>,
    #[serde(borrow)]
    calls: Vec<StoredCall<'a>>,
    /// The sealed form's seal (checked on the text before it is read).
    #[serde(borrow, default)]
    seal: Option<Cow<'a, str>>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct StoredCall<'a> {
    id: Option<String>,
    name: String,
    #[serde(rename = "type")]
    kind: Option<String>,
    arguments_text: Option<String>,
    arguments: Option<Value>,
    #[serde(borrow)]
    digest: Cow<'a, str>,
    #[serde(borrow)]
    status: Cow<'a, str>,
    prompt: Option<String>,
    reason: Option<String>,
    result: Option<ToolResult>,
}

impl Stored<'_> {
    /// The turn of unsealed text: refused when it carries a seal (its key must check it), and
    /// checked against its model turn.
    fn unsealed(self) -> Result<PendingTurn, ApprovalError> {
        if self.seal.is_some() {
            return Err(ApprovalError::Malformed {
                reason: "this pending turn is sealed: read it with \
                         `PendingTurn::from_sealed_json` and its key"
                    .to_owned(),
            });
        }
        let mut turn = self.check(Digests::Derived)?;
        derive::check(turn.dialect, &turn.model_turn, &turn.calls)?;
        turn.trust = Trust::Read;
        Ok(turn)
    }

    /// The turn as written, its calls' digests derived again and compared with the stored
    /// ones, or (`Digests::Sealed`, the seal held) taken as stored: the seal covers them, and
    /// only a holder of the key wrote them.
    fn check(self, digests: Digests) -> Result<PendingTurn, ApprovalError> {
        if self.version != VERSION {
            return Err(ApprovalError::Version {
                found: self.version,
            });
        }
        let malformed = |reason: String| ApprovalError::Malformed { reason };
        let dialect = Dialect::ALL
            .iter()
            .copied()
            .find(|d| d.variant_name() == self.dialect.as_ref())
            .ok_or_else(|| malformed(format!("unknown dialect `{}`", self.dialect)))?;
        let nonce = digest::parse_hex::<16>(&self.nonce)
            .ok_or_else(|| malformed("`nonce` is not 32 hex digits".to_owned()))?;
        let mut calls: Vec<PendingCall> = Vec::with_capacity(self.calls.len());
        for (i, stored) in self.calls.into_iter().enumerate() {
            let arguments = match (stored.arguments_text, stored.arguments) {
                (Some(text), None) => Arguments::Text(text),
                (None, Some(value)) => Arguments::Value(value),
                (None, None) => Arguments::Absent,
                (Some(_), Some(_)) => {
                    return Err(malformed(format!(
                        "call {i} has both `arguments` and `argumentsText`"
                    )))
                }
            };
            let status = match (stored.status.as_ref(), stored.prompt, stored.reason) {
                ("ready", _, _) => Status::Ready,
                ("awaiting", prompt, _) => Status::Awaiting {
                    prompt: prompt.unwrap_or_default(),
                },
                ("refused", _, reason) => Status::Refused {
                    reason: reason.unwrap_or_default(),
                },
                ("done", _, _) => Status::Done {
                    result: stored.result.ok_or_else(|| {
                        malformed(format!("call {i} is `done` without its `result`"))
                    })?,
                },
                (other, _, _) => return Err(malformed(format!("call {i} has status `{other}`"))),
            };
            let call = ToolCall {
                id: stored.id,
                name: stored.name,
                arguments,
                kind: stored
                    .kind
                    .map_or(CallKind::Function, CallKind::Unsupported),
            };
            let earlier = call.id.is_some() && calls.iter().any(|c| c.call.id == call.id);
            let checked = match digests {
                Digests::Derived => {
                    let checked = PendingCall::new(&nonce, call, i, earlier, status);
                    if !digest::matches(&checked.digest, &stored.digest) {
                        return Err(ApprovalError::Tampered { call: checked.key });
                    }
                    checked
                }
                Digests::Sealed => {
                    let digest = digest::parse_hex::<32>(&stored.digest).ok_or_else(|| {
                        malformed(format!("call {i}'s `digest` is not 64 hex digits"))
                    })?;
                    PendingCall::with_digest(&nonce, call, i, earlier, status, digest)
                }
            };
            calls.push(checked);
        }
        Ok(PendingTurn {
            dialect,
            model_turn: self.model_turn,
            calls,
            nonce,
            trust: Trust::Made,
        })
    }
}
