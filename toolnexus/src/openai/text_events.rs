//! The most frequent event of each OpenAI stream, a piece of text, read straight from its bytes
//! into these types (no JSON tree built for it). An event of any other shape (another member
//! where one matters, a repeated member, an escaped `type`) is not one of these, and its stream
//! reads it as JSON, which gives the same result.

use serde::de::IgnoredAny;
use serde::{Deserialize, Deserializer};
use serde_json::Value;

/// `{"type": "response.output_text.delta", "output_index", "content_index"?, "delta"}` (other
/// members, which the stream does not read for this event, are skipped).
#[derive(Deserialize)]
pub(super) struct ResponsesText<'a> {
    #[serde(rename = "type")]
    kind: &'a str,
    pub(super) output_index: u64,
    #[serde(default)]
    pub(super) content_index: Option<u64>,
    pub(super) delta: String,
}

impl ResponsesText<'_> {
    pub(super) fn read(data: &[u8]) -> Option<ResponsesText<'_>> {
        let event: ResponsesText<'_> = serde_json::from_slice(data).ok()?;
        (event.kind == "response.output_text.delta").then_some(event)
    }
}

/// A `chat.completion.chunk` whose one choice's delta is `{"content": text}`, with no
/// `finish_reason` and no `logprobs`: the choice's index and text, and the members the stream
/// keeps from every chunk (the others it keeps only from the first, and skips here).
pub(super) struct ChatText {
    pub(super) index: u64,
    pub(super) text: String,
    pub(super) system_fingerprint: Option<Value>,
    pub(super) usage: Option<Value>,
}

#[derive(Deserialize)]
struct ChatChunk {
    choices: [ChatChoice; 1],
    #[serde(default, deserialize_with = "present")]
    system_fingerprint: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    usage: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    error: Option<Value>,
}

#[derive(Deserialize)]
struct ChatChoice {
    #[serde(default)]
    index: Option<u64>,
    delta: ChatDelta,
    #[serde(default)]
    finish_reason: Option<IgnoredAny>,
    #[serde(default)]
    logprobs: Option<IgnoredAny>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ChatDelta {
    content: String,
}

impl ChatText {
    pub(super) fn read(data: &[u8]) -> Option<Self> {
        let chunk: ChatChunk = serde_json::from_slice(data).ok()?;
        let [choice] = chunk.choices;
        let other = chunk.error.is_some_and(|e| !e.is_null())
            || choice.finish_reason.is_some()
            || choice.logprobs.is_some();
        (!other).then(|| Self {
            index: choice.index.unwrap_or(0),
            text: choice.delta.content,
            system_fingerprint: chunk.system_fingerprint,
            usage: chunk.usage,
        })
    }
}

/// A member that is there, `null` included (`Option<Value>` alone reads `null` as absent).
fn present<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(deserializer).map(Some)
}
