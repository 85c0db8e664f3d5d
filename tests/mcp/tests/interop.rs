//! Both directions against MCP implementations no one here wrote, over stdio: the reference
//! server `@modelcontextprotocol/server-everything` (npm), `mcp-server-time` (PyPI) and a
//! server on the official Python MCP SDK whose tool list changes as sources of tools, and the
//! official Python MCP SDK's client (its OAuth client too, against our resource server) and the
//! MCP Inspector's CLI driving our server. The peers are
//! installed by the repo's scripts (`scripts/mcp_peers.sh`, `scripts/venv.sh`); without node or
//! Python the tests are skipped with one line, and under `CI` they fail instead.

use std::process::Command;

use serde_json::{json, Value};
use toolnexus::mcp::{LiveToolkit, McpConnection, McpSource};
use toolnexus::{Tool, Toolkit, ToolsOptions};
use toolnexus_mcp_tests::{everything, fixture_over_http, log_file, logged, python, root, Child};

#[path = "../../common/mod.rs"]
mod common;

use common::dialects::{self, Call, Fixture};

const FIXTURE: &str = env!("CARGO_BIN_EXE_fixture_server");

/// The address in the preload's `toolnexus: listening on ADDR` line of `stderr`; the rest of
/// `stderr` is read (and dropped) by a thread of its own, so the server never blocks on it.
fn listening_on(stderr: std::process::ChildStderr) -> String {
    use std::io::BufRead;
    let mut lines = std::io::BufReader::new(stderr).lines();
    let addr = lines
        .by_ref()
        .map_while(Result::ok)
        .find_map(|line| {
            line.strip_prefix("toolnexus: listening on ")
                .map(str::to_owned)
        })
        .expect("server-everything says where it listens");
    std::thread::spawn(move || lines.for_each(drop));
    addr
}

async fn connect_everything() -> Option<(McpConnection, Toolkit)> {
    let bin = everything()?;
    let connection = McpSource::stdio("everything", bin)
        .arg("stdio")
        .connect()
        .await
        .expect("server-everything connects over stdio");
    let mut toolkit = Toolkit::new();
    connection.add_to(&mut toolkit).expect("its tools join");
    Some((connection, toolkit))
}

/// server-everything in streamable HTTP mode on a port the system picks (port 0) of 127.0.0.1
/// (the preload keeps it off other interfaces and reports the port it got), connected once it
/// said so.
async fn connect_everything_over_http() -> Option<(McpConnection, Toolkit, Child)> {
    let bin = everything()?;
    toolnexus_mcp_tests::http_client_ready();
    let mut server = std::process::Command::new("node")
        .arg("--import")
        .arg(root().join("tests/mcp/js/loopback.mjs"))
        .arg(bin)
        .arg("streamableHttp")
        .env("PORT", "0")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("node starts server-everything");
    let stderr = server.stderr.take().expect("piped stderr");
    let server = Child(server);
    let addr = listening_on(stderr);
    let url = format!("http://{addr}/mcp");
    let connection = McpSource::http("everything", &url)
        .header("x-toolnexus-test", "1")
        .connect()
        .await
        .unwrap_or_else(|e| panic!("server-everything over HTTP: {e}"));
    let mut toolkit = Toolkit::new();
    connection.add_to(&mut toolkit).expect("its tools join");
    Some((connection, toolkit, server))
}

#[tokio::test]
async fn server_everything_s_tools_run_through_a_toolkit() {
    let Some((connection, toolkit)) = connect_everything().await else {
        return;
    };
    everything_s_tools_run(&connection, &toolkit).await;
}

#[tokio::test]
async fn server_everything_s_tools_run_through_a_toolkit_over_http() {
    let Some((connection, toolkit, _server)) = connect_everything_over_http().await else {
        return;
    };
    everything_s_tools_run(&connection, &toolkit).await;
}

async fn everything_s_tools_run(connection: &McpConnection, toolkit: &Toolkit) {
    let names: Vec<&str> = toolkit.names().collect();
    for expected in [
        "echo",
        "get-sum",
        "get-tiny-image",
        "get-structured-content",
        "get-resource-links",
    ] {
        assert!(
            names.contains(&expected),
            "{expected} missing from {names:?}"
        );
    }
    assert!(
        connection.skipped().is_empty(),
        "left out: {:?}",
        connection.skipped()
    );
    let sum = toolkit.get("get-sum").unwrap();
    assert_eq!(sum.input_schema().as_value()["required"], json!(["a", "b"]));
    let structured = connection
        .tools()
        .into_iter()
        .find(|t| t.name() == "get-structured-content")
        .unwrap();
    assert_eq!(structured.hints().read_only, Some(true));
    assert_eq!(structured.title(), Some("Get Structured Content Tool"));

    let echo = toolkit
        .execute("echo", json!({"message": "hi there"}))
        .await;
    assert_eq!(
        (echo.output.as_str(), echo.is_error),
        ("Echo: hi there", false)
    );

    let sum = toolkit.execute("get-sum", json!({"a": 2, "b": 3})).await;
    assert!(!sum.is_error, "{}", sum.output);
    assert!(sum.output.contains('5'), "{}", sum.output);

    let image = toolkit.execute("get-tiny-image", json!({})).await;
    assert!(!image.is_error, "{}", image.output);
    assert_eq!(image.media.len(), 1);
    assert_eq!(image.media[0].mime_type(), "image/png");
    assert_eq!(&image.media[0].data()[..4], [0x89, b'P', b'N', b'G']);

    let weather = toolkit
        .execute("get-structured-content", json!({"location": "Chicago"}))
        .await;
    assert!(!weather.is_error, "{}", weather.output);
    let structured =
        &weather.metadata.as_ref().expect("structuredContent kept")["structuredContent"];
    assert!(structured["temperature"].is_number(), "{structured}");
    let text: Value = serde_json::from_str(&weather.output).expect("its text part is JSON");
    assert_eq!(&text, structured);

    let links = toolkit
        .execute("get-resource-links", json!({"count": 2}))
        .await;
    assert!(!links.is_error, "{}", links.output);
    let lines: Vec<&str> = links.output.lines().collect();
    assert_eq!(lines.len(), 3, "{}", links.output);
    assert!(
        lines[1].starts_with("Resource: Blob Resource 1 <"),
        "{}",
        lines[1]
    );
    assert!(
        lines[2].starts_with("Resource: Text Resource 2 <"),
        "{}",
        lines[2]
    );

    let bad = toolkit
        .execute("get-sum", json!({"a": "two", "b": 3}))
        .await;
    assert!(bad.is_error, "{}", bad.output);
}

/// A model's response calling `get-sum` and `echo`, in `fixture`'s shape.
fn scripted(fixture: &dyn Fixture) -> Value {
    fixture.response(&[
        Call::new("call_1", "get-sum", json!({"a": 20, "b": 22})),
        Call::new("call_2", "echo", json!({"message": "from the model"})),
    ])
}

#[tokio::test]
async fn a_model_turn_runs_on_server_everything_in_every_dialect() {
    let Some((_connection, toolkit)) = connect_everything().await else {
        return;
    };
    model_turns(&toolkit).await;
}

#[tokio::test]
async fn a_model_turn_runs_on_server_everything_over_http_in_every_dialect() {
    let Some((_connection, toolkit, _server)) = connect_everything_over_http().await else {
        return;
    };
    model_turns(&toolkit).await;
}

async fn model_turns(toolkit: &Toolkit) {
    for fixture in dialects::ALL {
        let dialect = fixture.dialect();
        // The tools array each provider gets holds the server's tools.
        let tools =
            serde_json::to_string(&toolkit.tools_for(dialect, ToolsOptions::default())).unwrap();
        assert!(tools.contains("get-sum"), "{dialect:?}: {tools}");
        let turn = toolkit
            .respond(&scripted(fixture), dialect)
            .await
            .unwrap_or_else(|e| panic!("{dialect:?}: {e}"));
        let outputs: Vec<&str> = turn.results.iter().map(|r| r.output.as_str()).collect();
        assert_eq!(outputs.len(), 2, "{dialect:?}");
        assert!(outputs[0].contains("42"), "{dialect:?}: {outputs:?}");
        assert_eq!(outputs[1], "Echo: from the model", "{dialect:?}");
        // Each call answered in order, under its id, in the provider's envelope.
        let answers = fixture.answers(&turn.result_messages);
        let ids: Vec<Option<&str>> = answers.iter().map(|a| a.id.as_deref()).collect();
        assert_eq!(ids, [Some("call_1"), Some("call_2")], "{dialect:?}");
        assert!(answers[0].text.contains("42"), "{dialect:?}: {answers:?}");
        assert_eq!(answers[1].text, "Echo: from the model", "{dialect:?}");
        assert!(
            answers.iter().all(|a| a.error == Some(false)),
            "{dialect:?}: {answers:?}"
        );
    }
}

#[tokio::test]
async fn a_live_toolkit_follows_the_python_sdk_s_list_changed() {
    let Some(python) = python() else {
        return;
    };
    let connection = McpSource::stdio("py-changing", python)
        .arg(root().join("tests/mcp/py/changing_server.py"))
        .connect()
        .await
        .expect("the Python SDK's server connects over stdio");
    let live = LiveToolkit::new(Toolkit::new());
    live.attach(&connection).unwrap();
    let first = live.current();
    assert_eq!(first.names().collect::<Vec<_>>(), ["grow"]);
    let generation = live.generation();

    assert_eq!(first.execute("grow", json!({})).await.output, "grown");
    tokio::time::timeout(std::time::Duration::from_secs(20), live.changed(generation))
        .await
        .expect("the SDK's notifications/tools/list_changed reaches the live toolkit");
    let next = live.current();
    assert_eq!(next.names().collect::<Vec<_>>(), ["grow", "late_tool"]);
    let late = next.get("late_tool").unwrap();
    assert_eq!(
        late.description(),
        "A tool that joins after the first call."
    );
    assert_eq!(late.input_schema().as_value()["required"], json!(["word"]));
    assert_eq!(
        next.execute("late_tool", json!({"word": "hello"}))
            .await
            .output,
        "late hello"
    );
    assert!(first.get("late_tool").is_none());
}

#[tokio::test]
async fn mcp_server_time_s_tools_run_through_a_toolkit() {
    let Some(python) = python() else {
        return;
    };
    let bin = python.with_file_name("mcp-server-time");
    let connection = McpSource::stdio("time", bin)
        .arg("--local-timezone=UTC")
        .connect()
        .await
        .expect("mcp-server-time connects over stdio");
    let mut toolkit = Toolkit::new();
    connection.add_to(&mut toolkit).unwrap();
    assert_eq!(
        toolkit.names().collect::<Vec<_>>(),
        ["get_current_time", "convert_time"]
    );
    assert!(
        connection.skipped().is_empty(),
        "{:?}",
        connection.skipped()
    );

    let now = toolkit
        .execute("get_current_time", json!({"timezone": "Asia/Tokyo"}))
        .await;
    assert!(!now.is_error, "{}", now.output);
    let now: Value = serde_json::from_str(&now.output).expect("JSON text");
    assert_eq!(now["timezone"], "Asia/Tokyo");

    let converted = toolkit
        .execute(
            "convert_time",
            json!({"source_timezone": "UTC", "time": "12:00", "target_timezone": "Asia/Tokyo"}),
        )
        .await;
    assert!(!converted.is_error, "{}", converted.output);
    assert!(converted.output.contains("21:00"), "{}", converted.output);

    let bad = toolkit
        .execute("get_current_time", json!({"timezone": "Nowhere/Atlantis"}))
        .await;
    assert!(bad.is_error, "{}", bad.output);
}

#[test]
fn the_python_sdk_s_client_drives_our_server_over_stdio() {
    let Some(python) = python() else {
        return;
    };
    let log = log_file("python-client.log");
    let mut command = Command::new(python);
    command
        .arg(FIXTURE)
        .args(["--many", "30", "--page-size", "10", "--log"])
        .arg(&log);
    python_drives(command, &log);
}

#[test]
fn the_python_sdk_s_client_drives_our_server_over_http() {
    let Some(python) = python() else {
        return;
    };
    let log = log_file("python-client-http.log");
    let (url, _server) = fixture_over_http(FIXTURE, &log, &["--many", "30", "--page-size", "10"]);
    let mut command = Command::new(python);
    command.arg(url);
    python_drives(command, &log);
}

/// Runs drive_server.py (its first argument already given: a program or a URL), then checks
/// its report and the server's call log.
fn python_drives(command: Command, log: &std::path::Path) {
    let script = root().join("tests/mcp/py/drive_server.py");
    let args: Vec<_> = command.get_args().map(ToOwned::to_owned).collect();
    let mut run = Command::new(command.get_program());
    run.arg(script).args(args);
    let out = run.output().expect("the venv's python runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "drive_server.py failed:\n{}\n{stdout}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: Value = serde_json::from_str(&stdout).expect("a JSON report");
    // Over HTTP the client ends its session with a DELETE on the way out: answered so that it
    // closes without a warning (rmcp's 202 made it log "Session termination failed: 202").
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("Session termination failed"), "{stderr}");

    assert_eq!(report["server"], "toolnexus");
    assert_eq!(report["tools_capability"], true);
    assert_eq!(report["pages"], 4);
    let names = report["names"].as_array().unwrap();
    assert_eq!(names.len(), 37);
    assert_eq!(names[0], "echo");
    assert_eq!(names[36], "extra_29");
    assert_eq!(report["echo_tool"]["description"], "Echoes the text back.");
    assert_eq!(
        report["echo_tool"]["inputSchema"]["required"],
        json!(["text"])
    );
    // A tool's title and hints, as the SDK's own `Tool` type read them; none where none given.
    // The title is in `annotations.title` too, for clients of protocol 2025-03-26.
    assert_eq!(report["extra_0_tool"]["title"], "Extra 0");
    assert_eq!(
        report["extra_0_tool"]["annotations"],
        json!({"title": "Extra 0", "readOnlyHint": true, "idempotentHint": true})
    );
    assert_eq!(report["echo_tool"].get("title"), None);
    assert_eq!(report["echo_tool"].get("annotations"), None);

    let text = |key: &str| report[key]["content"][0]["text"].clone();
    assert_eq!(text("echo"), "hello");
    assert_eq!(text("add"), "42");
    assert_eq!(report["chart"]["content"][1]["type"], "image");
    assert_eq!(report["chart"]["content"][1]["data"], "iVBORw==");
    assert_eq!(report["report"]["content"][0]["type"], "resource");
    assert_eq!(
        report["report"]["content"][0]["resource"]["blob"],
        "JVBERi0xLjc="
    );
    assert_eq!(
        report["report"]["content"][0]["resource"]["mimeType"],
        "application/pdf"
    );
    assert_eq!(
        report["fail"],
        json!({"is_error": true, "content": [{"type": "text", "text": "failed: on purpose"}]})
    );
    assert_eq!(report["bad_arguments"]["is_error"], true);
    assert!(text("bad_arguments")
        .as_str()
        .unwrap()
        .starts_with("invalid arguments for `add`"));
    assert_eq!(report["unknown"]["code"], -32602);
    assert!(report["unknown"]["message"]
        .as_str()
        .unwrap()
        .starts_with("Unknown tool: no_such_tool."));
    let concurrent: Vec<String> = (0..20).map(|i| format!("concurrent {i}")).collect();
    assert_eq!(report["concurrent"], json!(concurrent));
    assert_eq!(report["boom"]["is_error"], true);
    assert_eq!(
        text("boom"),
        "tool `boom` panicked; it could not complete this call"
    );
    assert_eq!(text("after_boom"), "still here");

    // What the tools received, and how often: bad arguments and the unknown tool ran nothing.
    let calls = logged(log);
    let mut expected = vec![
        r#"echo {"text":"hello"}"#.to_owned(),
        r#"add {"a":2,"b":40}"#.to_owned(),
        "chart {}".to_owned(),
        "report {}".to_owned(),
        r#"fail {"reason":"on purpose"}"#.to_owned(),
    ];
    let mut concurrent_calls: Vec<String> = calls[5..25].to_vec();
    concurrent_calls.sort();
    let mut wanted: Vec<String> = (0..20)
        .map(|i| format!(r#"echo {{"text":"concurrent {i}"}}"#))
        .collect();
    wanted.sort();
    assert_eq!(concurrent_calls, wanted);
    expected.extend(calls[5..25].iter().cloned());
    expected.push("boom {}".to_owned());
    expected.push(r#"echo {"text":"still here"}"#.to_owned());
    assert_eq!(calls, expected);
}

/// The MCP Inspector's CLI (`@modelcontextprotocol/inspector`, npm) on `url`, with `args`; its
/// JSON output. Its catalog and storage go to a directory of this test, not the user's home.
fn inspector(url: &str, args: &[&str]) -> Value {
    let bin = everything()
        .expect("node is there")
        .with_file_name("mcp-inspector");
    let home = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("inspector-home");
    std::fs::create_dir_all(&home).unwrap();
    let out = Command::new("node")
        .arg(bin)
        .arg("--cli")
        .arg(url)
        .args(args)
        .env("HOME", &home)
        .env("MCP_CATALOG_PATH", home.join("mcp.json"))
        .output()
        .expect("node runs the Inspector's CLI");
    assert!(
        out.status.success(),
        "the Inspector's CLI failed: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("the Inspector's CLI prints JSON")
}

#[test]
fn the_mcp_inspector_s_cli_lists_and_calls_our_server_over_http() {
    if everything().is_none() {
        return;
    }
    let log = log_file("inspector-http.log");
    let (url, _server) = fixture_over_http(FIXTURE, &log, &[]);
    let listed = inspector(&url, &["--method", "tools/list"]);
    let tools = listed["tools"].as_array().expect("a tools list");
    assert_eq!(tools[0]["name"], "echo", "{listed}");
    assert_eq!(tools[0]["inputSchema"]["required"], json!(["text"]));
    let called = inspector(
        &url,
        &[
            "--method",
            "tools/call",
            "--tool-name",
            "echo",
            "--tool-arg",
            "text=from the inspector",
        ],
    );
    assert_eq!(called["isError"], false, "{called}");
    assert_eq!(called["content"][0]["text"], "from the inspector");
    // The call reached the tool, once, with what the Inspector sent.
    assert_eq!(
        logged(&log),
        [r#"echo {"text":"from the inspector"}"#.to_owned()]
    );
}

/// Our server as an OAuth resource server, found and used by the official Python SDK's OAuth
/// client (`OAuthClientProvider`) from our `401` alone: it reads our protected-resource
/// metadata, registers with the authorization server named there, asks for a token for this
/// resource, and lists and calls our tools with it.
#[tokio::test(flavor = "multi_thread")]
async fn the_python_sdk_s_oauth_client_finds_and_uses_our_resource_server() {
    use toolnexus::mcp::{Grant, HttpOptions, McpServer, ResourceServer};
    let Some(python) = python() else {
        return;
    };
    let (issuer, forms) = toolnexus_mcp_tests::authorization_server().await;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    let resource = url.clone();
    let guarded = ResourceServer::new(url.clone(), issuer.clone(), move |token| {
        let resource = resource.clone();
        async move {
            token
                .starts_with("tok-")
                .then(|| Grant::new(resource, ["tools"]))
        }
    })
    .with_scopes(["tools"]);
    let lookup = toolnexus::NativeTool::of(
        "lookup",
        "Looks up.",
        json!({"type": "object"}),
        |_| async { "found" },
    )
    .unwrap();
    let service = McpServer::new(Toolkit::new().with(lookup).unwrap())
        .http_service(HttpOptions::new().with_resource_server(guarded));
    let serving = tokio::spawn(service.serve(listener));

    let out = tokio::process::Command::new(python)
        .arg(root().join("tests/mcp/py/oauth_client.py"))
        .arg(&url)
        .output()
        .await
        .expect("the venv's python runs");
    serving.abort();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "oauth_client.py failed:\n{}\n{stdout}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: Value = serde_json::from_str(&stdout).expect("a JSON report");
    assert_eq!(report["tools"], json!(["lookup"]));
    assert_eq!(report["lookup"], json!(["found"]));
    assert!(report["token"].as_str().unwrap().starts_with("tok-"));
    let authorization = report["authorization_url"].as_str().unwrap();
    assert!(
        authorization.starts_with(&format!("{issuer}/authorize?")),
        "{authorization}"
    );
    assert!(authorization.contains("code_challenge_method=S256"));
    // The token was asked for this resource (RFC 8707).
    let forms = forms.lock().unwrap().clone();
    let resource_param = format!("resource={}", url.replace(':', "%3A").replace('/', "%2F"));
    assert!(
        forms.iter().any(|f| f.contains(&resource_param)),
        "{forms:?}"
    );
}
