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

/// The same file into a `LiveToolkit` beside the host's own tool: each server's tools join it,
/// a server that fails is reported and the others are not affected, and a server whose list
/// changes is followed (its new tool appears in the live toolkit).
#[tokio::test]
async fn a_file_connects_into_a_live_toolkit_that_follows_each_servers_list() {
    use std::time::Duration;
    use toolnexus::mcp::LiveToolkit;
    use toolnexus::{NativeTool, Toolkit};
    let log =
        std::env::temp_dir().join(format!("toolnexus-config-live-{}.log", std::process::id()));
    let text = json!({"mcpServers": {
        "changing": {"command": env!("CARGO_BIN_EXE_hostile_server"), "args": ["changing"],
                     "env": {"HOSTILE_LOG": log.display().to_string()}},
        "ghost": {"command": "/nonexistent/toolnexus/mcp-server"}
    }})
    .to_string();
    let own = NativeTool::of(
        "own",
        "The host's own.",
        json!({"type": "object"}),
        |_| async { "own" },
    )
    .unwrap();
    let live = LiveToolkit::new(Toolkit::new().with(own).unwrap());
    let config = McpConfig::from_json("mcp.json", &text).unwrap();
    let status = config.connect_live(&live).await.unwrap();
    assert_eq!(
        status[0],
        ("changing".to_owned(), McpStatus::Connected { tools: 1 })
    );
    assert!(
        matches!(status[1].1, McpStatus::Failed { .. }),
        "{status:?}"
    );
    let before = live.current();
    assert_eq!(before.names().collect::<Vec<_>>(), ["own", "add_tool"]);

    let generation = live.generation();
    assert_eq!(before.execute("add_tool", json!({})).await.output, "added");
    tokio::time::timeout(Duration::from_secs(10), live.changed(generation))
        .await
        .expect("the live toolkit follows the server's list_changed");
    assert_eq!(
        live.current().names().collect::<Vec<_>>(),
        ["own", "add_tool", "new_tool"]
    );
    let _ = std::fs::remove_file(&log);
}
