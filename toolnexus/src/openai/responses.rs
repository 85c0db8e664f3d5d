//! The OpenAI Responses API: calls in (`output[]` items of `type: "function_call"`), results out
//! (one `function_call_output` input item per call).
//!
//! ```
//! use serde_json::json;
//! use toolnexus::{Dialect, ToolResult};
//!
//! let response = json!({"object": "response", "status": "completed", "output": [
//!     {"type": "function_call", "id": "fc_1", "call_id": "call_abc123", "name": "get_weather",
//!      "arguments": "{\"city\":\"Paris\"}", "status": "completed"}]});
//! let calls = Dialect::OpenAiResponses.parse_calls(&response)?;
//! let results = [ToolResult::ok("sunny")];
//! assert_eq!(
//!     Dialect::OpenAiResponses.render_results(calls.iter().zip(&results)),
//!     [json!({"type": "function_call_output", "call_id": "call_abc123", "output": "sunny"})]
//! );
//! # Ok::<(), toolnexus::ResponseError>(())
//! ```

use serde_json::{json, Map, Value};

use crate::limits::admit;
use crate::response::{field, repair_text_arguments, At, Reader, ResponseError, TokenLimit};
use crate::values::call::{Arguments, CallKind, ToolCall};
use crate::values::dialect::Dialect;
use crate::values::media::{Media, MediaSupport, WEB_IMAGES};
use crate::values::result::ToolResult;
use crate::values::text::echo;
use crate::wire::Calls;

use super::chat::result_content;

const READ: Reader = Reader {
    dialect: Dialect::OpenAiResponses,
};

/// The output item of a free-form custom tool call, which a toolkit answers but never runs.
pub(crate) const CUSTOM: &str = "custom_tool_call";

/// The `output` items, after the checks every reader needs.
fn output(response: &Value) -> Result<&Vec<Value>, ResponseError> {
    let root = READ.root(response)?;
    match READ.optional_string(root, "status", "status")? {
        None | Some("completed") => {}
        Some("incomplete") => {
            let why = root
                .get("incomplete_details")
                .and_then(|d| d.get("reason"))
                .and_then(Value::as_str)
                .unwrap_or("no reason given");
            let reason = format!("`status` is `incomplete`: {}", echo(why));
            return Err(match why {
                "content_filter" => READ.stopped(reason),
                "max_output_tokens" => READ.truncated(TokenLimit::Output, reason),
                _ => READ.incomplete(reason),
            });
        }
        Some("cancelled") => return Err(READ.stopped("`status` is `cancelled`".into())),
        Some("failed") => {
            // A `failed` response with its `error` was refused by `root` already.
            return Err(ResponseError::Provider {
                ran: Default::default(),
                dialect: Dialect::OpenAiResponses,
                message: "`status` is `failed`".into(),
                code: None,
                retry: false,
            });
        }
        Some(other) => {
            return Err(READ.incomplete(format!("`status` is `{}`", echo(other))));
        }
    }
    READ.array(root, "output", "output")
}

/// The call output item `item` (at `at`) is, if it is a `function_call` or a custom call (a
/// call that did not complete is an error): the per-call parser a whole response and a stream
/// both read a call with.
pub(crate) fn item_call(
    item: &Map<String, Value>,
    at: At<'_>,
) -> Result<Option<ToolCall>, ResponseError> {
    let kind = match READ.string(item, "type", at.field(".type"))? {
        "function_call" => CallKind::Function,
        CUSTOM => CallKind::Unsupported(CUSTOM.to_owned()),
        _ => return Ok(None),
    };
    match field(item, "status") {
        None | Some(Value::Null) => {}
        Some(Value::String(status)) if status == "completed" => {}
        Some(status) => {
            // The call was cut off (`incomplete`) or never finished (`in_progress`).
            let status = status
                .as_str()
                .map_or_else(|| crate::values::text::kind(status).to_owned(), echo);
            return Err(READ.incomplete(format!("`{at}.status` is `{status}`")));
        }
    }
    let call_id = READ.string(item, "call_id", at.field(".call_id"))?;
    let name = READ.string(item, "name", at.field(".name"))?;
    let arguments = match kind {
        CallKind::Function => Arguments::from_field(field(item, "arguments")),
        _ => Arguments::Absent,
    };
    Ok(Some(ToolCall {
        id: Some(call_id.to_owned()),
        name: name.to_owned(),
        arguments,
        kind,
    }))
}

/// The Responses API's reader: calls in, the model turn, results out.
pub(crate) struct Responses;

impl Calls for Responses {
    type Held<'a> = &'a [Value];
    type Turn = Vec<Value>;

    /// The function calls of a Responses API response, in `output` order; empty when the model
    /// answered in text. Other output items (`message`, `reasoning`, the calls of tools OpenAI runs
    /// itself, such as `web_search_call`) are skipped.
    ///
    /// Each `function_call` item needs a `call_id` (the id results refer to; the item's own `id` is
    /// not used) and a `name`; `arguments` is kept as the JSON text OpenAI sends. A
    /// `custom_tool_call` item (the free-form calls) is read as [`CallKind::Unsupported`], to be
    /// answered with a `custom_tool_call_output` error result, never run.
    ///
    /// Errors ([`ResponseError`]): an error object (an `error` that carries something, as a
    /// `failed` response has), a `status` other than `completed`: `incomplete` for
    /// `content_filter` or `cancelled` is [`ResponseError::Stopped`], `failed`
    /// [`ResponseError::Provider`], `incomplete` for `max_output_tokens`
    /// [`ResponseError::Truncated`], any other `incomplete` or unfinished status
    /// [`ResponseError::Incomplete`]; a call item whose own `status` is not `completed` (cut off, or
    /// still `in_progress`) is [`ResponseError::Incomplete`] too, so it never runs; no `output`
    /// array, an item that is not an object or has no `type`, a `function_call` or
    /// `custom_tool_call` without `call_id` or `name`.
    fn read(response: &Value) -> Result<(Vec<ToolCall>, &[Value]), ResponseError> {
        let output = output(response)?;
        Ok((READ.calls(output, "output", item_call)?, output))
    }

    /// The response's `output` items, all of them and as sent, to go before the results in the
    /// next request's `input` (reasoning items must come back with their calls). Not needed with
    /// `previous_response_id`. A `function_call`'s `arguments` that is not JSON text becomes JSON
    /// text. Errors as [`Calls::read`].
    fn turn_of(output: &[Value]) -> Vec<Value> {
        let mut items = output.to_vec();
        for item in &mut items {
            let is_call = item.as_object().and_then(|item| field(item, "type"));
            if is_call.and_then(Value::as_str) == Some("function_call") {
                repair_text_arguments(item, "arguments");
            }
        }
        items
    }

    /// The calls of a model turn [`Calls::turn_of`] made (a stored pending turn's): read as [`Calls::read`]
    /// reads the response's.
    fn calls_of_turn(turn: &[Value]) -> Result<Vec<ToolCall>, ResponseError> {
        READ.calls(turn, "output", item_call)
    }

    /// One `{"type":"function_call_output","call_id","output"}` input item per call, in order (a
    /// `custom_tool_call` gets a `custom_tool_call_output` item of the same shape).
    ///
    /// The next request's `input` carries them after the response's `output` items (or they alone
    /// with `previous_response_id`). The API has no error flag: an error result's text (never empty)
    /// is the output, marked with an `Error: ` prefix ([`result_content`]). A call without an id
    /// gets an empty `call_id`.
    ///
    /// A result with [`Media`] has a list as `output`, as `FunctionCallOutput`
    /// describes it: `{"type":"input_text","text"}` (left out when the text is empty), then per
    /// image `{"type":"input_image","image_url":"data:image/png;base64,..."}` and per file
    /// `{"type":"input_file","filename","file_data":"data:application/pdf;base64,..."}` (a file
    /// without a name is called `file.pdf`). A type the API does not take ([`Dialect::accepted_media`])
    /// makes the result an error result instead.
    fn render_results<'a>(
        answered: &mut dyn Iterator<Item = (&'a ToolCall, &'a ToolResult)>,
    ) -> Vec<Value> {
        answered
            .into_iter()
            .map(|(call, result)| {
                let mut item = Map::with_capacity(3);
                let kind = match &call.kind {
                    CallKind::Unsupported(t) if t == CUSTOM => "custom_tool_call_output",
                    _ => "function_call_output",
                };
                item.insert("type".into(), kind.into());
                item.insert(
                    "call_id".into(),
                    call.id.as_deref().unwrap_or_default().into(),
                );
                let result = admit::checked(Dialect::OpenAiResponses, &MEDIA, call, result);
                let output = if result.media.is_empty() {
                    result_content(&result).into()
                } else {
                    Value::Array(output_items(&result))
                };
                item.insert("output".into(), output);
                Value::Object(item)
            })
            .collect()
    }
}

/// The MIME types a Responses `function_call_output` takes: the image types of `input_image` and
/// PDF for `input_file`.
pub(crate) const MEDIA: MediaSupport = MediaSupport {
    images: WEB_IMAGES,
    documents: &["application/pdf"],
    any_document: false,
    text_must_be_utf8: false,
    audio: &[],
};

/// A result with media as `function_call_output` output items: its text, then its images and
/// files.
fn output_items(result: &ToolResult) -> Vec<Value> {
    let mut items = Vec::with_capacity(result.media.len() + 1);
    let text = result_content(result);
    if !text.is_empty() {
        items.push(json!({"type": "input_text", "text": text}));
    }
    items.extend(result.media.iter().map(input_item));
    items
}

/// An image or file as an `input_image` or `input_file` item (a file without a name is called
/// `file.pdf`).
pub(super) fn input_item(media: &Media) -> Value {
    if media.is_image() {
        json!({"type": "input_image", "image_url": media.data_url()})
    } else {
        let name = media
            .name()
            .map_or_else(|| media.default_name(), str::to_owned);
        json!({"type": "input_file", "filename": name, "file_data": media.data_url()})
    }
}

/// The refusal the model wrote in a turn of output items: the `refusal` parts of its messages,
/// joined.
pub(crate) fn refusal(model_turn: &[Value]) -> Option<String> {
    let parts = model_turn
        .iter()
        .filter(|item| item.get("type").and_then(Value::as_str) == Some("message"))
        .filter_map(|item| item.get("content").and_then(Value::as_array))
        .flatten();
    let mut refusals = parts
        .filter(|part| part.get("type").and_then(Value::as_str) == Some("refusal"))
        .filter_map(|part| part.get("refusal").and_then(Value::as_str))
        .peekable();
    refusals.peek()?;
    Some(refusals.collect())
}
