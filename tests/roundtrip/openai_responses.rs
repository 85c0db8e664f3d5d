//! OpenAI Responses API round trip: `function_call` output items in, one
//! `function_call_output` input item per call out, asserted as exact JSON.

use serde_json::json;
use toolnexus::{Dialect, ResponseError};

use crate::common::roundtrip::*;

const RESPONSES: Dialect = Dialect::OpenAiResponses;

fn output(call_id: &str, text: &str) -> serde_json::Value {
    json!({"type": "function_call_output", "call_id": call_id, "output": text})
}

/// An error result: the Responses API has no error flag, so its text is marked `Error: `.
fn fail(call_id: &str, text: &str) -> serde_json::Value {
    output(call_id, &format!("Error: {text}"))
}

#[tokio::test]
async fn two_parallel_calls_are_answered_by_call_id_and_reasoning_items_are_skipped() {
    let (toolkit, paths) = toolkit();
    let next = toolkit
        .respond(&fixture("openai_responses_parallel"), RESPONSES)
        .await
        .unwrap()
        .result_messages;
    assert_eq!(
        next,
        [
            output("call_abc123", "Paris: 18°C, sunny"),
            output("call_def456", "5")
        ]
    );
    assert_eq!(paths.counts(), (1, 0));
}

#[test]
fn the_model_turn_is_every_output_item_as_sent() {
    let response = fixture("openai_responses_parallel");
    let turn = RESPONSES.model_turn(&response).unwrap();
    assert_eq!(turn.len(), 3);
    assert_eq!(serde_json::Value::Array(turn), response["output"]);
}

#[tokio::test]
async fn the_same_tool_twice_is_answered_by_call_id() {
    let (toolkit, _) = toolkit();
    let next = toolkit
        .respond(&fixture("openai_responses_same_tool_twice"), RESPONSES)
        .await
        .unwrap()
        .result_messages;
    assert_eq!(
        next,
        [
            output("call_Wn4pQ8rT2vX6yZ1a", "Paris: 18°C, sunny"),
            output("call_Hk7mB3cD9fG5jL0s", "Oslo: 4°C, rain"),
        ]
    );
}

#[tokio::test]
async fn every_failure_is_an_answer() {
    let (toolkit, _) = toolkit();
    let next = toolkit
        .respond(&fixture("openai_responses_errors"), RESPONSES)
        .await
        .unwrap()
        .result_messages;
    assert_eq!(
        next,
        [
            fail("call_e1UnknownTool0001", UNKNOWN_STOCK),
            fail("call_e2WrongType00002", CITY_42),
            fail(
                "call_e3Truncated00003",
                "invalid arguments for `get_weather`: the arguments are not valid JSON \
                 (EOF while parsing a string at line 1 column 12); send one JSON object"
            ),
            fail("call_e4ToolError00004", ORDER_MISSING),
            fail("call_e5Panics00000005", PANICKED),
            output("call_e6Healthy0000006", "2"),
        ]
    );
}

#[tokio::test]
async fn a_message_only_response_has_nothing_to_send() {
    let (toolkit, _) = toolkit();
    let next = toolkit
        .respond(&fixture("openai_responses_no_calls"), RESPONSES)
        .await
        .unwrap()
        .result_messages;
    assert!(next.is_empty());
}

#[test]
fn responses_that_are_not_what_the_api_says_are_clear_errors() {
    let cases = [
        (json!({"object": "response", "status": "completed"}),
         "unexpected OpenAI Responses response: expected an array at `output`, found nothing"),
        (json!({"status": "completed", "output": {"type": "function_call"}}),
         "unexpected OpenAI Responses response: expected an array at `output`, found an object"),
        (json!({"output": [{"type": "function_call", "call_id": "call_1", "arguments": "{}"}]}),
         "unexpected OpenAI Responses response: expected a string at `output[0].name`, found nothing"),
        (json!({"output": [{"type": "function_call", "id": "fc_1", "name": "add", "arguments": "{}"}]}),
         "unexpected OpenAI Responses response: expected a string at `output[0].call_id`, found nothing"),
        (json!({"output": [{"type": "reasoning", "summary": []}, 7]}),
         "unexpected OpenAI Responses response: expected an object at `output[1]`, found a number"),
        (json!({"output": [{"name": "add"}]}),
         "unexpected OpenAI Responses response: expected a string at `output[0].type`, found nothing"),
        (json!({"status": "incomplete", "incomplete_details": {"reason": "max_output_tokens"}, "output": []}),
         "the OpenAI Responses response is incomplete (`status` is `incomplete`: max_output_tokens); its tool calls may be cut off, so none were run"),
        (json!({"status": "in_progress", "output": []}),
         "the OpenAI Responses response is incomplete (`status` is `in_progress`); its tool calls may be cut off, so none were run"),
        (json!({"status": "failed", "error": {"code": "server_error", "message": "The model failed to generate a response."}, "output": []}),
         "OpenAI Responses returned an error instead of a response: The model failed to generate a response."),
    ];
    for (response, expected) in cases {
        let err: ResponseError = RESPONSES.parse_calls(&response).unwrap_err();
        assert_eq!(err.to_string(), expected, "for {response}");
    }
}
