//! Gemini `generateContent` as a [`Format`].

use std::sync::Arc;

use serde_json::{Map, Value};

use super::{calls, choice, conversation, history, stream};
use crate::tool::Tool;
use crate::values::error::Error;
use crate::values::ids::IdRule;
use crate::values::media::Media;
use crate::wire::choice::ToolChoice;
use crate::wire::options::ToolsOptions;
use crate::wire::{cut_member, member, non_empty, AnswerFormat, Calls, Facts, Format};

/// Gemini: "Maximum 512 function declarations can be provided" (google-genai 3.6.1,
/// `types.Tool.function_declarations`, generated from the API's own reference). Vertex AI's
/// function calling reference stated 128 for the Gemini 2.x models
/// (<https://cloud.google.com/vertex-ai/generative-ai/docs/model-reference/function-calling>).
const MAX_TOOLS: usize = 512;

/// Gemini's facts.
const FACTS: Facts = Facts {
    api_name: "Gemini generateContent",
    max_tools: MAX_TOOLS,
    max_description: None,
    media: calls::MEDIA,
    user_media: super::conversation::USER_MEDIA,
    strict_nulls: false,
    // google.rpc.Code names, as `error.status` carries them.
    passing_errors: &[
        "RESOURCE_EXHAUSTED",
        "UNAVAILABLE",
        "INTERNAL",
        "DEADLINE_EXCEEDED",
    ],
    refused_errors: &["INVALID_ARGUMENT", "FAILED_PRECONDITION", "OUT_OF_RANGE"],
    // `streamGenerateContent` without `?alt=sse` answers with a JSON array.
    not_a_stream: Some((
        "[",
        "; stream with `streamGenerateContent?alt=sse`, or read a whole response",
    )),
    shape: &["candidates"],
    // google-genai's `FunctionCall.id`: any string, and optional.
    id_rule: IdRule::ANY,
};

/// Gemini `generateContent` (Developer API and Vertex AI).
pub(crate) struct GeminiWire;

impl Format for GeminiWire {
    const FACTS: &'static Facts = &FACTS;
    type Calls = calls::Contents;
    type Stream = stream::Gemini;
    type History = history::Conversation;

    fn tools(tools: &[Arc<dyn Tool>], options: ToolsOptions) -> Vec<Value> {
        if options.json_schema() {
            super::to_gemini_json_schema(tools)
        } else {
            super::to_gemini(tools)
        }
    }

    fn text(model_turn: &[Value]) -> String {
        conversation::text(model_turn)
    }

    fn cut_turn(partial: &Value, ran: &[usize]) -> Vec<Value> {
        let Some(content) = partial
            .pointer("/candidates/0/content")
            .and_then(Value::as_object)
        else {
            return Vec::new();
        };
        let mut content = content.clone();
        // Parts arrive whole: every one but a call that did not run comes back, with the
        // thought signatures Gemini requires.
        cut_member(
            &mut content,
            "parts",
            |part| part.get("functionCall").is_some_and(|c| !c.is_null()),
            |part| non_empty(part.get("text")) || part.get("thoughtSignature").is_some(),
            ran,
        );
        vec![calls::Contents::turn_of(&content)]
    }

    fn user_message(text: &str, media: &[Media]) -> Value {
        conversation::user_message(text, media)
    }

    fn answer_format(format: &AnswerFormat<'_>) -> Map<String, Value> {
        let (key, schema) = if format.json_schema {
            ("responseJsonSchema", format.schema.for_gemini_json_schema())
        } else {
            ("responseSchema", format.schema.for_gemini())
        };
        let mut config = Map::with_capacity(2);
        config.insert("responseMimeType".into(), "application/json".into());
        config.insert(key.into(), schema.clone());
        member("generationConfig", Value::Object(config))
    }

    fn tool_choice(choice: &ToolChoice) -> Result<Map<String, Value>, Error> {
        choice::tool_choice(FACTS.api_name, choice)
    }
}
