//! Converse's history as a transcript: `user` messages (`text`, `image`, `document`,
//! `toolResult` blocks) and `assistant` messages (`text`, `reasoningContent`, `toolUse`).
//! Instructions are a request member of their own (`system`), not a message.

use serde_json::Value;

use super::calls::Converse;
use super::content::mime_of;
use crate::values::media::Media;
use crate::values::result::ToolResult;
use crate::values::text::echo;
use crate::values::transcript::{History, Part, TranscriptError};
use crate::wire::transcripts::{
    arguments_object, assistant_blocks, model_turn, object, Item, Transcripts, Written,
};

/// Converse's messages.
pub(crate) struct Messages;

impl Transcripts for Messages {
    fn read(message: &Value, history: &mut History) -> Result<(), TranscriptError> {
        let Some(Value::Array(blocks)) = message.get("content") else {
            return Err(history.error("content", "expected a list of blocks"));
        };
        match message.get("role").and_then(Value::as_str) {
            Some("user") => user(blocks, history),
            Some("assistant") => {
                let dialect = history.dialect;
                let mut parts = Vec::new();
                for (i, block) in blocks.iter().enumerate() {
                    if let Some(text) = block.get("text").and_then(Value::as_str) {
                        parts.push(Part::Text {
                            text: text.to_owned(),
                        });
                    } else if let Some(reasoning) = block.get("reasoningContent") {
                        let text = reasoning
                            .pointer("/reasoningText/text")
                            .and_then(Value::as_str);
                        let text = text.unwrap_or_default().to_owned();
                        parts.push(Part::Reasoning { text, dialect });
                    } else if block.get("toolUse").is_none() {
                        return Err(unknown(i, block, history));
                    }
                }
                model_turn::<Converse>(parts, message, history, false)?;
                Ok(())
            }
            _ => Err(history.error("role", "expected `user` or `assistant`")),
        }
    }

    fn turn(turn: &Written<'_>) -> Vec<Value> {
        let blocks: Vec<Value> = turn
            .items()
            .filter_map(|item| match item {
                // Converse refuses a blank text block.
                Item::Text(text) if text.trim().is_empty() => None,
                Item::Text(text) => Some(object([("text", text.into())])),
                Item::Call(id, name, arguments) => Some(object([(
                    "toolUse",
                    object([
                        ("toolUseId", id.into()),
                        ("name", name.into()),
                        ("input", arguments_object(arguments)),
                    ]),
                )])),
            })
            .collect();
        assistant_blocks(blocks)
    }

    fn join(last: &mut Value, next: &Value) -> bool {
        crate::wire::transcripts::join_content(last, next, |text| object([("text", text.into())]))
    }
}

fn unknown(i: usize, block: &Value, history: &History) -> TranscriptError {
    let kind = block
        .as_object()
        .and_then(|b| b.keys().next())
        .map_or_else(String::new, |k| echo(k));
    history.error(
        format!("content[{i}]"),
        format!("a block a transcript does not hold: `{kind}`"),
    )
}

/// A user message: its results first, then its text and media.
fn user(blocks: &[Value], history: &mut History) -> Result<(), TranscriptError> {
    let mut text = String::new();
    let mut media = Vec::new();
    for (i, block) in blocks.iter().enumerate() {
        if let Some(piece) = block.get("text").and_then(Value::as_str) {
            text.push_str(piece);
        } else if let Some(item) = medium(block) {
            media.push(read_media(item).ok_or_else(|| {
                history.error(
                    format!("content[{i}]"),
                    "expected a format and base64 bytes",
                )
            })?);
        } else if let Some(result) = block.get("toolResult") {
            let id = result
                .get("toolUseId")
                .and_then(Value::as_str)
                .map(str::to_owned);
            let mut output = String::new();
            let mut result_media = Vec::new();
            for item in result
                .get("content")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                if let Some(piece) = item.get("text").and_then(Value::as_str) {
                    output.push_str(piece);
                } else if let Some(json) = item.get("json") {
                    output.push_str(&json.to_string());
                } else if let Some(item) = medium(item).and_then(read_media) {
                    result_media.push(item);
                } else {
                    return Err(unknown(i, item, history));
                }
            }
            let failed = result.get("status").and_then(Value::as_str) == Some("error");
            let mut result = if failed {
                ToolResult::error(output)
            } else {
                ToolResult::ok(output)
            };
            for item in result_media {
                result = result.with_media(item);
            }
            history.result(id, None, result);
        } else {
            return Err(unknown(i, block, history));
        }
    }
    if !text.is_empty() || !media.is_empty() {
        history.user(text, media);
    }
    Ok(())
}

/// An `image` or `document` block: which, and its body.
fn medium(block: &Value) -> Option<(&'static str, &Value)> {
    ["image", "document"]
        .into_iter()
        .find_map(|kind| block.get(kind).map(|body| (kind, body)))
}

/// An `image` or `document` block's body as media (`None`: no format or base64 bytes).
fn read_media((kind, body): (&str, &Value)) -> Option<Media> {
    let format = body.get("format").and_then(Value::as_str);
    let mime = format
        .and_then(mime_of)
        .or_else(|| (kind == "image").then_some("image/png"));
    let bytes = body.pointer("/source/bytes").and_then(Value::as_str);
    let media = mime
        .zip(bytes)
        .and_then(|(mime, bytes)| Media::from_base64(mime, bytes))?;
    Some(match body.get("name").and_then(Value::as_str) {
        Some(name) => media.with_name(name),
        None => media,
    })
}
