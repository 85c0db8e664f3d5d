//! The two OpenAI wire formats as [`Format`]s: Chat Completions and the Responses API.

use std::sync::Arc;

use serde_json::{json, Map, Value};

use super::{chat, chat_stream, choice, conversation, history, responses, responses_stream};
use crate::tool::Tool;
use crate::values::error::Error;
use crate::values::ids::IdRule;
use crate::values::media::Media;
use crate::wire::choice::ToolChoice;
use crate::wire::options::ToolsOptions;
use crate::wire::{cut, member, AnswerFormat, Calls, Facts, Format};

/// OpenAI: "A max of 128 functions are supported" (the API reference of the Chat Completions
/// `tools` parameter, as the openai SDK's docstrings carry it, e.g. `openai-python`
/// `types/evals/create_eval_completions_run_data_source.py`); the Responses API takes the same.
const MAX_TOOLS: usize = 128;

/// OpenAI refuses a function `description` over 1024 characters on some deployments
/// (`string_above_max_length`, as reported publicly); others, and compatible servers, take more.
const MAX_DESCRIPTION: usize = 1024;

/// OpenAI Chat Completions' facts.
const CHAT_FACTS: Facts = Facts {
    api_name: "OpenAI Chat Completions",
    max_tools: MAX_TOOLS,
    max_description: Some(MAX_DESCRIPTION),
    media: chat::MEDIA,
    user_media: conversation::CHAT_USER_MEDIA,
    strict_nulls: true,
    passing_errors: &[
        "server_error",
        "rate_limit_exceeded",
        "internal_server_error",
        "service_unavailable",
        "timeout",
    ],
    refused_errors: &[
        "invalid_request_error",
        "invalid_request",
        "context_length_exceeded",
    ],
    not_a_stream: None,
    shape: &["choices"],
    // "string too long ... expected a maximum length of 40" for a longer `tool_call_id`.
    id_rule: IdRule::up_to(40),
};

/// The OpenAI Responses API's facts.
const RESPONSES_FACTS: Facts = Facts {
    api_name: "OpenAI Responses",
    media: responses::MEDIA,
    // `input_image` and `input_file` parts: what a result takes.
    user_media: responses::MEDIA,
    shape: &["output", "status"],
    id_rule: IdRule::ANY,
    ..CHAT_FACTS
};

/// OpenAI Chat Completions.
pub(crate) struct ChatWire;

/// The OpenAI Responses API.
pub(crate) struct ResponsesWire;

impl Format for ChatWire {
    const FACTS: &'static Facts = &CHAT_FACTS;
    type Calls = chat::Chat;
    type Stream = chat_stream::Chat;
    type History = history::Chat;

    fn tools(tools: &[Arc<dyn Tool>], options: ToolsOptions) -> Vec<Value> {
        if options.strict() {
            super::to_openai_strict(tools)
        } else {
            super::to_openai(tools)
        }
    }

    fn text(model_turn: &[Value]) -> String {
        crate::wire::message_text(model_turn)
    }

    fn cut_turn(partial: &Value, ran: &[usize]) -> Vec<Value> {
        let Some(message) = partial
            .pointer("/choices/0/message")
            .and_then(Value::as_object)
        else {
            return Vec::new();
        };
        let mut message = message.clone();
        if let Some(Value::Array(calls)) = message.get("tool_calls") {
            let kept = cut(calls, |_| true, |_| false, ran);
            message.insert("tool_calls".into(), Value::Array(kept));
        }
        vec![chat::Chat::turn_of(&message)]
    }

    fn user_message(text: &str, media: &[Media]) -> Value {
        conversation::chat_user_message(text, media)
    }

    fn answer_format(format: &AnswerFormat<'_>) -> Map<String, Value> {
        let json_schema = Value::Object(format.openai_json_schema());
        member(
            "response_format",
            json!({"type": "json_schema", "json_schema": json_schema}),
        )
    }

    fn tool_choice(choice: &ToolChoice) -> Result<Map<String, Value>, Error> {
        Ok(choice::chat(choice))
    }

    fn refusal(model_turn: &[Value]) -> Option<String> {
        let refusal = model_turn.first()?.get("refusal")?.as_str()?;
        Some(refusal.to_owned())
    }
}

impl Format for ResponsesWire {
    const FACTS: &'static Facts = &RESPONSES_FACTS;
    type Calls = responses::Responses;
    type Stream = responses_stream::Responses;
    type History = history::Responses;

    fn tools(tools: &[Arc<dyn Tool>], options: ToolsOptions) -> Vec<Value> {
        super::to_openai_responses(tools, options.strict())
    }

    fn text(model_turn: &[Value]) -> String {
        conversation::responses_text(model_turn)
    }

    fn cut_turn(partial: &Value, ran: &[usize]) -> Vec<Value> {
        let output = partial.get("output").and_then(Value::as_array);
        let kind = |item: &Value| item.get("type").and_then(Value::as_str).map(str::to_owned);
        let kept = cut(
            output.map_or(&[][..], Vec::as_slice),
            |item| {
                matches!(
                    kind(item).as_deref(),
                    Some("function_call" | responses::CUSTOM)
                )
            },
            // Reasoning must come back with its calls; an item still in progress cannot.
            |item| {
                matches!(kind(item).as_deref(), Some("reasoning" | "message"))
                    && !matches!(
                        item.get("status").and_then(Value::as_str),
                        Some("in_progress" | "incomplete")
                    )
            },
            ran,
        );
        responses::Responses::turn_of(&kept)
    }

    fn user_message(text: &str, media: &[Media]) -> Value {
        conversation::responses_user_message(text, media)
    }

    fn answer_format(format: &AnswerFormat<'_>) -> Map<String, Value> {
        let mut json_schema = Map::with_capacity(5);
        json_schema.insert("type".into(), "json_schema".into());
        json_schema.extend(format.openai_json_schema());
        member("text", json!({"format": json_schema}))
    }

    fn tool_choice(choice: &ToolChoice) -> Result<Map<String, Value>, Error> {
        Ok(choice::responses(choice))
    }

    fn refusal(model_turn: &[Value]) -> Option<String> {
        responses::refusal(model_turn)
    }
}
