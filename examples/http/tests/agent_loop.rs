//! `examples/http/agent_loop.rs` end to end, offline: the loop talks HTTP to the example's scripted
//! Chat Completions server, which checks that the second request carries both tool results with
//! the right `tool_call_id`s before it answers with text.

#[allow(dead_code)] // `main` and the real-endpoint path are the example's, not the test's
#[path = "../agent_loop.rs"]
mod agent_loop;

use serde_json::json;
use toolnexus::{NativeTool, Toolkit};

#[tokio::test]
async fn the_loop_answers_two_tool_calls_over_http_and_returns_the_text() {
    let toolkit = agent_loop::toolkit().unwrap();
    let answer = agent_loop::run_offline(&toolkit, agent_loop::QUESTION)
        .await
        .unwrap();
    assert_eq!(answer, agent_loop::scripted::FINAL_ANSWER);
}

#[tokio::test]
async fn the_scripted_server_refuses_a_second_request_with_wrong_results() {
    // Same tool names, but `add` answers wrongly: the server sees it and says so.
    let schema = json!({"type": "object", "properties": {}});
    let weather = NativeTool::of("get_weather", "Weather", schema.clone(), |_| async {
        "Paris: 18°C, sunny"
    })
    .unwrap();
    let add = NativeTool::of("add", "Adds", schema, |_| async { "6" }).unwrap();
    let toolkit = Toolkit::new().with(weather).unwrap().with(add).unwrap();
    let err = agent_loop::run_offline(&toolkit, agent_loop::QUESTION)
        .await
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("expected the two tool results"),
        "unexpected error: {err}"
    );
}
