//! Every next-request message the round trip renders for the fixtures (the model's turn, then the
//! results), checked in one Python run
//! by the providers' official SDK types (`tests/sdk/validate_messages.py`, run with the repo's
//! `.venv`, which the test creates through `scripts/venv.sh` when needed).

use std::time::Duration;

use serde_json::json;
use toolnexus::{Arguments, RunOptions, ToolCall, ToolResult};

use crate::common::dialects::{self, Fixture};
use crate::common::root;
use crate::common::roundtrip::{self, *};
use crate::venv::Turns;

/// The round-trip fixtures of `fixture`'s dialect that ask for calls:
/// `tests/fixtures/roundtrip/<key>_*.json`, but for `_no_calls` (a final answer has no next
/// request to check). Sorted, so a run renders them in one order.
fn responses_of(fixture: &dyn Fixture) -> Vec<String> {
    let prefix = format!("{}_", fixture.sdk().key);
    let mut names: Vec<String> = std::fs::read_dir(root().join("tests/fixtures/roundtrip"))
        .unwrap()
        .map(|entry| entry.unwrap().file_name().into_string().unwrap())
        .filter_map(|file| file.strip_suffix(".json").map(str::to_owned))
        .filter(|name| name.starts_with(&prefix) && !name.ends_with("_no_calls"))
        .collect();
    names.sort();
    names
}

#[tokio::test(start_paused = true)]
async fn every_rendered_message_is_accepted_by_the_official_sdk_types() {
    let (toolkit, _) = toolkit();
    let with_timeout = RunOptions::default().with_timeout(Duration::from_secs(2));
    let mut turns = Turns::default();
    for fixture in dialects::ALL {
        let dialect = fixture.dialect();
        let names = responses_of(fixture);
        // Bedrock's round trip is in bedrock.rs, on responses of its own.
        assert!(
            !names.is_empty() || !fixture.sdk().shared,
            "no round-trip fixture for {dialect:?}"
        );
        let mut messages = Vec::new();
        for name in &names {
            let response = roundtrip::fixture(name);
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
        turns.add(fixture, messages, &toolkit);
    }
    turns.assert_accepted("roundtrip");
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
