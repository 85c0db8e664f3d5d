//! The Messages API's history as a transcript: `user` messages (text, images, documents,
//! `tool_result` blocks) and `assistant` messages (text, `thinking`, `redacted_thinking`,
//! `tool_use`). Instructions are a request member of their own (`system`), not a message.

use serde_json::{json, Value};

use super::calls::Messages;
use crate::values::media::Media;
use crate::values::result::ToolResult;
use crate::values::text::echo;
use crate::values::transcript::{History, Part, TranscriptError};
use crate::wire::transcripts::{
    arguments_object, assistant_blocks, model_turn, object, Item, Transcripts, Written,
};

/// The Messages API's messages.
pub(crate) struct Conversation;

impl Transcripts for Conversation {
    fn read(message: &Value, history: &mut History) -> Result<(), TranscriptError> {
        let role = message.get("role").and_then(Value::as_str);
        let blocks = match message.get("content") {
            Some(Value::String(text)) => vec![json!({"type": "text", "text": text})],
            Some(Value::Array(blocks)) => blocks.clone(),
            _ => return Err(history.error("content", "expected text or a list of blocks")),
        };
        match role {
            Some("user") => user(&blocks, history),
            Some("assistant") => {
                let mut parts = Vec::new();
                for (i, block) in blocks.iter().enumerate() {
                    let text =
                        |key: &str| block.get(key).and_then(Value::as_str).unwrap_or_default();
                    let dialect = history.dialect;
                    match kind(block) {
                        "text" => parts.push(Part::Text {
                            text: text("text").to_owned(),
                        }),
                        "thinking" => parts.push(Part::Reasoning {
                            text: text("thinking").to_owned(),
                            dialect,
                        }),
                        "redacted_thinking" => parts.push(Part::Reasoning {
                            text: String::new(),
                            dialect,
                        }),
                        "tool_use" => {}
                        // Blocks of a tool the API ran itself (`server_tool_use`, its results).
                        kind @ ("server_tool_use"
                        | "tool_search_tool_result"
                        | "web_search_tool_result"
                        | "web_fetch_tool_result"
                        | "code_execution_tool_result") => parts.push(Part::Provider {
                            kind: kind.to_owned(),
                            dialect,
                        }),
                        other => return Err(unknown(i, other, history)),
                    }
                }
                model_turn::<Messages>(parts, message, history, false)?;
                Ok(())
            }
            _ => Err(history.error("role", "expected `user` or `assistant`")),
        }
    }

    fn turn(turn: &Written<'_>) -> Vec<Value> {
        let blocks: Vec<Value> = turn
            .items()
            .map(|item| match item {
                Item::Text(text) => object([("type", "text".into()), ("text", text.into())]),
                Item::Call(id, name, arguments) => object([
                    ("type", "tool_use".into()),
                    ("id", id.into()),
                    ("name", name.into()),
                    ("input", arguments_object(arguments)),
                ]),
            })
            .collect();
        assistant_blocks(blocks)
    }
}

fn kind(block: &Value) -> &str {
    block
        .get("type")
        .and_then(Value::as_str)
        .unwrap_or_default()
}

fn unknown(i: usize, kind: &str, history: &History) -> TranscriptError {
    history.error(
        format!("content[{i}].type"),
        format!("a block type a transcript does not hold: `{}`", echo(kind)),
    )
}

/// A user message: its results first (as the API wants them), then its text and media.
fn user(blocks: &[Value], history: &mut History) -> Result<(), TranscriptError> {
    let mut text = String::new();
    let mut media = Vec::new();
    for (i, block) in blocks.iter().enumerate() {
        match kind(block) {
            "text" => text.push_str(
                block
                    .get("text")
                    .and_then(Value::as_str)
                    .unwrap_or_default(),
            ),
            "image" | "document" => media.push(source(block, history, i)?),
            "tool_result" => {
                let id = block
                    .get("tool_use_id")
                    .and_then(Value::as_str)
                    .map(str::to_owned);
                let mut output = String::new();
                let mut result_media = Vec::new();
                let mut references = Vec::new();
                match block.get("content") {
                    Some(Value::String(s)) => output.push_str(s),
                    Some(Value::Array(inner)) => {
                        for (j, item) in inner.iter().enumerate() {
                            match kind(item) {
                                "text" => output.push_str(
                                    item.get("text").and_then(Value::as_str).unwrap_or_default(),
                                ),
                                "image" | "document" => {
                                    result_media.push(source(item, history, i)?)
                                }
                                // The tools a custom search found (`Deferred::reference`).
                                "tool_reference" => references.push(json!({
                                    "name": item.get("tool_name").and_then(Value::as_str)
                                        .unwrap_or_default()
                                })),
                                other => return Err(unknown(j, other, history)),
                            }
                        }
                    }
                    _ => {}
                }
                if output.is_empty() && !references.is_empty() {
                    // As `search_tools` said it, so the found set reads alike in every dialect.
                    output = json!({ "found": references }).to_string();
                }
                let failed = block.get("is_error").and_then(Value::as_bool) == Some(true);
                let mut result = if failed {
                    ToolResult::error(output)
                } else {
                    ToolResult::ok(output)
                };
                for item in result_media {
                    result = result.with_media(item);
                }
                history.result(id, None, result);
            }
            other => return Err(unknown(i, other, history)),
        }
    }
    if !text.is_empty() || !media.is_empty() {
        history.user(text, media);
    }
    Ok(())
}

/// An image or document block's base64 source as media (its `title` as the name).
fn source(block: &Value, history: &History, i: usize) -> Result<Media, TranscriptError> {
    let source = block.get("source");
    let field = |key: &str| source.and_then(|s| s.get(key)).and_then(Value::as_str);
    let media = match (field("type"), field("media_type"), field("data")) {
        (Some("base64"), Some(mime), Some(data)) => Media::from_base64(mime, data),
        (Some("text"), Some(mime), Some(data)) => Some(Media::image(mime, data.as_bytes())),
        _ => None,
    };
    let Some(mut media) = media else {
        return Err(history.error(
            format!("content[{i}].source"),
            "expected a base64 or text source",
        ));
    };
    if let Some(title) = block.get("title").and_then(Value::as_str) {
        media = media.with_name(title);
    }
    Ok(media)
}
