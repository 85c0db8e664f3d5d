//! Cohere v2 Chat's history as a transcript: `system`, `user` (text and `image_url` items),
//! `assistant` (`tool_plan`, `content` with text and thinking, `tool_calls`) and `tool` messages
//! (`document` items whose `data` holds `output` or `error`).

use serde_json::{Map, Value};

use super::calls::ChatV2;
use crate::values::media::Media;
use crate::values::result::ToolResult;
use crate::values::text::echo;
use crate::values::transcript::{History, Part, TranscriptError};
use crate::wire::transcripts::{function_calls, model_turn, object, text_of, Transcripts, Written};

/// Cohere v2 Chat's messages.
pub(crate) struct Conversation;

impl Transcripts for Conversation {
    const SYSTEM_IN_HISTORY: bool = true;

    fn read(message: &Value, history: &mut History) -> Result<(), TranscriptError> {
        let content = message.get("content");
        match message.get("role").and_then(Value::as_str) {
            Some("system") => history.system(text_of(content, &["text"], history, "content")?),
            Some("user") => {
                let (text, media) = user(content, history)?;
                history.user(text, media);
            }
            Some("assistant") => {
                let dialect = history.dialect;
                let mut parts = Vec::new();
                // The plan the model wrote before its calls: its reasoning, which only Cohere takes back.
                if let Some(plan) = message.get("tool_plan").and_then(Value::as_str) {
                    parts.push(Part::Reasoning {
                        text: plan.to_owned(),
                        dialect,
                    });
                }
                for (i, item) in content
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                    .enumerate()
                {
                    let text = |key: &str| {
                        item.get(key)
                            .and_then(Value::as_str)
                            .unwrap_or_default()
                            .to_owned()
                    };
                    match item.get("type").and_then(Value::as_str) {
                        Some("text") => parts.push(Part::Text { text: text("text") }),
                        Some("thinking") => parts.push(Part::Reasoning {
                            text: text("thinking"),
                            dialect,
                        }),
                        _ => {
                            return Err(history.error(
                                format!("content[{i}].type"),
                                "expected `text` or `thinking`",
                            ))
                        }
                    }
                }
                if let Some(Value::String(text)) = content {
                    parts.push(Part::Text { text: text.clone() });
                }
                model_turn::<ChatV2>(parts, message, history, false)?;
            }
            Some("tool") => {
                let id = message
                    .get("tool_call_id")
                    .and_then(Value::as_str)
                    .map(str::to_owned);
                let result = tool_content(content, history)?;
                history.result(id, None, result);
            }
            _ => {
                return Err(
                    history.error("role", "expected `system`, `user`, `assistant` or `tool`")
                )
            }
        }
        Ok(())
    }

    fn turn(turn: &Written<'_>) -> Vec<Value> {
        let calls = function_calls(turn);
        let text = turn.text();
        let mut message = Map::with_capacity(3);
        message.insert("role".into(), "assistant".into());
        if !text.is_empty() || calls.is_empty() {
            let item = object([("type", "text".into()), ("text", text.into())]);
            message.insert("content".into(), Value::Array(vec![item]));
        }
        if !calls.is_empty() {
            message.insert("tool_calls".into(), calls.into());
        }
        vec![Value::Object(message)]
    }
}

/// A user message's text and images (data URLs).
fn user(
    content: Option<&Value>,
    history: &History,
) -> Result<(String, Vec<Media>), TranscriptError> {
    let Some(Value::Array(items)) = content else {
        return Ok((text_of(content, &["text"], history, "content")?, Vec::new()));
    };
    let mut text = String::new();
    let mut media = Vec::new();
    for (i, item) in items.iter().enumerate() {
        match item.get("type").and_then(Value::as_str) {
            Some("text") => {
                text.push_str(item.get("text").and_then(Value::as_str).unwrap_or_default())
            }
            Some("image_url") => {
                let url = item.pointer("/image_url/url").and_then(Value::as_str);
                media.push(url.and_then(Media::from_data_url).ok_or_else(|| {
                    history.error(
                        format!("content[{i}].image_url"),
                        "expected a base64 `data:` URL",
                    )
                })?);
            }
            other => {
                return Err(history.error(
                    format!("content[{i}].type"),
                    format!(
                        "an item type a transcript does not hold: `{}`",
                        echo(other.unwrap_or_default())
                    ),
                ))
            }
        }
    }
    Ok((text, media))
}

/// A `tool` message's content: text, or `document` items whose `data` holds `output` (or
/// `error`: an error result), any other data as its JSON.
fn tool_content(content: Option<&Value>, history: &History) -> Result<ToolResult, TranscriptError> {
    let Some(Value::Array(items)) = content else {
        return Ok(ToolResult::ok(text_of(
            content,
            &["text"],
            history,
            "content",
        )?));
    };
    let mut text = String::new();
    let mut failed = false;
    for (i, item) in items.iter().enumerate() {
        match item.get("type").and_then(Value::as_str) {
            Some("text") => {
                text.push_str(item.get("text").and_then(Value::as_str).unwrap_or_default())
            }
            Some("document") => {
                let data = item.pointer("/document/data");
                let piece = |value: &Value| {
                    value
                        .as_str()
                        .map_or_else(|| value.to_string(), str::to_owned)
                };
                match (
                    data.and_then(|d| d.get("error")),
                    data.and_then(|d| d.get("output")),
                ) {
                    (Some(error), _) => {
                        failed = true;
                        text.push_str(&piece(error));
                    }
                    (None, Some(output)) => text.push_str(&piece(output)),
                    (None, None) => text.push_str(&data.map(piece).unwrap_or_default()),
                }
            }
            _ => {
                return Err(history.error(
                    format!("content[{i}].type"),
                    "expected `text` or `document`",
                ))
            }
        }
    }
    Ok(if failed {
        ToolResult::error(text)
    } else {
        ToolResult::ok(text)
    })
}
