//! The MCP examples end to end, offline: `mcp_source` connects to the `mcp_serve` example
//! (built by `cargo test` next to this test) and answers a model turn with its `get_weather`.

#[allow(dead_code)] // `main` is the example's, not the test's
#[path = "../mcp_source.rs"]
mod mcp_source;

use std::path::PathBuf;

/// An example binary of this package (`cargo test` builds them before running the tests).
fn example(name: &str) -> PathBuf {
    let exe = std::env::current_exe().expect("the test binary's path");
    let dir = exe
        .parent()
        .and_then(|deps| deps.parent())
        .expect("target/<profile>");
    dir.join("examples").join(name)
}

#[tokio::test]
async fn mcp_source_answers_a_turn_with_the_tool_mcp_serve_serves() {
    let server = example("mcp_serve");
    assert!(server.exists(), "{} was built", server.display());
    let messages = mcp_source::run(&server, &[]).await.unwrap();
    assert_eq!(messages.len(), 2);
    assert_eq!(messages[1]["role"], "user");
    let result = &messages[1]["content"][0];
    assert_eq!(result["type"], "tool_result");
    assert_eq!(result["tool_use_id"], "toolu_1");
    assert_eq!(result["content"], "sunny in Chennai, 31°C");
}
