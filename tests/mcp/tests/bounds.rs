//! Everything a hostile server can make our client hold or wait for, each attack against the
//! hand-written `hostile_server` with its bound: stalled handshakes and listings, one deadline
//! for the whole connect, unreadable entries, flooded and oversized tool lists, results and
//! errors too large to parse, control characters in names. Memory is the process's peak
//! resident set (`VmHWM`) above what it held before; the tests of this file run one at a time
//! so that each measures only itself.

use std::path::Path;
use std::time::Duration;

use serde_json::json;
use toolnexus::mcp::{McpConnection, McpError, McpLimits, McpSource};
use toolnexus::{Tool, Toolkit, ToolsOptions};
use toolnexus_mcp_tests::{http_client_ready, log_file, logged, peak_kib, reset_peak, Child};

const HOSTILE: &str = env!("CARGO_BIN_EXE_hostile_server");
const FIXTURE: &str = env!("CARGO_BIN_EXE_fixture_server");
const HOSTILE_HTTP: &str = env!("CARGO_BIN_EXE_hostile_http");

/// One test at a time, so each peak is its own.
static SERIAL: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

fn hostile(mode: &str, log: &Path) -> McpSource {
    McpSource::stdio("hostile", HOSTILE)
        .arg(mode)
        .env("HOSTILE_LOG", log)
}

/// Runs `attack` and returns its value and the peak memory it added, in MiB.
async fn measured<T>(attack: impl std::future::Future<Output = T>) -> (T, u64) {
    let before = reset_peak();
    let value = attack.await;
    (value, peak_kib().saturating_sub(before) / 1024)
}

#[tokio::test]
async fn a_server_that_stalls_the_handshake_or_the_listing_is_a_timeout() {
    let _one = SERIAL.lock().await;
    let log = log_file("stall.log");
    for (mode, what) in [("stall_init", "initialize"), ("stall_list", "tools/list")] {
        let err = hostile(mode, &log)
            .with_connect_timeout(Duration::from_millis(500))
            .connect()
            .await
            .unwrap_err();
        assert!(
            matches!(&err, McpError::Timeout { server, what: w, after }
                if server == "hostile" && *w == what && *after == Duration::from_millis(500)),
            "{mode}: {err}"
        );
        assert_eq!(
            err.to_string(),
            format!("MCP server `hostile` did not answer `{what}` within 500ms")
        );
    }
}

#[tokio::test]
async fn one_deadline_covers_every_page_of_the_listing() {
    let _one = SERIAL.lock().await;
    // Each page takes 400 ms, well within the timeout; ten of them do not.
    let err = hostile("slow_pages", &log_file("slow-pages.log"))
        .with_connect_timeout(Duration::from_secs(1))
        .with_limits(McpLimits::default().with_max_pages(10))
        .connect()
        .await
        .unwrap_err();
    assert!(
        matches!(
            err,
            McpError::Timeout {
                what: "tools/list",
                ..
            }
        ),
        "{err}"
    );
}

#[tokio::test]
async fn an_answer_to_tools_list_that_is_no_list_is_a_list_error() {
    let _one = SERIAL.lock().await;
    let err = hostile("not_a_list", &log_file("not-a-list.log"))
        .connect()
        .await
        .unwrap_err();
    assert!(matches!(&err, McpError::List { server, .. } if server == "hostile"));
    assert_eq!(
        err.to_string(),
        "MCP server `hostile` could not list its tools: its answer to tools/list has no `tools` \
         array"
    );
}

#[tokio::test]
async fn each_unreadable_entry_is_left_out_alone_and_control_characters_are_escaped() {
    let _one = SERIAL.lock().await;
    let log = log_file("undecodable.log");
    let connection = hostile("undecodable", &log).connect().await.unwrap();
    let mut toolkit = Toolkit::new();
    connection.add_to(&mut toolkit).unwrap();
    assert_eq!(
        toolkit.names().collect::<Vec<_>>(),
        ["ok_tool", "esc__31mred_", "after"]
    );
    let skipped = connection.skipped();
    let left_out: Vec<&str> = skipped.iter().map(|s| s.tool.as_str()).collect();
    assert_eq!(left_out, ["lone_surrogate", "too_deep"], "{skipped:?}");
    assert!(
        skipped[0].reason.contains("cannot be read") && skipped[0].reason.contains("hex escape"),
        "{}",
        skipped[0].reason
    );
    assert!(
        skipped[1].reason.contains("levels deep"),
        "{}",
        skipped[1].reason
    );
    // The name as the server gave it goes out on the call; what we show has it escaped.
    let escaped = &connection.tools()[1];
    assert_eq!(escaped.remote_name(), "esc\\u{1b}[31mred\\u{7}");
    let out = toolkit.execute("esc__31mred_", json!({})).await;
    assert_eq!(out.output, "ok");
    assert_eq!(logged(&log), [r#""esc\u001b[31mred\u0007" {}"#]);
}

/// Two schemas, each inside `max_schema_bytes`, that together take the `tools/list` page past
/// `max_message_values`: the page still loads, leaving out the later one, saying why (issue 39:
/// the whole listing failed).
#[tokio::test]
async fn a_page_past_the_value_count_leaves_out_its_largest_entries_only() {
    let _one = SERIAL.lock().await;
    let log = log_file("wide-pair.log");
    let (connection, added) = measured(hostile("wide_pair", &log).connect()).await;
    let connection = connection.unwrap();
    let names: Vec<String> = connection
        .tools()
        .iter()
        .map(|t| t.remote_name().to_owned())
        .collect();
    assert_eq!(names, ["small", "wide_a"]);
    let skipped = connection.skipped();
    assert_eq!(skipped.len(), 1, "{skipped:?}");
    assert_eq!(skipped[0].tool, "wide_b");
    assert!(
        skipped[0].reason.contains("McpLimits::max_message_values"),
        "{}",
        skipped[0].reason
    );
    eprintln!("wide_pair: {added} MiB above idle");
    assert!(added <= 48, "{added} MiB");
    // With room for both, both load.
    let roomy = hostile("wide_pair", &log)
        .with_limits(McpLimits::default().with_max_message_values(200_000))
        .connect()
        .await
        .unwrap();
    assert_eq!(roomy.tools().len(), 3);
    assert!(roomy.skipped().is_empty());
}

#[tokio::test]
async fn two_hundred_thousand_tools_keep_a_hundred_reasons_and_a_count() {
    let _one = SERIAL.lock().await;
    let (connection, added) =
        measured(hostile("tiny_flood", &log_file("tiny-flood.log")).connect()).await;
    let connection = connection.unwrap();
    assert_eq!(connection.tools().len(), 1000);
    let skipped = connection.skipped();
    assert_eq!(skipped.len(), 101);
    assert_eq!(skipped[0].tool, "t1000");
    assert_eq!(
        skipped[100].reason,
        "198900 more tools were left out; only the first 100 reasons are kept \
         (McpLimits::max_skipped)"
    );
    eprintln!("tiny_flood: {added} MiB above idle");
    assert!(added <= 64, "{added} MiB");
}

#[tokio::test]
async fn a_tool_list_past_the_byte_budget_leaves_the_rest_out() {
    let _one = SERIAL.lock().await;
    let log = log_file("budget.log");
    let (connection, added) = measured(hostile("budget", &log).connect()).await;
    let connection = connection.unwrap();
    let taken = connection.tools().len();
    assert!((1..100).contains(&taken), "{taken} tools");
    let skipped = connection.skipped();
    assert_eq!(skipped.len(), 100 - taken);
    assert_eq!(skipped[0].tool, format!("b{taken}"));
    assert!(
        skipped[0].reason.contains("McpLimits::max_list_bytes"),
        "{}",
        skipped[0].reason
    );
    // What the toolkit renders of them stays within the budget too.
    let mut toolkit = Toolkit::new();
    connection.add_to(&mut toolkit).unwrap();
    let rendered: usize = toolnexus::Dialect::ALL
        .into_iter()
        .map(|d| {
            serde_json::to_string(&toolkit.tools_for(d, ToolsOptions::default()))
                .unwrap()
                .len()
        })
        .sum();
    assert!(
        rendered <= McpLimits::default().max_list_bytes,
        "{rendered}"
    );
    eprintln!("budget: {taken} tools, {added} MiB above idle");
    assert!(added <= 160, "{added} MiB");
    drop((toolkit, connection));

    let all = hostile("budget", &log)
        .with_limits(McpLimits::default().with_max_list_bytes(usize::MAX))
        .connect()
        .await
        .unwrap();
    assert_eq!(all.tools().len(), 100);
}

/// Our client on `hostile results`, with a long call timeout: every failure below is at once.
async fn results() -> (McpConnection, Toolkit) {
    let connection = hostile("results", &log_file("results.log"))
        .with_call_timeout(Duration::from_secs(120))
        .connect()
        .await
        .unwrap();
    let mut toolkit = Toolkit::new();
    connection.add_to(&mut toolkit).unwrap();
    (connection, toolkit)
}

async fn call(toolkit: &Toolkit, name: &str) -> toolnexus::ToolResult {
    tokio::time::timeout(Duration::from_secs(60), toolkit.execute(name, json!({})))
        .await
        .expect("answered at once, not after the call timeout")
}

/// `out` is the error result of `name` that the hostile server could not run, saying `why`.
fn could_not_run(out: &toolnexus::ToolResult, name: &str, why: &str) {
    assert!(out.is_error, "{name}");
    assert!(
        out.output
            .starts_with(&format!("MCP server `hostile` could not run `{name}`"))
            && out.output.contains(why),
        "{name}: {}",
        out.output
    );
}

#[tokio::test]
async fn results_too_large_to_parse_fail_at_once_and_cost_little() {
    let _one = SERIAL.lock().await;
    let (_connection, toolkit) = results().await;
    for (name, limit) in [
        ("blocks", "McpLimits::max_message_values"),
        ("zeros", "McpLimits::max_message_values"),
        ("huge", "McpLimits::max_message_bytes"),
    ] {
        let (out, added) = measured(call(&toolkit, name)).await;
        could_not_run(&out, name, limit);
        eprintln!("{name}: {added} MiB above idle");
        assert!(added <= 48, "{name}: {added} MiB");
    }
    // The connection still works.
    assert_eq!(call(&toolkit, "fine").await.output, "fine");
}

/// The hostile HTTP server, answering with JSON bodies or (`sse`) event streams: its URL.
fn hostile_http(sse: bool) -> (String, Child) {
    use std::io::BufRead as _;
    let mut command = std::process::Command::new(HOSTILE_HTTP);
    if sse {
        command.arg("--sse");
    }
    let mut child = command
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("hostile_http starts");
    let mut url = String::new();
    let stdout = child.stdout.take().expect("piped");
    std::io::BufReader::new(stdout)
        .read_line(&mut url)
        .expect("hostile_http prints its URL");
    (url.trim().to_owned(), Child(child))
}

/// Over HTTP as over stdio, each answer's JSON values are counted before it is parsed, in a
/// JSON body and in an event stream alike (issue 39: the HTTP client parsed any body within
/// 16 MiB, and 15 MiB of zeros peaked at 1.09 GiB, 500,000 empty blocks at 0.96 GiB); a
/// listing past the count loses its largest tool only.
#[tokio::test]
async fn http_results_too_large_to_parse_fail_at_once_and_cost_little() {
    let _one = SERIAL.lock().await;
    http_client_ready();
    for sse in [false, true] {
        let (url, _server) = hostile_http(sse);
        let connection = McpSource::http("hostile", &url)
            .with_call_timeout(Duration::from_secs(120))
            .connect()
            .await
            .unwrap();
        let skipped = connection.skipped();
        assert_eq!(skipped.len(), 1, "sse {sse}: {skipped:?}");
        assert_eq!(skipped[0].tool, "wide_list");
        assert!(skipped[0].reason.contains("McpLimits::max_message_values"));
        let mut toolkit = Toolkit::new();
        connection.add_to(&mut toolkit).unwrap();
        for name in ["blocks", "zeros"] {
            let (out, added) = measured(call(&toolkit, name)).await;
            could_not_run(&out, name, "McpLimits::max_message_values");
            eprintln!("http (sse {sse}) {name}: {added} MiB above idle");
            assert!(added < 64, "sse {sse}, {name}: {added} MiB");
        }
        assert_eq!(call(&toolkit, "fine").await.output, "fine", "sse {sse}");
    }
}

/// An answer no reader can decode (a lone surrogate, nesting past 127 levels) fails its call at
/// once, naming why (issue 39: it reached the caller as "did not answer" after the timeout).
#[tokio::test]
async fn results_no_reader_can_decode_fail_at_once_naming_why() {
    let _one = SERIAL.lock().await;
    let (_connection, toolkit) = results().await;
    for (name, why) in [("surrogate", "cannot be read"), ("deep", "levels deep")] {
        could_not_run(&call(&toolkit, name).await, name, why);
    }
    assert_eq!(call(&toolkit, "fine").await.output, "fine");
}

#[tokio::test]
async fn a_server_s_error_message_is_cut_and_escaped() {
    let _one = SERIAL.lock().await;
    let (_connection, toolkit) = results().await;
    let out = call(&toolkit, "long_error").await;
    assert!(out.is_error);
    assert!(
        out.output.starts_with(
            "MCP server `hostile` could not run `long_error`: Mcp error: -32603: \\u{1b}[31mdisk\\0yyy"
        ),
        "{}",
        &out.output[..200.min(out.output.len())]
    );
    assert!(out.output.chars().count() < 400, "{}", out.output.len());
    assert!(!out.output.chars().any(char::is_control));
}

#[tokio::test]
async fn a_schema_past_the_schema_limit_is_left_out() {
    let _one = SERIAL.lock().await;
    let connection = McpSource::stdio("fixture", FIXTURE)
        .with_limits(McpLimits::default().with_max_schema_bytes(100))
        .connect()
        .await
        .unwrap();
    let skipped = connection.skipped();
    assert!(!skipped.is_empty());
    for s in &skipped {
        assert!(
            s.reason
                .contains("; the limit is 100 (McpLimits::max_schema_bytes)"),
            "{s:?}"
        );
    }
    // The schemas within it load.
    assert!(!connection.tools().is_empty());
    assert!(connection
        .tools()
        .iter()
        .all(|t| serde_json::to_string(t.input_schema().as_value())
            .unwrap()
            .len()
            <= 100));
}
