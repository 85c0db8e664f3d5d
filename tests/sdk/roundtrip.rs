//! Every next-request message the round trip renders for the fixtures (the model's turn, then the
//! results), checked in one Python run
//! by the providers' official SDK types (`tests/sdk/validate_messages.py`, run with the repo's
//! `.venv`, which the test creates through `scripts/venv.sh` when needed).

use std::time::Duration;

use serde_json::{json, Map, Value};
use toolnexus::{Arguments, Dialect, RunOptions, ToolCall, ToolResult};

use crate::common::roundtrip::*;

#[tokio::test(start_paused = true)]
async fn every_rendered_message_is_accepted_by_the_official_sdk_types() {
    let (toolkit, _) = toolkit();
    let with_timeout = RunOptions::default().with_timeout(Duration::from_secs(2));
    let dialects = [
        (
            "openai_chat",
            Dialect::OpenAiChat,
            &[
                "openai_chat_parallel",
                "openai_chat_same_tool_twice",
                "openai_chat_errors",
                "openai_chat_timeout",
                "openai_chat_custom_call",
            ][..],
        ),
        (
            "openai_responses",
            Dialect::OpenAiResponses,
            &[
                "openai_responses_parallel",
                "openai_responses_same_tool_twice",
                "openai_responses_errors",
                "openai_responses_custom_call",
            ][..],
        ),
        (
            "anthropic",
            Dialect::Anthropic,
            &[
                "anthropic_parallel",
                "anthropic_same_tool_twice",
                "anthropic_errors",
            ][..],
        ),
        (
            "gemini",
            Dialect::Gemini,
            &[
                "gemini_parallel",
                "gemini_parallel_ids",
                "gemini_same_tool_twice",
                "gemini_errors",
            ][..],
        ),
        (
            "cohere",
            Dialect::Cohere,
            &["cohere_parallel", "cohere_same_tool_twice", "cohere_errors"][..],
        ),
    ];
    let mut all = Map::new();
    for (key, dialect, fixtures) in dialects {
        let mut messages = Vec::new();
        for name in fixtures {
            let response = fixture(name);
            let turn = toolkit
                .respond_with(&response, dialect, &with_timeout)
                .await
                .unwrap();
            assert!(!turn.is_final(), "{name} has calls");
            assert_eq!(turn.model_turn, dialect.model_turn(&response).unwrap());
            // The whole next request's tail: the model's turn, then the results.
            messages.extend(turn.into_messages());
        }
        // Edge cases rendered directly: a duplicate id and an error without text.
        let calls = [
            ToolCall::new("dup_1", "add", Arguments::Absent),
            ToolCall::new("dup_1", "add", Arguments::Absent),
        ];
        let results = toolkit.execute_calls(&calls, &RunOptions::default()).await;
        messages.extend(dialect.render_results(calls.iter().zip(&results)));
        let silent = ToolResult::error("");
        messages.extend(dialect.render_results([(&calls[0], &silent)]));
        all.insert(key.to_owned(), Value::Array(messages));
    }
    let Some((ok, report)) =
        crate::venv::validate_messages(&Value::Object(all), "roundtrip_messages.json")
    else {
        return;
    };
    assert!(ok, "the SDK types refused what we render:\n{report}");
    assert!(
        report.contains("accepted by the official SDK types"),
        "{report}"
    );
}

#[test]
fn the_validator_refuses_what_the_providers_would() {
    let wrong = json!({
        "openai_chat": [{"role": "tool", "content": "no tool_call_id"}],
        "openai_responses": [{"type": "function_call_output", "call_id": "c", "output": {"not": "text"}}],
        "anthropic": [{"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "t", "content": "", "is_error": true}]}],
        "gemini": [{"role": "user", "parts": [{"functionResponse": {"name": "a", "call_id": "x", "response": {"output": "x"}}}]}],
        "cohere": [{"role": "tool", "content": [{"type": "document", "document": {"data": {"output": "x"}}}]}],
    });
    let Some((ok, report)) =
        crate::venv::validate_messages(&wrong, "roundtrip_wrong_messages.json")
    else {
        return;
    };
    assert!(!ok, "{report}");
    for expected in [
        "openai_chat[0]: not a valid ChatCompletionToolMessageParam",
        "openai_responses[0]: not a valid FunctionCallOutput",
        "anthropic[0].content[0]: error content must not be empty",
        "gemini[0]: not a valid google.genai Content",
        "cohere[0]: ",
    ] {
        assert!(
            report.contains(expected),
            "missing {expected:?} in:\n{report}"
        );
    }
}
