//! What goes over the wire, seen from the other side: the headers our HTTP client sends (through
//! a recording proxy in front of our server), and the pages our server's `tools/list` gives a
//! plain JSON-RPC client by default.

use std::io::{BufRead, BufReader, Write};
use std::sync::{Arc, Mutex};

use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use toolnexus::mcp::{McpSource, DEFAULT_PAGE_SIZE};
use toolnexus_mcp_tests::{fixture_over_http, log_file, Child};

const FIXTURE: &str = env!("CARGO_BIN_EXE_fixture_server");

/// A TCP proxy on 127.0.0.1 in front of `upstream` (`host:port`) that records the first bytes
/// of each connection (the head of its first request); its address and the records.
async fn recording_proxy(upstream: String) -> (String, Arc<Mutex<Vec<String>>>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    let heads = Arc::new(Mutex::new(Vec::new()));
    let recorded = Arc::clone(&heads);
    tokio::spawn(async move {
        while let Ok((mut client, _)) = listener.accept().await {
            let upstream = upstream.clone();
            let heads = Arc::clone(&recorded);
            tokio::spawn(async move {
                let mut server = tokio::net::TcpStream::connect(&upstream).await.unwrap();
                let mut first = vec![0; 64 * 1024];
                let n = client.read(&mut first).await.unwrap_or(0);
                heads
                    .lock()
                    .unwrap()
                    .push(String::from_utf8_lossy(&first[..n]).into_owned());
                if server.write_all(&first[..n]).await.is_ok() {
                    let _ = tokio::io::copy_bidirectional(&mut client, &mut server).await;
                }
            });
        }
    });
    (addr, heads)
}

#[tokio::test]
async fn the_headers_of_a_source_reach_the_server_with_every_connection() {
    toolnexus_mcp_tests::http_client_ready();
    let log = log_file("wire-headers.log");
    let (url, _server) = fixture_over_http(FIXTURE, &log, &[]);
    let upstream = url
        .trim_start_matches("http://")
        .trim_end_matches("/mcp")
        .to_owned();
    let (proxy, heads) = recording_proxy(upstream).await;
    let connection = McpSource::http("proxied", format!("http://{proxy}/mcp"))
        .header("authorization", "Bearer test-token")
        .header("x-tenant", "acme")
        .connect()
        .await
        .unwrap();
    let mut toolkit = toolnexus::Toolkit::new();
    connection.add_to(&mut toolkit).unwrap();
    let said = toolkit.execute("echo", json!({"text": "via proxy"})).await;
    assert_eq!(said.output, "via proxy");

    let heads = heads.lock().unwrap().clone();
    assert!(!heads.is_empty());
    for head in &heads {
        let lower = head.to_ascii_lowercase();
        assert!(
            lower.contains("\r\nauthorization: bearer test-token\r\n")
                && lower.contains("\r\nx-tenant: acme\r\n"),
            "{head}"
        );
    }
    // The first request is the handshake, and it carries them too.
    assert!(heads[0].contains("\"initialize\""), "{}", heads[0]);
}

/// One JSON-RPC exchange over the fixture's stdio: sends `request`, returns the answer.
fn ask(stdin: &mut impl Write, stdout: &mut impl BufRead, request: Value) -> Value {
    writeln!(stdin, "{request}").unwrap();
    stdin.flush().unwrap();
    let mut line = String::new();
    stdout.read_line(&mut line).unwrap();
    serde_json::from_str(&line).unwrap()
}

#[test]
fn our_server_pages_tools_list_by_the_default_page_size() {
    let mut child = std::process::Command::new(FIXTURE)
        .args(["--many", "250"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let _child = Child(child);
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "raw", "version": "0"}}});
    assert!(ask(&mut stdin, &mut stdout, init)["result"].is_object());
    writeln!(
        stdin,
        "{}",
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"})
    )
    .unwrap();

    let mut sizes = Vec::new();
    let mut cursor: Option<String> = None;
    for id in 2.. {
        let params = cursor
            .as_ref()
            .map_or(json!({}), |c| json!({ "cursor": c }));
        let request = json!({"jsonrpc": "2.0", "id": id, "method": "tools/list", "params": params});
        let page = ask(&mut stdin, &mut stdout, request);
        sizes.push(page["result"]["tools"].as_array().unwrap().len());
        cursor = page["result"]["nextCursor"].as_str().map(str::to_owned);
        if cursor.is_none() {
            break;
        }
    }
    assert_eq!(DEFAULT_PAGE_SIZE, 100);
    // 7 tools of its own and 250 extra.
    assert_eq!(sizes, [100, 100, 57]);
}

#[tokio::test]
async fn over_http_a_message_past_max_message_bytes_fails_its_call_at_once() {
    toolnexus_mcp_tests::http_client_ready();
    let big = toolnexus::NativeTool::of(
        "big",
        "Ten thousand bytes.",
        json!({"type": "object"}),
        |_| async { "x".repeat(10_000) },
    )
    .unwrap();
    let small =
        toolnexus::NativeTool::of("small", "A few.", json!({"type": "object"}), |_| async {
            "tiny"
        })
        .unwrap();
    let toolkit = toolnexus::Toolkit::new()
        .with(big)
        .unwrap()
        .with(small)
        .unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    let serving = tokio::spawn(toolnexus::mcp::McpServer::new(toolkit).serve_http(listener));

    let connection = McpSource::http("bounded", &url)
        .with_limits(toolnexus::mcp::McpLimits::default().with_max_message_bytes(4096))
        .with_call_timeout(std::time::Duration::from_secs(600))
        .connect()
        .await
        .unwrap();
    let mut toolkit = toolnexus::Toolkit::new();
    connection.add_to(&mut toolkit).unwrap();
    let refused = tokio::time::timeout(
        std::time::Duration::from_secs(60),
        toolkit.execute("big", json!({})),
    )
    .await
    .expect("refused without waiting for the call timeout");
    assert!(refused.is_error);
    assert!(
        refused
            .output
            .starts_with("MCP server `bounded` could not run `big`: ")
            && refused.output.contains("McpLimits::max_message_bytes"),
        "{}",
        refused.output
    );
    // The next call is answered.
    assert_eq!(toolkit.execute("small", json!({})).await.output, "tiny");
    serving.abort();
}
