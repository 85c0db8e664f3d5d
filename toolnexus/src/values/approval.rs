//! [`ApprovalError`]: why a pending turn or its answers could not be resumed.

use std::fmt;

/// Why [`Toolkit::resume`](crate::Toolkit::resume) or
/// [`PendingTurn::from_json`](crate::approval::PendingTurn::from_json) refused: nothing was run. Each one
/// that concerns one call names it by its key ([`PendingCall::key`](crate::approval::PendingCall::key):
/// the call's id, or `#N` for the call at position N of a turn without ids).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ApprovalError {
    /// An answer names a call the pending turn does not have.
    UnknownCall {
        /// The key the answer gave.
        call: String,
    },
    /// Two answers for one call.
    SecondAnswer {
        /// The call answered twice.
        call: String,
    },
    /// An answer was given for another call than this one: its digest differs (other
    /// arguments, or another turn or tool when the answer does not say which it was given for).
    OtherArguments {
        /// The call.
        call: String,
    },
    /// An answer carries no digest, so it cannot say which arguments it was given for.
    MissingDigest {
        /// The call.
        call: String,
    },
    /// An answer was given for a call of another pending turn: the turn it names (its
    /// `data.turn`, [`PendingTurn::nonce`](crate::approval::PendingTurn::nonce)) is not this one.
    OtherTurn {
        /// The call.
        call: String,
    },
    /// An answer was given for another tool than the call's (its `data.tool`).
    OtherTool {
        /// The call.
        call: String,
    },
    /// A call the host approved names a tool the resuming toolkit does not have: the approval
    /// would silently become an "unknown tool" error result.
    UnknownTool {
        /// The call.
        call: String,
        /// The tool it names.
        tool: String,
    },
    /// This pending turn (its [`nonce`](crate::approval::PendingTurn::nonce)) was already resumed in
    /// this process: resuming it again would run its calls twice.
    AlreadyResumed,
    /// A stored pending turn read without a key ([`PendingTurn::from_json`](crate::approval::PendingTurn::from_json))
    /// says something the resuming toolkit cannot confirm: its calls are not its model turn's,
    /// or a call says it is done although the policy would ask about it or refuse it.
    Forged {
        /// The call (its key), or `"modelTurn"` when the calls do not match the turn at all.
        call: String,
        /// What disagrees.
        reason: String,
    },
    /// A sealed pending turn's seal is missing or is not the key's over its text
    /// ([`PendingTurn::from_sealed_json`](crate::approval::PendingTurn::from_sealed_json)): it was edited, or
    /// sealed with another key.
    BadSeal,
    /// An answer names a call that already has its result (it ran while a streamed response
    /// arrived): it is not run again, and takes no answer.
    AlreadyDone {
        /// The call.
        call: String,
    },
    /// A call the policy asks about has no answer.
    Unanswered {
        /// The call.
        call: String,
    },
    /// The pending turn's JSON has a format version this toolkit does not read.
    Version {
        /// The version found (`0` when none was).
        found: u64,
    },
    /// A call in the pending turn's JSON does not match its digest (its key, name, kind or
    /// arguments were edited after the turn was read). An unkeyed digest catches an edit made
    /// by mistake, not one made on purpose: see [`ApprovalError::Forged`] and the sealed form.
    Tampered {
        /// The call.
        call: String,
    },
    /// The JSON is not a pending turn.
    Malformed {
        /// What is wrong, as the JSON reader said it.
        reason: String,
    },
}

impl ApprovalError {
    /// The call it names, if any.
    #[must_use]
    pub fn call(&self) -> Option<&str> {
        match self {
            Self::UnknownCall { call }
            | Self::SecondAnswer { call }
            | Self::AlreadyDone { call }
            | Self::OtherArguments { call }
            | Self::Unanswered { call }
            | Self::Tampered { call }
            | Self::MissingDigest { call }
            | Self::OtherTurn { call }
            | Self::OtherTool { call }
            | Self::UnknownTool { call, .. }
            | Self::Forged { call, .. } => Some(call),
            Self::Version { .. }
            | Self::Malformed { .. }
            | Self::AlreadyResumed
            | Self::BadSeal => None,
        }
    }
}

impl fmt::Display for ApprovalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::UnknownCall { call } => write!(
                f,
                "an answer names call `{call}`, which this pending turn does not have"
            ),
            Self::SecondAnswer { call } => {
                write!(f, "call `{call}` has two answers; give one answer per call")
            }
            Self::AlreadyDone { call } => write!(
                f,
                "call `{call}` already has its result (it ran while the stream arrived) and takes \
                 no answer; answer only the calls that await one"
            ),
            Self::OtherArguments { call } => write!(
                f,
                "the answer to call `{call}` was given for another call or other arguments \
                 than this call has (the digests differ); ask again for this call"
            ),
            Self::MissingDigest { call } => write!(
                f,
                "the answer to call `{call}` carries no digest (`data.digest`), so it cannot say \
                 which arguments it approves; answer with the digest of the call's request"
            ),
            Self::OtherTurn { call } => write!(
                f,
                "the answer to call `{call}` was given for another pending turn (its \
                 `data.turn` is not this turn's nonce); answer this turn's requests"
            ),
            Self::OtherTool { call } => write!(
                f,
                "the answer to call `{call}` was given for another tool than the call's (its \
                 `data.tool` differs); ask again for this call"
            ),
            Self::UnknownTool { call, tool } => write!(
                f,
                "call `{call}` was approved, but this toolkit has no tool `{tool}`; resume with \
                 the toolkit the turn was read with"
            ),
            Self::AlreadyResumed => f.write_str(
                "this pending turn was already resumed; a pending turn runs once (claim the \
                 stored turn before resuming it, see the approval guide)",
            ),
            Self::Forged { call, reason } => write!(
                f,
                "the stored pending turn is not what its model turn and this toolkit's policy \
                 say (call `{call}`: {reason}); read it again from the response, or store it \
                 sealed"
            ),
            Self::BadSeal => f.write_str(
                "the sealed pending turn's seal does not match its text under this key: it was \
                 edited, or sealed with another key",
            ),
            Self::Unanswered { call } => write!(
                f,
                "call `{call}` awaits the host's answer; answer every call that asks"
            ),
            Self::Version { found } => write!(
                f,
                "this pending turn has format version {found}; this toolkit reads version {}",
                crate::values::approval::VERSION
            ),
            Self::Tampered { call } => write!(
                f,
                "call `{call}` does not match its digest: the pending turn was edited after it \
                 was read"
            ),
            Self::Malformed { reason } => write!(f, "not a pending turn: {reason}"),
        }?;
        f.write_str("; nothing was run")
    }
}

impl std::error::Error for ApprovalError {}

/// The format version of a pending turn's JSON.
pub(crate) const VERSION: u64 = 2;
