//! Calls that wait for the host: the [`PendingTurn`] and every inherent method it has (here),
//! each call's place in it ([`PendingCall`], [`Status`]), the host's answers ([`Answer`],
//! `answer`), the pending turn's JSON form (`json`) and the digest each answer is bound to
//! (`digest`). [`Toolkit::respond_gated`](crate::Toolkit::respond_gated)(crate::Toolkit::respond_gated) reads a response under
//! the toolkit's [`Policy`](crate::Policy) into one when some call asks (a streamed one is read
//! by [`StreamTurn::finish_gated`](crate::StreamTurn::finish_gated)), both from the calls'
//! `statuses` and `PendingTurn::of`, and [`Toolkit::resume`](crate::Toolkit::resume)(crate::Toolkit::resume) runs it.
//! Nothing here imports the toolkit: what the statuses need of one, its policy's word on a call,
//! is the [`Gatekeeper`] it implements.

mod answer;
mod digest;
mod json;

use serde_json::Value;

use crate::policy::Gate;
use crate::turn::batch;
use crate::turn::Turn;
use crate::values::call::{Arguments, ToolCall};
use crate::values::dialect::Dialect;
use crate::values::error::Error;
use crate::values::result::ToolResult;

pub use answer::{Answer, AnswerReason, Request};

/// What [`Toolkit::respond_gated`](crate::Toolkit::respond_gated) (a whole response) and
/// [`StreamTurn::finish_gated`](crate::StreamTurn::finish_gated) (a streamed one) give: the
/// turn, when no call waits for the host, or the pending turn to answer.
#[derive(Debug, Clone, PartialEq)]
#[allow(clippy::large_enum_variant)]
pub enum Gated {
    /// No call asked: the calls ran (or were refused), as [`Toolkit::respond`](crate::Toolkit::respond) runs them.
    Ran(Turn),
    /// Some call asks: none of the calls that ask has run. Answer them, then
    /// [`Toolkit::resume`](crate::Toolkit::resume). From a whole response nothing has run yet; from a stream the calls
    /// the policy let run already have (they are [`Status::Done`], with their results).
    Pending(PendingTurn),
}

/// A model response whose calls wait for the host: each call is ready (it will run), awaiting
/// the host's answer, refused by the policy, or (read from a stream) done, with its result.
///
/// Read with [`Toolkit::respond_gated`](crate::Toolkit::respond_gated), answered with one [`Answer`] per awaiting call and run
/// with [`Toolkit::resume`](crate::Toolkit::resume), in this process or another one: it is `Serialize + Deserialize`
/// ([`PendingTurn::to_json`], [`PendingTurn::from_json`]), in the versioned JSON form the
/// [approval guide](crate::guide::approval) documents. Each call keeps its arguments exactly as
/// the model sent them, with a digest of them that every answer must repeat.
#[derive(Debug, Clone, PartialEq)]
pub struct PendingTurn {
    pub(crate) dialect: Dialect,
    pub(crate) model_turn: Vec<Value>,
    pub(crate) calls: Vec<PendingCall>,
}

/// One call of a [`PendingTurn`].
#[derive(Debug, Clone, PartialEq)]
pub struct PendingCall {
    pub(crate) call: ToolCall,
    pub(crate) key: String,
    pub(crate) digest: digest::Digest,
    pub(crate) status: Status,
}

/// Where a call of a [`PendingTurn`] stands.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Status {
    /// It will run when the turn is resumed.
    Ready,
    /// It waits for the host's [`Answer`]; the prompt is the [`Policy`](crate::Policy)'s.
    Awaiting {
        /// What to show whoever decides.
        prompt: String,
    },
    /// It will not run: the model reads this reason as an error result.
    Refused {
        /// Why (the policy's reason, a duplicate call id, a call type that never runs).
        reason: String,
    },
    /// It already has its result: it ran while a streamed response was still arriving
    /// ([`StreamTurn::finish_gated`](crate::StreamTurn::finish_gated)), or was answered without
    /// running (arguments over the limits). Resuming keeps this result and never runs the call
    /// again; it takes no answer.
    Done {
        /// The result, as the call gave it (the resumed [`Turn`] holds it to the limits and
        /// renders it like any other).
        result: ToolResult,
    },
}

impl PendingTurn {
    /// The dialect the response was read as.
    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    /// Every call of the turn, in call order.
    pub fn calls(&self) -> &[PendingCall] {
        &self.calls
    }

    /// The calls that wait for an answer, in call order.
    pub fn awaiting(&self) -> impl Iterator<Item = &PendingCall> + '_ {
        self.calls
            .iter()
            .filter(|c| matches!(c.status, Status::Awaiting { .. }))
    }

    /// The call with this key ([`PendingCall::key`]).
    pub fn call(&self, key: &str) -> Option<&PendingCall> {
        self.calls.iter().find(|c| c.key == key)
    }

    /// The model's own turn, which the next request repeats before the results.
    pub fn model_turn(&self) -> &[Value] {
        &self.model_turn
    }

    /// The pending turn as JSON text (its versioned form; see the
    /// [approval guide](crate::guide::approval)).
    pub fn to_json(&self) -> String {
        let mut out = Vec::with_capacity(json::size_hint(self));
        // Writing into a `Vec` cannot fail, and serde_json writes UTF-8.
        let _ = serde_json::to_writer(&mut out, self);
        String::from_utf8(out).unwrap_or_default()
    }

    /// A pending turn read back from [`PendingTurn::to_json`]'s text (stored, sent to another
    /// process). Refused with [`Error::Approval`]: text that is no pending turn, another format
    /// version, and a call whose arguments do not match its digest (edited since).
    pub fn from_json(text: &str) -> Result<Self, Error> {
        Ok(json::parse(text)?)
    }

    /// The pending turn of `calls` (read as `dialect`, the model's turn `model_turn`), each
    /// with its status.
    pub(crate) fn of(
        dialect: Dialect,
        model_turn: Vec<Value>,
        calls: Vec<ToolCall>,
        statuses: Vec<Status>,
    ) -> Self {
        let mut pending: Vec<PendingCall> = Vec::with_capacity(calls.len());
        for (i, (call, status)) in calls.into_iter().zip(statuses).enumerate() {
            let earlier = call.id.is_some() && pending.iter().any(|c| c.call.id == call.id);
            pending.push(PendingCall::new(call, i, earlier, status));
        }
        Self {
            dialect,
            model_turn,
            calls: pending,
        }
    }
}

/// What a pending turn needs of a toolkit: its policy's gate for a call (run, when it has none).
/// [`Toolkit`](crate::Toolkit) implements it; so this folder imports nothing from the toolkit's.
pub(crate) trait Gatekeeper {
    /// The policy's gate for `call`.
    fn gate_of(&self, call: &ToolCall) -> Gate;
}

/// Where each of a turn's `calls` stands under `toolkit`'s policy, before anything ran: a call
/// of a type that never runs and a call whose id an earlier one has are refused, the others as
/// the policy's gate says.
pub(crate) fn statuses(toolkit: &impl Gatekeeper, calls: &[ToolCall]) -> Vec<Status> {
    calls
        .iter()
        .enumerate()
        .map(|(i, call)| {
            let earlier = call.id.is_some() && calls[..i].iter().any(|c| c.id == call.id);
            match batch::unsupported(call) {
                Some(refused) => Status::Refused {
                    reason: refused.output,
                },
                None if earlier => Status::Refused {
                    reason: batch::duplicate(call).output,
                },
                None => match toolkit.gate_of(call) {
                    Gate::Run => Status::Ready,
                    Gate::Ask(prompt) => Status::Awaiting { prompt },
                    Gate::Refuse(reason) => Status::Refused { reason },
                },
            }
        })
        .collect()
}

impl PendingCall {
    /// A call at position `index`; `earlier`: an earlier call of the turn has its id.
    pub(crate) fn new(call: ToolCall, index: usize, earlier: bool, status: Status) -> Self {
        let key = match &call.id {
            Some(id) if !earlier => id.clone(),
            _ => format!("#{index}"),
        };
        Self {
            digest: digest::of(&call.arguments),
            call,
            key,
            status,
        }
    }

    /// What answers name this call by: its id, or `#N` (N its position in the turn, from 0)
    /// for a call without one (Gemini may send none) or whose id an earlier call has.
    pub fn key(&self) -> &str {
        &self.key
    }

    /// The call, with its arguments exactly as the model sent them.
    pub fn call(&self) -> &ToolCall {
        &self.call
    }

    /// The tool the model called.
    pub fn name(&self) -> &str {
        &self.call.name
    }

    /// The arguments, as the model sent them.
    pub fn arguments(&self) -> &Arguments {
        &self.call.arguments
    }

    /// The SHA-256 digest of the arguments' canonical text, as 64 hex digits: an answer repeats
    /// it, so that it cannot be presented for other arguments.
    pub fn digest(&self) -> String {
        digest::hex(&self.digest)
    }

    /// Whether `hex` (an answer's digest) is this call's.
    pub(crate) fn has_digest(&self, hex: &str) -> bool {
        digest::matches(&self.digest, hex)
    }

    /// Where the call stands.
    pub fn status(&self) -> &Status {
        &self.status
    }

    /// The question to put to whoever decides, for an awaiting call (`None` otherwise), in the
    /// shape of the Python `toolnexus` package's `Request`.
    pub fn request(&self) -> Option<Request> {
        match &self.status {
            Status::Awaiting { prompt } => Some(Request::for_call(self, prompt)),
            _ => None,
        }
    }
}
