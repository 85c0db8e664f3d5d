//! A Gemini stream's most frequent chunk, a piece of text, read straight from its bytes (no
//! JSON tree built for its candidate): one candidate, without `finishReason`, whose content is
//! one part holding only `text` (and at most `role`). The chunk's other members (usage, model
//! version, the candidate's `index`, ...) are read as JSON, as the stream keeps them. A chunk of
//! any other shape (an `error`, a repeated member, another part) is not one of these, and the
//! stream reads it as JSON, which gives the same result.

use std::fmt;

use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde::Deserialize;
use serde_json::Value;

/// The pieces of a text chunk, in the order the chunk gave its members.
pub(super) struct TextChunk {
    /// Top-level members but `candidates`.
    pub(super) root: Vec<(String, Value)>,
    /// The candidate's members but `content`.
    pub(super) candidate: Vec<(String, Value)>,
    pub(super) role: Option<Value>,
    pub(super) text: String,
}

impl TextChunk {
    pub(super) fn read(data: &[u8]) -> Option<Self> {
        serde_json::from_slice(data).ok()
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Content {
    parts: [Part; 1],
    #[serde(default, deserialize_with = "present")]
    role: Option<Value>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Part {
    text: String,
}

/// The candidate: its `content`, and its other members as JSON.
struct Candidate {
    content: Option<Content>,
    rest: Vec<(String, Value)>,
}

/// A map's other members, in order.
type Members = Vec<(String, Value)>;

/// A member that is there, `null` included (`Option<Value>` alone reads `null` as absent).
fn present<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(deserializer).map(Some)
}

/// A map's members: `special` read by `read`, the others as JSON; `refused` ones (and a
/// repeated `special`) make it no text chunk.
fn members<'de, A, T>(
    mut map: A,
    special: &str,
    refused: &str,
    mut read: impl FnMut(&mut A) -> Result<T, A::Error>,
) -> Result<(Option<T>, Members), A::Error>
where
    A: MapAccess<'de>,
{
    let (mut found, mut rest) = (None, Vec::new());
    while let Some(key) = map.next_key::<String>()? {
        if key == refused || (key == special && found.is_some()) {
            return Err(de::Error::custom("not a text chunk"));
        }
        if key == special {
            found = Some(read(&mut map)?);
        } else {
            rest.push((key, map.next_value::<Value>()?));
        }
    }
    Ok((found, rest))
}

impl<'de> Deserialize<'de> for Candidate {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Of;
        impl<'de> Visitor<'de> for Of {
            type Value = Candidate;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a candidate")
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Candidate, A::Error> {
                let (content, rest) = members(map, "content", "finishReason", |m| {
                    m.next_value::<Content>()
                })?;
                Ok(Candidate { content, rest })
            }
        }
        deserializer.deserialize_map(Of)
    }
}

impl<'de> Deserialize<'de> for TextChunk {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Of;
        impl<'de> Visitor<'de> for Of {
            type Value = TextChunk;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a text chunk")
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<TextChunk, A::Error> {
                let (candidates, root) = members(map, "candidates", "error", |m| {
                    m.next_value::<[Candidate; 1]>()
                })?;
                let Some(
                    [Candidate {
                        content:
                            Some(Content {
                                parts: [part],
                                role,
                            }),
                        rest,
                    }],
                ) = candidates
                else {
                    return Err(de::Error::custom("not a text chunk"));
                };
                Ok(TextChunk {
                    root,
                    candidate: rest,
                    role,
                    text: part.text,
                })
            }
        }
        deserializer.deserialize_map(Of)
    }
}
