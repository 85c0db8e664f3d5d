//! A transcript rendered for one dialect: ids fitted, reasoning kept only where its maker reads
//! it, each call answered once, results and user messages written by the dialect's own wire,
//! and turns joined where the dialect wants one per role in a row.

use std::borrow::Cow;

use serde_json::Value;

use super::{Moved, Reasoning};

use crate::values::call::{Arguments, CallKind, ToolCall};
use crate::values::dialect::Dialect;
use crate::values::ids::IdMap;
use crate::values::result::ToolResult;
use crate::values::transcript::{Answered, Loss, Message, Native, Part, Transcript};
use crate::wire::transcripts::Written;
use crate::wire::Wire;

/// The text of the error result a call without a result gets.
const UNANSWERED: &str = "No result: the turn that made this call ended before it returned.";

/// The calls of the model turn being answered: each as the target names it, with the id it was
/// sent with, and its result once met.
struct Pending<'a> {
    /// The index of the model turn.
    message: usize,
    calls: Vec<Waiting<'a>>,
}

/// A call of the pending turn: as the target names it, the id it was sent with, its result.
type Waiting<'a> = (ToolCall, Option<&'a str>, Option<Cow<'a, ToolResult>>);

struct Render<'a> {
    wire: &'static dyn Wire,
    dialect: Dialect,
    reasoning: Reasoning,
    ids: IdMap,
    pending: Option<Pending<'a>>,
    moved: Moved,
}

pub(super) fn render(transcript: &Transcript, dialect: Dialect, reasoning: Reasoning) -> Moved {
    let mut render = Render {
        wire: dialect.wire(),
        dialect,
        reasoning,
        ids: IdMap::new(dialect.id_rule()),
        pending: None,
        moved: Moved {
            system: None,
            messages: Vec::with_capacity(transcript.messages.len()),
            losses: Vec::new(),
        },
    };
    for (index, message) in transcript.messages.iter().enumerate() {
        match message {
            Message::Results { results } => render.results(index, results),
            Message::System { text } => {
                render.answer(true);
                render.system(index, text);
            }
            Message::User { text, media } => {
                render.answer(true);
                let shows = &render.wire.facts().user_media;
                let unshown = media.iter().filter(|m| !shows.accepts(m.mime_type()));
                render
                    .moved
                    .losses
                    .extend(unshown.map(|m| Loss::MediaAsNote {
                        message: index,
                        mime_type: m.mime_type().to_owned(),
                    }));
                let message = render.wire.user_message(text, media);
                render.push(message);
            }
            Message::Assistant { parts, native } => {
                render.answer(true);
                render.turn(index, parts, native.as_ref());
            }
        }
    }
    // Calls the transcript ends with may still get their results: they are not answered here.
    render.answer(false);
    render.moved
}

impl<'a> Render<'a> {
    fn system(&mut self, index: usize, text: &str) {
        if let Some(message) = self.wire.system_message(text) {
            self.push(message);
            return;
        }
        let system = self.moved.system.get_or_insert_with(String::new);
        if !system.is_empty() {
            system.push_str("\n\n");
        }
        system.push_str(text);
        self.moved
            .losses
            .push(Loss::SystemMovedOut { message: index });
    }

    /// A model turn: as it was read when it stays in its dialect with its ids, else written
    /// by the target from its parts.
    fn turn(&mut self, index: usize, parts: &'a [Part], native: Option<&Native>) {
        let own = native.filter(|n| n.dialect == self.dialect);
        let mut same_ids = true;
        let mut calls = Vec::new();
        let mut ids = Vec::new();
        for part in parts {
            let Part::Call { id, name, .. } = part else {
                continue;
            };
            // A dialect that sends calls without ids (Gemini) takes them back so.
            let given = match id {
                None if own.is_some() => None,
                _ => Some(self.ids.call(id.as_deref(), name)),
            };
            same_ids &= given == *id;
            let call = ToolCall {
                id: given.clone(),
                name: name.clone(),
                arguments: Arguments::Absent,
                kind: CallKind::Function,
            };
            calls.push((call, id.as_deref(), None));
            ids.push(given);
        }
        match own {
            Some(native) if same_ids => {
                for message in &native.messages {
                    self.push(message.clone());
                }
            }
            _ => {
                let reasoning_as_text = self.reasoning == Reasoning::AsText;
                for part in parts {
                    if let Part::Provider { kind, .. } = part {
                        self.moved.losses.push(Loss::ProviderItemDropped {
                            message: index,
                            item: kind.clone(),
                        });
                    }
                    if let Part::Reasoning { text, dialect } = part {
                        self.moved
                            .losses
                            .push(if reasoning_as_text && !text.is_empty() {
                                Loss::ReasoningAsText {
                                    message: index,
                                    from: *dialect,
                                }
                            } else {
                                Loss::ReasoningDropped {
                                    message: index,
                                    from: *dialect,
                                }
                            });
                    }
                }
                let written = Written {
                    parts,
                    ids: &ids,
                    reasoning_as_text,
                };
                for message in self.wire.write_turn(&written) {
                    self.push(message);
                }
            }
        }
        if !calls.is_empty() {
            self.pending = Some(Pending {
                message: index,
                calls,
            });
        }
    }

    /// Results, each given to the first call of the pending turn it names that has none yet
    /// (by the id it was sent with, or, without one, by its tool's name).
    fn results(&mut self, index: usize, results: &'a [Answered]) {
        for answered in results {
            let call = self.pending.as_mut().and_then(|pending| {
                pending.calls.iter_mut().find(|(call, sent, result)| {
                    result.is_none()
                        && match (&answered.id, &answered.name) {
                            (Some(id), _) => *sent == Some(id.as_str()),
                            (None, Some(name)) => call.name == *name,
                            (None, None) => true,
                        }
                })
            });
            match call {
                Some((_, _, result)) => *result = Some(Cow::Borrowed(&answered.result)),
                None => self.moved.losses.push(Loss::ResultWithoutCall {
                    message: index,
                    id: answered.id.clone().unwrap_or_default(),
                }),
            }
        }
    }

    /// The pending turn's results, written by the target's wire; a call without one gets an
    /// error result when `cut` (another message follows), else it is left for the host to run.
    fn answer(&mut self, cut: bool) {
        let Some(pending) = self.pending.take() else {
            return;
        };
        let mut answered = Vec::with_capacity(pending.calls.len());
        for (call, _, result) in pending.calls {
            match result {
                Some(result) => answered.push((call, result)),
                None if cut => {
                    self.moved.losses.push(Loss::UnansweredCall {
                        message: pending.message,
                        name: call.name.clone(),
                    });
                    answered.push((call, Cow::Owned(ToolResult::error(UNANSWERED))));
                }
                None => {}
            }
        }
        if answered.is_empty() {
            return;
        }
        let mut pairs = answered.iter().map(|(call, result)| (call, &**result));
        for message in self.wire.render_results(&mut pairs) {
            self.push(message);
        }
    }

    /// `message` added to the history, joined to the one before where the target wants one
    /// message per role in a row.
    fn push(&mut self, message: Value) {
        if let Some(last) = self.moved.messages.last_mut() {
            if self.wire.join(last, &message) {
                return;
            }
        }
        self.moved.messages.push(message);
    }
}
