//! Gemini generateContent: calls in (`candidates[0].content.parts[].functionCall`), results out
//! (one `user` content of `functionResponse` parts).

use std::borrow::Cow;

use serde_json::{json, Map, Value};

use crate::limits::admit;
use crate::response::{
    field, field_mut, repair_object_arguments, At, Reader, ResponseError, TokenLimit,
};
use crate::values::call::{Arguments, CallKind, ToolCall};
use crate::values::dialect::Dialect;
use crate::values::media::MediaSupport;
use crate::values::result::ToolResult;
use crate::values::text::{echo, result_text};
use crate::wire::Calls;

const READ: Reader = Reader {
    dialect: Dialect::Gemini,
};

/// `finishReason`s that say the output was cut off or broken: its calls cannot be trusted
/// ([`ResponseError::Incomplete`]). Any other reason but `STOP` means the provider stopped the
/// turn (`SAFETY`, `RECITATION`, `PROHIBITED_CONTENT`, `BLOCKLIST`, `SPII`, `LANGUAGE`,
/// `OTHER`, ...): [`ResponseError::Stopped`].
const CUT_OFF: [&str; 5] = [
    "MAX_TOKENS",
    "MALFORMED_FUNCTION_CALL",
    "UNEXPECTED_TOOL_CALL",
    "TOO_MANY_TOOL_CALLS",
    "MALFORMED_RESPONSE",
];

/// Whether a candidate that finished with `finish` is one whose calls run: it finished
/// normally (`STOP`, or no reason given).
pub(crate) fn finished(finish: Option<&str>) -> bool {
    matches!(finish, None | Some("STOP" | "FINISH_REASON_UNSPECIFIED"))
}

fn calls_in(content: &Map<String, Value>) -> Result<Vec<ToolCall>, ResponseError> {
    const PARTS: &str = "candidates[0].content.parts";
    READ.calls(
        READ.optional_array(content, "parts", PARTS)?,
        PARTS,
        function_call,
    )
}

/// The call part `part` (at `at`) holds, if it holds a `functionCall`: the per-call parser a
/// whole response and a stream both read a call with.
pub(crate) fn function_call(
    part: &Map<String, Value>,
    at: At<'_>,
) -> Result<Option<ToolCall>, ResponseError> {
    let call = match field(part, "functionCall") {
        None | Some(Value::Null) => return Ok(None),
        some => READ.object(some, at.field(".functionCall"))?,
    };
    let name = READ.string(call, "name", at.field(".functionCall.name"))?;
    let id = match field(call, "id") {
        None | Some(Value::Null) => None,
        Some(Value::String(id)) => Some(id.clone()),
        other => return Err(READ.malformed(at.field(".functionCall.id"), "a string", other)),
    };
    Ok(Some(ToolCall {
        id,
        name: name.to_owned(),
        arguments: Arguments::from_object_field(field(call, "args")),
        kind: CallKind::Function,
    }))
}

/// `generateContent`'s reader: calls in, the model turn, results out.
pub(crate) struct Contents;

impl Calls for Contents {
    type Held<'a> = &'a Map<String, Value>;
    type Turn = Value;

    /// The `functionCall` parts of a generateContent response, in `parts` order; empty when the
    /// model answered in text. Reads `candidates[0]` (ask for one candidate).
    ///
    /// Each `functionCall` needs a `name`; `id` is optional (the Developer API usually leaves it
    /// out; results are then matched to calls by position) and `args` may be absent (`{}`).
    ///
    /// Errors ([`ResponseError`]): an error object, no candidates ([`ResponseError::Stopped`] with
    /// the prompt's `blockReason` when there is one), a `finishReason` of `MAX_TOKENS`,
    /// `MALFORMED_FUNCTION_CALL`, `UNEXPECTED_TOOL_CALL`, `TOO_MANY_TOOL_CALLS` or
    /// `MALFORMED_RESPONSE` ([`ResponseError::Incomplete`]), any other `finishReason` but `STOP`
    /// (`SAFETY`, `RECITATION`, `PROHIBITED_CONTENT`, ...: [`ResponseError::Stopped`]), a
    /// candidate without `content`, `parts` that is not an array, a part or `functionCall` that is
    /// not an object, a `functionCall` without `name`, an `id` that is not a string.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolnexus::{Dialect, ToolResult};
    ///
    /// let response = json!({"candidates": [{"finishReason": "STOP", "content": {"role": "model",
    ///     "parts": [{"functionCall": {"name": "get_weather", "args": {"city": "Paris"}}}]}}]});
    /// let calls = Dialect::Gemini.parse_calls(&response)?;
    /// assert_eq!(calls[0].id, None);
    /// let results = [ToolResult::ok("sunny")];
    /// assert_eq!(
    ///     Dialect::Gemini.render_results(calls.iter().zip(&results)),
    ///     [json!({"role": "user", "parts": [{"functionResponse": {
    ///         "name": "get_weather", "response": {"output": "sunny"}}}]})]
    /// );
    /// # Ok::<(), toolnexus::ResponseError>(())
    /// ```
    fn read(response: &Value) -> Result<(Vec<ToolCall>, &Map<String, Value>), ResponseError> {
        let content = content(response)?;
        Ok((calls_in(content)?, content))
    }

    /// The model's content to repeat before the results: `candidates[0].content` as sent (thought
    /// signatures must come back unchanged), with `"role": "model"` when the response left the role
    /// out, a `functionCall`'s `args` that is not an object replaced by `{}`, and a `functionCall`
    /// name no function can have replaced as [`render_results`] names its response (see there).
    /// Errors as [`Calls::read`].
    fn turn_of(content: &Map<String, Value>) -> Value {
        let mut turn = content.clone();
        turn.entry("role").or_insert_with(|| "model".into());
        if let Some(Value::Array(parts)) = field_mut(&mut turn, "parts") {
            for part in parts.iter_mut().filter_map(Value::as_object_mut) {
                if let Some(call) = field_mut(part, "functionCall") {
                    repair_object_arguments(call, "args");
                    let name = call
                        .as_object_mut()
                        .and_then(|call| field_mut(call, "name"));
                    if let Some(Value::String(name)) = name {
                        if let Cow::Owned(safe) = wire_name(name) {
                            *name = safe;
                        }
                    }
                }
            }
        }
        Value::Object(turn)
    }

    /// The calls of a model turn [`Calls::turn_of`] made (a stored pending turn's): read as [`Calls::read`]
    /// reads the response's.
    fn calls_of_turn(turn: &[Value]) -> Result<Vec<ToolCall>, ResponseError> {
        calls_in(READ.object(turn.first(), "modelTurn[0]")?)
    }

    /// ONE `{"role":"user","parts":[...]}` content holding a `functionResponse` part per call, in
    /// order: `{"name", "id" (only when the call had one), "response": {"output": text}}`, or
    /// `{"error": text}` for a failure. No calls give an empty list.
    ///
    /// It goes after the model's content (`candidates[0].content`) in the next request's `contents`.
    ///
    /// Gemini pairs a response with its call by name (and id, when there is one), so `name` is the
    /// call's. A name no function can have (Gemini's rule: at most 64 characters of
    /// `[A-Za-z0-9_.:-]`; a model may still send a 41 KB name, or one with control characters) is
    /// never echoed as it is: its other characters become `_` and it is cut to 64, and
    /// [`Calls::turn_of`] names the call the same way, so the pair still matches. Every tool of a
    /// toolkit has a valid name, which is never changed.
    ///
    /// A result with [`Media`](crate::Media) adds `"parts"` after `response`, as `FunctionResponse`
    /// describes it: per image or file `{"inlineData": {"mimeType", "data" (base64), "displayName"
    /// (the name, when it has one)}}`. A type Gemini does not take ([`Dialect::accepted_media`]) makes
    /// the result an error result instead.
    fn render_results<'a>(
        answered: &mut dyn Iterator<Item = (&'a ToolCall, &'a ToolResult)>,
    ) -> Vec<Value> {
        let parts: Vec<Value> = answered
            .into_iter()
            .map(|(call, result)| {
                let result = admit::checked(Dialect::Gemini, &MEDIA, call, result);
                let mut response = Map::with_capacity(1);
                let key = if result.is_error { "error" } else { "output" };
                response.insert(key.into(), result_text(&result).into());
                let mut function_response = Map::with_capacity(4);
                function_response.insert("name".into(), wire_name(&call.name).into());
                if let Some(id) = &call.id {
                    function_response.insert("id".into(), id.as_str().into());
                }
                function_response.insert("response".into(), Value::Object(response));
                if !result.media.is_empty() {
                    function_response.insert("parts".into(), media_parts(&result));
                }
                let mut part = Map::with_capacity(1);
                part.insert("functionResponse".into(), Value::Object(function_response));
                Value::Object(part)
            })
            .collect();
        if parts.is_empty() {
            return Vec::new();
        }
        let mut content = Map::with_capacity(2);
        content.insert("role".into(), "user".into());
        content.insert("parts".into(), Value::Array(parts));
        vec![Value::Object(content)]
    }
}

/// `candidates[0].content`, after the checks every reader needs.
fn content(response: &Value) -> Result<&Map<String, Value>, ResponseError> {
    let root = READ.root(response)?;
    let candidates = READ.optional_array(root, "candidates", "candidates")?;
    let Some(candidate) = candidates.first() else {
        if let Some(reason) = root
            .get("promptFeedback")
            .and_then(|f| f.get("blockReason"))
            .and_then(Value::as_str)
        {
            return Err(READ.stopped(format!(
                "the prompt was blocked: `blockReason` is `{}`",
                echo(reason)
            )));
        }
        return Err(ResponseError::Malformed {
            ran: Default::default(),
            dialect: Dialect::Gemini,
            path: "candidates".to_owned(),
            expected: "a non-empty array",
            found: if root.contains_key("candidates") {
                "an empty array"
            } else {
                "nothing"
            },
        });
    };
    let candidate = READ.object(Some(candidate), "candidates[0]")?;
    let finish = READ.optional_string(candidate, "finishReason", "candidates[0].finishReason")?;
    if let Some(reason) = finish.filter(|r| CUT_OFF.contains(r)) {
        let reason_text = format!("`finishReason` is `{reason}`");
        return Err(match reason {
            "MAX_TOKENS" => READ.truncated(TokenLimit::Output, reason_text),
            _ => READ.incomplete(reason_text),
        });
    }
    if let Some(reason) = finish.filter(|r| !finished(Some(r))) {
        return Err(READ.stopped(format!("`finishReason` is `{}`", echo(reason))));
    }
    READ.object(candidate.get("content"), "candidates[0].content")
}

/// `name` as a Gemini function name may be: unchanged when it follows the rule (at most 64
/// characters of `[A-Za-z0-9_.:-]`; empty too, which only an empty call has), else with every
/// other character as `_`, cut to 64 characters.
fn wire_name(name: &str) -> Cow<'_, str> {
    let allowed = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | ':' | '-');
    if name.len() <= 64 && name.chars().all(allowed) {
        return Cow::Borrowed(name);
    }
    Cow::Owned(
        name.chars()
            .take(64)
            .map(|c| if allowed(c) { c } else { '_' })
            .collect(),
    )
}

/// The MIME types Gemini takes in a `functionResponse`'s `parts` (its function-calling guide:
/// PNG, JPEG and WebP images; PDF and plain-text documents).
pub(crate) const MEDIA: MediaSupport = MediaSupport {
    images: &["image/png", "image/jpeg", "image/webp"],
    documents: &["application/pdf", "text/plain"],
    any_document: false,
    text_must_be_utf8: false,
    audio: &[],
};

/// A result's media as `FunctionResponsePart`s.
fn media_parts(result: &ToolResult) -> Value {
    result.media.iter().map(inline_data).collect()
}

/// An image or file as an `inlineData` part (its name as `displayName`).
pub(super) fn inline_data(media: &crate::values::media::Media) -> Value {
    let mut blob = Map::with_capacity(3);
    blob.insert("mimeType".into(), media.mime_type().into());
    blob.insert("data".into(), media.base64().into());
    if let Some(name) = media.name() {
        blob.insert("displayName".into(), name.into());
    }
    json!({ "inlineData": blob })
}
