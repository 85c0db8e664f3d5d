//! The Anthropic Messages API as a [`Format`].

use std::sync::Arc;

use serde_json::{json, Map, Value};

use super::{calls, choice, conversation, history, stream};
use crate::tool::Tool;
use crate::values::error::Error;
use crate::values::ids::IdRule;
use crate::values::media::Media;
use crate::wire::choice::ToolChoice;
use crate::wire::options::ToolsOptions;
use crate::wire::{cut, member, non_empty, AnswerFormat, Calls, Facts, Format};

/// Anthropic documents no smaller cap on a request's `tools` than its tool search tool's:
/// "Maximum tools: 10,000 tools in your catalog"
/// (<https://platform.claude.com/docs/en/agents-and-tools/tool-use/tool-search-tool>, Limits),
/// the catalog being every tool definition in the request. The same page notes that picking
/// the right tool gets harder past 30 to 50 tools.
const MAX_TOOLS: usize = 10_000;

/// The Anthropic Messages API's facts.
const FACTS: Facts = Facts {
    api_name: "Anthropic Messages",
    max_tools: MAX_TOOLS,
    max_description: None,
    media: calls::MEDIA,
    // A user message takes what a result takes (`image` and `document` blocks).
    user_media: calls::MEDIA,
    strict_nulls: false,
    passing_errors: &["overloaded_error", "rate_limit_error", "api_error"],
    refused_errors: &["invalid_request_error", "request_too_large"],
    not_a_stream: None,
    shape: &["content", "stop_reason"],
    // The API's pattern for `tool_use.id` (and a result's `tool_use_id`): `^[a-zA-Z0-9_-]+$`.
    id_rule: IdRule::word(64, "_-"),
};

/// The Anthropic Messages API.
pub(crate) struct AnthropicWire;

impl Format for AnthropicWire {
    const FACTS: &'static Facts = &FACTS;
    type Calls = calls::Messages;
    type Stream = stream::Anthropic;
    type History = history::Conversation;

    fn tools(tools: &[Arc<dyn Tool>], options: ToolsOptions) -> Vec<Value> {
        if options.strict() {
            super::strict::to_anthropic_strict(tools)
        } else {
            super::to_anthropic(tools)
        }
    }

    fn text(model_turn: &[Value]) -> String {
        conversation::text(model_turn)
    }

    fn cut_turn(partial: &Value, ran: &[usize]) -> Vec<Value> {
        let blocks = partial.get("content").and_then(Value::as_array);
        let kept = cut(
            blocks.map_or(&[][..], Vec::as_slice),
            |block| block.get("type").and_then(Value::as_str) == Some("tool_use"),
            // Empty text is refused; thinking comes back only whole, with its signature.
            |block| match block.get("type").and_then(Value::as_str) {
                Some("text") => non_empty(block.get("text")),
                Some("thinking") => non_empty(block.get("signature")),
                Some("redacted_thinking") => true,
                _ => false,
            },
            ran,
        );
        vec![calls::Messages::turn_of(&kept)]
    }

    fn user_message(text: &str, media: &[Media]) -> Value {
        conversation::user_message(text, media)
    }

    fn answer_format(format: &AnswerFormat<'_>) -> Map<String, Value> {
        let schema = format.closed_schema().clone();
        member(
            "output_config",
            json!({"format": {"type": "json_schema", "schema": schema}}),
        )
    }

    fn tool_choice(choice: &ToolChoice) -> Result<Map<String, Value>, Error> {
        choice::tool_choice(FACTS.api_name, choice)
    }
}
