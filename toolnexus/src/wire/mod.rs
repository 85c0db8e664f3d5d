//! [`Wire`]: one wire format, split by job. Its facts are data ([`Facts`], one constant per
//! provider folder: API name, limits, media, error kinds); the trait each provider folder
//! implements once reads and renders: tools out (under [`ToolsOptions`]), calls in (under its
//! stop rules), the model's turn, results out (media included), the conversation around the
//! calls, and its stream's vocabulary. `Dialect` picks the implementation in one place
//! (`Dialect::wire`); nothing else matches on it.
//!
//! The stream side is [`assemble`]: the one assembler every streamed format goes through, and
//! the event vocabulary ([`Events`]) a provider folder writes for its own stream.

pub(crate) mod assemble;
pub(crate) mod choice;
pub(crate) mod options;
pub(crate) mod transcripts;

use std::sync::Arc;

use serde_json::{Map, Value};

use crate::response::{repair_object_arguments, ResponseError};
use crate::schema::InputSchema;
use crate::tool::Tool;
use crate::values::call::ToolCall;
use crate::values::error::Error;
use crate::values::ids::IdRule;
use crate::values::media::{Media, MediaSupport};
use crate::values::result::ToolResult;
use crate::values::transcript::{History, TranscriptError};
use assemble::Events;
use choice::ToolChoice;
use options::ToolsOptions;
use transcripts::Transcripts;

/// A provider's facts, as data: each provider folder has one constant of it (`FACTS`), which
/// its [`Wire::facts`] hands out.
#[derive(Debug)]
pub(crate) struct Facts {
    /// The API's name, as error messages say it (`Anthropic Messages`).
    pub(crate) api_name: &'static str,
    /// The most functions one request may declare, as the provider documents it.
    pub(crate) max_tools: usize,
    /// The longest function description the API documents, in characters, where it documents
    /// one (a [`Warning`](crate::Warning) past it, not a refusal).
    pub(crate) max_description: Option<usize>,
    /// The MIME types a tool result may carry.
    pub(crate) media: MediaSupport,
    /// The MIME types a user message may carry; any other medium becomes a text note naming
    /// it (`values::text::unshown_note`).
    pub(crate) user_media: MediaSupport,
    /// Whether strict tools make the model send `null` for an optional argument it leaves out
    /// (OpenAI's strict mode): a toolkit that handed them out reads such `null`s as absent.
    pub(crate) strict_nulls: bool,
    /// The error kinds (`type`, `status`, `code`) the provider names for a passing moment
    /// (overloaded, rate limited, a server error): the same request may succeed after a pause.
    pub(crate) passing_errors: &'static [&'static str],
    /// The error kinds the provider names for a request it refuses as it is.
    pub(crate) refused_errors: &'static [&'static str],
    /// What to add when a streamed body is no event stream and starts with the given text
    /// (Gemini's `streamGenerateContent` without `?alt=sse` answers with a JSON array).
    pub(crate) not_a_stream: Option<(&'static str, &'static str)>,
    /// The top-level members that, all present, mark a response of this API (Gemini's
    /// `candidates`): how a response read as another dialect is told apart, to name the one it
    /// looks like.
    pub(crate) shape: &'static [&'static str],
    /// The call ids the API takes back in a request.
    pub(crate) id_rule: IdRule,
}

/// One wire format, as the crate reads and renders it through `Dialect::wire`; written for every
/// [`Format`] (a provider folder implements that, once).
pub(crate) trait Wire: Sync {
    /// The provider's facts.
    fn facts(&self) -> &'static Facts;

    /// Tools out: the `tools` array (or the part of the request that holds the tools) for
    /// `tools` under `options`, each in the provider's envelope with its schema lowered for it;
    /// a tool whose schema was refused is left out.
    fn tools(&self, tools: &[Arc<dyn Tool>], options: ToolsOptions) -> Vec<Value>;

    /// Calls in: the calls of a response, under the provider's stop rules, and the checked
    /// part its model turn is built from ([`Wire::model_turn`], once the calls have started).
    fn read<'a>(&self, response: &'a Value) -> Result<(Vec<ToolCall>, Part<'a>), ResponseError>;

    /// The model's turn, from the part of a response [`Wire::read`] checked.
    fn model_turn(&self, part: Part<'_>) -> Vec<Value>;

    /// The calls of a model turn [`Wire::model_turn`] made (a stored pending turn's, read back
    /// to check its calls against): as [`Wire::read`] reads them from the response.
    fn turn_calls(&self, model_turn: &[Value]) -> Result<Vec<ToolCall>, ResponseError>;

    /// Results out: the next request's message(s) carrying the results, each with its call.
    fn render_results<'a>(
        &self,
        answered: &mut dyn Iterator<Item = (&'a ToolCall, &'a ToolResult)>,
    ) -> Vec<Value>;

    /// The model's text in its turn (thinking left out).
    fn text(&self, model_turn: &[Value]) -> String;

    /// The user's next message, with media after its text.
    fn user_message(&self, text: &str, media: &[Media]) -> Value;

    /// The event vocabulary of a stream of this format (with its terminator), which the one
    /// assembler ([`assemble::Assembler`]) reads a stream through.
    fn stream(&self) -> Box<dyn Events>;

    /// Typed answers: the members of a request body that ask for `format`'s JSON as the
    /// model's answer (`{"response_format": ...}`, `{"generationConfig": ...}`).
    fn answer_format(&self, format: &AnswerFormat<'_>) -> Map<String, Value>;

    /// Tool choice: the members of a request body that say `choice` in this format
    /// (`{"tool_choice": "required"}`), or the refusal of a choice it cannot express
    /// (`choice::unsupported`).
    fn tool_choice(&self, choice: &ToolChoice) -> Result<Map<String, Value>, Error>;

    /// The model's turn of a stream that ended early, from the response as far as it came
    /// (`partial`, the accumulator's): only the calls at `ran` (their places among the
    /// response's calls, ascending), which ran and have results, and the other entries that
    /// were complete (text, thinking with its signature); never a call that did not run.
    fn cut_turn(&self, partial: &Value, ran: &[usize]) -> Vec<Value>;

    /// The refusal the model wrote in its turn instead of an answer (OpenAI's `refusal`). A
    /// format that reports a refusal as its stop reason has none here: reading such a response
    /// is already `ResponseError::Stopped`.
    fn refusal(&self, model_turn: &[Value]) -> Option<String>;

    /// Transcripts: one message of a history, added to `history` ([`Transcripts::read`]).
    fn read_message(&self, message: &Value, history: &mut History) -> Result<(), TranscriptError>;

    /// Transcripts: a model turn written anew ([`Transcripts::turn`]).
    fn write_turn(&self, turn: &transcripts::Written<'_>) -> Vec<Value>;

    /// Transcripts: the host's instructions as a message, if the history holds them.
    fn system_message(&self, text: &str) -> Option<Value>;

    /// Transcripts: `next` joined into `last` ([`Transcripts::join`]).
    fn join(&self, last: &mut Value, next: &Value) -> bool;
}

/// What a typed answer asks a provider for: its name, description and schema (lowered per
/// provider by the schema's own forms).
pub(crate) struct AnswerFormat<'a> {
    /// `[A-Za-z0-9_-]`, 1 to 64 characters (OpenAI's rule for a `json_schema` name).
    pub(crate) name: &'a str,
    pub(crate) description: Option<&'a str>,
    pub(crate) schema: &'a InputSchema,
    /// Gemini: the schema as JSON Schema (`responseJsonSchema`) rather than lowered to the
    /// OpenAPI subset (`responseSchema`).
    pub(crate) json_schema: bool,
}

impl AnswerFormat<'_> {
    /// `{"name", "description"?, "schema", "strict"}` with the strict form when there is one,
    /// else the non-strict one: what OpenAI's `json_schema` formats hold.
    pub(crate) fn openai_json_schema(&self) -> Map<String, Value> {
        let (schema, strict) = match self.schema.for_openai_strict() {
            Ok(strict) => (strict, true),
            Err(_) => (self.schema.for_openai(), false),
        };
        let mut format = Map::with_capacity(4);
        format.insert("name".into(), Value::String(self.name.to_owned()));
        if let Some(description) = self.description {
            format.insert("description".into(), Value::String(description.to_owned()));
        }
        format.insert("schema".into(), schema.clone());
        format.insert("strict".into(), Value::Bool(strict));
        format
    }

    /// The schema for Anthropic's structured outputs (Anthropic, Bedrock): the one Anthropic's
    /// SDK would send, a fixed point of its `transform_schema` (`InputSchema::for_anthropic_strict`).
    pub(crate) fn closed_schema(&self) -> &Value {
        self.schema.for_anthropic_answer()
    }
}

/// `{key: value}`: one member of a request body.
pub(crate) fn member(key: &str, value: Value) -> Map<String, Value> {
    let mut map = Map::with_capacity(1);
    map.insert(key.to_owned(), value);
    map
}

/// `members` added to `body` (made an object if it is not one): a member `body` already has
/// as an object is merged one level deep, any other is replaced.
pub(crate) fn merge(body: &mut Value, members: &Map<String, Value>) {
    if !body.is_object() {
        *body = Value::Object(Map::new());
    }
    let Value::Object(body) = body else { return };
    for (key, value) in members {
        match (body.get_mut(key), value) {
            (Some(Value::Object(have)), Value::Object(add)) => {
                have.extend(add.iter().map(|(k, v)| (k.clone(), v.clone())));
            }
            _ => {
                body.insert(key.clone(), value.clone());
            }
        }
    }
}

/// The checked part of a response its model turn is built from, and the wire that builds it:
/// built after the calls have started, so a toolkit does not copy the turn in front of them.
pub(crate) struct ModelTurn<'a> {
    wire: &'static dyn Wire,
    part: Part<'a>,
}

/// What [`ModelTurn`] holds of a response: an object (a message, a content) or a list (output
/// items, content blocks).
#[derive(Clone, Copy)]
pub(crate) enum Part<'a> {
    Object(&'a Map<String, Value>),
    List(&'a [Value]),
}

impl<'a> ModelTurn<'a> {
    pub(crate) fn new(wire: &'static dyn Wire, part: Part<'a>) -> Self {
        Self { wire, part }
    }

    /// The model's turn, as `Dialect::model_turn` gives it.
    pub(crate) fn build(self) -> Vec<Value> {
        self.wire.model_turn(self.part)
    }
}

impl<'a> Part<'a> {
    /// The object, or an empty one.
    pub(crate) fn object(self) -> &'a Map<String, Value> {
        static EMPTY: std::sync::OnceLock<Map<String, Value>> = std::sync::OnceLock::new();
        match self {
            Part::Object(map) => map,
            Part::List(_) => EMPTY.get_or_init(Map::new),
        }
    }

    /// The list, or an empty one.
    pub(crate) fn list(self) -> &'a [Value] {
        match self {
            Part::List(list) => list,
            Part::Object(_) => &[],
        }
    }
}

/// The entries of a cut stream's partial response that its model turn keeps (see
/// [`Wire::cut_turn`]): of the entries `is_call` says are calls, those at `ran` (places among the
/// calls, ascending); of the others, those `complete` accepts.
pub(crate) fn cut(
    entries: &[Value],
    is_call: impl Fn(&Value) -> bool,
    complete: impl Fn(&Value) -> bool,
    ran: &[usize],
) -> Vec<Value> {
    let mut position = 0;
    entries
        .iter()
        .filter(|entry| {
            if is_call(entry) {
                position += 1;
                ran.binary_search(&(position - 1)).is_ok()
            } else {
                complete(entry)
            }
        })
        .cloned()
        .collect()
}

/// `message` with its list `key` [`cut`] (a member that is no list is left as it is): the step
/// a cut turn takes on each list of its message.
pub(crate) fn cut_member(
    message: &mut Map<String, Value>,
    key: &str,
    is_call: impl Fn(&Value) -> bool,
    complete: impl Fn(&Value) -> bool,
    ran: &[usize],
) {
    if let Some(Value::Array(entries)) = message.get(key) {
        let kept = cut(entries, is_call, complete, ran);
        message.insert(key.into(), Value::Array(kept));
    }
}

/// Calls in and results out, as a provider folder's calls module reads and writes them: the
/// reading half of a [`Format`] (its `Calls` type), from which [`Wire::read`],
/// [`Wire::model_turn`], [`Wire::turn_calls`] and [`Wire::render_results`] are written.
pub(crate) trait Calls {
    /// What of a response its model turn is built from: one message or content (`&Map`), or a
    /// list of blocks or items (`&[Value]`).
    type Held<'a>: Held<'a>;
    /// The model turn as built from it: one message, or a list of items.
    type Turn: IntoTurn;

    /// The calls of a response, under the provider's stop rules, and what its model turn is
    /// built from ([`Calls::turn_of`]): `Dialect::parse_calls` and `Dialect::model_turn` read a
    /// response through it.
    fn read(response: &Value) -> Result<(Vec<ToolCall>, Self::Held<'_>), ResponseError>;

    /// The model's turn, from what [`Calls::read`] held.
    fn turn_of(held: Self::Held<'_>) -> Self::Turn;

    /// The calls of a model turn [`Calls::turn_of`] made, read as [`Calls::read`] reads them.
    fn calls_of_turn(model_turn: &[Value]) -> Result<Vec<ToolCall>, ResponseError>;

    /// The next request's message(s) carrying the results, each with its call.
    fn render_results<'a>(
        answered: &mut dyn Iterator<Item = (&'a ToolCall, &'a ToolResult)>,
    ) -> Vec<Value>;
}

/// What a [`Calls`] reader holds of a response: a [`Part`] and back.
pub(crate) trait Held<'a>: Copy {
    fn part(self) -> Part<'a>;
    fn of(part: Part<'a>) -> Self;
}

impl<'a> Held<'a> for &'a Map<String, Value> {
    fn part(self) -> Part<'a> {
        Part::Object(self)
    }
    fn of(part: Part<'a>) -> Self {
        part.object()
    }
}

impl<'a> Held<'a> for &'a [Value] {
    fn part(self) -> Part<'a> {
        Part::List(self)
    }
    fn of(part: Part<'a>) -> Self {
        part.list()
    }
}

/// What a provider folder implements, once, in its `wire.rs`: its facts, its reader
/// ([`Calls`]) and stream vocabulary ([`Events`]) as types, and what differs between formats.
/// [`Wire`] is written from it for every format, so a folder writes nothing twice.
pub(crate) trait Format: Sync + 'static {
    /// The provider's facts.
    const FACTS: &'static Facts;
    /// Calls in, the model turn and results out.
    type Calls: Calls;
    /// The event vocabulary of its stream.
    type Stream: Events + Default + 'static;
    /// Its message history, read into a transcript and written back.
    type History: Transcripts;

    /// See [`Wire::tools`].
    fn tools(tools: &[Arc<dyn Tool>], options: ToolsOptions) -> Vec<Value>;
    /// See [`Wire::text`].
    fn text(model_turn: &[Value]) -> String;
    /// See [`Wire::user_message`].
    fn user_message(text: &str, media: &[Media]) -> Value;
    /// See [`Wire::answer_format`].
    fn answer_format(format: &AnswerFormat<'_>) -> Map<String, Value>;
    /// See [`Wire::tool_choice`].
    fn tool_choice(choice: &ToolChoice) -> Result<Map<String, Value>, Error>;
    /// See [`Wire::cut_turn`].
    fn cut_turn(partial: &Value, ran: &[usize]) -> Vec<Value>;
    /// See [`Wire::refusal`]: none, unless the format writes refusals in its turn.
    fn refusal(_model_turn: &[Value]) -> Option<String> {
        None
    }
}

impl<F: Format> Wire for F {
    fn facts(&self) -> &'static Facts {
        F::FACTS
    }
    fn tools(&self, tools: &[Arc<dyn Tool>], options: ToolsOptions) -> Vec<Value> {
        F::tools(tools, options)
    }
    fn read<'a>(&self, response: &'a Value) -> Result<(Vec<ToolCall>, Part<'a>), ResponseError> {
        let (calls, held) = F::Calls::read(response)?;
        Ok((calls, held.part()))
    }
    fn model_turn(&self, part: Part<'_>) -> Vec<Value> {
        F::Calls::turn_of(Held::of(part)).into_turn()
    }
    fn turn_calls(&self, model_turn: &[Value]) -> Result<Vec<ToolCall>, ResponseError> {
        F::Calls::calls_of_turn(model_turn)
    }
    fn render_results<'a>(
        &self,
        answered: &mut dyn Iterator<Item = (&'a ToolCall, &'a ToolResult)>,
    ) -> Vec<Value> {
        F::Calls::render_results(answered)
    }
    fn text(&self, model_turn: &[Value]) -> String {
        F::text(model_turn)
    }
    fn user_message(&self, text: &str, media: &[Media]) -> Value {
        let support = &F::FACTS.user_media;
        if media.iter().all(|m| support.accepts(m.mime_type())) {
            return F::user_message(text, media);
        }
        // What the message cannot carry is named in a note after the text.
        let mut text = text.to_owned();
        let mut shown = Vec::with_capacity(media.len());
        for medium in media {
            if support.accepts(medium.mime_type()) {
                shown.push(medium.clone());
            } else {
                if !text.is_empty() {
                    text.push('\n');
                }
                text.push_str(&crate::values::text::unshown_note(medium));
            }
        }
        F::user_message(&text, &shown)
    }
    fn stream(&self) -> Box<dyn Events> {
        Box::<F::Stream>::default()
    }
    fn answer_format(&self, format: &AnswerFormat<'_>) -> Map<String, Value> {
        F::answer_format(format)
    }
    fn tool_choice(&self, choice: &ToolChoice) -> Result<Map<String, Value>, Error> {
        F::tool_choice(choice)
    }
    fn cut_turn(&self, partial: &Value, ran: &[usize]) -> Vec<Value> {
        F::cut_turn(partial, ran)
    }
    fn refusal(&self, model_turn: &[Value]) -> Option<String> {
        F::refusal(model_turn)
    }
    fn read_message(&self, message: &Value, history: &mut History) -> Result<(), TranscriptError> {
        F::History::read(message, history)
    }
    fn write_turn(&self, turn: &transcripts::Written<'_>) -> Vec<Value> {
        F::History::turn(turn)
    }
    fn system_message(&self, text: &str) -> Option<Value> {
        F::History::system(text)
    }
    fn join(&self, last: &mut Value, next: &Value) -> bool {
        F::History::join(last, next)
    }
}

/// A model turn as one message (Chat, Anthropic, Gemini, Bedrock, Cohere) or as output items
/// (Responses), made the list [`Wire::model_turn`] returns.
pub(crate) trait IntoTurn {
    fn into_turn(self) -> Vec<Value>;
}

impl IntoTurn for Value {
    fn into_turn(self) -> Vec<Value> {
        vec![self]
    }
}

impl IntoTurn for Vec<Value> {
    fn into_turn(self) -> Vec<Value> {
        self
    }
}

/// `{"role": role, "content": content}`: a message as Anthropic, Bedrock and Cohere write one.
pub(crate) fn message(role: &str, content: Value) -> Value {
    let mut message = Map::with_capacity(2);
    message.insert("role".into(), Value::String(role.to_owned()));
    message.insert("content".into(), content);
    Value::Object(message)
}

/// `{"role": "assistant", "content": [...]}`: a response's content blocks as sent (what the
/// model wrote, reasoning included, must come back unchanged), except that a call's `input`
/// that is not an object becomes `{}`; `call` gives the object that holds a block's call
/// `input`, if the block is a call (Anthropic, Bedrock).
pub(crate) fn assistant_turn(
    content: &[Value],
    call: impl Fn(&mut Value) -> Option<&mut Value>,
) -> Value {
    let mut blocks = content.to_vec();
    for block in &mut blocks {
        if let Some(holder) = call(block) {
            repair_object_arguments(holder, "input");
        }
    }
    message("assistant", Value::Array(blocks))
}

/// ONE `{"role": "user", "content": [...]}` message holding `block(call, result)` for each
/// answered call, in order; no calls give an empty list (Anthropic, Bedrock).
pub(crate) fn results_message<'a>(
    answered: impl IntoIterator<Item = (&'a ToolCall, &'a ToolResult)>,
    block: impl FnMut((&'a ToolCall, &'a ToolResult)) -> Value,
) -> Vec<Value> {
    let blocks: Vec<Value> = answered.into_iter().map(block).collect();
    if blocks.is_empty() {
        return Vec::new();
    }
    vec![message("user", Value::Array(blocks))]
}

/// Whether `value` is a non-empty string.
pub(crate) fn non_empty(value: Option<&Value>) -> bool {
    value.and_then(Value::as_str).is_some_and(|s| !s.is_empty())
}

/// The tools that can be sent: a `#[tool]` whose generated schema was refused is left out,
/// never sent as `{}`.
pub(crate) fn sendable<T: Tool>(tools: &[T]) -> impl Iterator<Item = &T> {
    tools.iter().filter(|t| t.input_schema().error().is_none())
}

/// `{"name", "description", <schema_key>: schema}`: the object every provider declares a tool
/// with (inside its own envelope).
pub(crate) fn declaration<T: Tool + ?Sized>(
    tool: &T,
    schema_key: &str,
    schema: Value,
) -> Map<String, Value> {
    let mut declaration = Map::with_capacity(4);
    declaration.insert("name".into(), Value::String(tool.name().to_owned()));
    declaration.insert(
        "description".into(),
        Value::String(tool.description().to_owned()),
    );
    declaration.insert(schema_key.to_owned(), schema);
    declaration
}

/// `{"name","description",<schema_key>: wrap(schema),"strict":true}` with the strict form, or
/// the declaration without `strict` with Anthropic's non-strict form: a strict tool of Anthropic
/// and of Bedrock, each in its envelope.
pub(crate) fn strict_declaration<T: Tool + ?Sized>(
    tool: &T,
    schema_key: &str,
    wrap: impl Fn(Value) -> Value,
) -> Map<String, Value> {
    let schema = tool.input_schema();
    match schema.for_anthropic_strict() {
        Ok(strict) => {
            let mut declaration = declaration(tool, schema_key, wrap(strict.clone()));
            declaration.insert("strict".into(), Value::Bool(true));
            declaration
        }
        Err(_) => declaration(tool, schema_key, wrap(schema.for_anthropic().clone())),
    }
}

/// `{"type": "function", "function": declaration}`: a tool in the OpenAI Chat shape, which
/// Cohere's v2 Chat takes as well.
pub(crate) fn function(declaration: Map<String, Value>) -> Value {
    let mut entry = Map::with_capacity(2);
    entry.insert("type".into(), Value::String("function".to_owned()));
    entry.insert("function".into(), Value::Object(declaration));
    Value::Object(entry)
}

/// The `tools` array of the OpenAI Chat shape: `{"type": "function", "function": {"name",
/// "description", "parameters"}}` per tool that can be sent, with the schema OpenAI gets
/// (`to_openai`, and Cohere's v2 Chat, which takes the same array).
pub(crate) fn function_tools<T: Tool>(tools: &[T]) -> Vec<Value> {
    sendable(tools)
        .map(|t| {
            let schema = t.input_schema().for_openai().clone();
            function(declaration(t, "parameters", schema))
        })
        .collect()
}

/// The text of a model turn of OpenAI-shaped messages (OpenAI Chat, Cohere): each message's
/// `content` as a string, or the `text` of its `text` items (anything else, such as Cohere's
/// `thinking`, is not part of the answer).
pub(crate) fn message_text(model_turn: &[Value]) -> String {
    let mut text = String::new();
    for message in model_turn {
        match message.get("content") {
            Some(Value::String(content)) => text.push_str(content),
            Some(Value::Array(items)) => items
                .iter()
                .filter(|i| i.get("type").and_then(Value::as_str) == Some("text"))
                .filter_map(|i| i.get("text").and_then(Value::as_str))
                .for_each(|t| text.push_str(t)),
            _ => {}
        }
    }
    text
}
