//! Our MCP client (`McpSource`) against our own server (`fixture_server`) and against a
//! hand-written server that misbehaves on purpose (`hostile_server`): what each tool received
//! and how often, results, media, names, filters, limits and faults.

use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::json;
use toolnexus::mcp::{LiveToolkit, McpError, McpLimits, McpServer, McpSource};
use toolnexus::{
    Arguments, Dialect, RunOptions, Tool, ToolCall, ToolHints, ToolSource, Toolkit, ToolsOptions,
};
use toolnexus_mcp_tests::{log_file, logged};

const FIXTURE: &str = env!("CARGO_BIN_EXE_fixture_server");
const HOSTILE: &str = env!("CARGO_BIN_EXE_hostile_server");

fn fixture(log: &Path) -> McpSource {
    McpSource::stdio("fixture", FIXTURE).env("FIXTURE_LOG", log)
}

fn hostile(mode: &str, log: &Path) -> McpSource {
    McpSource::stdio("hostile", HOSTILE)
        .arg(mode)
        .env("HOSTILE_LOG", log)
}

async fn toolkit_of(source: McpSource) -> (toolnexus::mcp::McpConnection, Toolkit) {
    let connection = source.connect().await.expect("the server connects");
    let mut toolkit = Toolkit::new();
    connection.add_to(&mut toolkit).expect("its tools join");
    (connection, toolkit)
}

#[tokio::test]
async fn tools_of_our_server_join_a_toolkit_and_each_call_reaches_its_tool_once() {
    let log = log_file("calls.log");
    let (connection, toolkit) = toolkit_of(fixture(&log)).await;
    assert_eq!(
        toolkit.names().collect::<Vec<_>>(),
        ["echo", "add", "chart", "report", "fail", "boom", "slow"]
    );
    assert!(
        connection.skipped().is_empty(),
        "{:?}",
        connection.skipped()
    );
    let echo = toolkit.get("echo").unwrap();
    assert_eq!(echo.description(), "Echoes the text back.");
    assert_eq!(echo.input_schema().as_value()["required"], json!(["text"]));
    assert_eq!(
        echo.input_schema().for_gemini()["properties"]["text"]["type"],
        "string"
    );

    let said = toolkit.execute("echo", json!({"text": "hi"})).await;
    assert_eq!((said.output.as_str(), said.is_error), ("hi", false));
    let sum = toolkit.execute_json("add", r#"{"a": 2, "b": 3}"#).await;
    assert_eq!(sum.output, "5");

    let chart = toolkit.execute("chart", json!({})).await;
    assert_eq!(chart.output, "the chart");
    assert_eq!(chart.media.len(), 1);
    assert!(chart.media[0].is_image());
    assert_eq!(chart.media[0].data(), [0x89, b'P', b'N', b'G']);

    let report = toolkit.execute("report", json!({})).await;
    assert_eq!(report.output, "");
    assert_eq!(report.media[0].mime_type(), "application/pdf");
    assert_eq!(report.media[0].data(), b"%PDF-1.7");
    assert_eq!(report.media[0].name(), Some("report.pdf"));

    let failed = toolkit.execute("fail", json!({"reason": "no"})).await;
    assert!(failed.is_error);
    assert_eq!(failed.output, "failed: no");

    let boom = toolkit.execute("boom", json!({})).await;
    assert!(boom.is_error);
    assert!(boom.output.contains("panicked"), "{}", boom.output);
    // The server is still up.
    assert_eq!(
        toolkit
            .execute("echo", json!({"text": "again"}))
            .await
            .output,
        "again"
    );

    // Arguments the tool refuses: the server's error result; the tool never ran.
    let bad = toolkit.execute("add", json!({"a": "two", "b": 3})).await;
    assert!(bad.is_error);
    assert!(
        bad.output.contains("invalid arguments for `add`"),
        "{}",
        bad.output
    );

    assert_eq!(
        logged(&log),
        [
            r#"echo {"text":"hi"}"#,
            r#"add {"a":2,"b":3}"#,
            "chart {}",
            "report {}",
            r#"fail {"reason":"no"}"#,
            "boom {}",
            r#"echo {"text":"again"}"#,
        ]
    );
}

#[tokio::test]
async fn the_toolkit_s_limits_and_timeout_apply_before_the_server_is_asked() {
    let log = log_file("limits.log");
    let connection = fixture(&log).connect().await.unwrap();
    let mut toolkit = Toolkit::new().with_limits(toolnexus::Limits::default().with_max_bytes(64));
    connection.add_to(&mut toolkit).unwrap();
    let big = toolkit
        .execute("echo", json!({"text": "x".repeat(100)}))
        .await;
    assert!(big.is_error);
    let slow = ToolCall::new("1", "slow", Arguments::Value(json!({"ms": 5000})));
    let started = Instant::now();
    let options = RunOptions::default().with_timeout(Duration::from_millis(300));
    let cut = toolkit.execute_call(&slow, &options).await;
    assert!(cut.is_error);
    assert!(cut.output.contains("timed out"), "{}", cut.output);
    assert!(started.elapsed() < Duration::from_secs(3));
    // Only the slow call reached the server.
    assert_eq!(logged(&log), [r#"slow {"ms":5000}"#]);
}

#[tokio::test]
async fn a_large_toolkit_is_listed_through_every_page() {
    let log = log_file("pages.log");
    let source = fixture(&log).args(["--many", "250", "--page-size", "7"]);
    let (connection, toolkit) = toolkit_of(source).await;
    assert_eq!(toolkit.len(), 257);
    assert_eq!(toolkit.names().last(), Some("extra_249"));
    assert!(connection.skipped().is_empty());
    assert_eq!(
        toolkit.execute("extra_249", json!({"n": 1})).await.output,
        "extra 249"
    );
    assert_eq!(logged(&log), [r#"extra_249 {"n":1}"#]);
}

#[tokio::test]
async fn prefix_allow_and_deny_choose_the_tools_and_their_names() {
    let log = log_file("filters.log");
    let source = fixture(&log)
        .with_prefix("fx_")
        // Each list grows with every call, the one of `allow` as the one of `deny`.
        .allow(["echo"])
        .allow(["add", "chart"])
        .deny(["add"])
        .deny(["nothing"]);
    let (_connection, toolkit) = toolkit_of(source).await;
    assert_eq!(toolkit.names().collect::<Vec<_>>(), ["fx_echo", "fx_chart"]);
    let said = toolkit.execute("fx_echo", json!({"text": "x"})).await;
    assert_eq!(said.output, "x");
    assert_eq!(logged(&log), [r#"echo {"text":"x"}"#]);
}

#[tokio::test]
async fn a_name_the_toolkit_has_is_an_error_naming_server_and_tool_and_adds_nothing() {
    let log = log_file("taken.log");
    let connection = fixture(&log).connect().await.unwrap();
    let mine = toolnexus::NativeTool::of("add", "Mine.", json!({"type": "object"}), |_| async {
        "mine"
    })
    .unwrap();
    let mut toolkit = Toolkit::new().with(mine).unwrap();
    let err = connection.add_to(&mut toolkit).unwrap_err();
    assert!(
        matches!(&err, McpError::NameTaken { server, tool, .. } if server == "fixture" && tool == "add")
    );
    assert!(err.to_string().contains("prefix"), "{err}");
    assert_eq!(toolkit.names().collect::<Vec<_>>(), ["add"]);
}

#[tokio::test]
async fn tools_that_cannot_be_sent_are_left_out_with_a_reason_and_the_others_load() {
    let log = log_file("catalog.log");
    let (connection, toolkit) = toolkit_of(hostile("catalog", &log)).await;
    assert_eq!(
        toolkit.names().collect::<Vec<_>>(),
        ["ok_tool", "dotted_name_v1"]
    );
    let mcp = connection.tools();
    assert_eq!(mcp[1].remote_name(), "dotted.name/v1");
    let skipped = connection.skipped();
    let reasons: Vec<(&str, &str)> = skipped
        .iter()
        .map(|s| (s.tool.as_str(), s.reason.as_str()))
        .collect();
    assert_eq!(reasons.len(), 5, "{reasons:#?}");
    assert_eq!(reasons[0].0, "big_description");
    assert!(reasons[0].1.contains("1048576 bytes"), "{reasons:#?}");
    assert_eq!(reasons[1].0, "ref_elsewhere");
    assert!(reasons[1].1.contains("$ref"), "{reasons:#?}");
    assert_eq!(reasons[2].0, "not_object");
    assert!(reasons[2].1.contains("object"), "{reasons:#?}");
    assert_eq!(reasons[3].0, "dotted_name_v1");
    assert!(
        reasons[3].1.contains("taken by another tool"),
        "{reasons:#?}"
    );
    assert!(reasons[4].1.contains("70 characters"), "{reasons:#?}");
    // The remote name goes out on the call.
    let out = toolkit.execute("dotted_name_v1", json!({"x": "1"})).await;
    assert_eq!(out.output, "ok");
    assert_eq!(logged(&log), [r#""dotted.name/v1" {"x":"1"}"#]);
}

#[tokio::test]
async fn ten_thousand_tools_stop_at_the_limit() {
    let log = log_file("many.log");
    let connection = hostile("many", &log).connect().await.unwrap();
    assert_eq!(connection.tools().len(), 1000);
    // The first 100 reasons, then one entry that counts the other 8900.
    let skipped = connection.skipped();
    assert_eq!(skipped.len(), 101);
    assert_eq!(skipped[0].tool, "t1000");
    assert!(skipped[0].reason.contains("more than 1000 tools"));
    assert_eq!(skipped[100].tool, "*");
    assert!(
        skipped[100]
            .reason
            .starts_with("8900 more tools were left out"),
        "{}",
        skipped[100].reason
    );

    let all = hostile("many", &log)
        .with_limits(McpLimits::default().with_max_tools(20_000))
        .connect()
        .await
        .unwrap();
    assert_eq!(all.tools().len(), 10_000);
    assert_eq!(all.tools()[9999].name(), "t9999");
}

#[tokio::test]
async fn endless_pages_stop_at_the_page_limit() {
    let log = log_file("endless.log");
    let connection = hostile("endless", &log)
        .with_limits(McpLimits::default().with_max_pages(5))
        .connect()
        .await
        .unwrap();
    let names: Vec<String> = connection
        .tools()
        .iter()
        .map(|t| t.name().to_owned())
        .collect();
    assert_eq!(names, ["p0", "p1", "p2", "p3", "p4"]);
    assert_eq!(connection.skipped()[0].tool, "*");
}

async fn one_call(mode: &str, timeout: Duration) -> (toolnexus::ToolResult, Duration, Vec<String>) {
    let log = log_file(&format!("{mode}.log"));
    let source = hostile(mode, &log).with_call_timeout(timeout);
    let (_connection, toolkit) = toolkit_of(source).await;
    let started = Instant::now();
    let result = toolkit.execute("call_me", json!({"x": "1"})).await;
    (result, started.elapsed(), logged(&log))
}

#[tokio::test]
async fn a_server_that_exits_during_a_call_gives_an_error_naming_it_at_once() {
    let (result, took, log) = one_call("exit", Duration::from_secs(30)).await;
    assert!(result.is_error);
    assert!(
        result.output.contains("MCP server `hostile`"),
        "{}",
        result.output
    );
    assert!(took < Duration::from_secs(10), "{took:?}");
    assert_eq!(log, [r#""call_me" {"x":"1"}"#]);
}

#[tokio::test]
async fn a_server_that_hangs_gives_an_error_after_the_call_timeout() {
    let (result, took, log) = one_call("hang", Duration::from_millis(500)).await;
    assert!(result.is_error);
    assert_eq!(
        result.output,
        "MCP server `hostile` did not answer `call_me` within 500ms"
    );
    assert!(
        took >= Duration::from_millis(500) && took < Duration::from_secs(5),
        "{took:?}"
    );
    assert_eq!(log.len(), 1);
}

#[tokio::test]
async fn a_server_that_answers_garbage_gives_an_error_within_the_call_timeout() {
    let (result, took, log) = one_call("garbage", Duration::from_secs(1)).await;
    assert!(result.is_error);
    assert!(
        result.output.contains("MCP server `hostile`"),
        "{}",
        result.output
    );
    assert!(took < Duration::from_secs(5), "{took:?}");
    assert_eq!(log.len(), 1);
}

#[tokio::test]
async fn a_json_rpc_error_is_an_error_result_naming_the_server() {
    let (result, _, _) = one_call("error", Duration::from_secs(10)).await;
    assert!(result.is_error);
    assert!(
        result
            .output
            .contains("MCP server `hostile` could not run `call_me`")
            && result.output.contains("the database is down"),
        "{}",
        result.output
    );
}

#[tokio::test]
async fn list_changed_lists_the_tools_again() {
    let log = log_file("changing.log");
    let (connection, toolkit) = toolkit_of(hostile("changing", &log)).await;
    assert_eq!(toolkit.names().collect::<Vec<_>>(), ["add_tool"]);
    let seen = connection.generation();
    assert_eq!(toolkit.execute("add_tool", json!({})).await.output, "added");
    let next = tokio::time::timeout(Duration::from_secs(10), connection.changed(seen))
        .await
        .expect("the list is refreshed after the notification");
    assert!(next > seen);
    let names: Vec<String> = connection
        .tools()
        .iter()
        .map(|t| t.name().to_owned())
        .collect();
    assert_eq!(names, ["add_tool", "new_tool"]);
}

#[tokio::test]
async fn a_flood_of_list_changed_makes_a_listing_or_two_not_one_each() {
    let log = log_file("flood.log");
    let connection = hostile("flood", &log).connect().await.unwrap();
    let live = LiveToolkit::new(Toolkit::new());
    live.attach(&connection).unwrap();
    let generation = live.generation();
    assert_eq!(
        live.current().execute("call_me", json!({})).await.output,
        "ok"
    );
    // The signal: the listing for the first notification, then the one for all the others
    // (each listing's answer comes after the 1000 notifications on the pipe).
    let once = tokio::time::timeout(Duration::from_secs(10), live.changed(generation))
        .await
        .expect("the list is read again");
    if once < generation + 2 {
        tokio::time::timeout(Duration::from_secs(10), live.changed(once))
            .await
            .expect("the list is read once more, for the other notifications");
    }
    // A round trip after both: listings still running would show in the log by now.
    assert_eq!(
        live.current().execute("call_me", json!({})).await.output,
        "ok"
    );
    let listings = logged(&log)
        .iter()
        .filter(|line| *line == "tools/list")
        .count();
    // The first at connect, one for the first notification, at most one for all the others.
    assert!((2..=3).contains(&listings), "{listings} listings");
    assert_eq!(live.current().names().collect::<Vec<_>>(), ["call_me"]);
    assert!(!connection.is_closed());
}

#[tokio::test]
async fn a_program_that_does_not_start_is_an_error_naming_the_server() {
    let err = McpSource::stdio("ghost", "/nonexistent/toolnexus/mcp-server")
        .connect()
        .await
        .unwrap_err();
    assert!(matches!(err, McpError::Spawn { ref server, .. } if server == "ghost"));
    assert!(err
        .to_string()
        .starts_with("MCP server `ghost` could not be started"));
}

#[tokio::test]
async fn over_http_our_client_reaches_our_server_and_a_server_gone_is_an_error_naming_it() {
    toolnexus_mcp_tests::http_client_ready();
    let log = log_file("http.log");
    let (url, mut server) = toolnexus_mcp_tests::fixture_over_http(FIXTURE, &log, &[]);
    let source = McpSource::http("fixture-http", &url)
        .header("authorization", "Bearer test-token")
        .with_call_timeout(Duration::from_secs(600));
    let (_connection, toolkit) = toolkit_of(source).await;
    assert_eq!(toolkit.len(), 7);
    assert_eq!(
        toolkit
            .execute("echo", json!({"text": "over http"}))
            .await
            .output,
        "over http"
    );
    let chart = toolkit.execute("chart", json!({})).await;
    assert_eq!(chart.media[0].data(), [0x89, b'P', b'N', b'G']);
    assert_eq!(logged(&log), [r#"echo {"text":"over http"}"#, "chart {}"]);

    server.0.kill().unwrap();
    server.0.wait().unwrap();
    // At once: not the call timeout (10 minutes) but the refused connection.
    let gone = tokio::time::timeout(
        Duration::from_secs(60),
        toolkit.execute("echo", json!({"text": "anyone?"})),
    )
    .await
    .expect("the call fails without waiting for its timeout");
    assert!(gone.is_error);
    assert!(
        gone.output
            .starts_with("MCP server `fixture-http` could not run `echo`: "),
        "{}",
        gone.output
    );
}

#[tokio::test]
async fn an_invalid_header_is_an_error_naming_the_server() {
    toolnexus_mcp_tests::http_client_ready();
    let err = McpSource::http("bad-header", "http://127.0.0.1:1/mcp")
        .header("bad header", "x")
        .connect()
        .await
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "MCP server `bad-header` failed the handshake: the header `bad header` has an invalid name"
    );
}

#[tokio::test]
async fn our_server_cuts_off_a_hanging_tool_with_an_error_result_and_keeps_serving() {
    let log = log_file("server-timeout.log");
    let source = fixture(&log).args(["--timeout-ms", "300"]);
    let (_connection, toolkit) = toolkit_of(source).await;
    let started = Instant::now();
    let cut = toolkit.execute("slow", json!({"ms": 10_000})).await;
    assert!(cut.is_error);
    assert_eq!(cut.output, "tool `slow` timed out after 300ms");
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    let quick = toolkit.execute("slow", json!({"ms": 1})).await;
    assert_eq!(quick.output, "slept 1 ms");
    assert_eq!(
        logged(&log),
        [
            r#"slow {"ms":10000}"#,
            r#"slow {"ms":1}"#,
            r#"slow-done {"ms":1}"#
        ]
    );
}

#[tokio::test]
async fn a_call_the_client_gives_up_on_is_cancelled_on_our_server() {
    let log = log_file("cancel.log");
    let source = fixture(&log)
        .arg("--log-drops")
        .with_call_timeout(Duration::from_millis(300));
    let (_connection, toolkit) = toolkit_of(source).await;
    let cut = toolkit.execute("slow", json!({"ms": 60_000})).await;
    assert_eq!(
        cut.output,
        "MCP server `fixture` did not answer `slow` within 300ms"
    );
    // The server's own signal: the call's future was dropped there, before it ended.
    let dropped = [r#"slow {"ms":60000}"#, r#"slow-dropped {"ms":60000}"#];
    tokio::time::timeout(Duration::from_secs(20), async {
        while logged(&log) != dropped {
            tokio::task::yield_now().await;
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await
    .unwrap_or_else(|_| panic!("the server dropped the call: {:?}", logged(&log)));
    assert_eq!(
        toolkit
            .execute("echo", json!({"text": "next"}))
            .await
            .output,
        "next"
    );
}

#[tokio::test]
async fn an_entry_that_is_not_an_mcp_tool_is_left_out_and_the_others_load() {
    // An `inputSchema` that is not a JSON object is not MCP: the SDK cannot read that page as a
    // `tools/list` result, so the client reads it entry by entry.
    let log = log_file("not-json-object.log");
    let (connection, toolkit) = toolkit_of(hostile("not_json_object", &log)).await;
    assert_eq!(toolkit.names().collect::<Vec<_>>(), ["ok_tool"]);
    let skipped = connection.skipped();
    assert_eq!(skipped.len(), 1, "{skipped:?}");
    assert_eq!(
        (skipped[0].server.as_str(), skipped[0].tool.as_str()),
        ("hostile", "array_schema")
    );
    assert_eq!(
        skipped[0].reason,
        "its `inputSchema` is not a JSON object (MCP requires one)"
    );
    assert_eq!(toolkit.execute("ok_tool", json!({})).await.output, "ok");
    assert_eq!(logged(&log), ["\"ok_tool\" {}"]);
}

fn own_tool(name: &'static str) -> toolnexus::NativeTool {
    toolnexus::NativeTool::of(
        name,
        "The application's own.",
        json!({"type": "object"}),
        |_| async { "own" },
    )
    .unwrap()
}

#[tokio::test]
async fn a_live_toolkit_takes_a_changed_list_where_the_old_tools_were() {
    let log = log_file("live.log");
    let connection = hostile("changing", &log).connect().await.unwrap();
    let live = LiveToolkit::new(Toolkit::new().with(own_tool("first")).unwrap());
    live.attach(&connection).unwrap();
    let before = live.current();
    assert_eq!(before.names().collect::<Vec<_>>(), ["first", "add_tool"]);
    assert_eq!(before.to_openai().len(), 2);
    let generation = live.generation();

    assert_eq!(before.execute("add_tool", json!({})).await.output, "added");
    let next = tokio::time::timeout(Duration::from_secs(10), live.changed(generation))
        .await
        .expect("the live toolkit follows the server's list_changed");
    assert!(next > generation);
    let after = live.current();
    assert_eq!(
        after.names().collect::<Vec<_>>(),
        ["first", "add_tool", "new_tool"]
    );
    // The new toolkit renders its own arrays; the one handed out before stays as it was.
    let tools = after.to_openai();
    assert_eq!(tools.len(), 3);
    assert_eq!(tools[2]["function"]["name"], "new_tool");
    assert!(after
        .tools_json_for(Dialect::Anthropic, ToolsOptions::default())
        .get()
        .contains("new_tool"));
    assert_eq!(before.to_openai().len(), 2);
    assert!(!before
        .tools_json_for(Dialect::Anthropic, ToolsOptions::default())
        .get()
        .contains("new_tool"));
    // The new tool is the server's.
    assert_eq!(
        after.execute("new_tool", json!({"x": "1"})).await.output,
        "added"
    );
    assert_eq!(
        logged(&log),
        ["\"add_tool\" {}", "\"new_tool\" {\"x\":\"1\"}"]
    );
    assert_eq!(after.execute("first", json!({})).await.output, "own");
    assert!(live.skipped().is_empty(), "{:?}", live.skipped());
}

#[tokio::test]
async fn a_call_in_flight_finishes_while_the_live_toolkit_changes() {
    let log = log_file("in-flight.log");
    let connection = hostile("in_flight", &log).connect().await.unwrap();
    let live = LiveToolkit::new(Toolkit::new());
    live.attach(&connection).unwrap();
    let generation = live.generation();
    let started = live.current();
    let call = tokio::spawn(async move { started.execute("slow_tool", json!({})).await });

    tokio::time::timeout(Duration::from_secs(10), live.changed(generation))
        .await
        .expect("the list changes while the call runs");
    assert!(!call.is_finished(), "the call was still running");
    assert_eq!(
        live.current().names().collect::<Vec<_>>(),
        ["slow_tool", "new_tool"]
    );
    let result = call.await.unwrap();
    assert_eq!(
        (result.output.as_str(), result.is_error),
        ("finished", false)
    );
    assert_eq!(logged(&log), ["\"slow_tool\" {}"]);
}

#[tokio::test]
async fn a_changed_list_with_a_name_the_toolkit_has_leaves_that_tool_out() {
    let log = log_file("live-clash.log");
    let connection = hostile("changing", &log).connect().await.unwrap();
    let live = LiveToolkit::new(Toolkit::new().with(own_tool("new_tool")).unwrap());
    live.attach(&connection).unwrap();
    // Attaching again: every name is taken, nothing changes.
    let err = live.attach(&connection).unwrap_err();
    assert!(
        matches!(&err, McpError::NameTaken { tool, .. } if tool == "add_tool"),
        "{err}"
    );
    let generation = live.generation();
    assert_eq!(
        live.current().execute("add_tool", json!({})).await.output,
        "added"
    );
    tokio::time::timeout(Duration::from_secs(10), live.changed(generation))
        .await
        .expect("the list changes");
    let toolkit = live.current();
    assert_eq!(
        toolkit.names().collect::<Vec<_>>(),
        ["new_tool", "add_tool"]
    );
    assert_eq!(toolkit.execute("new_tool", json!({})).await.output, "own");
    let skipped = live.skipped();
    assert_eq!(skipped.len(), 1, "{skipped:?}");
    assert_eq!(
        (skipped[0].server.as_str(), skipped[0].tool.as_str()),
        ("hostile", "new_tool")
    );
    assert!(skipped[0]
        .reason
        .contains("taken by another tool of the toolkit"));
}

#[tokio::test]
async fn titles_and_hints_go_both_ways_through_our_server_and_client() {
    toolnexus_mcp_tests::http_client_ready();
    let hinted = own_tool("lookup")
        .with_title("Dictionary lookup")
        .with_hints(ToolHints::new().with_read_only(true).with_open_world(false));
    let toolkit = Toolkit::new()
        .with(hinted)
        .unwrap()
        .with(own_tool("plain"))
        .unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    let serving = tokio::spawn(McpServer::new(toolkit).serve_http(listener));

    let (_connection, toolkit) = toolkit_of(McpSource::http("served", &url)).await;
    let lookup = toolkit.get("lookup").unwrap();
    assert_eq!(lookup.title(), Some("Dictionary lookup"));
    // Served from a `#[tool]`-like native tool, it reaches this side as an MCP server's tool.
    assert_eq!(lookup.source(), ToolSource::Mcp);
    assert_eq!(lookup.source().as_str(), "mcp");
    let hints = lookup.hints();
    assert_eq!(
        (
            hints.read_only,
            hints.destructive,
            hints.idempotent,
            hints.open_world
        ),
        (Some(true), None, None, Some(false))
    );
    // A tool without any: no `annotations`, and nothing invented on the way back.
    let plain = toolkit.get("plain").unwrap();
    assert_eq!(plain.title(), None);
    assert!(plain.hints().is_empty());
    assert_eq!(toolkit.execute("lookup", json!({})).await.output, "own");
    serving.abort();
}

#[tokio::test]
async fn a_server_that_hangs_or_exits_leaves_the_other_tools_of_the_turn_unaffected() {
    let log = log_file("unaffected.log");
    let fixture_log = log_file("unaffected-fixture.log");
    let hanging = hostile("hang", &log)
        .with_prefix("hang_")
        .with_call_timeout(Duration::from_millis(500))
        .connect()
        .await
        .unwrap();
    let exiting = hostile("exit", &log)
        .with_prefix("exit_")
        .connect()
        .await
        .unwrap();
    let fine = fixture(&fixture_log).connect().await.unwrap();
    let mut toolkit = Toolkit::new().with(own_tool("own")).unwrap();
    for connection in [&hanging, &exiting, &fine] {
        connection.add_to(&mut toolkit).unwrap();
    }
    let response = json!({"role": "assistant", "stop_reason": "tool_use", "content": [
        {"type": "tool_use", "id": "t1", "name": "hang_call_me", "input": {}},
        {"type": "tool_use", "id": "t2", "name": "exit_call_me", "input": {}},
        {"type": "tool_use", "id": "t3", "name": "echo", "input": {"text": "still here"}},
        {"type": "tool_use", "id": "t4", "name": "own", "input": {}}]});
    let turn = tokio::time::timeout(
        Duration::from_secs(20),
        toolkit.respond(&response, toolnexus::Dialect::Anthropic),
    )
    .await
    .expect("the turn ends within the call timeouts")
    .unwrap();
    let results: Vec<(&str, bool)> = turn
        .results
        .iter()
        .map(|r| (r.output.as_str(), r.is_error))
        .collect();
    assert_eq!(
        results[0],
        (
            "MCP server `hostile` did not answer `call_me` within 500ms",
            true
        )
    );
    assert!(
        results[1].1 && results[1].0.contains("MCP server `hostile`"),
        "{results:?}"
    );
    assert_eq!(&results[2..], [("still here", false), ("own", false)]);
    assert_eq!(logged(&fixture_log), [r#"echo {"text":"still here"}"#]);
    // The server that is still up keeps answering after the others failed.
    let again = toolkit.execute("echo", json!({"text": "again"})).await;
    assert_eq!((again.output.as_str(), again.is_error), ("again", false));
    assert!(exiting.is_closed());
}

/// The handshake asks for the newest protocol version that has one (rmcp's default is the
/// newest of all, 2026-07-28, which has no `initialize`), declares no capability the client
/// does not answer, and names the host's product, or toolnexus by default.
#[tokio::test]
async fn the_handshake_asks_for_a_version_with_initialize_and_names_the_host() {
    let sent = |log: &Path| -> serde_json::Value {
        let lines = logged(log);
        assert_eq!(lines.len(), 1, "{lines:?}");
        serde_json::from_str(&lines[0]).unwrap()
    };
    let log = log_file("handshake-default.log");
    let connection = hostile("handshake", &log).connect().await.unwrap();
    drop(connection);
    let params = sent(&log);
    assert_eq!(params["protocolVersion"], "2025-11-25");
    assert_eq!(params["capabilities"], json!({}));
    assert_eq!(
        params["clientInfo"],
        json!({"name": "toolnexus", "version": toolnexus_version()})
    );

    let log = log_file("handshake-named.log");
    let connection = hostile("handshake", &log)
        .with_client_name("acme-agent", "4.2.0")
        .connect()
        .await
        .unwrap();
    drop(connection);
    assert_eq!(
        sent(&log)["clientInfo"],
        json!({"name": "acme-agent", "version": "4.2.0"})
    );
}

/// The runtime crate's version, from the workspace's manifest (this test crate has its own).
fn toolnexus_version() -> String {
    let manifest = include_str!("../../../Cargo.toml");
    let package = &manifest[manifest.find("[workspace.package]").unwrap()..];
    let line = package
        .lines()
        .find(|line| line.starts_with("version = "))
        .unwrap();
    line["version = ".len()..].trim_matches('"').to_owned()
}

/// A server that asks for OAuth and an authorization server that knows this client, on one
/// port, answering by path (`metadata`: whether the protected-resource metadata is there).
/// Every request's first line goes to the returned list.
async fn oauth_server(metadata: bool) -> (String, std::sync::Arc<std::sync::Mutex<Vec<String>>>) {
    let seen = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let log = seen.clone();
    let base = toolnexus_mcp_tests::scripted_http(move |at| {
        move |_, request: &str| {
            log.lock()
                .unwrap()
                .push(request.lines().next().unwrap_or_default().to_owned());
            let (path, _) = toolnexus_mcp_tests::target(request);
            match path.as_str() {
                "/mcp" => (
                    "401 Unauthorized",
                    format!(
                        "WWW-Authenticate: Bearer resource_metadata=\"{at}/.well-known/oauth-protected-resource/mcp\"\r\n"
                    ),
                    String::new(),
                ),
                "/.well-known/oauth-protected-resource/mcp" if metadata => (
                    "200 OK",
                    String::new(),
                    json!({"resource": format!("{at}/mcp"), "authorization_servers": [at]})
                        .to_string(),
                ),
                "/.well-known/oauth-authorization-server" if metadata => (
                    "200 OK",
                    String::new(),
                    toolnexus_mcp_tests::authorization_metadata(&at),
                ),
                "/register" if metadata => (
                    "201 Created",
                    String::new(),
                    json!({"client_id": "registered-client",
                        "redirect_uris": ["http://127.0.0.1:9/callback"]})
                    .to_string(),
                ),
                _ => ("404 Not Found", String::new(), String::new()),
            }
        }
    })
    .await;
    (base, seen)
}

/// OAuth's bad input: a server whose challenge leads nowhere is an error naming discovery, and
/// the user is never asked; a user who declines ends the connect with what the host's handler
/// said, after one authorization URL that asks for PKCE (S256) for this resource.
#[tokio::test]
async fn oauth_that_cannot_finish_is_an_error_naming_where_and_the_user_is_asked_at_most_once() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;
    use toolnexus::mcp::OAuth;
    toolnexus_mcp_tests::http_client_ready();

    let asked = Arc::new(AtomicUsize::new(0));
    let declining = |asked: Arc<AtomicUsize>, urls: Arc<std::sync::Mutex<Vec<String>>>| {
        OAuth::new("http://127.0.0.1:9/callback", move |url| {
            asked.fetch_add(1, Ordering::SeqCst);
            urls.lock().unwrap().push(url);
            async { Err("the user declined".to_owned()) }
        })
    };

    let (base, _) = oauth_server(false).await;
    let urls = Arc::new(std::sync::Mutex::new(Vec::new()));
    let err = McpSource::http("no-metadata", format!("{base}/mcp"))
        .with_oauth(declining(asked.clone(), urls.clone()))
        .connect()
        .await
        .unwrap_err()
        .to_string();
    assert!(err.contains("OAuth discovery"), "{err}");
    assert_eq!(
        asked.load(Ordering::SeqCst),
        0,
        "nobody to ask without metadata"
    );

    let (base, requests) = oauth_server(true).await;
    let err = McpSource::http("declined", format!("{base}/mcp"))
        .with_oauth(declining(asked.clone(), urls.clone()))
        .connect()
        .await
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("OAuth authorization") && err.contains("the user declined"),
        "{err}"
    );
    assert_eq!(asked.load(Ordering::SeqCst), 1);
    let url = urls.lock().unwrap()[0].clone();
    assert!(url.starts_with(&format!("{base}/authorize?")), "{url}");
    for part in [
        "code_challenge_method=S256",
        "code_challenge=",
        "client_id=registered-client",
        "response_type=code",
        "state=",
        "resource=",
    ] {
        assert!(url.contains(part), "{part} in {url}");
    }
    let requests = requests.lock().unwrap().clone();
    assert!(
        requests.iter().any(|r| r.starts_with("POST /register")),
        "{requests:?}"
    );
    assert!(
        !requests.iter().any(|r| r.starts_with("POST /token")),
        "no code, no token request: {requests:?}"
    );
}

/// Our server as an OAuth resource server, our client authorizing against it: the client finds
/// the authorization server from the server's `401` alone, asks for a token for this resource,
/// and calls a tool with it; no token, a token the verifier does not know, and a token for
/// another resource are each refused at the handshake, with the challenge in the error.
#[tokio::test]
async fn our_client_authorizes_against_our_resource_server_and_tokens_for_elsewhere_are_refused() {
    use toolnexus::mcp::{Grant, HttpOptions, OAuth, ResourceServer};
    toolnexus_mcp_tests::http_client_ready();
    let (issuer, forms) = toolnexus_mcp_tests::authorization_server().await;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    let resource = url.clone();
    let verifier = ResourceServer::new(url.clone(), issuer.clone(), move |token| {
        let resource = resource.clone();
        async move {
            if token.starts_with("tok-") {
                Some(Grant::new(resource, ["tools"]).with_subject("alice"))
            } else if token == "for-elsewhere" {
                Some(Grant::new("http://127.0.0.1:1/mcp", ["tools"]))
            } else {
                None
            }
        }
    })
    .with_scopes(["tools"]);
    let service = McpServer::new(Toolkit::new().with(own_tool("lookup")).unwrap())
        .http_service(HttpOptions::new().with_resource_server(verifier));
    let serving = tokio::spawn(service.serve(listener));

    // The metadata, as any client reads it.
    let metadata: serde_json::Value = reqwest::get(format!(
        "{}/.well-known/oauth-protected-resource/mcp",
        url.trim_end_matches("/mcp")
    ))
    .await
    .unwrap()
    .json()
    .await
    .unwrap();
    assert_eq!(
        metadata,
        json!({"resource": url, "authorization_servers": [issuer],
            "bearer_methods_supported": ["header"], "scopes_supported": ["tools"]})
    );

    let consent = OAuth::new("http://127.0.0.1:9/cb", |url| async move {
        let client = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .unwrap();
        let answer = client.get(&url).send().await.map_err(|e| e.to_string())?;
        Ok(answer.headers()["location"].to_str().unwrap().to_owned())
    });
    let (_connection, toolkit) =
        toolkit_of(McpSource::http("guarded", &url).with_oauth(consent)).await;
    assert_eq!(toolkit.execute("lookup", json!({})).await.output, "own");
    let forms = forms.lock().unwrap().clone();
    assert_eq!(forms.len(), 1, "one token: {forms:?}");
    let resource_param = format!("resource={}", url.replace(':', "%3A").replace('/', "%2F"));
    assert!(forms[0].contains(&resource_param), "{forms:?}");

    for (header, why) in [
        (None, "no token"),
        (Some("Bearer forged"), "a token the verifier does not know"),
        (Some("Bearer for-elsewhere"), "a token for another resource"),
    ] {
        let mut source = McpSource::http("no-entry", &url);
        if let Some(header) = header {
            source = source.header("authorization", header);
        }
        let err = source.connect().await.unwrap_err().to_string();
        assert!(
            err.starts_with(
                "MCP server `no-entry` failed the handshake: the server asks for authorization"
            ) && err.contains("resource_metadata=")
                && err.contains("McpSource::with_oauth"),
            "{why}: {err}"
        );
    }
    let refused = reqwest::Client::new()
        .post(&url)
        .header("authorization", "Bearer for-elsewhere")
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status(), 401);
    let challenge = refused.headers()["www-authenticate"].to_str().unwrap();
    assert!(
        challenge.contains(&format!(
            "resource_metadata=\"{}/.well-known/oauth-protected-resource/mcp\"",
            url.trim_end_matches("/mcp")
        )) && challenge.contains("error=\"invalid_token\""),
        "{challenge}"
    );
    serving.abort();
}
