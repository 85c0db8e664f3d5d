//! Amazon Bedrock's Converse API as a [`Format`].

use std::sync::Arc;

use serde_json::{json, Map, Value};

use super::{calls, choice, content, history, stream};
use crate::tool::Tool;
use crate::values::error::Error;
use crate::values::ids::IdRule;
use crate::values::media::Media;
use crate::wire::choice::ToolChoice;
use crate::wire::options::ToolsOptions;
use crate::wire::{cut, member, non_empty, AnswerFormat, Calls, Facts, Format};

/// Converse documents no cap on `toolConfig.tools` (botocore's model gives only `min: 1`); the
/// models behind it are Anthropic's, Amazon's, Meta's, Mistral's, ...: Anthropic's is used.
const MAX_TOOLS: usize = 10_000;

/// Amazon Bedrock Converse's facts.
const FACTS: Facts = Facts {
    api_name: "Amazon Bedrock Converse",
    max_tools: MAX_TOOLS,
    max_description: None,
    media: content::MEDIA,
    // A user message takes what a result takes (`image` and `document` blocks).
    user_media: content::MEDIA,
    strict_nulls: false,
    // botocore's exception names, as the JSON protocol and the event stream spell them.
    passing_errors: &[
        "throttlingException",
        "serviceUnavailableException",
        "internalServerException",
        "modelStreamErrorException",
        "ThrottlingException",
        "ServiceUnavailableException",
        "InternalServerException",
    ],
    refused_errors: &["validationException", "ValidationException"],
    not_a_stream: None,
    shape: &["output", "stopReason"],
    // botocore's `ToolUseId`: `min` 1, `max` 64, `pattern` `[a-zA-Z0-9_.:-]+`.
    id_rule: IdRule::word(64, "_.:-"),
};

/// Amazon Bedrock Converse.
pub(crate) struct BedrockWire;

impl Format for BedrockWire {
    const FACTS: &'static Facts = &FACTS;
    type Calls = calls::Converse;
    type Stream = stream::Converse;
    type History = history::Messages;

    fn tools(tools: &[Arc<dyn Tool>], options: ToolsOptions) -> Vec<Value> {
        super::tools::to_bedrock(tools, options.strict())
    }

    fn text(model_turn: &[Value]) -> String {
        content::text(model_turn)
    }

    fn cut_turn(partial: &Value, ran: &[usize]) -> Vec<Value> {
        let blocks = partial
            .pointer("/output/message/content")
            .and_then(Value::as_array);
        let kept = cut(
            blocks.map_or(&[][..], Vec::as_slice),
            |block| block.get("toolUse").is_some(),
            // Blank text is refused; reasoning comes back only signed (or redacted).
            |block| {
                non_empty(block.get("text"))
                    || non_empty(block.pointer("/reasoningContent/reasoningText/signature"))
                    || block.pointer("/reasoningContent/redactedContent").is_some()
            },
            ran,
        );
        vec![calls::Converse::turn_of(&kept)]
    }

    fn user_message(text: &str, media: &[Media]) -> Value {
        content::user_message(text, media)
    }

    fn answer_format(format: &AnswerFormat<'_>) -> Map<String, Value> {
        // botocore: `JsonSchemaDefinition.schema` is a string, the schema's JSON text.
        let mut definition = Map::with_capacity(3);
        definition.insert("schema".into(), format.closed_schema().to_string().into());
        definition.insert("name".into(), format.name.into());
        if let Some(description) = format.description {
            definition.insert("description".into(), description.into());
        }
        member(
            "outputConfig",
            json!({"textFormat": {"type": "json_schema",
                                  "structure": {"jsonSchema": definition}}}),
        )
    }

    fn tool_choice(choice: &ToolChoice) -> Result<Map<String, Value>, Error> {
        choice::tool_choice(FACTS.api_name, choice)
    }
}
