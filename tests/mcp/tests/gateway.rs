//! A gateway: our server over a `LiveToolkit` that follows a server on the official Python MCP
//! SDK (whose list grows after its first call), driven over streamable HTTP by the official
//! Python SDK's client. A change of the upstream list reaches the client as
//! `notifications/tools/list_changed`, and its next listing has the new tool.

use std::process::Command;

use serde_json::{json, Value};
use toolnexus_mcp_tests::{fixture_over_http, log_file, python, root};

const SERVER: &str = env!("CARGO_BIN_EXE_bounded_server");

#[test]
fn the_python_sdk_s_client_hears_the_gateway_s_list_changed_and_lists_again() {
    let Some(python) = python() else {
        return;
    };
    let upstream = root().join("tests/mcp/py/changing_server.py");
    let log = log_file("gateway.log");
    let (url, _gateway) = fixture_over_http(
        SERVER,
        &log,
        &[
            "--gateway",
            python.to_str().unwrap(),
            upstream.to_str().unwrap(),
        ],
    );
    let out = Command::new(&python)
        .arg(root().join("tests/mcp/py/gateway_client.py"))
        .arg(&url)
        .output()
        .expect("the venv's python runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "gateway_client.py failed:\n{}\n{stdout}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: Value = serde_json::from_str(&stdout).expect("a JSON report");
    assert_eq!(report["list_changed_capability"], true);
    assert_eq!(report["before"], json!(["echo", "count", "slow", "grow"]));
    assert_eq!(report["grow"], "grown");
    assert_eq!(
        report["notifications"][0], "notifications/tools/list_changed",
        "{report}"
    );
    assert_eq!(
        report["after"],
        json!(["echo", "count", "slow", "grow", "late_tool"])
    );
    assert_eq!(
        report["late_tool"],
        json!({"is_error": false, "text": "late through the gateway"})
    );
}
