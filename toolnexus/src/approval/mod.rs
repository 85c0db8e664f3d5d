//! Approval: calls that wait for the host before they run.
//!
//! Under a [`Policy`](crate::Policy) that asks (a destructive tool, say),
//! [`Toolkit::respond_gated`](crate::Toolkit::respond_gated) (or, streamed,
//! [`StreamTurn::finish_gated`](crate::stream::StreamTurn::finish_gated)) gives [`Gated::Pending`]: a
//! [`PendingTurn`] whose [`PendingCall`]s each have a [`Status`] and, when they wait, a
//! [`Request`] to put to whoever decides. The host answers each one with an [`Answer`] and runs
//! the turn with [`Toolkit::resume`](crate::Toolkit::resume), in this process or another (the
//! turn's JSON form, sealed with a [`SealKey`] for a store the host does not trust). What is
//! refused, and why, is an [`ApprovalError`]. The [approval guide](crate::guide::approval)
//! walks through it.
//
// Inside: the `PendingTurn` and every inherent method it has (here), the host's answers
// (`answer`), the JSON form (`json`), the seal (`seal`), the digest each answer is bound to
// (`digest`), the once-only claim (`claim`) and what a stored turn re-derives (`derive`).
// Nothing here imports the toolkit: what the statuses need of one, its policy's word on a
// call, is the `Gatekeeper` it implements.

mod answer;
mod claim;
mod derive;
mod digest;
mod json;
mod seal;

use serde_json::Value;

use crate::policy::Gate;
use crate::turn::batch;
use crate::turn::Turn;
use crate::values::call::{Arguments, ToolCall};
use crate::values::dialect::Dialect;
use crate::values::error::Error;
use crate::values::result::ToolResult;

pub use answer::{Answer, AnswerReason, Request};
pub(crate) use claim::claim;
pub use seal::SealKey;

pub use crate::values::approval::ApprovalError;

/// What [`Toolkit::respond_gated`](crate::Toolkit::respond_gated) (a whole response) and
/// [`StreamTurn::finish_gated`](crate::stream::StreamTurn::finish_gated) (a streamed one) give: the
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
/// [approval guide](crate::guide::approval) documents, or sealed with the host's key
/// ([`PendingTurn::to_sealed_json`]) for a store it does not trust. Each call keeps its
/// arguments exactly as the model sent them, with a digest that binds them to the turn (its
/// random [`nonce`](PendingTurn::nonce)), the call's key, tool and kind: every answer repeats
/// it, so it approves this call of this turn only. A turn is resumed once.
#[derive(Debug, Clone)]
pub struct PendingTurn {
    pub(crate) dialect: Dialect,
    pub(crate) model_turn: Vec<Value>,
    pub(crate) calls: Vec<PendingCall>,
    pub(crate) nonce: digest::Nonce,
    pub(crate) trust: Trust,
}

/// Where a pending turn comes from, which says what `resume` may take from it as written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Trust {
    /// Made in this process from a response: all of it is the toolkit's own.
    Made,
    /// Read from unsealed JSON: checked against its model turn when read, and a `done` call is
    /// kept only when the resuming policy would run it without asking.
    Read,
    /// Read from sealed JSON whose seal holds: written by a holder of the key.
    Sealed,
}

/// Two pending turns are equal when they say the same: where each came from (made, read,
/// opened) does not count.
impl PartialEq for PendingTurn {
    fn eq(&self, other: &Self) -> bool {
        self.dialect == other.dialect
            && self.nonce == other.nonce
            && self.calls == other.calls
            && self.model_turn == other.model_turn
    }
}

/// One call of a [`PendingTurn`].
#[derive(Debug, Clone, PartialEq)]
pub struct PendingCall {
    pub(crate) call: ToolCall,
    pub(crate) key: String,
    pub(crate) digest: digest::Digest,
    pub(crate) status: Status,
    /// The nonce of the turn it belongs to.
    pub(crate) turn: digest::Nonce,
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
    /// ([`StreamTurn::finish_gated`](crate::stream::StreamTurn::finish_gated)), or was answered without
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
    #[must_use]
    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    /// Every call of the turn, in call order.
    #[must_use]
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
    #[must_use]
    pub fn call(&self, key: &str) -> Option<&PendingCall> {
        self.calls.iter().find(|c| c.key == key)
    }

    /// The model's own turn, which the next request repeats before the results.
    #[must_use]
    pub fn model_turn(&self) -> &[Value] {
        &self.model_turn
    }

    /// The turn's nonce, as 32 hex digits: 16 random bytes made when the response was read,
    /// kept by its JSON forms, and named by every answer (`data.turn`). A turn resumes once per
    /// process; a host that resumes in several processes claims the nonce first (a unique row,
    /// a compare-and-set), as the [approval guide](crate::guide::approval) shows.
    #[must_use]
    pub fn nonce(&self) -> String {
        digest::hex(&self.nonce)
    }

    /// The pending turn as JSON text (its versioned form; see the
    /// [approval guide](crate::guide::approval)).
    #[must_use]
    pub fn to_json(&self) -> String {
        let mut out = Vec::with_capacity(json::size_hint(self));
        // Writing into a `Vec` cannot fail, and serde_json writes UTF-8.
        let _ = serde_json::to_writer(&mut out, self);
        String::from_utf8(out).unwrap_or_default()
    }

    /// A pending turn read back from [`PendingTurn::to_json`]'s text (stored, sent to another
    /// process). Refused with [`Error::Approval`]: text that is no pending turn, another format
    /// version, sealed text ([`PendingTurn::from_sealed_json`] reads it), a call that does not
    /// match its digest ([`ApprovalError::Tampered`]), and calls
    /// that are not the stored model turn's ([`ApprovalError::Forged`]).
    ///
    /// Without a key nothing proves who wrote the text, so what can be derived is: the calls are
    /// read again from the model's turn, and at [`resume`](crate::Toolkit::resume) a call
    /// stored as done keeps its result only when the resuming toolkit's policy would have run it
    /// without asking. For a store the host does not control, seal the turn.
    pub fn from_json(text: &str) -> Result<Self, Error> {
        Ok(json::parse(text)?)
    }

    /// The pending turn as JSON text sealed with `key`: [`PendingTurn::to_json`]'s text with a
    /// last member `"seal"`, an HMAC-SHA-256 of the rest under the key. Store and hand back the
    /// text byte for byte (a `jsonb` column or a JSON re-encoder breaks the seal; a text or
    /// bytes column keeps it).
    ///
    /// ```
    /// use serde_json::json;
    /// use toolnexus::{tool, Dialect, Policy, Toolkit};
    /// use toolnexus::approval::{Gated, PendingTurn, SealKey};
    ///
    /// /// Deletes a file.
    /// #[tool(destructive)]
    /// fn rm(path: String) -> String {
    ///     format!("deleted {path}")
    /// }
    ///
    /// let toolkit = Toolkit::new().with(Rm)?.with_policy(Policy::new());
    /// let response = json!({"candidates": [{"content": {"role": "model", "parts": [
    ///     {"functionCall": {"name": "rm", "args": {"path": "/tmp/a"}}}]}}]});
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// let Gated::Pending(pending) = toolkit.respond_gated(&response, Dialect::Gemini).await? else {
    ///     unreachable!("rm asks")
    /// };
    /// // The key comes from the host's secret store: 32 random bytes, say.
    /// let key = SealKey::new(*b"a key of 32 bytes from a secret!");
    /// let text = pending.to_sealed_json(&key);
    /// assert_eq!(PendingTurn::from_sealed_json(&text, &key)?, pending);
    ///
    /// let edited = text.replace("\"awaiting\"", "\"ready\"");
    /// assert!(PendingTurn::from_sealed_json(&edited, &key).is_err());
    /// assert!(PendingTurn::from_sealed_json(&text, &SealKey::new([7; 32])).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(()) }).unwrap();
    /// # Ok::<(), toolnexus::Error>(())
    /// ```
    #[must_use]
    pub fn to_sealed_json(&self, key: &SealKey) -> String {
        seal::seal(self.to_json(), key)
    }

    /// A pending turn read back from [`PendingTurn::to_sealed_json`]'s text under the same
    /// key: refused with [`ApprovalError::BadSeal`] when the seal
    /// is missing or does not hold (an edit, another key), then as [`PendingTurn::from_json`]
    /// refuses. A turn whose seal holds is taken as written.
    pub fn from_sealed_json(text: &str, key: &SealKey) -> Result<Self, Error> {
        Ok(json::parse_sealed(text, key)?)
    }

    /// The pending turn of `calls` (read as `dialect`, the model's turn `model_turn`), each
    /// with its status.
    pub(crate) fn of(
        dialect: Dialect,
        model_turn: Vec<Value>,
        calls: Vec<ToolCall>,
        statuses: Vec<Status>,
    ) -> Self {
        let nonce = digest::nonce();
        let mut pending: Vec<PendingCall> = Vec::with_capacity(calls.len());
        for (i, (call, status)) in calls.into_iter().zip(statuses).enumerate() {
            let earlier = call.id.is_some() && pending.iter().any(|c| c.call.id == call.id);
            pending.push(PendingCall::new(&nonce, call, i, earlier, status));
        }
        Self {
            dialect,
            model_turn,
            calls: pending,
            nonce,
            trust: Trust::Made,
        }
    }

    /// Whether a call stored as done may keep its result as written: always, unless the turn
    /// was read from unsealed JSON.
    pub(crate) fn trusts_results(&self) -> bool {
        self.trust != Trust::Read
    }
}

/// What a pending turn needs of a toolkit: its policy's gate for a call (run, when it has none),
/// and its limits' word on the call's arguments. [`Toolkit`](crate::Toolkit) implements it; so
/// this folder imports nothing from the toolkit's.
pub(crate) trait Gatekeeper {
    /// The policy's gate for `call`.
    fn gate_of(&self, call: &ToolCall) -> Gate;

    /// The error result of `call`'s arguments when they are past the limits (a call of a tool
    /// the toolkit has), as the call path would answer it; `None` when they are within them.
    fn over_limits(&self, call: &ToolCall) -> Option<ToolResult>;
}

/// Where each of a turn's `calls` stands under `toolkit`'s policy, before anything ran: a call
/// of a type that never runs and a call whose id an earlier one has are refused, the others as
/// the policy's gate says, except that a call the policy asks about whose arguments are past
/// the limits is done with the limit's error (approving it could not run it).
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
                    Gate::Ask(prompt) => match toolkit.over_limits(call) {
                        Some(result) => Status::Done { result },
                        None => Status::Awaiting { prompt },
                    },
                    Gate::Refuse(reason) => Status::Refused { reason },
                },
            }
        })
        .collect()
}

impl PendingCall {
    /// A call of the turn `nonce` at position `index`; `earlier`: an earlier call of the turn
    /// has its id.
    pub(crate) fn new(
        nonce: &digest::Nonce,
        call: ToolCall,
        index: usize,
        earlier: bool,
        status: Status,
    ) -> Self {
        let key = key_of(call.id.as_deref(), index, earlier);
        let digest = digest::bind(nonce, &key, &call);
        Self {
            digest,
            call,
            key,
            status,
            turn: *nonce,
        }
    }

    /// [`PendingCall::new`] with the digest it was stored with, read from a sealed turn (the
    /// seal covers it; deriving it again would find the same).
    pub(crate) fn with_digest(
        nonce: &digest::Nonce,
        call: ToolCall,
        index: usize,
        earlier: bool,
        status: Status,
        digest: digest::Digest,
    ) -> Self {
        Self {
            key: key_of(call.id.as_deref(), index, earlier),
            digest,
            call,
            status,
            turn: *nonce,
        }
    }

    /// What answers name this call by: its id, or `#N` (N its position in the turn, from 0)
    /// for a call without one (Gemini may send none) or whose id an earlier call has. An id
    /// that itself starts with `#` gets one more (`#1` is `##1`), so no two calls share a key.
    #[must_use]
    pub fn key(&self) -> &str {
        &self.key
    }

    /// The call, with its arguments exactly as the model sent them.
    #[must_use]
    pub fn call(&self) -> &ToolCall {
        &self.call
    }

    /// The tool the model called.
    #[must_use]
    pub fn name(&self) -> &str {
        &self.call.name
    }

    /// The arguments, as the model sent them.
    #[must_use]
    pub fn arguments(&self) -> &Arguments {
        &self.call.arguments
    }

    /// The SHA-256 digest that binds the call to its turn, as 64 hex digits: of the turn's
    /// nonce, the call's key, tool name, kind and the arguments' canonical text. An answer
    /// repeats it, so that it cannot be presented for another turn, call, tool or arguments.
    #[must_use]
    pub fn digest(&self) -> String {
        digest::hex(&self.digest)
    }

    /// The nonce of the turn it belongs to ([`PendingTurn::nonce`]), as 32 hex digits.
    #[must_use]
    pub fn turn(&self) -> String {
        digest::hex(&self.turn)
    }

    /// Whether `hex` (an answer's `data.turn`) names this call's turn.
    pub(crate) fn in_turn(&self, hex: &str) -> bool {
        digest::parse_hex::<16>(hex) == Some(self.turn)
    }

    /// Whether `hex` (an answer's digest) is this call's.
    pub(crate) fn has_digest(&self, hex: &str) -> bool {
        digest::matches(&self.digest, hex)
    }

    /// Where the call stands.
    #[must_use]
    pub fn status(&self) -> &Status {
        &self.status
    }

    /// The question to put to whoever decides, for an awaiting call (`None` otherwise), in the
    /// shape of the Python `toolnexus` package's `Request`.
    #[must_use]
    pub fn request(&self) -> Option<Request> {
        match &self.status {
            Status::Awaiting { prompt } => Some(Request::for_call(self, prompt)),
            _ => None,
        }
    }
}

/// The key of the call at `index` whose id is `id`; `earlier`: an earlier call has that id.
fn key_of(id: Option<&str>, index: usize, earlier: bool) -> String {
    match id {
        Some(id) if !earlier && id.starts_with('#') => format!("#{id}"),
        Some(id) if !earlier => id.to_owned(),
        _ => format!("#{index}"),
    }
}
