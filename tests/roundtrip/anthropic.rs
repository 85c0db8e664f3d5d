//! Anthropic Messages round trip: `tool_use` blocks in, ONE `user` message of `tool_result`
//! blocks out (`is_error: true` on failures, never empty), asserted as exact JSON.

use serde_json::json;
use toolnexus::{Dialect, ResponseError, ToolCall, ToolResult};

use crate::common::roundtrip::*;

const ANTHROPIC: Dialect = Dialect::Anthropic;

fn ok(id: &str, text: &str) -> serde_json::Value {
    json!({"type": "tool_result", "tool_use_id": id, "content": text})
}

fn err(id: &str, text: &str) -> serde_json::Value {
    json!({"type": "tool_result", "tool_use_id": id, "content": text, "is_error": true})
}

#[tokio::test]
async fn two_parallel_calls_are_answered_in_one_user_message() {
    let (toolkit, paths) = toolkit();
    let next = toolkit
        .respond(&fixture("anthropic_parallel"), ANTHROPIC)
        .await
        .unwrap()
        .result_messages;
    assert_eq!(
        next,
        [json!({"role": "user", "content": [
            ok("toolu_01A09q90qw90lq917835lq9", "Paris: 18°C, sunny"),
            ok("toolu_01B3nE2z8VbY7Xc4KjL6mQpR", "5"),
        ]})]
    );
    // Object arguments went through `execute`.
    assert_eq!(paths.counts(), (0, 1));
}

#[test]
fn the_model_turn_is_an_assistant_message_with_the_blocks_as_sent() {
    let response = fixture("anthropic_parallel");
    assert_eq!(
        ANTHROPIC.model_turn(&response).unwrap(),
        [json!({"role": "assistant", "content": response["content"]})]
    );
    // A `tool_use` whose `input` is not an object (answered with an error) repeats as `{}`, so
    // the next request is not refused for it.
    let turn = ANTHROPIC.model_turn(&fixture("anthropic_errors")).unwrap();
    assert_eq!(turn[0]["content"][3]["id"], "toolu_01E3StringInput00000003");
    assert_eq!(turn[0]["content"][3]["input"], json!({}));
    assert_eq!(turn[0]["content"][2]["input"], json!({"city": 42}));
}

#[tokio::test]
async fn the_same_tool_twice_is_answered_by_id() {
    let (toolkit, _) = toolkit();
    let next = toolkit
        .respond(&fixture("anthropic_same_tool_twice"), ANTHROPIC)
        .await
        .unwrap()
        .result_messages;
    assert_eq!(
        next,
        [json!({"role": "user", "content": [
            ok("toolu_01Wn4pQ8rT2vX6yZ1aBcDeFg", "Paris: 18°C, sunny"),
            ok("toolu_01Hk7mB3cD9fG5jL0sTuVwXy", "Oslo: 4°C, rain"),
        ]})]
    );
}

#[tokio::test]
async fn failures_carry_is_error_and_healthy_calls_do_not() {
    let (toolkit, _) = toolkit();
    let next = toolkit
        .respond(&fixture("anthropic_errors"), ANTHROPIC)
        .await
        .unwrap()
        .result_messages;
    assert_eq!(
        next,
        [json!({"role": "user", "content": [
            err("toolu_01E1UnknownTool00000001", UNKNOWN_STOCK),
            err("toolu_01E2WrongType0000000002", CITY_42),
            err("toolu_01E3StringInput00000003",
                "invalid arguments for `get_weather`: expected a JSON object, got a string"),
            err("toolu_01E4ToolError0000000004", ORDER_MISSING),
            err("toolu_01E5Panics000000000005", PANICKED),
            ok("toolu_01E6Healthy00000000006", "2"),
        ]})]
    );
}

#[test]
fn an_error_result_without_text_still_has_content() {
    let call = ToolCall::new("toolu_01X", "add", Default::default());
    let results = [ToolResult::error("  ")];
    assert_eq!(
        Dialect::Anthropic.render_results([(&call, &results[0])]),
        [json!({"role": "user", "content": [
            err("toolu_01X", "the tool failed without a message")
        ]})]
    );
}

#[tokio::test]
async fn a_text_answer_has_nothing_to_send_not_an_empty_message() {
    let (toolkit, _) = toolkit();
    let next = toolkit
        .respond(&fixture("anthropic_no_calls"), ANTHROPIC)
        .await
        .unwrap()
        .result_messages;
    assert!(next.is_empty());
}

#[test]
fn responses_that_are_not_messages_are_clear_errors() {
    let cases = [
        (json!({"type": "message", "role": "assistant", "content": "hello"}),
         "unexpected Anthropic Messages response: expected an array at `content`, found a string"),
        (json!({"type": "message", "role": "assistant"}),
         "unexpected Anthropic Messages response: expected an array at `content`, found nothing"),
        (json!({"content": [{"type": "tool_use", "id": "toolu_01A", "input": {}}]}),
         "unexpected Anthropic Messages response: expected a string at `content[0].name`, found nothing"),
        (json!({"content": [{"type": "text", "text": "x"}, {"type": "tool_use", "name": "add", "input": {}}]}),
         "unexpected Anthropic Messages response: expected a string at `content[1].id`, found nothing"),
        (json!({"content": [null]}),
         "unexpected Anthropic Messages response: expected an object at `content[0]`, found null"),
        (json!({"stop_reason": "max_tokens", "content": [{"type": "tool_use", "id": "toolu_01A", "name": "add", "input": {}}]}),
         "the Anthropic Messages response is incomplete (`stop_reason` is `max_tokens`); its tool calls may be cut off, so none were run"),
        (json!({"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}),
         "Anthropic Messages returned an error instead of a response: Overloaded"),
    ];
    for (response, expected) in cases {
        let err: ResponseError = ANTHROPIC.parse_calls(&response).unwrap_err();
        assert_eq!(err.to_string(), expected, "for {response}");
    }
}

/// An `input` that is the JSON text of an object: the error says so and what to send instead
/// (it used to read only "expected a JSON object, got a string").
#[tokio::test]
async fn an_input_holding_the_json_text_of_an_object_is_told_to_send_the_object() {
    let (toolkit, paths) = toolkit();
    let response = json!({"type": "message", "role": "assistant", "stop_reason": "tool_use",
        "content": [{"type": "tool_use", "id": "toolu_01S", "name": "get_weather",
            "input": " {\"city\": \"Paris\"} "}]});
    let next = toolkit
        .respond(&response, ANTHROPIC)
        .await
        .unwrap()
        .result_messages;
    assert_eq!(
        next,
        [json!({"role": "user", "content": [err("toolu_01S", DOUBLE_ENCODED)]})]
    );
    assert_eq!(paths.counts(), (0, 0), "the tool did not run");
}
