//! OpenAI's two histories as transcripts: Chat Completions' messages (`system`/`developer`,
//! `user`, `assistant` with `tool_calls`, `tool`) and the Responses API's input items (messages,
//! `function_call`, `reasoning`, `function_call_output`).
//!
//! Neither format flags an error result: a result whose text starts with `Error: ` (as
//! `result_content` marks one) is read as an error result with the rest as its text.

use serde_json::{Map, Value};

use super::chat::Chat as ChatCalls;
use super::responses::Responses as ResponsesCalls;
use crate::values::media::Media;
use crate::values::result::ToolResult;
use crate::values::text::echo;
use crate::values::transcript::{History, Part, TranscriptError};
use crate::wire::transcripts::{
    arguments_text, function_calls, model_turn, object, text_of, Transcripts, Written,
};

/// Chat Completions' messages.
pub(crate) struct Chat;

/// The Responses API's input items.
pub(crate) struct Responses;

impl Transcripts for Chat {
    const SYSTEM_IN_HISTORY: bool = true;

    fn read(message: &Value, history: &mut History) -> Result<(), TranscriptError> {
        let content = message.get("content");
        match role(message, history)? {
            "system" | "developer" => {
                history.system(text_of(content, &["text"], history, "content")?)
            }
            "user" => {
                let (text, media) = user_content(content, history, Kinds::CHAT)?;
                history.user(text, media);
            }
            "assistant" => {
                let mut parts = Vec::new();
                // Compatible servers' reasoning (DeepSeek's `reasoning_content`, OpenRouter's,
                // Groq's and Ollama's `reasoning`: see `Profile::reasoning`).
                for key in ["reasoning_content", "reasoning"] {
                    if let Some(Value::String(text)) = message.get(key) {
                        parts.push(Part::Reasoning {
                            text: text.clone(),
                            dialect: history.dialect,
                        });
                    }
                }
                let text = text_of(content, &["text", "refusal"], history, "content")?;
                if !text.is_empty() {
                    parts.push(Part::Text { text });
                }
                model_turn::<ChatCalls>(parts, message, history, false)?;
            }
            "tool" => {
                let id = message.get("tool_call_id").and_then(Value::as_str);
                let text = text_of(content, &["text"], history, "content")?;
                history.result(id.map(str::to_owned), None, marked_result(text));
            }
            other => return Err(unknown_role(other, history)),
        }
        Ok(())
    }

    fn turn(turn: &Written<'_>) -> Vec<Value> {
        let calls = function_calls(turn);
        let text = turn.text();
        let content = if text.is_empty() && !calls.is_empty() {
            Value::Null
        } else {
            text.into()
        };
        let mut message = Map::with_capacity(3);
        message.insert("role".into(), "assistant".into());
        message.insert("content".into(), content);
        if !calls.is_empty() {
            message.insert("tool_calls".into(), calls.into());
        }
        vec![Value::Object(message)]
    }
}

impl Transcripts for Responses {
    const SYSTEM_IN_HISTORY: bool = true;

    fn read(item: &Value, history: &mut History) -> Result<(), TranscriptError> {
        let kind = item.get("type").and_then(Value::as_str);
        let content = item.get("content");
        match kind {
            None | Some("message") => match role(item, history)? {
                "system" | "developer" => {
                    let text = text_of(content, &["input_text"], history, "content")?;
                    history.system(text);
                }
                "user" => {
                    let (text, media) = user_content(content, history, Kinds::RESPONSES)?;
                    history.user(text, media);
                }
                "assistant" => {
                    let text =
                        text_of(content, &["output_text", "input_text"], history, "content")?;
                    let parts = if text.is_empty() {
                        Vec::new()
                    } else {
                        vec![Part::Text { text }]
                    };
                    history.assistant(parts, item.clone(), true);
                }
                other => return Err(unknown_role(other, history)),
            },
            Some("function_call" | super::responses::CUSTOM) => {
                model_turn::<ResponsesCalls>(Vec::new(), item, history, true)?;
            }
            Some("reasoning") => {
                let summary = item.get("summary").and_then(Value::as_array);
                let text = summary
                    .into_iter()
                    .flatten()
                    .filter_map(|part| part.get("text").and_then(Value::as_str))
                    .collect::<Vec<_>>()
                    .join("\n\n");
                let dialect = history.dialect;
                history.assistant(vec![Part::Reasoning { text, dialect }], item.clone(), true);
            }
            // Items of a search the API ran itself.
            Some(kind @ ("tool_search_call" | "tool_search_output")) => {
                let dialect = history.dialect;
                let part = Part::Provider {
                    kind: kind.to_owned(),
                    dialect,
                };
                history.assistant(vec![part], item.clone(), true);
            }
            Some("function_call_output") => {
                let id = item.get("call_id").and_then(Value::as_str);
                let text = text_of(item.get("output"), &["input_text"], history, "output")?;
                history.result(id.map(str::to_owned), None, marked_result(text));
            }
            Some(other) => {
                return Err(history.error(
                    "type",
                    format!("an item type a transcript does not hold: `{}`", echo(other)),
                ))
            }
        }
        Ok(())
    }

    fn turn(turn: &Written<'_>) -> Vec<Value> {
        let mut items = Vec::new();
        let text = turn.text();
        if !text.is_empty() {
            items.push(object([
                ("role", "assistant".into()),
                ("content", text.into()),
            ]));
        }
        items.extend(turn.calls().map(|(id, name, arguments)| {
            object([
                ("type", "function_call".into()),
                ("call_id", id.into()),
                ("name", name.into()),
                ("arguments", arguments_text(arguments).into()),
            ])
        }));
        items
    }
}

/// A result's text, an error result when it starts with `Error: ` (the mark OpenAI's and
/// Cohere's results carry), without the mark.
fn marked_result(text: String) -> ToolResult {
    match text.strip_prefix("Error: ") {
        Some(rest) => ToolResult::error(rest),
        None => ToolResult::ok(text),
    }
}

/// The message's `role`.
fn role<'v>(message: &'v Value, history: &History) -> Result<&'v str, TranscriptError> {
    message
        .get("role")
        .and_then(Value::as_str)
        .ok_or_else(|| history.error("role", "expected a string"))
}

fn unknown_role(role: &str, history: &History) -> TranscriptError {
    history.error(
        "role",
        format!("a role a transcript does not hold: `{}`", echo(role)),
    )
}

/// The part types of a user message's content: text, an image (a data URL), a file.
struct Kinds {
    text: &'static str,
    image: &'static str,
    file: &'static str,
}

impl Kinds {
    const CHAT: Self = Self {
        text: "text",
        image: "image_url",
        file: "file",
    };
    const RESPONSES: Self = Self {
        text: "input_text",
        image: "input_image",
        file: "input_file",
    };
}

/// A user message's text and media: a string, or text, image and file parts, the media as
/// data URLs.
fn user_content(
    content: Option<&Value>,
    history: &History,
    kinds: Kinds,
) -> Result<(String, Vec<Media>), TranscriptError> {
    let Some(Value::Array(parts)) = content else {
        if content.is_none() {
            return Err(history.error("content", "expected text or a list of parts"));
        }
        return Ok((
            text_of(content, &[kinds.text], history, "content")?,
            Vec::new(),
        ));
    };
    let mut text = String::new();
    let mut media = Vec::new();
    for (i, part) in parts.iter().enumerate() {
        let kind = part.get("type").and_then(Value::as_str).unwrap_or_default();
        let url = if kind == kinds.text {
            text.push_str(part.get("text").and_then(Value::as_str).unwrap_or_default());
            continue;
        } else if kind == kinds.image {
            // Chat: `image_url.url`; Responses: `image_url` itself.
            let url = part.get("image_url");
            url.and_then(|u| u.get("url")).or(url)
        } else if kind == kinds.file {
            // Chat: `file.file_data`; Responses: `file_data` itself.
            part.get("file").unwrap_or(part).get("file_data")
        } else {
            return Err(history.error(
                format!("content[{i}].type"),
                format!("a part type a transcript does not hold: `{}`", echo(kind)),
            ));
        };
        let read = url.and_then(Value::as_str).and_then(Media::from_data_url);
        let Some(mut item) = read else {
            return Err(history.error(format!("content[{i}]"), "expected a base64 `data:` URL"));
        };
        let name = part.get("file").unwrap_or(part).get("filename");
        if let Some(name) = name.and_then(Value::as_str) {
            item = item.with_name(name);
        }
        media.push(item);
    }
    Ok((text, media))
}
