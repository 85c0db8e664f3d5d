//! [`ApprovalError`]: why a pending turn or its answers could not be resumed.

use std::fmt;

/// Why [`Toolkit::resume`](crate::Toolkit::resume) or
/// [`PendingTurn::from_json`](crate::PendingTurn::from_json) refused: nothing was run. Each one
/// that concerns one call names it by its key ([`PendingCall::key`](crate::PendingCall::key):
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
    /// An answer was given for other arguments than the call has: its digest differs (or it
    /// carries none).
    OtherArguments {
        /// The call.
        call: String,
    },
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
    /// A call's arguments in the pending turn's JSON do not match its digest: they were edited
    /// after the turn was read.
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
    pub fn call(&self) -> Option<&str> {
        match self {
            Self::UnknownCall { call }
            | Self::SecondAnswer { call }
            | Self::AlreadyDone { call }
            | Self::OtherArguments { call }
            | Self::Unanswered { call }
            | Self::Tampered { call } => Some(call),
            Self::Version { .. } | Self::Malformed { .. } => None,
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
                "the answer to call `{call}` was given for other arguments than the call has \
                 (the digests differ); ask again with these arguments"
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
                "the arguments of call `{call}` do not match its digest: the pending turn was \
                 edited after it was read"
            ),
            Self::Malformed { reason } => write!(f, "not a pending turn: {reason}"),
        }?;
        f.write_str("; nothing was run")
    }
}

impl std::error::Error for ApprovalError {}

/// The format version of a pending turn's JSON.
pub(crate) const VERSION: u64 = 1;
