//! The official TypeScript MCP SDK's client (`@modelcontextprotocol/sdk` on npm, what Claude
//! Desktop and Cursor are built on) drives our server over stdio, launched as Claude Desktop
//! launches a server (a command, no arguments it does not need), and over streamable HTTP.
//! Installed pinned by `scripts/mcp_peers.sh`; without node the tests are skipped with one line
//! (under `CI` they fail instead).

use std::process::Command;

use serde_json::{json, Value};
use toolnexus_mcp_tests::{everything, fixture_over_http, log_file, root};

const FIXTURE: &str = env!("CARGO_BIN_EXE_fixture_server");

/// Runs drive_server.mjs on `target` (a program, or a URL) and returns its report.
fn ts_drives(target: &str, args: &[&str]) -> Option<Value> {
    let bin = everything()?;
    let modules = bin.parent()?.parent()?.to_owned();
    let out = Command::new("node")
        .current_dir(std::env::temp_dir())
        .arg(root().join("tests/mcp/js/drive_server.mjs"))
        .arg(modules)
        .arg(target)
        .args(args)
        .output()
        .expect("node runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "drive_server.mjs failed:\n{}\n{stdout}",
        String::from_utf8_lossy(&out.stderr)
    );
    Some(serde_json::from_str(&stdout).expect("a JSON report"))
}

fn check(report: &Value) {
    assert_eq!(report["server"], "toolnexus");
    assert_eq!(report["tools_capability"], true);
    assert_eq!(report["pages"], 4);
    let names = report["names"].as_array().unwrap();
    assert_eq!(names.len(), 37);
    assert_eq!(
        report["echo_tool"]["inputSchema"]["required"],
        json!(["text"])
    );
    assert_eq!(report["extra_0_tool"]["title"], "Extra 0");
    assert_eq!(
        report["extra_0_tool"]["annotations"],
        json!({"title": "Extra 0", "readOnlyHint": true, "idempotentHint": true})
    );
    let text = |key: &str| report[key]["content"][0]["text"].clone();
    assert_eq!(text("echo"), "hello");
    assert_eq!(text("add"), "42");
    assert_eq!(report["chart"]["content"][1]["type"], "image");
    assert_eq!(report["chart"]["content"][1]["mimeType"], "image/png");
    assert_eq!(
        report["fail"],
        json!({"is_error": true, "content": [{"type": "text", "text": "failed: on purpose"}]})
    );
    assert_eq!(report["bad_arguments"]["is_error"], true);
    assert_eq!(report["unknown"]["code"], -32602);
    let concurrent: Vec<String> = (0..10).map(|i| format!("concurrent {i}")).collect();
    assert_eq!(report["concurrent"], json!(concurrent));
    assert_eq!(report["boom"]["is_error"], true);
    assert_eq!(text("after_boom"), "still here");
}

#[test]
fn the_typescript_sdk_s_client_drives_our_server_over_stdio() {
    let log = log_file("ts-client.log");
    let log = log.to_str().unwrap();
    let args = ["--many", "30", "--page-size", "10", "--log", log];
    if let Some(report) = ts_drives(FIXTURE, &args) {
        check(&report);
    }
}

#[test]
fn the_typescript_sdk_s_client_drives_our_server_over_http() {
    if everything().is_none() {
        return;
    }
    let log = log_file("ts-client-http.log");
    let (url, _server) = fixture_over_http(FIXTURE, &log, &["--many", "30", "--page-size", "10"]);
    let report = ts_drives(&url, &[]).expect("node is there");
    check(&report);
}

#[test]
fn the_typescript_sdk_s_client_launches_our_server_as_claude_desktop_does() {
    // `"command": "/path/to/server"` and nothing else: no arguments, no working directory.
    let Some(report) = ts_drives(FIXTURE, &[]) else {
        return;
    };
    assert_eq!(report["server"], "toolnexus");
    assert_eq!(report["pages"], 1);
    assert_eq!(
        report["names"],
        json!(["echo", "add", "chart", "report", "fail", "boom", "slow"])
    );
    assert_eq!(report["echo"]["content"][0]["text"], "hello");
    assert_eq!(report["after_boom"]["content"][0]["text"], "still here");
}
