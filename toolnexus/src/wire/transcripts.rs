//! [`Transcripts`]: how a provider folder reads its format's message history into a transcript
//! and writes a transcript's model turns, instructions and joined turns back (the `History`
//! type of its [`Format`](super::Format)); and what every folder's reader shares.

use serde_json::Value;

use crate::values::call::{Arguments, ToolCall};
use crate::values::transcript::{History, Part, TranscriptError};
use crate::wire::Calls;

/// A format's history, both ways.
pub(crate) trait Transcripts {
    /// One message (or item) of a history of this format, added to `history`: a message it
    /// cannot read is an error naming where.
    fn read(message: &Value, history: &mut History) -> Result<(), TranscriptError>;

    /// A model turn written anew (its calls with the ids the target takes, its reasoning only
    /// where kept), as this format writes one in a history.
    fn turn(turn: &Written<'_>) -> Vec<Value>;

    /// Whether the format keeps the host's instructions in its messages, as
    /// `{"role": "system", "content": text}` (OpenAI's two formats, Cohere), rather than in a
    /// request member of their own (the default).
    const SYSTEM_IN_HISTORY: bool = false;

    /// The host's instructions as a message of the history, or `None` where the format keeps
    /// them outside its messages.
    fn system(text: &str) -> Option<Value> {
        Self::SYSTEM_IN_HISTORY
            .then(|| object([("role", "system".into()), ("content", text.into())]))
    }

    /// `next` joined into `last`, where the format wants one message per role in a row
    /// (Bedrock, which refuses two user turns in a row: the results and the user's text in one); `false`: the
    /// two stay apart.
    fn join(_last: &mut Value, _next: &Value) -> bool {
        false
    }
}

/// A call as a transcript keeps it: its arguments an object (or the JSON text, when it is no
/// object).
fn call_part(call: ToolCall) -> Part {
    let arguments = match call.arguments {
        Arguments::Absent => Value::Object(serde_json::Map::new()),
        Arguments::Value(value) => value,
        Arguments::Text(text) => match serde_json::from_str::<Value>(&text) {
            Ok(object @ Value::Object(_)) => object,
            _ if text.trim().is_empty() => Value::Object(serde_json::Map::new()),
            _ => Value::String(text),
        },
    };
    Part::Call {
        id: call.id,
        name: call.name,
        arguments,
    }
}

/// A model turn (or, where `continues`, the next item of one) read from `message`: `parts`
/// (its text, reasoning, provider items), then its calls as `C` reads them, added to `history`
/// with `message` as its native form.
pub(crate) fn model_turn<C: Calls>(
    mut parts: Vec<Part>,
    message: &Value,
    history: &mut History,
    continues: bool,
) -> Result<(), TranscriptError> {
    match C::calls_of_turn(std::slice::from_ref(message)) {
        Ok(calls) => parts.extend(calls.into_iter().map(call_part)),
        Err(error) => return Err(history.error("(the model's turn)", error.to_string())),
    }
    history.assistant(parts, message.clone(), continues);
    Ok(())
}

/// A call's arguments as JSON text (what OpenAI and Cohere send).
pub(crate) fn arguments_text(arguments: &Value) -> String {
    match arguments {
        Value::String(text) => text.clone(),
        other => other.to_string(),
    }
}

/// A call's arguments as an object (what Anthropic, Gemini and Bedrock send): JSON text that
/// spells an object becomes it, anything else `{}`.
pub(crate) fn arguments_object(arguments: &Value) -> Value {
    match arguments {
        Value::Object(_) => arguments.clone(),
        Value::String(text) => serde_json::from_str::<Value>(text)
            .ok()
            .filter(Value::is_object)
            .unwrap_or_else(|| Value::Object(serde_json::Map::new())),
        _ => Value::Object(serde_json::Map::new()),
    }
}

/// The text of a string, or of the `text` members of a list of parts whose `type` is one of
/// `kinds` (any other part is an error at `path`); `None`: neither.
pub(crate) fn text_of(
    content: Option<&Value>,
    kinds: &[&str],
    history: &History,
    path: &str,
) -> Result<String, TranscriptError> {
    match content {
        None | Some(Value::Null) => Ok(String::new()),
        Some(Value::String(text)) => Ok(text.clone()),
        Some(Value::Array(parts)) => {
            let mut text = String::new();
            for (i, part) in parts.iter().enumerate() {
                let kind = part.get("type").and_then(Value::as_str).unwrap_or_default();
                if !kinds.contains(&kind) {
                    return Err(history.error(
                        format!("{path}[{i}].type"),
                        format!(
                            "expected one of {kinds:?}, found `{}`",
                            crate::values::text::echo(kind)
                        ),
                    ));
                }
                if let Some(piece) = part.get("text").and_then(Value::as_str) {
                    text.push_str(piece);
                }
            }
            Ok(text)
        }
        Some(other) => Err(history.error(
            path,
            format!(
                "expected text or a list of parts, found {}",
                crate::values::text::kind(other)
            ),
        )),
    }
}

/// `next`'s content appended to `last`'s when both are messages of one role (a string content
/// made a block by `text`): one turn per role in a row (Bedrock).
pub(crate) fn join_content(last: &mut Value, next: &Value, text: impl Fn(&str) -> Value) -> bool {
    if last.get("role").is_none() || last.get("role") != next.get("role") {
        return false;
    }
    let blocks = |content: Option<&Value>| match content {
        Some(Value::String(s)) => vec![text(s)],
        Some(Value::Array(blocks)) => blocks.clone(),
        _ => Vec::new(),
    };
    let mut joined = blocks(last.get("content"));
    joined.extend(blocks(next.get("content")));
    last["content"] = Value::Array(joined);
    true
}

/// A model turn to write: its parts, the id each of its calls goes with (in order), and whether
/// its reasoning is sent as text.
pub(crate) struct Written<'a> {
    pub(crate) parts: &'a [Part],
    pub(crate) ids: &'a [Option<String>],
    pub(crate) reasoning_as_text: bool,
}

/// One item of a [`Written`] turn, in order.
pub(crate) enum Item<'a> {
    Text(&'a str),
    /// A call: its id (empty when it has none), name and arguments.
    Call(&'a str, &'a str, &'a Value),
}

impl<'a> Written<'a> {
    /// The turn's text and calls, in order (reasoning as text where asked; empty text left out).
    pub(crate) fn items(&self) -> impl Iterator<Item = Item<'a>> + '_ {
        let mut ids = self.ids.iter();
        self.parts.iter().filter_map(move |part| match part {
            Part::Text { text } if !text.is_empty() => Some(Item::Text(text)),
            Part::Reasoning { text, .. } if self.reasoning_as_text && !text.is_empty() => {
                Some(Item::Text(text))
            }
            Part::Call {
                name, arguments, ..
            } => {
                let id = ids.next().and_then(Option::as_deref).unwrap_or_default();
                Some(Item::Call(id, name, arguments))
            }
            _ => None,
        })
    }

    /// The turn's text, joined.
    pub(crate) fn text(&self) -> String {
        self.items()
            .filter_map(|item| match item {
                Item::Text(text) => Some(text),
                Item::Call(..) => None,
            })
            .collect()
    }

    /// The turn's calls: id, name, arguments.
    pub(crate) fn calls(&self) -> impl Iterator<Item = (&'a str, &'a str, &'a Value)> + '_ {
        self.items().filter_map(|item| match item {
            Item::Call(id, name, arguments) => Some((id, name, arguments)),
            Item::Text(_) => None,
        })
    }
}

/// An object of `members`, built without `json!` (which would copy each value through its
/// serializer).
pub(crate) fn object<const N: usize>(members: [(&str, Value); N]) -> Value {
    let mut map = serde_json::Map::with_capacity(N);
    for (key, value) in members {
        map.insert(key.to_owned(), value);
    }
    Value::Object(map)
}

/// A turn's calls as OpenAI-shaped `tool_calls` entries (OpenAI Chat, Cohere):
/// `{"id", "type": "function", "function": {"name", "arguments": JSON text}}`.
pub(crate) fn function_calls(turn: &Written<'_>) -> Vec<Value> {
    turn.calls()
        .map(|(id, name, arguments)| {
            let function = object([
                ("name", name.into()),
                ("arguments", arguments_text(arguments).into()),
            ]);
            object([
                ("id", id.into()),
                ("type", "function".into()),
                ("function", function),
            ])
        })
        .collect()
}

/// `{"role": "assistant", "content": blocks}`: a model turn of content blocks (Anthropic,
/// Bedrock), as the one message it is.
pub(crate) fn assistant_blocks(blocks: Vec<Value>) -> Vec<Value> {
    vec![object([
        ("role", "assistant".into()),
        ("content", blocks.into()),
    ])]
}
