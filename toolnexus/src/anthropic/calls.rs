//! Anthropic Messages: calls in (`content[]` blocks of `type: "tool_use"`), results out (one
//! `user` message of `tool_result` blocks).

use serde_json::{json, Map, Value};

use crate::limits::admit;
use crate::response::{field, At, Reader, ResponseError, TokenLimit};
use crate::values::call::{Arguments, CallKind, ToolCall};
use crate::values::dialect::Dialect;
use crate::values::media::{Media, MediaSupport, WEB_IMAGES};
use crate::values::result::ToolResult;
use crate::values::text::{echo, result_text};
use crate::wire::Calls;
use crate::wire::{assistant_turn, results_message};

const READ: Reader = Reader {
    dialect: Dialect::Anthropic,
};

/// The `content` blocks, after the checks every reader needs.
fn content(response: &Value) -> Result<&Vec<Value>, ResponseError> {
    let root = READ.root(response)?;
    match READ.optional_string(root, "stop_reason", "stop_reason")? {
        Some(reason @ ("max_tokens" | "model_context_window_exceeded")) => {
            let limit = match reason {
                "max_tokens" => TokenLimit::Output,
                _ => TokenLimit::ContextWindow,
            };
            return Err(READ.truncated(limit, format!("`stop_reason` is `{reason}`")));
        }
        Some(reason @ "refusal") => {
            return Err(READ.stopped(format!("`stop_reason` is `{}`", echo(reason))));
        }
        _ => {}
    }
    READ.array(root, "content", "content")
}

/// The call content block `block` (at `at`) is, if it is a `tool_use` block: the per-call parser
/// a whole response and a stream both read a call with.
pub(crate) fn tool_use(
    block: &Map<String, Value>,
    at: At<'_>,
) -> Result<Option<ToolCall>, ResponseError> {
    if READ.string(block, "type", at.field(".type"))? != "tool_use" {
        return Ok(None);
    }
    let id = READ.string(block, "id", at.field(".id"))?;
    let name = READ.string(block, "name", at.field(".name"))?;
    Ok(Some(ToolCall {
        id: Some(id.to_owned()),
        name: name.to_owned(),
        arguments: Arguments::from_object_field(field(block, "input")),
        kind: CallKind::Function,
    }))
}

/// The Messages API's reader: calls in, the model turn, results out.
pub(crate) struct Messages;

impl Calls for Messages {
    type Held<'a> = &'a [Value];
    type Turn = Value;

    /// The `tool_use` blocks of a Messages response, in `content` order; empty when the model
    /// answered in text. Other blocks (`text`, `thinking`, server tools) are skipped.
    ///
    /// Each `tool_use` block needs an `id` and a `name`; `input` is kept as the object Anthropic
    /// sends (a missing one means `{}`; anything but an object is refused when the call runs).
    ///
    /// Errors ([`ResponseError`]): an error object (`{"type":"error",...}`), `stop_reason`
    /// `max_tokens` or `model_context_window_exceeded` (the calls may be cut off:
    /// [`ResponseError::Incomplete`]) or `refusal` (stopped for safety: [`ResponseError::Stopped`]),
    /// `content` that is not an array, a block that is not an object or has no `type`, a
    /// `tool_use` block without `id` or `name`. Any other `stop_reason` reads the calls, `pause_turn`
    /// (a long turn paused) included: its `tool_use` blocks run as for `tool_use`.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolnexus::{Dialect, ToolResult};
    ///
    /// let response = json!({"type": "message", "role": "assistant", "stop_reason": "tool_use",
    ///     "content": [{"type": "tool_use", "id": "toolu_01A", "name": "get_weather",
    ///                  "input": {"city": "Paris"}}]});
    /// let calls = Dialect::Anthropic.parse_calls(&response)?;
    /// let results = [ToolResult::error("no such city")];
    /// assert_eq!(
    ///     Dialect::Anthropic.render_results(calls.iter().zip(&results)),
    ///     [json!({"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_01A",
    ///                                          "content": "no such city", "is_error": true}]})]
    /// );
    /// # Ok::<(), toolnexus::ResponseError>(())
    /// ```
    fn read(response: &Value) -> Result<(Vec<ToolCall>, &[Value]), ResponseError> {
        let content = content(response)?;
        Ok((READ.calls(content, "content", tool_use)?, content))
    }

    /// The assistant message to repeat before the results: `{"role":"assistant","content":[...]}`
    /// with the response's blocks as sent (thinking blocks must come back unchanged), except that a
    /// `tool_use` `input` that is not an object becomes `{}`. Errors as [`Calls::read`].
    fn turn_of(content: &[Value]) -> Value {
        assistant_turn(content, |block| {
            let kind = block.as_object().and_then(|block| field(block, "type"));
            (kind.and_then(Value::as_str) == Some("tool_use")).then_some(block)
        })
    }

    /// The calls of a model turn [`Calls::turn_of`] made (a stored pending turn's): read as [`Calls::read`]
    /// reads the response's.
    fn calls_of_turn(turn: &[Value]) -> Result<Vec<ToolCall>, ResponseError> {
        let message = READ.object(turn.first(), "modelTurn[0]")?;
        READ.calls(
            READ.array(message, "content", "modelTurn[0].content")?,
            "content",
            tool_use,
        )
    }

    /// ONE `{"role":"user","content":[tool_result, ...]}` message holding a
    /// `{"type":"tool_result","tool_use_id","content"}` block per call, in order, with
    /// `"is_error": true` on failures (whose content is never empty). No calls give an empty list.
    ///
    /// It goes after the assistant message that made the calls (`{"role":"assistant","content":
    /// response.content}`). A call without an id gets an empty `tool_use_id`.
    ///
    /// A result with [`Media`](crate::Media) has a list as `content`, as `ToolResultBlockParam`
    /// describes it: a `text` block (left out when the text is empty, which Anthropic refuses), then
    /// per image `{"type":"image","source":{"type":"base64","media_type","data"}}` and per file a
    /// `document` block (`base64` source for PDFs, `text` source for `text/plain`; the file's name as
    /// `title`). A type Anthropic does not take ([`Dialect::accepted_media`]) makes the result an error
    /// result instead.
    fn render_results<'a>(
        answered: &mut dyn Iterator<Item = (&'a ToolCall, &'a ToolResult)>,
    ) -> Vec<Value> {
        results_message(answered, |(call, result)| {
            let mut block = Map::with_capacity(4);
            block.insert("type".into(), "tool_result".into());
            block.insert(
                "tool_use_id".into(),
                call.id.as_deref().unwrap_or_default().into(),
            );
            let result = admit::checked(Dialect::Anthropic, &MEDIA, call, result);
            let content = if result.media.is_empty() {
                result_text(&result).into()
            } else {
                Value::Array(content_blocks(&result))
            };
            block.insert("content".into(), content);
            if result.is_error {
                block.insert("is_error".into(), true.into());
            }
            Value::Object(block)
        })
    }
}

/// The MIME types Anthropic takes in a `tool_result`: the image types of `Base64ImageSourceParam`
/// and the document types of `Base64PDFSourceParam` and `PlainTextSourceParam`.
pub(crate) const MEDIA: MediaSupport = MediaSupport {
    images: WEB_IMAGES,
    documents: &["application/pdf", "text/plain"],
    any_document: false,
    text_must_be_utf8: true,
    audio: &[],
};

/// A result with media as `tool_result` content blocks: its text, then its images and files.
fn content_blocks(result: &ToolResult) -> Vec<Value> {
    let mut blocks = Vec::with_capacity(result.media.len() + 1);
    let text = result_text(result);
    if !text.trim().is_empty() {
        blocks.push(json!({"type": "text", "text": text}));
    }
    blocks.extend(result.media.iter().map(media_block));
    blocks
}

/// An image or file as a content block (`image`, or `document` titled with the file's name).
pub(super) fn media_block(media: &Media) -> Value {
    let mut block = if media.is_image() {
        json!({"type": "image", "source": {"type": "base64",
            "media_type": media.mime_type(), "data": media.base64()}})
    } else if media.mime_type() == "text/plain" {
        // In a result, `checked` refused text that is not UTF-8.
        let text = String::from_utf8_lossy(media.data());
        json!({"type": "document", "source": {"type": "text",
            "media_type": "text/plain", "data": text}})
    } else {
        json!({"type": "document", "source": {"type": "base64",
            "media_type": media.mime_type(), "data": media.base64()}})
    };
    if let (Some(name), Value::Object(map)) = (media.name(), &mut block) {
        if !media.is_image() {
            map.insert("title".into(), name.into());
        }
    }
    block
}
