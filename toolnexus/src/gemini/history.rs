//! `generateContent`'s history as a transcript: `user` contents (`text`, `inlineData`,
//! `functionResponse` parts) and `model` contents (`text`, thoughts, `functionCall`).
//! Instructions are a request member of their own (`systemInstruction`), not a content.

use serde_json::{Map, Value};

use super::calls::Contents;
use crate::values::media::Media;
use crate::values::result::ToolResult;
use crate::values::transcript::{History, Part, TranscriptError};
use crate::wire::transcripts::{arguments_object, model_turn, object, Item, Transcripts, Written};

/// What Gemini's documentation says to send as a function call's `thoughtSignature` when the
/// call was made by another model (Gemini 3 refuses a current turn's call without one).
const FOREIGN_SIGNATURE: &str = "skip_thought_signature_validator";

/// `generateContent`'s contents.
pub(crate) struct Conversation;

impl Transcripts for Conversation {
    fn read(content: &Value, history: &mut History) -> Result<(), TranscriptError> {
        let Some(Value::Array(parts)) = content.get("parts") else {
            return Err(history.error("parts", "expected a list of parts"));
        };
        match content.get("role").and_then(Value::as_str) {
            Some("model") => {
                let dialect = history.dialect;
                let mut read = Vec::new();
                for (i, part) in parts.iter().enumerate() {
                    let thought = part.get("thought").and_then(Value::as_bool) == Some(true);
                    if let Some(text) = part.get("text").and_then(Value::as_str) {
                        let text = text.to_owned();
                        read.push(if thought {
                            Part::Reasoning { text, dialect }
                        } else {
                            Part::Text { text }
                        });
                    } else if part.get("functionCall").is_none()
                        && part.get("thoughtSignature").is_none()
                    {
                        return Err(unknown(i, part, history));
                    }
                }
                model_turn::<Contents>(read, content, history, false)?;
                Ok(())
            }
            None | Some("user" | "function") => {
                let mut text = String::new();
                let mut media = Vec::new();
                for (i, part) in parts.iter().enumerate() {
                    if let Some(piece) = part.get("text").and_then(Value::as_str) {
                        text.push_str(piece);
                    } else if let Some(blob) = part.get("inlineData") {
                        media.push(inline(blob).ok_or_else(|| {
                            history.error(
                                format!("parts[{i}].inlineData"),
                                "expected a mimeType and base64 data",
                            )
                        })?);
                    } else if let Some(response) = part.get("functionResponse") {
                        result(response, history);
                    } else {
                        return Err(unknown(i, part, history));
                    }
                }
                if !text.is_empty() || !media.is_empty() {
                    history.user(text, media);
                }
                Ok(())
            }
            Some(_) => Err(history.error("role", "expected `user` or `model`")),
        }
    }

    fn turn(turn: &Written<'_>) -> Vec<Value> {
        let mut signed = false;
        let parts: Vec<Value> = turn
            .items()
            .map(|item| match item {
                Item::Text(text) => object([("text", text.into())]),
                Item::Call(id, name, arguments) => {
                    let mut call = Map::with_capacity(3);
                    if !id.is_empty() {
                        call.insert("id".into(), id.into());
                    }
                    call.insert("name".into(), name.into());
                    call.insert("args".into(), arguments_object(arguments));
                    let mut part = Map::with_capacity(2);
                    part.insert("functionCall".into(), Value::Object(call));
                    if !std::mem::replace(&mut signed, true) {
                        part.insert("thoughtSignature".into(), FOREIGN_SIGNATURE.into());
                    }
                    Value::Object(part)
                }
            })
            .collect();
        vec![object([("role", "model".into()), ("parts", parts.into())])]
    }
}

fn unknown(i: usize, part: &Value, history: &History) -> TranscriptError {
    let kind = part
        .as_object()
        .and_then(|p| p.keys().next())
        .cloned()
        .unwrap_or_default();
    history.error(
        format!("parts[{i}]"),
        format!(
            "a part a transcript does not hold: `{}`",
            crate::values::text::echo(&kind)
        ),
    )
}

fn inline(blob: &Value) -> Option<Media> {
    let mime = blob.get("mimeType").and_then(Value::as_str)?;
    let media = Media::from_base64(mime, blob.get("data").and_then(Value::as_str)?)?;
    Some(match blob.get("displayName").and_then(Value::as_str) {
        Some(name) => media.with_name(name),
        None => media,
    })
}

/// A `functionResponse`: `response.output` (or `response.error`, an error result) as its text,
/// any other response as its JSON, its `parts` as media.
fn result(response: &Value, history: &mut History) {
    let id = response
        .get("id")
        .and_then(Value::as_str)
        .map(str::to_owned);
    let name = response
        .get("name")
        .and_then(Value::as_str)
        .map(str::to_owned);
    let body = response.get("response");
    let text = |value: &Value| {
        value
            .as_str()
            .map_or_else(|| value.to_string(), str::to_owned)
    };
    let mut result = match (
        body.and_then(|b| b.get("error")),
        body.and_then(|b| b.get("output")),
    ) {
        (Some(error), _) => ToolResult::error(text(error)),
        (None, Some(output)) => ToolResult::ok(text(output)),
        (None, None) => ToolResult::ok(body.map(text).unwrap_or_default()),
    };
    for part in response
        .get("parts")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        if let Some(media) = part.get("inlineData").and_then(inline) {
            result = result.with_media(media);
        }
    }
    history.result(id, name, result);
}
