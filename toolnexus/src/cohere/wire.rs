//! Cohere's v2 Chat API as a [`Format`].

use std::sync::Arc;

use serde_json::{json, Map, Value};

use super::{calls, choice, content, history, stream};
use crate::tool::Tool;
use crate::values::error::Error;
use crate::values::ids::IdRule;
use crate::values::media::Media;
use crate::wire::choice::ToolChoice;
use crate::wire::options::ToolsOptions;
use crate::wire::{
    cut_member, function_tools, member, non_empty, AnswerFormat, Calls, Facts, Format,
};

/// Cohere documents no cap on `tools` (the API reference and the cohere SDK's `ToolV2` list
/// give none): Anthropic's documented catalog bound is used, so no request is refused here
/// that Cohere would take.
const MAX_TOOLS: usize = 10_000;

/// Cohere v2 Chat's facts. Its error body names no kind (`{"id", "message"}` with the HTTP
/// status), and a failed generation is read as passing by `calls::failed` itself.
const FACTS: Facts = Facts {
    api_name: "Cohere v2 Chat",
    max_tools: MAX_TOOLS,
    max_description: None,
    media: content::MEDIA,
    user_media: content::USER_MEDIA,
    strict_nulls: false,
    passing_errors: &[],
    refused_errors: &[],
    not_a_stream: None,
    shape: &["message", "finish_reason"],
    // The cohere SDK's `ToolCallV2.id` and `tool_call_id`: any string.
    id_rule: IdRule::ANY,
};

/// Cohere v2 Chat (`POST /v2/chat`).
pub(crate) struct CohereWire;

impl Format for CohereWire {
    const FACTS: &'static Facts = &FACTS;
    type Calls = calls::ChatV2;
    type Stream = stream::Cohere;
    type History = history::Conversation;

    /// `[{"type": "function", "function": {"name", "description", "parameters"}}]`, as OpenAI
    /// gets it (`wire::function_tools`). Cohere's `strict_tools` is a request member, not a
    /// tool's: no option changes the array.
    fn tools(tools: &[Arc<dyn Tool>], _options: ToolsOptions) -> Vec<Value> {
        function_tools(tools)
    }

    fn text(model_turn: &[Value]) -> String {
        crate::wire::message_text(model_turn)
    }

    fn cut_turn(partial: &Value, ran: &[usize]) -> Vec<Value> {
        let Some(message) = partial.get("message").and_then(Value::as_object) else {
            return vec![json!({"role": "assistant"})];
        };
        let mut kept = message.clone();
        cut_member(&mut kept, "tool_calls", |_| true, |_| false, ran);
        // Only text that came: an empty item is no part of the turn.
        let text = |item: &Value| non_empty(item.get("text")) || non_empty(item.get("thinking"));
        cut_member(&mut kept, "content", |_| false, text, &[]);
        vec![calls::ChatV2::turn_of(&kept)]
    }

    fn user_message(text: &str, media: &[Media]) -> Value {
        content::user_message(text, media)
    }

    /// `{"response_format": {"type": "json_object", "json_schema": schema}}`, with the schema
    /// Anthropic's structured outputs get (every object closed, the keywords Cohere's
    /// structured outputs do not enforce, such as numeric ranges and lengths, moved into the
    /// descriptions); the answer is still checked against `T`.
    fn answer_format(format: &AnswerFormat<'_>) -> Map<String, Value> {
        member(
            "response_format",
            json!({"type": "json_object", "json_schema": format.closed_schema()}),
        )
    }

    fn tool_choice(choice: &ToolChoice) -> Result<Map<String, Value>, Error> {
        choice::tool_choice(FACTS.api_name, choice)
    }
}
