//! Cohere v2 Chat round trip (the sixth dialect): `message.tool_calls` in, one `role: "tool"`
//! message of documents per call out, the tool plan kept with its calls, the stop rule, and the
//! conversation around the calls, asserted as exact JSON on realistic responses.

use serde_json::json;
use toolnexus::{Arguments, Dialect, Remedy, ResponseError, TokenLimit, ToolCall, ToolsOptions};

use crate::common::roundtrip::*;

const COHERE: Dialect = Dialect::Cohere;

fn document(key: &str, text: &str) -> serde_json::Value {
    json!([{"type": "document", "document": {"data": {key: text}}}])
}

#[tokio::test]
async fn two_parallel_calls_get_one_tool_message_each_in_order() {
    let (toolkit, paths) = toolkit();
    let turn = toolkit
        .respond(&fixture("cohere_parallel"), COHERE)
        .await
        .unwrap();
    assert_eq!(
        turn.result_messages,
        [
            json!({"role": "tool", "tool_call_id": "call-abc123",
                   "content": document("output", "Paris: 18°C, sunny")}),
            json!({"role": "tool", "tool_call_id": "call-def456", "content": document("output", "5")}),
        ]
    );
    // JSON text arguments went through `execute_json`, the typed fast path.
    assert_eq!(paths.counts(), (1, 0));
    assert_eq!(
        turn.calls[0],
        ToolCall::new(
            "call-abc123",
            "get_weather",
            Arguments::Text(r#"{"city":"Paris"}"#.into())
        )
    );
}

#[test]
fn the_model_turn_keeps_the_tool_plan_with_its_calls_and_drops_usage() {
    let response = fixture("cohere_parallel");
    let turn = COHERE.model_turn(&response).unwrap();
    assert_eq!(
        turn,
        [json!({"role": "assistant",
            "tool_plan": "I will call the tools to answer the question.",
            "tool_calls": response["message"]["tool_calls"]})]
    );
    let answered = fixture("cohere_no_calls");
    assert_eq!(
        COHERE.model_turn(&answered).unwrap(),
        [json!({"role": "assistant", "content": answered["message"]["content"]})]
    );
}

#[tokio::test]
async fn a_text_answer_is_final_and_its_text_is_the_answer() {
    let (toolkit, _) = toolkit();
    let turn = toolkit
        .respond(&fixture("cohere_no_calls"), COHERE)
        .await
        .unwrap();
    assert!(turn.is_final());
    assert_eq!(turn.text(), "It is 18°C and sunny in Paris, and 2 + 3 = 5.");
}

#[tokio::test]
async fn the_same_tool_twice_is_answered_by_id() {
    let (toolkit, _) = toolkit();
    let turn = toolkit
        .respond(&fixture("cohere_same_tool_twice"), COHERE)
        .await
        .unwrap();
    let ids: Vec<&str> = turn
        .result_messages
        .iter()
        .map(|m| m["tool_call_id"].as_str().unwrap())
        .collect();
    let calls: Vec<&str> = turn
        .calls
        .iter()
        .map(|c| c.id.as_deref().unwrap())
        .collect();
    assert_eq!(ids, calls);
    assert_ne!(
        turn.result_messages[0]["content"],
        turn.result_messages[1]["content"]
    );
}

#[tokio::test]
async fn every_failure_is_an_error_document_the_model_reads() {
    let (toolkit, _) = toolkit();
    let turn = toolkit
        .respond(&fixture("cohere_errors"), COHERE)
        .await
        .unwrap();
    let content: Vec<&serde_json::Value> =
        turn.result_messages.iter().map(|m| &m["content"]).collect();
    assert_eq!(content[0], &document("error", UNKNOWN_STOCK));
    assert_eq!(content[1], &document("error", CITY_42));
    assert_eq!(content[3], &document("error", ORDER_MISSING));
    assert_eq!(content[4], &document("error", PANICKED));
    assert_eq!(content[5], &document("output", "2"));
    assert_eq!(content[6], &document("output", "0"));
    assert_eq!(turn.result_messages.len(), turn.calls.len());
}

#[test]
fn the_stop_rule_runs_complete_turns_only() {
    let mut response = fixture("cohere_parallel");
    response["finish_reason"] = "MAX_TOKENS".into();
    let err = COHERE.parse_calls(&response).unwrap_err();
    assert!(matches!(
        err,
        ResponseError::Truncated {
            limit: TokenLimit::Output,
            ..
        }
    ));
    assert_eq!(err.remedy(), Remedy::RaiseLimit);
    response["finish_reason"] = "ERROR".into();
    assert_eq!(
        COHERE.parse_calls(&response).unwrap_err().remedy(),
        Remedy::BackOff
    );
    response["finish_reason"] = "TIMEOUT".into();
    assert_eq!(
        COHERE.parse_calls(&response).unwrap_err().remedy(),
        Remedy::Retry
    );
    response["finish_reason"] = "STOP_SEQUENCE".into();
    assert_eq!(COHERE.parse_calls(&response).unwrap().len(), 2);
    response["message"]["tool_calls"][1]["function"] = json!({"arguments": "{}"});
    assert_eq!(
        COHERE.parse_calls(&response).unwrap_err().to_string(),
        "unexpected Cohere v2 Chat response: expected a string at \
         `message.tool_calls[1].function.name`, found nothing"
    );
}

#[test]
fn tools_out_are_function_envelopes_and_the_user_message_takes_images() {
    let (toolkit, _) = toolkit();
    let tools = toolkit.tools_for(COHERE, ToolsOptions::default());
    assert_eq!(
        tools[0],
        json!({"type": "function", "function": {"name": "get_weather",
            "description": "Current weather for a city", "parameters": {"type": "object",
            "properties": {"city": {"type": "string"}}, "required": ["city"]}}})
    );
    assert_eq!(tools.len(), toolkit.len());
    // The cached text is the same array, and no option changes Cohere's.
    let text = toolkit
        .tools_json_for(COHERE, ToolsOptions::default())
        .get();
    assert_eq!(text, serde_json::to_string(&tools).unwrap());
    let strict = toolkit.tools_for(COHERE, ToolsOptions::default().with_strict(true));
    assert_eq!(strict, tools);
    let photo = toolnexus::Media::image("image/png", vec![1, 2, 3]);
    assert_eq!(
        COHERE.user_message_with_media("What is this?", &[photo]),
        json!({"role": "user", "content": [{"type": "text", "text": "What is this?"},
            {"type": "image_url", "image_url": {"url": "data:image/png;base64,AQID"}}]})
    );
    assert_eq!(
        COHERE.user_message("Hi"),
        json!({"role": "user", "content": "Hi"})
    );
}
