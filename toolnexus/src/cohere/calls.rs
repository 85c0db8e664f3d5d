//! Cohere v2 Chat's calls in (under its stop rule), its model turn, and its results out.

use serde_json::{Map, Value};

use super::content::MEDIA;
use crate::limits::admit;
use crate::response::{field, keep_function_calls, At, Reader, ResponseError, TokenLimit};
use crate::values::call::{Arguments, CallKind, ToolCall};
use crate::values::dialect::Dialect;
use crate::values::result::ToolResult;
use crate::values::text::{echo, result_text};
use crate::wire::Calls;

pub(crate) const READ: Reader = Reader {
    dialect: Dialect::Cohere,
};

/// Where a response's calls are, for error messages.
pub(crate) const CALLS: &str = "message.tool_calls";

/// Cohere v2 Chat's reader: calls in, the model turn, results out.
pub(crate) struct ChatV2;

impl Calls for ChatV2 {
    type Held<'a> = &'a Map<String, Value>;
    type Turn = Value;

    /// The calls of a `POST /v2/chat` response and its checked `message`, which the model's turn
    /// is built from: each entry of `message.tool_calls` in order, with its `id`,
    /// `function.name` and `function.arguments` (JSON text).
    ///
    /// The stop rule (`finish_reason`): `COMPLETE`, `TOOL_CALL` and `STOP_SEQUENCE` run the
    /// calls; `MAX_TOKENS` is [`ResponseError::Truncated`], `TIMEOUT`
    /// [`ResponseError::Incomplete`], `ERROR` (the generation failed) a passing
    /// [`ResponseError::Provider`], any other [`ResponseError::Stopped`]. An error body
    /// (`{"id", "message": "..."}`, as Cohere answers a refused request) is
    /// [`ResponseError::Provider`].
    fn read(response: &Value) -> Result<(Vec<ToolCall>, &Map<String, Value>), ResponseError> {
        let message = message(response)?;
        Ok((calls_of(message)?, message))
    }

    /// The calls of a model turn [`Calls::turn_of`] made (a stored pending turn's): read as [`Calls::read`]
    /// reads the response's.
    fn calls_of_turn(turn: &[Value]) -> Result<Vec<ToolCall>, ResponseError> {
        let message = READ.object(turn.first(), "modelTurn[0]")?;
        calls_of(message)
    }

    /// The assistant message to repeat before the results: `role`, then `tool_plan`,
    /// `tool_calls`, `content` and `citations` as sent when they hold something (the plan stays
    /// with the calls it planned, as Cohere's docs repeat it); `function.arguments` that is not
    /// JSON text becomes JSON text.
    fn turn_of(message: &Map<String, Value>) -> Value {
        let mut turn = Map::with_capacity(5);
        turn.insert("role".into(), "assistant".into());
        keep_function_calls(
            message,
            &mut turn,
            &["tool_plan", "tool_calls", "content", "citations"],
        );
        Value::Object(turn)
    }

    /// One `{"role": "tool", "tool_call_id", "content": [{"type": "document", "document": {"data":
    /// {"output": text}}}]}` message per call, in order, after the assistant message: a document,
    /// as Cohere's docs send tool output (the model can cite it); an error result's data is
    /// `{"error": text}` (never empty), so the model tells it from output. A Cohere tool message
    /// carries text and documents only: a result with media is the error result that says so
    /// (see `Dialect::accepted_media`).
    fn render_results<'a>(
        answered: &mut dyn Iterator<Item = (&'a ToolCall, &'a ToolResult)>,
    ) -> Vec<Value> {
        answered
            .map(|(call, result)| {
                let result = admit::checked(Dialect::Cohere, &MEDIA, call, result);
                let key = if result.is_error { "error" } else { "output" };
                let mut data = Map::with_capacity(1);
                data.insert(key.into(), result_text(&result).into());
                let mut document = Map::with_capacity(1);
                document.insert("data".into(), Value::Object(data));
                let mut block = Map::with_capacity(2);
                block.insert("type".into(), "document".into());
                block.insert("document".into(), Value::Object(document));
                let mut message = Map::with_capacity(3);
                message.insert("role".into(), "tool".into());
                message.insert(
                    "tool_call_id".into(),
                    call.id.as_deref().unwrap_or_default().into(),
                );
                message.insert("content".into(), Value::Array(vec![Value::Object(block)]));
                Value::Object(message)
            })
            .collect()
    }
}

/// The calls of a Cohere message, in order.
fn calls_of(message: &Map<String, Value>) -> Result<Vec<ToolCall>, ResponseError> {
    READ.optional_array(message, "tool_calls", CALLS)?
        .iter()
        .enumerate()
        .map(|(i, call)| parse_call(call, i))
        .collect()
}

/// `message`, after the checks every reader needs.
fn message(response: &Value) -> Result<&Map<String, Value>, ResponseError> {
    let root = READ.root(response)?;
    let reason = READ.optional_string(root, "finish_reason", "finish_reason")?;
    if let (None, Some(Value::String(error))) = (reason, field(root, "message")) {
        // Cohere's error body: `{"id", "message"}` with the HTTP status.
        let mut body = Map::with_capacity(1);
        body.insert("message".into(), Value::String(error.clone()));
        return Err(READ.provider(&Value::Object(body)));
    }
    let said = |r: &str| format!("`finish_reason` is `{}`", echo(r));
    match reason {
        None | Some("COMPLETE" | "TOOL_CALL" | "STOP_SEQUENCE") => {}
        Some(r @ "MAX_TOKENS") => return Err(READ.truncated(TokenLimit::Output, said(r))),
        Some(r @ "TIMEOUT") => return Err(READ.incomplete(said(r))),
        Some(r @ "ERROR") => return Err(failed(format!("the generation failed ({})", said(r)))),
        Some(r) => return Err(READ.stopped(said(r))),
    }
    READ.object(field(root, "message"), "message")
}

/// A generation that failed (`finish_reason` `ERROR`, a stream's `message-end` with its
/// `error`): the provider's passing error, `message` what it said.
pub(crate) fn failed(message: String) -> ResponseError {
    ResponseError::Provider {
        ran: Default::default(),
        dialect: Dialect::Cohere,
        message,
        code: Some("ERROR".to_owned()),
        retry: true,
    }
}

/// Call `i` of `message.tool_calls`: the per-call parser a whole response and a stream both
/// read a call with. A call of another `type` than `function` is answered, never run.
pub(crate) fn parse_call(call: &Value, i: usize) -> Result<ToolCall, ResponseError> {
    let at = At::item(CALLS, i);
    let call = READ.object(Some(call), at)?;
    let kind = READ.function_kind(call, at.field(".type"))?;
    let id = READ.string(call, "id", at.field(".id"))?;
    let function = READ.object(field(call, "function"), at.field(".function"))?;
    let name = READ.string(function, "name", at.field(".function.name"))?;
    let arguments = match kind {
        CallKind::Function => Arguments::from_field(field(function, "arguments")),
        _ => Arguments::Absent,
    };
    Ok(ToolCall {
        id: Some(id.to_owned()),
        name: name.to_owned(),
        arguments,
        kind,
    })
}
