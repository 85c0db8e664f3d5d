//! `McpConfig` (issue 43): a configuration file of three servers, one of which cannot start
//! and one turned off, connects the one that can, reports each server's status, and the
//! toolkit runs the connected server's tools under the file's prefix and tool filter.

use serde_json::json;
use toolnexus::mcp::{McpConfig, McpStatus};

const FIXTURE: &str = env!("CARGO_BIN_EXE_fixture_server");

#[tokio::test]
async fn a_file_of_three_servers_connects_the_one_that_can_and_reports_each() {
    let log = std::env::temp_dir().join(format!("toolnexus-config-{}.log", std::process::id()));
    let text = json!({"mcpServers": {
        "fixture": {"command": FIXTURE, "env": {"FIXTURE_LOG": "${LOG_PATH}"},
                    "prefix": "fx_", "tools": {"echo": true, "add": true}, "timeout": 10000},
        "ghost": {"command": "/nonexistent/toolnexus/mcp-server"},
        "off": {"command": FIXTURE, "disabled": true}
    }})
    .to_string();
    let path = log.display().to_string();
    let config = McpConfig::from_json("mcp.json", &text)
        .unwrap()
        .with_resolver(move |name| (name == "LOG_PATH").then(|| path.clone()));
    let loaded = config.connect().await.unwrap();
    let _ = std::fs::remove_file(&log);

    assert_eq!(
        loaded.status[0],
        ("fixture".to_owned(), McpStatus::Connected { tools: 2 })
    );
    let (ghost, status) = &loaded.status[1];
    assert_eq!(ghost, "ghost");
    let McpStatus::Failed { reason } = status else {
        panic!("ghost failed: {status:?}")
    };
    assert!(
        reason.contains("ghost"),
        "the reason names the server: {reason}"
    );
    assert_eq!(loaded.status[2], ("off".to_owned(), McpStatus::Disabled));

    let mut names: Vec<&str> = loaded.toolkit.names().collect();
    names.sort_unstable();
    assert_eq!(names, ["fx_add", "fx_echo"]);
    let echoed = loaded
        .toolkit
        .execute("fx_echo", json!({"text": "hi"}))
        .await;
    assert_eq!(echoed.output, "hi", "{echoed:?}");
}
