//! One test fixture per dialect, each in its own file: what a suite needs to speak a provider's
//! wire without writing a `match` on [`Dialect`]. A suite iterates [`ALL`] (or looks one up with
//! [`of`]); a new provider is a new file here and a line in [`ALL`], and
//! `tests/meta/fixtures.rs` fails until it has both.
//!
//! A fixture says three things, in the trait's three groups:
//! - the provider's facts: the SDK that validates it (and the scripts that know it), whether
//!   arguments go as text, its documented limits, its tool choices, where its stop reason is;
//! - what the provider sends: a whole response (as a value, or as text around calls that may
//!   be broken), one that ends short (cut off, refused, failed), a stream's events and their SSE
//!   framing, and where in a stream each call is complete;
//! - what we send it, read back: the results of a turn (as [`Answer`]s, checking the envelope
//!   on the way), the calls of a model turn, the visible text, a user message and a request.

#![allow(dead_code)] // each test binary uses its own part

mod anthropic;
mod bedrock;
mod cohere;
mod gemini;
mod openai_chat;
mod openai_responses;

use serde_json::Value;
use toolnexus::Dialect;

use super::generate::Rng;

pub use anthropic::Anthropic;
pub use bedrock::Bedrock;
pub use cohere::Cohere;
pub use gemini::Gemini;
pub use openai_chat::OpenAiChat;
pub use openai_responses::OpenAiResponses;

/// Every dialect's fixture, in [`Dialect::ALL`]'s order.
pub static ALL: [&dyn Fixture; 6] = [
    &OpenAiChat,
    &OpenAiResponses,
    &Anthropic,
    &Gemini,
    &Bedrock,
    &Cohere,
];

/// The fixture of `dialect`. Panics, naming the file to add, for a dialect without one.
pub fn of(dialect: Dialect) -> &'static dyn Fixture {
    ALL.iter()
        .copied()
        .find(|f| f.dialect() == dialect)
        .unwrap_or_else(|| {
            panic!("no test fixture for {dialect:?}: add tests/common/dialects/<provider>.rs and list it in `ALL`")
        })
}

/// What a test needs to speak one provider's wire.
pub trait Fixture: Sync {
    // ---- Facts: what the provider is and what its API takes, as data.

    /// The provider's facts (a constant in its file).
    fn facts(&self) -> &'static Facts;

    /// The dialect this fixture speaks.
    fn dialect(&self) -> Dialect {
        self.facts().dialect
    }

    /// The official SDK that validates this dialect, and the scripts that know it.
    fn sdk(&self) -> Sdk {
        self.facts().sdk
    }

    /// Whether a call's arguments go as JSON text (OpenAI, Cohere) rather than as an object.
    fn sends_text(&self) -> bool {
        self.facts().sends_text
    }

    /// Whether a stream writes a call's arguments as text in pieces.
    fn streams_text(&self) -> bool {
        self.facts().streams_text
    }

    /// Whether an error result is marked in its text rather than flagged beside it.
    fn marks_errors(&self) -> bool {
        self.facts().marks_errors
    }

    /// What the API documents as the most a request's tools may hold.
    fn limits(&self) -> ApiLimits {
        self.facts().limits
    }

    /// What the API's tool choice can say besides `auto` and `required`.
    fn choices(&self) -> Choices {
        self.facts().choices
    }

    /// The field that says why a response ended, as the library's errors name it.
    fn stop_field(&self) -> &'static str {
        self.facts().stop_field
    }

    // ---- What the provider sends: whole responses (as values, or as text with broken calls), the ways they end short, and streams.

    /// A whole response asking for `calls`, shaped like the API's (with the ids, envelope and
    /// stop reason the provider sends).
    fn response(&self, calls: &[Call]) -> Value;

    /// A whole response in which the model answers `text` and calls nothing, ending as the
    /// provider ends a finished turn: with the reasoning or thinking the provider may send
    /// beside the answer (never a part of it), and `text` in two parts where the format has
    /// parts.
    fn text_only(&self, text: &str) -> Value;

    /// The same response as text around calls that may be broken (a missing id, arguments
    /// that are not JSON, fields left out): `WireCall`'s parts are spliced in as they are.
    fn body(&self, calls: &[WireCall]) -> String;

    /// `response` (one of this fixture's) made to end short of its calls for `stop`, written
    /// as the provider writes it (`ResponseError::Truncated`, `Stopped` or `Provider`). Returns
    /// what the library's error quotes of it: the reason of a truncated or stopped response
    /// (`` `finish_reason` is `length` ``), the message of a failed one.
    fn end(&self, response: &mut Value, stop: Stop) -> String;

    /// `response` (one of this fixture's) with `reason` at its [`Fixture::stop_field`].
    fn set_stop(&self, response: &mut Value, reason: Value) {
        let pointer: String = self
            .stop_field()
            .split('.')
            .flat_map(|key| key.split(['[', ']']).filter(|k| !k.is_empty()))
            .map(|key| format!("/{key}"))
            .collect();
        *response
            .pointer_mut(&pointer)
            .unwrap_or_else(|| panic!("the response has a `{pointer}`")) = reason;
    }

    /// A stream of the response asking for `calls`: each event the JSON of one SSE `data`
    /// field, argument text cut at random by `rng` (and interleaved where the format allows).
    fn events(&self, rng: &mut Rng, calls: &[Call]) -> Vec<Value>;

    /// A stream of `calls` cut short by `stop`: the calls before the last one whole, then
    /// (where the format can cut a call) the last one begun with half its argument text, then
    /// the events that end the stream for `stop`. With the words the error says `stop` by.
    fn cut_short(&self, rng: &mut Rng, calls: &[Call], stop: Stop) -> (Vec<Value>, String);

    /// Where in `events` (a stream of this dialect) the call at place `call` (0 for the first
    /// call the stream writes) has arguments that can no longer change, by the format's rule
    /// for it: the position of the event an eager reader starts it at, `None` if none does.
    fn ready_at(&self, events: &[Value], call: usize) -> Option<usize>;

    /// The HTTP body of `events`, framed as the provider's server frames it.
    fn sse(&self, events: &[Value]) -> Vec<u8> {
        let mut body = String::new();
        for event in events {
            body.push_str(&format!(
                "data: {}\n\n",
                serde_json::to_string(event).unwrap()
            ));
        }
        body.into_bytes()
    }

    // ---- What we send it, read back: the results of a turn, the model's turn, the conversation and the request around it.

    /// The results we rendered for the next request (`result_messages`), read back as answers
    /// in order, asserting the provider's envelope on the way.
    fn answers(&self, rendered: &[Value]) -> Vec<Answer>;

    /// The call ids that the results rendered for a turn (`result_messages`) answer, in order,
    /// whatever the results hold: unlike [`answers`](Self::answers) this reads past media (a
    /// Chat user message of a turn's images answers no call).
    fn answered(&self, rendered: &[Value]) -> Vec<Option<String>>;

    /// The text a reader of the whole `response` is shown: the answer's text blocks joined, not
    /// thinking, reasoning or a tool plan.
    fn text(&self, response: &Value) -> String;

    /// The calls a model turn holds (`Dialect::model_turn`'s messages, in the next request's
    /// shape), in order: each one's id (`None` where the turn carries none, as Gemini's may)
    /// and tool name.
    fn turn_calls(&self, turn: &[Value]) -> Vec<(Option<String>, String)>;

    /// The user's next message of `text`, as the API takes it (a `content` string, unless the
    /// provider wants parts).
    fn user_message(&self, text: &str) -> Value {
        serde_json::json!({"role": "user", "content": text})
    }

    /// A minimal request body of the API around `messages` (the conversation so far) with
    /// `tools` (a `tools_for` array) declared, as the SDK's request type takes it: the model
    /// where the body names one, the conversation and the tools each under its key.
    fn request(&self, messages: Vec<Value>, tools: Option<Value>) -> Value;

    /// The JSON Schema a typed answer's request part (`Output::request_part`) sends, with the
    /// case list of `tests/sdk/check_strict_schemas.py` whose SDK rule it must be a fixed point
    /// of: `anthropic` (`transform_schema`, whose form Bedrock and Cohere send too), `openai`
    /// (the strict helper; `None` when the part is not strict), `gemini` or `gemini_json`.
    fn answer_schema(&self, part: &Value) -> Option<(&'static str, Value)>;
}

/// A provider's facts: what it is and what its API takes ([`Fixture::facts`]).
#[derive(Debug, Clone, Copy)]
pub struct Facts {
    /// The dialect.
    pub dialect: Dialect,
    /// The official SDK that validates it, and the scripts under tests/sdk that know it.
    pub sdk: Sdk,
    /// Whether a call's arguments go as JSON text (OpenAI, Cohere) rather than as an object.
    pub sends_text: bool,
    /// Whether a stream writes a call's arguments as text in pieces (all but Gemini, whose
    /// parts come whole, arguments as an object, kept in the model's turn as sent).
    pub streams_text: bool,
    /// Whether an error result is marked in its text (`Error: `, as OpenAI's dialects, which
    /// have no error flag, do) rather than flagged beside it.
    pub marks_errors: bool,
    /// What the API documents as the most a request's tools may hold.
    pub limits: ApiLimits,
    /// What the API's tool choice can say besides `auto` and `required`.
    pub choices: Choices,
    /// The field that says why a response ended, as the library's errors name it
    /// (`choices[0].finish_reason`, Responses' `status`).
    pub stop_field: &'static str,
}

/// What an API documents as the most a request's tools may hold ([`Fixture::limits`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ApiLimits {
    /// Functions per request (where the API documents none, the bound the library uses).
    pub tools: usize,
    /// Characters of a function's description, where the API documents a bound.
    pub description: Option<usize>,
}

/// How a response ends short of its calls.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// At the output token limit.
    Length,
    /// For safety: a refusal, a content filter, a guardrail.
    Safety,
    /// The provider's error (an error event, or an ending that says the generation failed).
    Error,
}

/// What a provider's tool choice can express besides `auto` and `required` (each fact is a
/// field the API has, or lacks).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Choices {
    /// `none`: no tool may be called.
    pub none: bool,
    /// One named tool.
    pub one_tool: bool,
    /// A subset of the declared tools (`auto` or `required` among them).
    pub among: bool,
    /// At most one call per turn.
    pub one_at_a_time: bool,
}

/// The official SDK that validates a dialect.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sdk {
    /// The PyPI package (pinned in scripts/requirements-sdk.txt).
    pub package: &'static str,
    /// The name the scripts under tests/sdk read the dialect by.
    pub key: &'static str,
    /// Whether the shared scripts under tests/sdk judge this dialect, each reading it under
    /// `key`: `validate_messages.py`, `validate_answers.py`, `validate_choices.py`,
    /// `validate_user_messages.py` and `stream_accumulate.py`. A dialect they do not know is
    /// judged by its [`bodies`](Self::bodies) script alone.
    pub shared: bool,
    /// The script under tests/sdk that judges whole bodies of the dialect: request bodies,
    /// responses and stream events (`{"requests", "responses", "stream_events"}`), as
    /// Bedrock's `validate_bedrock.py` (botocore's service model) and Cohere's
    /// `validate_cohere.py` do.
    pub bodies: Option<&'static str>,
}

/// One call of a response: its id, the tool it names and its arguments.
#[derive(Debug, Clone, PartialEq)]
pub struct Call {
    pub id: String,
    pub name: String,
    pub arguments: Value,
}

impl Call {
    /// A call of `name` with `arguments`, under `id`.
    pub fn new(id: impl Into<String>, name: impl Into<String>, arguments: Value) -> Self {
        Self {
            id: id.into(),
            name: name.into(),
            arguments,
        }
    }
}

/// One call as it goes on the wire, parts given as raw text (so a test can send what no
/// serializer writes).
#[derive(Debug, Clone)]
pub struct WireCall {
    /// The call id (Gemini may leave it out; the other dialects always send one here).
    pub id: Option<String>,
    /// The tool name the model chose.
    pub name: String,
    /// OpenAI's and Cohere's `arguments`: the JSON string's content, or `None` to leave the
    /// field out.
    pub text: Option<String>,
    /// Anthropic's and Bedrock's `input`, Gemini's `args`: raw JSON spliced into the body as
    /// is (so it may be anything, even nesting no parser accepts), or `None` to leave it out.
    pub object: Option<String>,
}

impl WireCall {
    /// A call whose arguments are the same JSON in every dialect.
    pub fn json(id: &str, name: &str, args: &Value) -> Self {
        let text = args.to_string();
        Self {
            id: Some(id.to_owned()),
            name: name.to_owned(),
            text: Some(text.clone()),
            object: Some(text),
        }
    }
}

/// One rendered result, read back from a dialect's next-request message(s).
#[derive(Debug, Clone, PartialEq)]
pub struct Answer {
    /// `tool_call_id`, `call_id`, `tool_use_id`, `toolUseId` or `functionResponse.id`.
    pub id: Option<String>,
    /// The text the model reads.
    pub text: String,
    /// The error flag: Anthropic's `is_error`, Bedrock's `status`, Gemini's and Cohere's
    /// `error` key, OpenAI's `Error: ` mark (the text is given without the mark).
    pub error: Option<bool>,
}

/// `s` as a JSON string literal.
fn quoted(s: &str) -> String {
    serde_json::to_string(s).expect("a string serializes")
}

/// `text` cut in two at the character boundary nearest its middle (a response sends text in
/// parts where its format has them).
fn halves(text: &str) -> (&str, &str) {
    let mut middle = text.len() / 2;
    while !text.is_char_boundary(middle) {
        middle += 1;
    }
    text.split_at(middle)
}

/// A call's id as JSON text, `null` when it has none.
fn id_or_null(call: &WireCall) -> String {
    call.id.as_deref().map_or_else(|| "null".to_owned(), quoted)
}

/// `,"<key>":<raw>` for a part that is there, nothing for one left out.
fn member(key: &str, raw: Option<String>) -> String {
    raw.map(|raw| format!(",\"{key}\":{raw}"))
        .unwrap_or_default()
}

/// The string at `key` of `v`.
fn str_at(v: &Value, key: &str) -> String {
    v[key]
        .as_str()
        .unwrap_or_else(|| panic!("`{key}` is a string in {v}"))
        .to_owned()
}

/// An OpenAI result text read back: without its `Error: ` mark, and whether it had one.
fn openai_text(text: String) -> (String, Option<bool>) {
    match text.strip_prefix("Error: ") {
        Some(rest) => (rest.to_owned(), Some(true)),
        None => (text, Some(false)),
    }
}

/// The blocks of the one user message Anthropic and Bedrock answer a turn with (none for no
/// results), which is never empty.
fn user_blocks<'a>(rendered: &'a [Value], key: &str) -> &'a [Value] {
    if rendered.is_empty() {
        return &[];
    }
    assert_eq!(rendered.len(), 1, "one user message: {rendered:?}");
    assert_eq!(rendered[0]["role"], "user");
    let blocks = rendered[0][key].as_array().expect("content blocks");
    assert!(!blocks.is_empty(), "never an empty message");
    blocks
}

/// A `{key: text}` object of one member (Gemini's `response`, Cohere's document `data`): the
/// text and whether the key is `error`.
fn one_member(object: &Value) -> (String, bool) {
    let object = object.as_object().expect("an object");
    assert_eq!(object.len(), 1, "one member: {object:?}");
    let (key, text) = object.iter().next().expect("one member");
    (text.as_str().expect("text").to_owned(), key == "error")
}

/// SSE with an `event:` line naming each event's `type` (Anthropic, Responses, Cohere).
fn typed_sse(events: &[Value], after: impl Fn(&Value) -> Option<&'static str>) -> Vec<u8> {
    let mut body = String::new();
    for event in events {
        let data = serde_json::to_string(event).unwrap();
        let kind = event["type"].as_str().expect("an event names its type");
        body.push_str(&format!("event: {kind}\ndata: {data}\n\n"));
        if let Some(extra) = after(event) {
            body.push_str(extra);
        }
    }
    body.into_bytes()
}

/// The `key` texts of the `items` that have one, joined.
fn joined<'a>(items: impl IntoIterator<Item = &'a Value>, key: &str) -> String {
    items.into_iter().filter_map(|i| i[key].as_str()).collect()
}

/// The array at `v`, empty when there is none.
fn array(v: &Value) -> &[Value] {
    v.as_array().map_or(&[], Vec::as_slice)
}

/// The position of the event that ends the block the `call`-th opening event (`opens`) began:
/// the first later event that `closes` the same key (`opens` gives the key of an opening event).
fn block_end(
    events: &[Value],
    call: usize,
    opens: impl Fn(&Value) -> Option<Value>,
    closes: impl Fn(&Value) -> Option<Value>,
) -> Option<usize> {
    let (start, key) = events
        .iter()
        .enumerate()
        .filter_map(|(i, e)| opens(e).map(|key| (i, key)))
        .nth(call)?;
    (start..events.len()).find(|&i| closes(&events[i]).as_ref() == Some(&key))
}

/// The first half of `call`'s argument text (cut at a character boundary): never whole JSON.
fn half(call: &Call) -> String {
    let text = call.arguments.to_string();
    let mut end = text.len() / 2;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text[..end].to_owned()
}

/// The calls before the last one, and the last one, of a stream that cuts it.
fn split_last(calls: &[Call]) -> (&[Call], &Call) {
    let (last, head) = calls.split_last().expect("a call to cut");
    (head, last)
}

/// `body` with `tools` under `tools`, when there are any.
fn with_tools(mut body: Value, tools: Option<Value>) -> Value {
    if let Some(tools) = tools {
        body["tools"] = tools;
    }
    body
}

/// The entries of each message's `key` list (content blocks, Gemini's parts), in order.
fn blocks<'a>(messages: &'a [Value], key: &'a str) -> impl Iterator<Item = &'a Value> + 'a {
    messages
        .iter()
        .flat_map(move |m| m[key].as_array().into_iter().flatten())
}
