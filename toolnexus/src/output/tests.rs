use std::collections::HashMap;

use serde::Deserialize;
use serde_json::{json, Value};

use super::parse::{self, unfenced};
use super::*;
use crate::response::ResponseError;
use crate::values::call::Arguments;
use crate::wire::choice::ToolChoice;

/// A weather report.
#[derive(Debug, PartialEq, Deserialize, schemars::JsonSchema)]
struct Report {
    city: String,
    celsius: i32,
    note: Option<String>,
}

#[derive(Debug, PartialEq, Deserialize, schemars::JsonSchema)]
struct Line {
    item: String,
    price: u32,
}

#[derive(Debug, PartialEq, Deserialize, schemars::JsonSchema)]
struct Order {
    lines: Vec<Line>,
    #[serde(default)]
    rush: bool,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
struct Tags {
    #[allow(dead_code)]
    tags: HashMap<String, String>,
}

fn part(output: &Output<impl DeserializeOwned>, dialect: Dialect) -> Value {
    Value::Object(output.request_part(dialect).clone())
}

const STRICT: &str = r#"{"type":"object","properties":{"city":{"type":"string"},"celsius":{"type":"integer"},"note":{"type":["string","null"]}},"required":["city","celsius","note"],"description":"A weather report.","additionalProperties":false}"#;

/// What Anthropic's SDK sends for `Report` (`transform_schema`'s fixed point): no type list, the
/// `format` moved into the description.
const ANTHROPIC: &str = r#"{"type":"object","description":"A weather report.","properties":{"city":{"type":"string"},"celsius":{"type":"integer","description":"{format: int32}"},"note":{"anyOf":[{"type":"string"},{"type":"null"}]}},"additionalProperties":false,"required":["city","celsius"]}"#;

#[test]
fn each_dialect_gets_its_request_part() {
    let output = Output::<Report>::new().unwrap();
    let strict: Value = serde_json::from_str(STRICT).unwrap();
    assert_eq!(output.name(), "Report");
    assert_eq!(
        part(&output, Dialect::OpenAiChat),
        json!({"response_format": {"type": "json_schema", "json_schema": {
            "name": "Report", "description": "A weather report.", "schema": strict, "strict": true}}})
    );
    assert_eq!(
        part(&output, Dialect::OpenAiResponses),
        json!({"text": {"format": {"type": "json_schema", "name": "Report",
            "description": "A weather report.", "schema": strict, "strict": true}}})
    );
    assert_eq!(
        part(&output, Dialect::Anthropic),
        json!({"output_config": {"format": {"type": "json_schema",
            "schema": serde_json::from_str::<Value>(ANTHROPIC).unwrap()}}})
    );
    assert_eq!(
        part(&output, Dialect::Gemini),
        json!({"generationConfig": {"responseMimeType": "application/json",
            "responseSchema": output.schema().for_gemini()}})
    );
    assert_eq!(
        part(&output, Dialect::Gemini)["generationConfig"]["responseSchema"]["properties"]["note"],
        json!({"type": "string", "nullable": true})
    );
    assert_eq!(
        part(&output, Dialect::Bedrock),
        json!({"outputConfig": {"textFormat": {"type": "json_schema", "structure": {"jsonSchema": {
            "schema": ANTHROPIC, "name": "Report", "description": "A weather report."}}}}})
    );
    let json_schema = output.clone().with_gemini_json_schema();
    assert_eq!(
        part(&json_schema, Dialect::Gemini),
        json!({"generationConfig": {"responseMimeType": "application/json",
            "responseJsonSchema": output.schema().for_gemini_json_schema()}})
    );
}

#[test]
fn a_type_strict_mode_cannot_take_is_sent_non_strict_with_the_reason() {
    let output = Output::<Tags>::new().unwrap();
    let reason = output
        .strict_error()
        .expect("a map cannot be strict")
        .to_string();
    assert!(
        reason.contains("/properties/tags/additionalProperties"),
        "{reason}"
    );
    let chat = part(&output, Dialect::OpenAiChat);
    assert_eq!(chat["response_format"]["json_schema"]["strict"], false);
    assert_eq!(
        chat["response_format"]["json_schema"]["schema"],
        *output.schema().for_openai()
    );
    // Anthropic has no non-strict structured output: the SDK's form all the same (the map an
    // empty object), with the reason.
    let reason = output.anthropic_error().expect("a map cannot be kept");
    assert_eq!(reason.path, "/properties/tags/additionalProperties");
    assert_eq!(
        part(&output, Dialect::Anthropic)["output_config"]["format"]["schema"]["properties"]
            ["tags"],
        json!({"type": "object", "properties": {}, "additionalProperties": false})
    );
}

#[test]
fn a_name_and_description_reach_every_part() {
    let output = Output::<Order>::new()
        .unwrap()
        .with_name("final_order")
        .unwrap()
        .with_description("The order.");
    let chat = part(&output, Dialect::OpenAiChat);
    assert_eq!(
        chat["response_format"]["json_schema"]["name"],
        "final_order"
    );
    assert_eq!(
        chat["response_format"]["json_schema"]["description"],
        "The order."
    );
    let bedrock = part(&output, Dialect::Bedrock);
    let definition = &bedrock["outputConfig"]["textFormat"]["structure"]["jsonSchema"];
    assert_eq!(definition["name"], "final_order");
    // No description of its own: none is sent.
    let plain = Output::<Order>::new().unwrap();
    assert!(part(&plain, Dialect::OpenAiResponses)["text"]["format"]
        .get("description")
        .is_none());
    assert!(Output::<Order>::new().unwrap().with_name("").is_err());
}

#[test]
fn add_to_merges_a_member_the_body_has_one_level_deep() {
    let output = Output::<Report>::new().unwrap();
    let mut body = json!({"contents": [], "generationConfig": {"temperature": 0.2}});
    output.add_to(Dialect::Gemini, &mut body);
    assert_eq!(body["generationConfig"]["temperature"], 0.2);
    assert_eq!(
        body["generationConfig"]["responseMimeType"],
        "application/json"
    );
    let mut bedrock = json!({"toolConfig": {"tools": [1]}});
    // Tool mode's choice merges the same way: Bedrock's `toolConfig` keeps its `tools`.
    ToolChoice::required()
        .add_to(Dialect::Bedrock, &mut bedrock)
        .unwrap();
    assert_eq!(
        bedrock,
        json!({"toolConfig": {"tools": [1], "toolChoice": {"any": {}}}})
    );
}

#[test]
fn parse_text_follows_the_decoding_rules() {
    let output = Output::<Report>::new().unwrap();
    let want = Report {
        city: "Oslo".into(),
        celsius: 4,
        note: None,
    };
    // Whole-number floats where an integer goes, strict mode's null, a Markdown fence.
    assert_eq!(
        output.parse_text(r#"{"city":"Oslo","celsius":4.0,"note":null}"#),
        Ok(want)
    );
    let fenced = "```json\n{\"city\":\"Oslo\",\"celsius\":-2}\n```";
    assert_eq!(output.parse_text(fenced).unwrap().celsius, -2);
    // `null` for a non-optional field with a default: absent, so the default.
    let orders = Output::<Order>::new().unwrap();
    let order = orders
        .parse_text(r#"{"lines":[{"item":"tea","price":3}],"rush":null}"#)
        .unwrap();
    assert!(!order.rush);
}

#[test]
fn a_wrong_answer_names_its_field_path() {
    let orders = Output::<Order>::new().unwrap();
    let err = orders
        .parse_text(r#"{"lines":[{"item":"tea","price":3},{"item":"cake","price":"x"}]}"#)
        .unwrap_err();
    assert_eq!(
        err,
        AnswerError::Invalid {
            path: Some("lines[1].price".into()),
            message: "invalid type: string \"x\", expected u32".into(),
        }
    );
    assert_eq!(
        err.retry_message().unwrap(),
        "Your answer does not match the required schema: `lines[1].price`: invalid type: \
         string \"x\", expected u32. Answer again with JSON that matches it."
    );
    let missing = orders.parse_text(r#"{"rush":true}"#).unwrap_err();
    assert_eq!(
        missing,
        AnswerError::Invalid {
            path: None,
            message: "missing field `lines`".into()
        }
    );
    let not_json = orders.parse_text("Sure! Here it is").unwrap_err();
    assert!(
        matches!(&not_json, AnswerError::Invalid { path: None, message } if message.starts_with("the answer is not valid JSON")),
        "{not_json:?}"
    );
    let not_object = orders.parse_text("[1]").unwrap_err();
    assert_eq!(
        not_object.to_string(),
        "the answer does not match its type: expected a JSON object, got an array"
    );
}

#[test]
fn an_answer_past_the_limits_is_refused_before_decoding() {
    let limits = Limits::default().with_max_bytes(16);
    let output = Output::<Report>::new().unwrap().with_limits(limits);
    let err = output
        .parse_text(r#"{"city":"Oslo","celsius":4}"#)
        .unwrap_err();
    assert!(
        matches!(&err, AnswerError::Invalid { path: None, message } if message.starts_with("the answer is larger than 16 bytes")),
        "{err:?}"
    );
    let deep = Output::<Report>::new()
        .unwrap()
        .with_limits(Limits::default().with_max_depth(2));
    let err =
        parse::arguments(&deep, &Arguments::Value(json!({"city": {"a": {"b": 1}}}))).unwrap_err();
    assert!(err.to_string().contains("nested deeper than 2"), "{err}");
}

#[test]
fn refusals_are_their_own_error_in_every_dialect() {
    let output = Output::<Report>::new().unwrap();
    let refused =
        |dialect: Dialect, response: Value| match output.parse_response(dialect, &response) {
            Err(AnswerError::Refused { dialect: d, reason }) if d == dialect => reason,
            other => panic!("{dialect:?}: {other:?}"),
        };
    let chat = json!({"choices": [{"finish_reason": "stop", "message": {"role": "assistant",
        "content": null, "refusal": "No."}}]});
    assert_eq!(refused(Dialect::OpenAiChat, chat), "No.");
    let responses = json!({"status": "completed", "output": [{"type": "message", "role": "assistant",
        "content": [{"type": "refusal", "refusal": "Not this."}]}]});
    assert_eq!(refused(Dialect::OpenAiResponses, responses), "Not this.");
    let anthropic = json!({"type": "message", "role": "assistant", "stop_reason": "refusal",
        "content": []});
    assert_eq!(
        refused(Dialect::Anthropic, anthropic),
        "`stop_reason` is `refusal`"
    );
    let gemini = json!({"candidates": [{"finishReason": "SAFETY"}]});
    assert_eq!(
        refused(Dialect::Gemini, gemini),
        "`finishReason` is `SAFETY`"
    );
    let bedrock = json!({"stopReason": "guardrail_intervened", "output": {"message": {
        "role": "assistant", "content": [{"text": "Blocked."}]}}});
    assert!(refused(Dialect::Bedrock, bedrock).contains("guardrail_intervened"));
}

#[test]
fn each_dialect_reads_the_answer_from_its_text() {
    let output = Output::<Report>::new().unwrap();
    let text = r#"{"city":"Oslo","celsius":4,"note":"windy"}"#;
    let responses = [
        (
            Dialect::OpenAiChat,
            json!({"choices": [{"finish_reason": "stop", "message": {"role": "assistant", "content": text}}]}),
        ),
        (
            Dialect::OpenAiResponses,
            json!({"status": "completed", "output": [{"type": "message", "role": "assistant",
                "content": [{"type": "output_text", "text": text, "annotations": []}]}]}),
        ),
        (
            Dialect::Anthropic,
            json!({"type": "message", "role": "assistant", "stop_reason": "end_turn",
                "content": [{"type": "text", "text": text}]}),
        ),
        (
            Dialect::Gemini,
            json!({"candidates": [{"finishReason": "STOP", "content": {"role": "model",
                "parts": [{"text": text}]}}]}),
        ),
        (
            Dialect::Bedrock,
            json!({"stopReason": "end_turn", "output": {"message": {"role": "assistant",
                "content": [{"text": text}]}}}),
        ),
    ];
    for (dialect, response) in responses {
        assert_eq!(
            output.parse_response(dialect, &response).map(|r| r.note),
            Ok(Some("windy".into())),
            "{dialect:?}"
        );
    }
}

#[test]
fn a_turn_without_the_answer_is_no_answer() {
    let output = Output::<Report>::new().unwrap();
    let other_call = json!({"type": "message", "role": "assistant", "stop_reason": "tool_use",
        "content": [{"type": "text", "text": "{\"city\":\"x\",\"celsius\":1}"},
                    {"type": "tool_use", "id": "t1", "name": "lookup", "input": {}}]});
    assert_eq!(
        output.parse_response(Dialect::Anthropic, &other_call),
        Err(AnswerError::NoAnswer {
            dialect: Dialect::Anthropic
        })
    );
    let empty = json!({"choices": [{"finish_reason": "stop", "message": {"role": "assistant", "content": ""}}]});
    assert!(matches!(
        output.parse_response(Dialect::OpenAiChat, &empty),
        Err(AnswerError::NoAnswer { .. })
    ));
    let cut = json!({"choices": [{"finish_reason": "length", "message": {"content": "{\"ci"}}]});
    assert!(matches!(
        output.parse_response(Dialect::OpenAiChat, &cut),
        Err(AnswerError::Response(ResponseError::Truncated { .. }))
    ));
}

#[test]
fn the_output_tool_call_is_the_answer() {
    let output = Output::<Report>::new().unwrap();
    let response = json!({"candidates": [{"finishReason": "STOP", "content": {"role": "model",
        "parts": [{"functionCall": {"name": "Report", "args": {"city": "Oslo", "celsius": 3.0}}}]}}]});
    assert_eq!(
        output.parse_response(Dialect::Gemini, &response),
        Ok(Report {
            city: "Oslo".into(),
            celsius: 3,
            note: None
        })
    );
}

#[test]
fn unfenced_takes_off_a_code_fence_only() {
    assert_eq!(unfenced(" {\"a\":1} "), "{\"a\":1}");
    assert_eq!(unfenced("```json\n{\"a\":1}\n```"), "{\"a\":1}");
    assert_eq!(unfenced("```\n{}\n```"), "{}");
    assert_eq!(unfenced("```"), "```");
    assert_eq!(unfenced("```json```"), "```json```");
}

#[test]
fn a_type_whose_schema_is_not_an_object_is_refused() {
    let err = Output::<Vec<String>>::new().unwrap_err().to_string();
    assert!(err.contains("the root must be"), "{err}");
    assert!(Output::<u8>::new().is_err());
}

#[test]
fn every_dialect_has_a_request_part_of_its_own() {
    let output = Output::<Report>::new().unwrap();
    // Cohere's member is OpenAI Chat's `response_format`, holding another value.
    let parts: Vec<String> = Dialect::ALL
        .iter()
        .map(|d| serde_json::to_string(output.request_part(*d)).expect("JSON"))
        .collect();
    assert!(parts.iter().all(|p| p != "{}"), "{parts:?}");
    let distinct: std::collections::BTreeSet<&String> = parts.iter().collect();
    assert_eq!(distinct.len(), Dialect::ALL.len(), "{parts:?}");
}
