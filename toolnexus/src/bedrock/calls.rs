//! Converse's calls in (under its stop rule), its model turn, and its results out.

use serde_json::{Map, Value};

use super::content::{block_of, MEDIA};
use crate::limits::admit;
use crate::response::{field, At, Reader, ResponseError, TokenLimit};
use crate::values::call::{Arguments, CallKind, ToolCall};
use crate::values::dialect::Dialect;
use crate::values::result::ToolResult;
use crate::values::text::{echo, result_text};
use crate::wire::Calls;
use crate::wire::{assistant_turn, results_message};

const READ: Reader = Reader {
    dialect: Dialect::Bedrock,
};

/// Converse's reader: calls in, the model turn, results out.
pub(crate) struct Converse;

impl Calls for Converse {
    type Held<'a> = &'a [Value];
    type Turn = Value;

    /// The tool calls of a Converse response: each `toolUse` block of `output.message.content`, in
    /// order, with its `toolUseId`, `name` and `input` (an object; anything else is refused when the
    /// call runs).
    ///
    /// Errors ([`ResponseError`]): a `stopReason` of `max_tokens` or `model_context_window_exceeded`
    /// ([`ResponseError::Truncated`]), `malformed_model_output` or `malformed_tool_use`
    /// ([`ResponseError::Incomplete`]), `guardrail_intervened`, `content_filtered` or another
    /// reason the crate does not know to run ([`ResponseError::Stopped`]); no
    /// `output.message.content` array; a `toolUse` without `toolUseId` or `name`.
    fn read(response: &Value) -> Result<(Vec<ToolCall>, &[Value]), ResponseError> {
        let content = content(response)?;
        Ok((
            READ.calls(content, "output.message.content", tool_use)?,
            content,
        ))
    }

    /// `{"role":"assistant","content":[...]}`: the response's message as sent (reasoning blocks
    /// must come back unchanged), a `toolUse` `input` that is not an object made `{}`. Errors as
    /// [`Calls::read`].
    fn turn_of(content: &[Value]) -> Value {
        assistant_turn(content, |block| {
            block.as_object_mut().and_then(|b| b.get_mut("toolUse"))
        })
    }

    /// The calls of a model turn [`Calls::turn_of`] made (a stored pending turn's): read as [`Calls::read`]
    /// reads the response's.
    fn calls_of_turn(turn: &[Value]) -> Result<Vec<ToolCall>, ResponseError> {
        let message = READ.object(turn.first(), "modelTurn[0]")?;
        let content = READ.array(message, "content", "modelTurn[0].content")?;
        READ.calls(content, "output.message.content", tool_use)
    }

    /// ONE `{"role":"user","content":[{"toolResult": ...}, ...]}` message with a
    /// `{"toolUseId","content":[...]}` per call, in order; `"status": "error"` on failures. The
    /// content is a `text` block (never blank, which Converse refuses: a blank output is
    /// `(the tool returned no text)`), then an `image` or
    /// `document` block per medium (`{format, source: {bytes}}`, the bytes base64; a document's
    /// `name` is the file's, made to fit what Converse takes). No calls give an empty list.
    fn render_results<'a>(
        answered: &mut dyn Iterator<Item = (&'a ToolCall, &'a ToolResult)>,
    ) -> Vec<Value> {
        results_message(answered, |(call, result)| {
            let result = admit::checked(Dialect::Bedrock, &MEDIA, call, result);
            let text = result_text(&result);
            let mut content = Vec::with_capacity(1 + result.media.len());
            // Converse refuses a blank text block.
            let text = if text.trim().is_empty() {
                NO_TEXT
            } else {
                text
            };
            content.push(block_text(text));
            content.extend(result.media.iter().map(block_of));
            let mut tool_result = Map::with_capacity(3);
            tool_result.insert(
                "toolUseId".into(),
                call.id.as_deref().unwrap_or_default().into(),
            );
            tool_result.insert("content".into(), Value::Array(content));
            if result.is_error {
                tool_result.insert("status".into(), "error".into());
            }
            let mut block = Map::with_capacity(1);
            block.insert("toolResult".into(), Value::Object(tool_result));
            Value::Object(block)
        })
    }
}

fn content(response: &Value) -> Result<&Vec<Value>, ResponseError> {
    let root = READ.root(response)?;
    let reason = |r: &str| format!("`stopReason` is `{}`", echo(r));
    match READ.optional_string(root, "stopReason", "stopReason")? {
        None | Some("tool_use" | "end_turn" | "stop_sequence") => {}
        Some(r @ "max_tokens") => return Err(READ.truncated(TokenLimit::Output, reason(r))),
        Some(r @ "model_context_window_exceeded") => {
            return Err(READ.truncated(TokenLimit::ContextWindow, reason(r)))
        }
        Some(r @ ("malformed_model_output" | "malformed_tool_use")) => {
            return Err(READ.incomplete(reason(r)))
        }
        Some(r) => return Err(READ.stopped(reason(r))),
    }
    let output = READ.object(field(root, "output"), "output")?;
    let message = READ.object(field(output, "message"), "output.message")?;
    READ.array(message, "content", "output.message.content")
}

/// The call content block `block` (at `at`) holds, if it holds a `toolUse`: the per-call parser
/// a whole response and a stream both read a call with.
pub(crate) fn tool_use(
    block: &Map<String, Value>,
    at: At<'_>,
) -> Result<Option<ToolCall>, ResponseError> {
    let Some(tool_use) = field(block, "toolUse") else {
        return Ok(None);
    };
    let tool_use = READ.object(Some(tool_use), at.field(".toolUse"))?;
    let id = READ.string(tool_use, "toolUseId", at.field(".toolUse.toolUseId"))?;
    let name = READ.string(tool_use, "name", at.field(".toolUse.name"))?;
    Ok(Some(ToolCall {
        id: Some(id.to_owned()),
        name: name.to_owned(),
        arguments: Arguments::from_object_field(field(tool_use, "input")),
        kind: CallKind::Function,
    }))
}

/// The text block of a result whose output is blank.
const NO_TEXT: &str = "(the tool returned no text)";

fn block_text(text: &str) -> Value {
    let mut block = Map::with_capacity(1);
    block.insert("text".into(), text.into());
    Value::Object(block)
}
