//! OpenAI Chat Completions round trip: `choices[0].message.tool_calls` in, one `role: "tool"`
//! message per call out, asserted as exact JSON on realistic responses.

use std::time::Duration;

use serde_json::json;
use toolnexus::{Arguments, Dialect, ResponseError, RunOptions, ToolCall};

use crate::common::roundtrip::*;

const CHAT: Dialect = Dialect::OpenAiChat;

#[tokio::test]
async fn two_parallel_calls_get_one_tool_message_each_in_order() {
    let (toolkit, paths) = toolkit();
    let response = fixture("openai_chat_parallel");
    let next = toolkit
        .respond(&response, CHAT)
        .await
        .unwrap()
        .result_messages;
    assert_eq!(
        serde_json::Value::Array(next),
        json!([
            {"role": "tool", "tool_call_id": "call_abc123", "content": "Paris: 18°C, sunny"},
            {"role": "tool", "tool_call_id": "call_def456", "content": "5"}
        ])
    );
    // JSON text arguments went through `execute_json`, the typed fast path.
    assert_eq!(paths.counts(), (1, 0));
}

#[test]
fn the_model_turn_is_the_assistant_message_without_response_only_fields() {
    let turn = CHAT.model_turn(&fixture("openai_chat_parallel")).unwrap();
    assert_eq!(
        turn,
        [json!({"role": "assistant", "content": null, "tool_calls": [
            {"id": "call_abc123", "type": "function",
             "function": {"name": "get_weather", "arguments": "{\"city\":\"Paris\"}"}},
            {"id": "call_def456", "type": "function",
             "function": {"name": "add", "arguments": "{\"a\":2,\"b\":3}"}}
        ]})]
    );
    // A text answer repeats as text; an empty `tool_calls` list is left out (OpenAI refuses it).
    let answered = json!({"choices": [{"index": 0, "finish_reason": "stop", "message": {
        "role": "assistant", "content": "Done.", "tool_calls": [], "refusal": null, "annotations": []}}]});
    assert_eq!(
        CHAT.model_turn(&answered).unwrap(),
        [json!({"role": "assistant", "content": "Done."})]
    );
    assert!(CHAT.model_turn(&json!({"choices": []})).is_err());
}

#[tokio::test]
async fn parse_keeps_ids_names_and_argument_text_as_received() {
    let calls = Dialect::OpenAiChat
        .parse_calls(&fixture("openai_chat_parallel"))
        .unwrap();
    assert_eq!(
        calls,
        [
            ToolCall::new(
                "call_abc123",
                "get_weather",
                Arguments::Text(r#"{"city":"Paris"}"#.into())
            ),
            ToolCall::new(
                "call_def456",
                "add",
                Arguments::Text(r#"{"a":2,"b":3}"#.into())
            ),
        ]
    );
}

#[tokio::test]
async fn the_same_tool_twice_is_answered_by_id() {
    let (toolkit, _) = toolkit();
    let next = toolkit
        .respond(&fixture("openai_chat_same_tool_twice"), CHAT)
        .await
        .unwrap()
        .result_messages;
    assert_eq!(
        next,
        [
            json!({"role": "tool", "tool_call_id": "call_Wn4pQ8rT2vX6yZ1a", "content": "Paris: 18°C, sunny"}),
            json!({"role": "tool", "tool_call_id": "call_Hk7mB3cD9fG5jL0s", "content": "Oslo: 4°C, rain"}),
        ]
    );
}

#[tokio::test]
async fn every_failure_is_an_answer_and_the_healthy_calls_are_unaffected() {
    let (toolkit, _) = toolkit();
    let next = toolkit
        .respond(&fixture("openai_chat_errors"), CHAT)
        .await
        .unwrap()
        .result_messages;
    let tool =
        |id: &str, content: &str| json!({"role": "tool", "tool_call_id": id, "content": content});
    // Chat Completions has no error flag: an error's text is marked `Error: `.
    let fail = |id: &str, content: &str| tool(id, &format!("Error: {content}"));
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
            tool("call_e6Healthy0000006", "2"),
            tool("call_e7EmptyArgs00007", "0"),
            fail(
                "call_e8ArrayArgs00008",
                "invalid arguments for `add`: expected a JSON object, got an array"
            ),
        ]
    );
    // The panic payload never reaches the model.
    assert!(!serde_json::to_string(&next).unwrap().contains("hunter2"));
}

#[tokio::test]
async fn a_text_answer_has_no_calls_and_nothing_to_send() {
    let (toolkit, _) = toolkit();
    let response = fixture("openai_chat_no_calls");
    assert!(CHAT.parse_calls(&response).unwrap().is_empty());
    assert!(toolkit
        .respond(&response, CHAT)
        .await
        .unwrap()
        .result_messages
        .is_empty());
}

#[tokio::test(start_paused = true)]
async fn a_call_past_the_timeout_is_answered_and_the_other_is_not_held_up() {
    let (toolkit, _) = toolkit();
    let options = RunOptions::default().with_timeout(Duration::from_secs(2));
    let next = toolkit
        .respond_with(&fixture("openai_chat_timeout"), CHAT, &options)
        .await
        .unwrap()
        .result_messages;
    assert_eq!(
        next,
        [
            json!({"role": "tool", "tool_call_id": "call_t1SlowSearch0001",
                   "content": "Error: tool `slow_search` timed out after 2s"}),
            json!({"role": "tool", "tool_call_id": "call_t2Weather0000002", "content": "Paris: 18°C, sunny"}),
        ]
    );
}

#[test]
fn responses_that_are_not_chat_completions_are_clear_errors() {
    let call = |extra: serde_json::Value| {
        let mut c = json!({"id": "call_1", "type": "function", "function": {"name": "add", "arguments": "{}"}});
        if let (Some(c), Some(extra)) = (c.as_object_mut(), extra.as_object()) {
            for (k, v) in extra {
                c.insert(k.clone(), v.clone());
            }
        }
        c
    };
    let with_calls = |calls: serde_json::Value| {
        json!({"choices": [{"index": 0, "finish_reason": "tool_calls",
                            "message": {"role": "assistant", "content": null, "tool_calls": calls}}]})
    };
    let cases = [
        (json!({"id": "chatcmpl-1", "object": "chat.completion"}),
         "unexpected OpenAI Chat Completions response: expected an array at `choices`, found nothing"),
        (json!({"choices": []}),
         "unexpected OpenAI Chat Completions response: expected a non-empty array at `choices`, found an empty array"),
        (json!({"choices": [{"index": 0}]}),
         "unexpected OpenAI Chat Completions response: expected an object at `choices[0].message`, found nothing"),
        (with_calls(json!({"id": "call_1"})),
         "unexpected OpenAI Chat Completions response: expected an array at `choices[0].message.tool_calls`, found an object"),
        (with_calls(json!([call(json!({})), "call_2"])),
         "unexpected OpenAI Chat Completions response: expected an object at `choices[0].message.tool_calls[1]`, found a string"),
        (with_calls(json!([call(json!({"function": {"arguments": "{}"}}))])),
         "unexpected OpenAI Chat Completions response: expected a string at `choices[0].message.tool_calls[0].function.name`, found nothing"),
        (with_calls(json!([{"type": "function", "function": {"name": "add"}}])),
         "unexpected OpenAI Chat Completions response: expected a string at `choices[0].message.tool_calls[0].id`, found nothing"),
        (with_calls(json!([call(json!({"type": 7}))])),
         "unexpected OpenAI Chat Completions response: expected a string at `choices[0].message.tool_calls[0].type`, found a number"),
        (json!({"choices": [{"index": 0, "finish_reason": "length",
                             "message": {"role": "assistant", "content": null,
                                         "tool_calls": [call(json!({"function": {"name": "add", "arguments": "{\"a\":"}}))]}}]}),
         "the OpenAI Chat Completions response is incomplete (`finish_reason` is `length`); its tool calls may be cut off, so none were run"),
        (json!({"error": {"message": "Rate limit reached for gpt-4o", "type": "requests", "code": "rate_limit_exceeded"}}),
         "OpenAI Chat Completions returned an error instead of a response: Rate limit reached for gpt-4o"),
        (json!("chat.completion"),
         "unexpected OpenAI Chat Completions response: expected a JSON object at `(root)`, found a string"),
    ];
    for (response, expected) in cases {
        let err: ResponseError = CHAT.parse_calls(&response).unwrap_err();
        assert_eq!(err.to_string(), expected, "for {response}");
        assert_eq!(err.dialect(), CHAT);
    }
    let truncated = r#"{"id":"chatcmpl-1","choices":[{"index":0,"message":{"role":"assistant","tool_calls":[{"id":"call_1","#;
    assert_eq!(
        CHAT.parse_body(truncated).unwrap_err().to_string(),
        "the OpenAI Chat Completions response is not valid JSON: EOF while parsing a value at line 1 column 100"
    );
}

#[tokio::test]
async fn arguments_sent_as_an_object_by_a_compatible_server_are_accepted() {
    let (toolkit, paths) = toolkit();
    let response = json!({"choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
        "role": "assistant", "content": "",
        "tool_calls": [{"id": "call_0", "type": "function",
                        "function": {"name": "get_weather", "arguments": {"city": "Oslo"}}}]}}]});
    let next = toolkit
        .respond(&response, CHAT)
        .await
        .unwrap()
        .result_messages;
    assert_eq!(
        next,
        [json!({"role": "tool", "tool_call_id": "call_0", "content": "Oslo: 4°C, rain"})]
    );
    assert_eq!(paths.counts(), (0, 1));
    // Repeated to OpenAI, the arguments become the JSON text its API requires.
    let turn = CHAT.model_turn(&response).unwrap();
    assert_eq!(
        turn[0]["tool_calls"][0]["function"]["arguments"],
        r#"{"city":"Oslo"}"#
    );
}
