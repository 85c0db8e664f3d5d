//! Gemini round trip: `functionCall` parts in, ONE `user` content of `functionResponse` parts
//! out (`id` only when the call had one; `response: {"output"}` or `{"error"}`), exact JSON.

use serde_json::{json, Value};
use toolnexus::{Arguments, Dialect, ResponseError, ToolCall};

use crate::common::roundtrip::*;

const GEMINI: Dialect = Dialect::Gemini;

fn out(name: &str, text: &str) -> Value {
    json!({"functionResponse": {"name": name, "response": {"output": text}}})
}

fn fail(name: &str, text: &str) -> Value {
    json!({"functionResponse": {"name": name, "response": {"error": text}}})
}

#[tokio::test]
async fn calls_without_ids_are_answered_by_position_without_an_id() {
    let (toolkit, paths) = toolkit();
    let next = toolkit
        .respond(&fixture("gemini_parallel"), GEMINI)
        .await
        .unwrap()
        .result_messages;
    assert_eq!(
        next,
        [json!({"role": "user", "parts": [
            out("get_weather", "Paris: 18°C, sunny"),
            out("add", "5"),
        ]})]
    );
    assert_eq!(paths.counts(), (0, 1));
}

#[test]
fn the_model_turn_is_the_candidate_content_with_its_thought_signature() {
    let response = fixture("gemini_parallel");
    let turn = GEMINI.model_turn(&response).unwrap();
    assert_eq!(turn, [response["candidates"][0]["content"].clone()]);
    assert_eq!(
        turn[0]["parts"][0]["thoughtSignature"],
        "CiQB0e2Kb3k9yQ1mZr7vN1cT8sLw4hD0fEBXq3kZ9pV2mRr7"
    );
    // A content without a role gets `"role": "model"`.
    let no_role = json!({"candidates": [{"content": {"parts": [{"text": "hi"}]}}]});
    assert_eq!(
        GEMINI.model_turn(&no_role).unwrap(),
        [json!({"parts": [{"text": "hi"}], "role": "model"})]
    );
}

#[tokio::test]
async fn calls_with_ids_are_answered_with_their_ids() {
    let (toolkit, _) = toolkit();
    let next = toolkit
        .respond(&fixture("gemini_parallel_ids"), GEMINI)
        .await
        .unwrap()
        .result_messages;
    assert_eq!(
        next,
        [json!({"role": "user", "parts": [
            {"functionResponse": {"name": "get_weather", "id": "fc-4b1c8a2e-9d3f-4e6a-b8c1-2a7d5e9f0c13",
                                  "response": {"output": "Paris: 18°C, sunny"}}},
            {"functionResponse": {"name": "add", "id": "fc-7e2d9b4f-1a6c-4d8e-9f3b-5c0a8e2d7b41",
                                  "response": {"output": "5"}}},
        ]})]
    );
}

#[tokio::test]
async fn the_same_tool_twice_without_ids_keeps_call_order() {
    let (toolkit, _) = toolkit();
    let next = toolkit
        .respond(&fixture("gemini_same_tool_twice"), GEMINI)
        .await
        .unwrap()
        .result_messages;
    assert_eq!(
        next,
        [json!({"role": "user", "parts": [
            out("get_weather", "Paris: 18°C, sunny"),
            out("get_weather", "Oslo: 4°C, rain"),
        ]})]
    );
}

#[tokio::test]
async fn failures_go_back_as_error_responses_and_absent_args_mean_empty() {
    let (toolkit, _) = toolkit();
    let response = fixture("gemini_errors");
    let calls = Dialect::Gemini.parse_calls(&response).unwrap();
    assert_eq!(
        calls.last(),
        Some(&ToolCall::without_id("add", Arguments::Absent))
    );
    let next = toolkit
        .respond(&response, GEMINI)
        .await
        .unwrap()
        .result_messages;
    assert_eq!(
        next,
        [json!({"role": "user", "parts": [
            fail("get_stock_price", UNKNOWN_STOCK),
            fail("get_weather", CITY_42),
            fail("lookup_order", ORDER_MISSING),
            fail("explode", PANICKED),
            out("add", "2"),
            out("add", "0"),
        ]})]
    );
}

#[tokio::test]
async fn a_text_answer_has_nothing_to_send() {
    let (toolkit, _) = toolkit();
    let next = toolkit
        .respond(&fixture("gemini_no_calls"), GEMINI)
        .await
        .unwrap()
        .result_messages;
    assert!(next.is_empty());
}

#[test]
fn responses_that_are_not_generate_content_are_clear_errors() {
    let cases = [
        (json!({"usageMetadata": {"promptTokenCount": 3}}),
         "unexpected Gemini generateContent response: expected a non-empty array at `candidates`, found nothing"),
        (json!({"candidates": []}),
         "unexpected Gemini generateContent response: expected a non-empty array at `candidates`, found an empty array"),
        (json!({"promptFeedback": {"blockReason": "SAFETY"}}),
         "the Gemini generateContent response was stopped by the provider; none of its tool calls were run (the prompt was blocked: `blockReason` is `SAFETY`)"),
        (json!({"candidates": [{"content": {"role": "model", "parts": {"text": "hi"}}}]}),
         "unexpected Gemini generateContent response: expected an array at `candidates[0].content.parts`, found an object"),
        (json!({"candidates": [{"content": {"parts": [{"functionCall": {"args": {}}}]}}]}),
         "unexpected Gemini generateContent response: expected a string at `candidates[0].content.parts[0].functionCall.name`, found nothing"),
        (json!({"candidates": [{"content": {"parts": [{"functionCall": {"name": "add", "id": 7}}]}}]}),
         "unexpected Gemini generateContent response: expected a string at `candidates[0].content.parts[0].functionCall.id`, found a number"),
        (json!({"candidates": [{"content": {"parts": [{"functionCall": "add"}]}}]}),
         "unexpected Gemini generateContent response: expected an object at `candidates[0].content.parts[0].functionCall`, found a string"),
        (json!({"candidates": [{"finishReason": "MAX_TOKENS", "content": {"parts": [{"functionCall": {"name": "add"}}]}}]}),
         "the Gemini generateContent response is incomplete (`finishReason` is `MAX_TOKENS`); its tool calls may be cut off, so none were run"),
        (json!({"candidates": [{"finishReason": "MALFORMED_FUNCTION_CALL"}]}),
         "the Gemini generateContent response is incomplete (`finishReason` is `MALFORMED_FUNCTION_CALL`); its tool calls may be cut off, so none were run"),
        (json!({"candidates": [{"finishReason": "SAFETY", "index": 0}]}),
         "the Gemini generateContent response was stopped by the provider; none of its tool calls were run (`finishReason` is `SAFETY`)"),
        (json!({"candidates": [{"finishReason": "STOP"}]}),
         "unexpected Gemini generateContent response: expected an object at `candidates[0].content`, found nothing"),
        (json!({"error": {"code": 400, "message": "API key not valid. Please pass a valid API key.", "status": "INVALID_ARGUMENT"}}),
         "Gemini generateContent returned an error instead of a response: API key not valid. Please pass a valid API key."),
    ];
    for (response, expected) in cases {
        let err: ResponseError = GEMINI.parse_calls(&response).unwrap_err();
        assert_eq!(err.to_string(), expected, "for {response}");
    }
}

/// `args` that are the JSON text of an object: the error says so and what to send instead.
#[tokio::test]
async fn args_holding_the_json_text_of_an_object_are_told_to_send_the_object() {
    let (toolkit, paths) = toolkit();
    let response = json!({"candidates": [{"finishReason": "STOP", "content": {"role": "model",
        "parts": [{"functionCall": {"name": "get_weather", "args": "{\"city\":\"Paris\"}"}}]}}]});
    let next = toolkit
        .respond(&response, GEMINI)
        .await
        .unwrap()
        .result_messages;
    assert_eq!(
        next[0]["parts"][0]["functionResponse"]["response"],
        json!({"error": DOUBLE_ENCODED})
    );
    assert_eq!(paths.counts(), (0, 0), "the tool did not run");
    // A string that holds no JSON object is still just a string.
    let response = json!({"candidates": [{"finishReason": "STOP", "content": {"role": "model",
        "parts": [{"functionCall": {"name": "get_weather", "args": "{city: Paris}"}}]}}]});
    let next = toolkit
        .respond(&response, GEMINI)
        .await
        .unwrap()
        .result_messages;
    assert_eq!(
        next[0]["parts"][0]["functionResponse"]["response"]["error"],
        "invalid arguments for `get_weather`: expected a JSON object, got a string"
    );
}
