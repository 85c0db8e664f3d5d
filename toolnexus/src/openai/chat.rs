//! OpenAI Chat Completions: calls in (`choices[0].message.tool_calls`), results out
//! (one `{"role":"tool"}` message per call).
//!
//! ```
//! use serde_json::json;
//! use toolnexus::{Dialect, ToolResult};
//!
//! let response = json!({"choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
//!     "role": "assistant", "content": null,
//!     "tool_calls": [{"id": "call_abc123", "type": "function",
//!                     "function": {"name": "get_weather", "arguments": "{\"city\":\"Paris\"}"}}]}}]});
//! let calls = Dialect::OpenAiChat.parse_calls(&response)?;
//! assert_eq!(calls[0].name, "get_weather");
//!
//! let results = [ToolResult::ok("sunny")];
//! let messages = Dialect::OpenAiChat.render_results(calls.iter().zip(&results));
//! assert_eq!(messages, [json!({"role": "tool", "tool_call_id": "call_abc123", "content": "sunny"})]);
//! # Ok::<(), toolnexus::ResponseError>(())
//! ```

use std::borrow::Cow;

use serde_json::{json, Map, Value};

use crate::limits::admit;
use crate::response::{field, keep_function_calls, At, Reader, ResponseError, TokenLimit};
use crate::values::call::{Arguments, CallKind, ToolCall};
use crate::values::dialect::Dialect;
use crate::values::media::{Media, MediaSupport, WEB_IMAGES};
use crate::values::result::ToolResult;
use crate::values::text::{echo, result_text};
use crate::wire::Calls;

const READ: Reader = Reader {
    dialect: Dialect::OpenAiChat,
};

fn calls_in(message: &Map<String, Value>) -> Result<Vec<ToolCall>, ResponseError> {
    let calls = READ.optional_array(message, "tool_calls", "choices[0].message.tool_calls")?;
    if calls.is_empty() && field(message, "function_call").is_some_and(|f| !f.is_null()) {
        return Err(READ.malformed(
            "choices[0].message.tool_calls",
            "an array (the deprecated `function_call` is not supported; send `tools`)",
            None,
        ));
    }
    calls
        .iter()
        .enumerate()
        .map(|(i, call)| parse_call(call, i))
        .collect()
}

/// Chat Completions' reader: calls in, the model turn, results out.
pub(crate) struct Chat;

impl Calls for Chat {
    type Held<'a> = &'a Map<String, Value>;
    type Turn = Value;

    /// The tool calls of a Chat Completions response, in order; empty when the model answered in
    /// text.
    ///
    /// Reads `choices[0]` (ask for one choice; others are ignored). Each call needs an `id` and a
    /// `function.name`; `function.arguments` is kept as the JSON text OpenAI sends (an object, as
    /// some compatible servers send, is kept as a value; a missing one means `{}`). An empty name is
    /// read as is and answered with an `Unknown tool` error result. A call of another `type` (the
    /// free-form `custom` calls) is read as [`CallKind::Unsupported`] (its name from `custom.name`),
    /// to be answered with an error result, never run.
    ///
    /// Errors ([`ResponseError`]): an error object instead of a response (an `error` that carries
    /// something), no `choices`, `finish_reason` `length` (the calls may be cut off:
    /// [`ResponseError::Incomplete`]) or `content_filter` (stopped for safety:
    /// [`ResponseError::Stopped`]), `tool_calls` that is not an array, a call that is not an
    /// object, has a `type` that is not a string, or lacks `id`, or (a function call) `function` or
    /// `function.name`.
    fn read(response: &Value) -> Result<(Vec<ToolCall>, &Map<String, Value>), ResponseError> {
        let message = message(response)?;
        Ok((calls_in(message)?, message))
    }

    /// The assistant message to repeat in the next request, before the tool messages: `role`,
    /// `content`, `tool_calls` (as sent) and `refusal` when it is not null, and a compatible
    /// server's reasoning (`reasoning_content`, `reasoning`) when it sent some: DeepSeek's
    /// thinking mode refuses a tool loop whose assistant messages lack it, and
    /// [`Profile::adapt`](crate::openai::Profile::adapt) leaves it out for a server that does
    /// not take it. Fields that only responses carry (`annotations`, `audio`) are left out;
    /// `function.arguments` that is not JSON text becomes JSON text. Errors as [`Calls::read`].
    fn turn_of(message: &Map<String, Value>) -> Value {
        let mut turn = Map::with_capacity(4);
        turn.insert("role".into(), "assistant".into());
        turn.insert(
            "content".into(),
            field(message, "content").cloned().unwrap_or(Value::Null),
        );
        // OpenAI refuses an empty `tool_calls` list in a request.
        keep_function_calls(
            message,
            &mut turn,
            &["tool_calls", "refusal", "reasoning_content", "reasoning"],
        );
        Value::Object(turn)
    }

    /// The calls of a model turn [`Calls::turn_of`] made (a stored pending turn's): read as [`Calls::read`]
    /// reads the response's.
    fn calls_of_turn(turn: &[Value]) -> Result<Vec<ToolCall>, ResponseError> {
        calls_in(READ.object(turn.first(), "modelTurn[0]")?)
    }

    /// One `{"role":"tool","tool_call_id","content"}` message per call, in order; they go after the
    /// assistant message that made the calls.
    ///
    /// Chat Completions has no error flag: an error result's text (never empty) is the content,
    /// marked with an `Error: ` prefix ([`result_content`]) so the model tells it from output. A
    /// custom call's result is a `tool` message too. A call without an id (only Gemini sends
    /// those) gets an empty `tool_call_id`.
    ///
    /// Media: a Chat tool message holds text only, so when results carry [`Media`]
    /// ONE `{"role":"user","content":[...]}` message follows the turn's tool messages. For each such
    /// result it has a text part naming the call (``The result of tool call `call_1` (`chart`)
    /// includes this image:``) and an `{"type":"image_url","image_url":{"url":"data:..."}}` part per
    /// image. A file cannot go there as a tool's output, so it becomes a text part naming it, its type
    /// and size (not its bytes). A tool message whose result is media alone reads `The result follows
    /// in the next user message.`. Image types Chat does not take (see
    /// [`Dialect::accepted_media`]) make the result an error result.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolnexus::{Arguments, Dialect, ToolCall, ToolResult};
    ///
    /// let call = ToolCall::new("call_1", "chart", Arguments::Absent);
    /// let result = ToolResult::ok("a chart").with_image("image/png", vec![1, 2, 3]);
    /// assert_eq!(
    ///     Dialect::OpenAiChat.render_results([(&call, &result)]),
    ///     [
    ///         json!({"role": "tool", "tool_call_id": "call_1", "content": "a chart"}),
    ///         json!({"role": "user", "content": [
    ///             {"type": "text", "text": "The result of tool call `call_1` (`chart`) includes this image:"},
    ///             {"type": "image_url", "image_url": {"url": "data:image/png;base64,AQID"}}]}),
    ///     ]
    /// );
    /// ```
    fn render_results<'a>(
        answered: &mut dyn Iterator<Item = (&'a ToolCall, &'a ToolResult)>,
    ) -> Vec<Value> {
        let mut media_parts = Vec::new();
        let mut messages: Vec<Value> = answered
            .into_iter()
            .map(|(call, result)| {
                let result = admit::checked(Dialect::OpenAiChat, &MEDIA, call, result);
                let mut message = Map::with_capacity(3);
                message.insert("role".into(), "tool".into());
                message.insert(
                    "tool_call_id".into(),
                    call.id.as_deref().unwrap_or_default().into(),
                );
                let text = result_content(&result);
                let content = if text.is_empty() && !result.media.is_empty() {
                    Cow::Borrowed("The result follows in the next user message.")
                } else {
                    text
                };
                message.insert("content".into(), content.into());
                if !result.media.is_empty() {
                    media_parts.extend(user_parts(call, &result));
                }
                Value::Object(message)
            })
            .collect();
        if !media_parts.is_empty() {
            messages.push(json!({"role": "user", "content": media_parts}));
        }
        messages
    }
}

/// `choices[0].message`, after the checks every reader needs.
fn message(response: &Value) -> Result<&Map<String, Value>, ResponseError> {
    let root = READ.root(response)?;
    let choices = READ.array(root, "choices", "choices")?;
    let Some(choice) = choices.first() else {
        return Err(ResponseError::Malformed {
            ran: Default::default(),
            dialect: Dialect::OpenAiChat,
            path: "choices".to_owned(),
            expected: "a non-empty array",
            found: "an empty array",
        });
    };
    let choice = READ.object(Some(choice), "choices[0]")?;
    match READ.optional_string(choice, "finish_reason", "choices[0].finish_reason")? {
        Some("length") => {
            return Err(READ.truncated(TokenLimit::Output, "`finish_reason` is `length`".into()))
        }
        Some(reason @ "content_filter") => {
            return Err(READ.stopped(format!("`finish_reason` is `{}`", echo(reason))))
        }
        _ => {}
    }
    READ.object(field(choice, "message"), "choices[0].message")
}

/// Call `i` of `choices[0].message.tool_calls`: the per-call parser a whole response and a
/// stream both read a call with.
pub(crate) fn parse_call(call: &Value, i: usize) -> Result<ToolCall, ResponseError> {
    let at = At::item("choices[0].message.tool_calls", i);
    let call = READ.object(Some(call), at)?;
    let kind = READ.function_kind(call, at.field(".type"))?;
    let id = READ.string(call, "id", at.field(".id"))?;
    if let CallKind::Unsupported(t) = &kind {
        // Answered, not run: its name (`custom.name` for a custom call) is only for the message.
        let name = call
            .get(t.as_str())
            .and_then(|body| body.get("name"))
            .and_then(Value::as_str)
            .unwrap_or_default();
        return Ok(ToolCall {
            id: Some(id.to_owned()),
            name: name.to_owned(),
            arguments: Arguments::Absent,
            kind,
        });
    }
    let function = READ.object(field(call, "function"), at.field(".function"))?;
    let name = READ.string(function, "name", at.field(".function.name"))?;
    Ok(ToolCall {
        id: Some(id.to_owned()),
        name: name.to_owned(),
        arguments: Arguments::from_field(field(function, "arguments")),
        kind,
    })
}

/// The MIME types Chat takes in a user message's `image_url` part; any other file is named in a
/// text note.
pub(crate) const MEDIA: MediaSupport = MediaSupport {
    images: WEB_IMAGES,
    documents: &[],
    any_document: true,
    text_must_be_utf8: false,
    audio: &[],
};

/// One result's media as user-message parts: a text part naming the call and its images, then
/// the images, then a note per file.
fn user_parts(call: &ToolCall, result: &ToolResult) -> Vec<Value> {
    let origin = format!(
        "The result of tool call `{}` (`{}`)",
        echo(call.id.as_deref().unwrap_or_default()),
        echo(&call.name)
    );
    let images: Vec<&Media> = result.media.iter().filter(|m| m.is_image()).collect();
    let mut parts = Vec::with_capacity(result.media.len() + 1);
    match images.len() {
        0 => {}
        1 => parts.push(json!({"type": "text", "text": format!("{origin} includes this image:")})),
        n => parts
            .push(json!({"type": "text", "text": format!("{origin} includes these {n} images:")})),
    }
    for image in images {
        parts.push(json!({"type": "image_url", "image_url": {"url": image.data_url()}}));
    }
    for file in result.media.iter().filter(|m| !m.is_image()) {
        let about = format!("({}, {} bytes)", echo(file.mime_type()), file.len());
        let note = match file.name() {
            Some(name) => format!(
                "{origin} includes a file that cannot be shown here: `{}` {about}.",
                echo(name)
            ),
            None => format!("{origin} includes a file that cannot be shown here {about}."),
        };
        parts.push(json!({"type": "text", "text": note}));
    }
    parts
}

/// The text OpenAI (Chat Completions and Responses) gets for a result. OpenAI has no error flag,
/// so an error result's text is marked with an `Error: ` prefix, so the model can tell it from
/// output; text that already starts with `Error:` (in any case) is not marked twice. A
/// successful result's output is sent as it is, whatever it starts with.
///
/// ```
/// use toolnexus::{openai::chat::result_content, ToolResult};
///
/// assert_eq!(result_content(&ToolResult::error("weather service unavailable")),
///            "Error: weather service unavailable");
/// assert_eq!(result_content(&ToolResult::error("Error: no such city")), "Error: no such city");
/// assert_eq!(result_content(&ToolResult::ok("Error: is a word")), "Error: is a word");
/// ```
#[must_use]
pub fn result_content(result: &ToolResult) -> Cow<'_, str> {
    let text = result_text(result);
    let marked = text
        .trim_start()
        .get(..6)
        .is_some_and(|head| head.eq_ignore_ascii_case("error:"));
    if result.is_error && !marked {
        Cow::Owned(format!("Error: {text}"))
    } else {
        Cow::Borrowed(text)
    }
}
