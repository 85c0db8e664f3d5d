//! The one stream assembler: what every streamed format shares, written once. A provider folder
//! supplies only its event vocabulary ([`Events`]: which event holds what) and its per-call
//! parser (the function its whole-response reader reads one call with); [`Assembly`] holds
//! each call's argument text within the byte bound, says each call ready once and collects
//! what the events report ([`Signal`]s), and [`Assembler`] feeds one event at a time through
//! the vocabulary.
//!
//! The rules kept here, for every dialect:
//! - **The byte bound.** A call's argument pieces add up to at most `Limits::max_bytes`; past it
//!   the rest is not kept, the call's arguments become `{}` and it is reported with the bytes
//!   received (`oversize`), to be answered with the limit's error without running.
//! - **Ready once.** A call is reported ready at most once (by its key, and by its place among
//!   the response's calls), parsed once, by the format's own per-call parser, when its
//!   arguments can no longer change; one that parser refuses is never reported (the end of the
//!   stream reads the response once, and says why). The stream side then holds each started
//!   call to the call of the final turn at its place (`StreamTurn`'s settling).

use std::collections::{HashMap, HashSet};
use std::fmt;

use serde::Deserialize;
use serde_json::{Map, Value};

use crate::response::{At, Reader, ResponseError};
use crate::values::call::ToolCall;
use crate::values::dialect::Dialect;

/// One format's event vocabulary: what a provider folder writes for its stream.
pub(crate) trait Events: fmt::Debug + Send {
    /// What ends a stream of this format, for the error of a body that stops before it
    /// (``a `finish_reason` ``).
    fn terminator(&self) -> &'static str;

    /// What the format calls one event, in the error of one that is not a JSON object.
    fn unit(&self) -> &'static str {
        "(event)"
    }

    /// Reads a piece of text, the format's most frequent event, straight from the bytes of an
    /// event's `data` (no JSON tree built for it) when the event has exactly that event's
    /// shape and the stream is where such an event applies; else `false`, and the event is
    /// read as JSON by [`Events::apply`], which would do the same with it.
    fn apply_text(&mut self, _data: &[u8], _to: &mut Assembly) -> bool {
        false
    }

    /// Reads one event (the JSON object of one SSE `data` field) into `to`: its argument
    /// pieces, its text, its end, each complete call through [`Assembly::ready`].
    fn apply(&mut self, event: Map<String, Value>, to: &mut Assembly) -> Result<(), ResponseError>;

    /// The response as far as it came (once complete, what a non-streamed request would have
    /// returned), the calls' argument text taken from `to`.
    fn into_response(self: Box<Self>, to: &mut Assembly) -> Value;
}

/// What a stream reports while it reads an event.
#[derive(Debug)]
pub(crate) enum Signal {
    /// A piece of the model's text.
    Text(String),
    /// A call's arguments are complete. `position`: its place among the response's calls;
    /// `oversize`: the argument bytes received when they went past the limit (it must not run).
    Ready {
        position: usize,
        call: ToolCall,
        oversize: Option<usize>,
    },
    /// The call at `position` has begun under `id`, before its arguments are complete (a
    /// format that names a call when it begins says so): a later call that carries the same id
    /// is then known to repeat it, and one that carries another is known not to repeat this
    /// one, before this one is complete. A later report for the same place replaces it.
    Began { position: usize, id: String },
    /// The format's terminator, or an error event.
    End(Option<ResponseError>),
}

/// An event's members, read in one walk over its keys (events are small and many: none is
/// searched for): the value of each of `names` (`None` when absent); the others are dropped.
pub(crate) struct Members<const N: usize> {
    names: &'static [&'static str; N],
    values: [Option<Value>; N],
}

impl<const N: usize> Members<N> {
    pub(crate) fn read(event: Map<String, Value>, names: &'static [&'static str; N]) -> Self {
        let mut values = [const { None }; N];
        for (key, value) in event {
            if let Some(at) = names.iter().position(|name| *name == key) {
                values[at] = Some(value);
            }
        }
        Self { names, values }
    }

    /// Member `name` (one of the names read), taken out.
    pub(crate) fn take(&mut self, name: &str) -> Option<Value> {
        let at = self.names.iter().position(|n| *n == name)?;
        self.values[at].take()
    }

    /// Member `name` (one of the names read).
    pub(crate) fn get(&self, name: &str) -> Option<&Value> {
        let at = self.names.iter().position(|n| *n == name)?;
        self.values[at].as_ref()
    }

    /// The event's `type`, which must be a string.
    pub(crate) fn kind(&mut self, read: &Reader) -> Result<String, ResponseError> {
        match self.take("type") {
            Some(Value::String(kind)) => Ok(kind),
            other => Err(read.malformed("(event).type", "a string", other.as_ref())),
        }
    }
}

/// An event of the `{"type", "index", "delta"}` shape (Anthropic's `content_block_delta`,
/// Cohere's `content-delta`), read straight from its bytes for [`Events::apply_text`].
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct IndexedDelta<'a, D> {
    #[serde(rename = "type")]
    kind: &'a str,
    index: usize,
    delta: D,
}

/// The `index` and `delta` of `data` when it is a `kind` event with exactly these three
/// members, each once (else `None`, and the event is read as JSON).
pub(crate) fn indexed_delta<'a, D: Deserialize<'a>>(
    data: &'a [u8],
    kind: &str,
) -> Option<(usize, D)> {
    let event = serde_json::from_slice::<IndexedDelta<'a, D>>(data).ok()?;
    (event.kind == kind).then_some((event.index, event.delta))
}

/// The bound on the index an event gives a block, item or call (Anthropic's and Cohere's
/// `index`, Bedrock's `contentBlockIndex`, Responses' `output_index`): a stream holds few, so an
/// index at or past it is no real one, and no reader grows a list up to it.
pub(crate) const MAX_INDEX: u64 = 10_000;

/// The index `value` gives, an integer below [`MAX_INDEX`]; else the malformed event at `at`
/// (`content_block_stop.index`).
pub(crate) fn index(
    read: &Reader,
    value: Option<&Value>,
    at: At<'_>,
) -> Result<usize, ResponseError> {
    match value.and_then(Value::as_u64) {
        Some(index) if index < MAX_INDEX => Ok(index as usize),
        _ => Err(read.malformed(at, "an integer below 10000", value)),
    }
}

/// The entry at `index` of a stream's entries by index (content blocks, items), the list grown
/// with empty entries up to it (`index` comes from [`index`], so it is bounded).
pub(crate) fn slot<T: Default>(entries: &mut Vec<T>, index: usize) -> &mut T {
    if entries.len() <= index {
        entries.resize_with(index + 1, T::default);
    }
    &mut entries[index]
}

/// A streamed response being assembled: the format's vocabulary and the calls it writes.
#[derive(Debug)]
pub(crate) struct Assembler {
    events: Box<dyn Events>,
    assembly: Assembly,
    dialect: Dialect,
}

impl Assembler {
    /// A stream of `dialect` read by `events`, one call's arguments bounded by `max_bytes`.
    pub(crate) fn new(dialect: Dialect, events: Box<dyn Events>, max_bytes: usize) -> Self {
        Self {
            events,
            assembly: Assembly::new(max_bytes),
            dialect,
        }
    }

    /// Reads one event's `data`: a piece of text straight from its bytes when the format reads
    /// it so ([`Events::apply_text`]), else as JSON ([`Assembler::apply`]). `Err`: not JSON.
    pub(crate) fn read(&mut self, data: &[u8]) -> serde_json::Result<()> {
        if !self.events.apply_text(data, &mut self.assembly) {
            self.apply(serde_json::from_slice(data)?);
        }
        Ok(())
    }

    /// Reads one event, reporting what it completed; an event the format refuses ends the
    /// stream (`Signal::End` with the error).
    pub(crate) fn apply(&mut self, event: Value) {
        let applied = match event {
            Value::Object(event) => self.events.apply(event, &mut self.assembly),
            other => {
                let read = Reader {
                    dialect: self.dialect,
                };
                Err(read.malformed(self.events.unit(), "an object", Some(&other)))
            }
        };
        if let Err(error) = applied {
            self.assembly.end(Some(error));
        }
    }

    /// What the events read so far reported, in order, to be taken (and the list given back
    /// empty, for its capacity).
    pub(crate) fn signals(&mut self) -> &mut Vec<Signal> {
        &mut self.assembly.signals
    }

    /// Whether an event ended the stream with an error (nothing after it is read).
    pub(crate) fn failed(&self) -> bool {
        self.assembly.failed
    }

    /// What ends a stream of this format.
    pub(crate) fn terminator(&self) -> &'static str {
        self.events.terminator()
    }

    /// The response as far as it came.
    pub(crate) fn into_response(self) -> Value {
        let Self {
            events,
            mut assembly,
            ..
        } = self;
        events.into_response(&mut assembly)
    }
}

/// What a stream's events have assembled: each call's argument text held to the byte bound and
/// whether it was reported ready, and the [`Signal`]s not yet taken. A call is found by its
/// key, the format's own index for it (Chat's `tool_calls` index, a content block's index, a
/// Responses `output_index`).
#[derive(Debug, Default)]
pub(crate) struct Assembly {
    max_bytes: usize,
    /// Few per stream: found by a walk, which costs less than hashing, while there are at most
    /// [`WALK`]; past that through `index`, so a response of many calls costs no walk per event.
    buffers: Vec<Buffer>,
    /// Each buffer's place in `buffers` by its key, once there are more than [`WALK`].
    index: HashMap<u64, usize>,
    /// The places among the response's calls already reported ready (a walk, then a set,
    /// likewise).
    reported: Vec<usize>,
    reported_set: HashSet<usize>,
    signals: Vec<Signal>,
    /// An `End` with an error was reported.
    failed: bool,
}

#[derive(Debug)]
struct Buffer {
    key: u64,
    /// The argument text so far (`None`: no text, e.g. a compatible server's object); empty once
    /// past the bound.
    text: Option<String>,
    /// The argument bytes received, past the bound included.
    bytes: usize,
    oversize: bool,
    ready: bool,
}

/// How many calls are found by a walk before an index takes over.
const WALK: usize = 16;

impl Assembly {
    pub(crate) fn new(max_bytes: usize) -> Self {
        Self {
            max_bytes,
            ..Self::default()
        }
    }

    /// A piece of the model's text (an empty one says nothing).
    pub(crate) fn text(&mut self, text: String) {
        if !text.is_empty() {
            self.signals.push(Signal::Text(text));
        }
    }

    /// The format's terminator (`None`), or an error event.
    pub(crate) fn end(&mut self, error: Option<ResponseError>) {
        self.failed |= error.is_some();
        self.signals.push(Signal::End(error));
    }

    /// An error event mid-stream (its `error` member): the end of the turn, with the provider's
    /// message as `read` says it of a whole response holding that `error` (nothing when that
    /// `error` is none).
    pub(crate) fn provider_error(&mut self, read: &Reader, error: Value) {
        let mut holder = Map::new();
        holder.insert("error".into(), error);
        if let Err(error) = read.root(&Value::Object(holder)) {
            self.end(Some(error));
        }
    }

    /// The call at `position` among the response's calls has begun under `id` (its id as the
    /// whole response will give it): reported, for the stream to judge repeated ids by place
    /// before every earlier call is complete.
    pub(crate) fn began(&mut self, position: usize, id: &str) {
        self.signals.push(Signal::Began {
            position,
            id: id.to_owned(),
        });
    }

    /// Where call `key`'s buffer is in `buffers`.
    fn find(&self, key: u64) -> Option<usize> {
        if self.buffers.len() <= WALK {
            self.buffers.iter().position(|b| b.key == key)
        } else {
            self.index.get(&key).copied()
        }
    }

    fn buffer(&mut self, key: u64) -> &mut Buffer {
        let at = match self.find(key) {
            Some(at) => at,
            None => {
                self.buffers.push(Buffer {
                    key,
                    text: None,
                    bytes: 0,
                    oversize: false,
                    ready: false,
                });
                let at = self.buffers.len() - 1;
                if self.buffers.len() == WALK + 1 {
                    self.index = self
                        .buffers
                        .iter()
                        .enumerate()
                        .map(|(i, b)| (b.key, i))
                        .collect();
                } else if self.buffers.len() > WALK {
                    self.index.insert(key, at);
                }
                at
            }
        };
        &mut self.buffers[at]
    }

    fn get(&self, key: u64) -> Option<&Buffer> {
        self.find(key).map(|at| &self.buffers[at])
    }

    fn get_mut(&mut self, key: u64) -> Option<&mut Buffer> {
        self.find(key).map(|at| &mut self.buffers[at])
    }

    /// Whether the call at `position` was reported ready already.
    fn was_reported(&self, position: usize) -> bool {
        if self.reported_set.is_empty() {
            self.reported.contains(&position)
        } else {
            self.reported_set.contains(&position)
        }
    }

    /// Marks the call at `position` reported ready.
    fn report(&mut self, position: usize) {
        if self.reported_set.is_empty() && self.reported.len() < WALK {
            self.reported.push(position);
            return;
        }
        if self.reported_set.is_empty() {
            self.reported_set.extend(self.reported.drain(..));
        }
        self.reported_set.insert(position);
    }

    /// Appends a piece of call `key`'s argument text, unless that takes it past the bound: the
    /// text is then dropped, and nothing more is kept.
    pub(crate) fn push(&mut self, key: u64, piece: &str) {
        let max = self.max_bytes;
        let buffer = self.buffer(key);
        buffer.bytes = buffer.bytes.saturating_add(piece.len());
        if buffer.oversize {
            return;
        }
        if buffer.bytes > max {
            buffer.oversize = true;
            buffer.text = Some(String::new());
        } else {
            buffer.text.get_or_insert_with(String::new).push_str(piece);
        }
    }

    /// Call `key`'s whole argument text, arrived at once (it replaces the pieces), held to the
    /// bound.
    pub(crate) fn replace(&mut self, key: u64, text: String) {
        let text = if self.bound(key, text.len()) {
            String::new()
        } else {
            text
        };
        self.buffer(key).text = Some(text);
    }

    /// Holds call `key` to the bound for whole arguments of `len` bytes: whether it is past it
    /// (then, or if its pieces were, it stays so).
    pub(crate) fn bound(&mut self, key: u64, len: usize) -> bool {
        let max = self.max_bytes;
        let buffer = self.buffer(key);
        if buffer.oversize || len > max {
            buffer.oversize = true;
            buffer.bytes = buffer.bytes.max(len);
            buffer.text = buffer.text.take().map(|_| String::new());
        }
        buffer.oversize
    }

    /// Starts call `key`'s text from `text` as the call's first event gave it (not counted: it
    /// arrived whole, within the event's own bound).
    pub(crate) fn seed(&mut self, key: u64, text: String) {
        let buffer = self.buffer(key);
        if !buffer.oversize {
            buffer.text = Some(text);
        }
    }

    /// Call `key`'s arguments are no text (a value a compatible server sent whole): the text so
    /// far is dropped, the bytes counted stay.
    pub(crate) fn end_text(&mut self, key: u64) {
        if let Some(buffer) = self.get_mut(key) {
            buffer.text = None;
        }
    }

    /// Call `key`'s arguments once no piece can follow (the call's end event): `{}` when they
    /// went past the bound (the call is answered with the limit's error) or none came, else the
    /// object its pieces spell, with that text; `None` when they spell no whole object (a call
    /// cut off, which never starts).
    pub(crate) fn finished(&self, key: u64) -> Option<(Value, &str)> {
        let json = self.arguments(key).unwrap_or_default();
        if self.oversize(key).is_some() || json.trim().is_empty() {
            return Some((Value::Object(Map::new()), "{}"));
        }
        match serde_json::from_str::<Value>(json) {
            Ok(object @ Value::Object(_)) => Some((object, json)),
            _ => None,
        }
    }

    /// Call `key`'s argument text so far (empty once past the bound), if any came.
    pub(crate) fn arguments(&self, key: u64) -> Option<&str> {
        self.get(key)?.text.as_deref()
    }

    /// [`Assembly::arguments`], taken out (the bytes counted stay).
    pub(crate) fn take_arguments(&mut self, key: u64) -> Option<String> {
        self.get_mut(key)?.text.take()
    }

    /// The argument bytes call `key` received, when they went past the bound.
    pub(crate) fn oversize(&self, key: u64) -> Option<usize> {
        self.get(key).filter(|b| b.oversize).map(|b| b.bytes)
    }

    /// The keys of the calls past the bound.
    pub(crate) fn oversized(&self) -> impl Iterator<Item = u64> + '_ {
        self.buffers.iter().filter(|b| b.oversize).map(|b| b.key)
    }

    /// Whether call `key` was said ready (whether or not its parser took it).
    pub(crate) fn is_ready(&self, key: u64) -> bool {
        self.get(key).is_some_and(|b| b.ready)
    }

    /// Call `key`, at `position` among the response's calls, is complete: `parsed` (the
    /// format's per-call parser, run only now) is reported ready, once. A call its parser
    /// refuses, or not a call after all (`Ok(None)`), is not reported.
    pub(crate) fn ready(
        &mut self,
        key: u64,
        position: usize,
        parsed: impl FnOnce() -> Result<Option<ToolCall>, ResponseError>,
    ) {
        let buffer = self.buffer(key);
        if buffer.ready {
            return;
        }
        buffer.ready = true;
        let oversize = buffer.oversize.then_some(buffer.bytes);
        if self.was_reported(position) {
            return; // a server repeating itself: the first wins
        }
        if let Ok(Some(call)) = parsed() {
            self.report(position);
            self.signals.push(Signal::Ready {
                position,
                call,
                oversize,
            });
        }
    }
}

#[cfg(test)]
mod tests;
