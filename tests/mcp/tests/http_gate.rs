//! Our HTTP server is secure by default, attacked with a raw HTTP client: a foreign `Origin`
//! (a web page's request) and `Origin: null` are refused with 403 and no tool runs; a loopback
//! origin and an allowed one pass; a foreign `Host` (DNS rebinding) is refused unless
//! `HttpOptions::with_allowed_hosts` names it.

use serde_json::json;
use toolnexus_mcp_tests::raw::{self, initialize, post, session};
use toolnexus_mcp_tests::{fixture_over_http, log_file, logged};

const SERVER: &str = env!("CARGO_BIN_EXE_bounded_server");

#[tokio::test]
async fn foreign_origins_are_refused_and_the_tool_never_runs() {
    let log = log_file("gate-origin.log");
    let (url, _server) = fixture_over_http(
        SERVER,
        &log,
        &["--allowed-origin", "https://app.example.com"],
    );
    for origin in [
        "http://evil.example",
        "null",
        "https://app.example.com:8443",
    ] {
        let (reply, session) = initialize(&url, &[("Origin", origin)]).await;
        assert_eq!(reply.status, 403, "{origin}: {reply:?}");
        assert!(reply.body.contains("Origin"), "{}", reply.body);
        assert_eq!(session, None, "{origin}: no session is made");
    }

    // A session made without an Origin, then a call from a foreign page in it: refused too.
    let id = session(&url).await;
    let call = raw::call(2, "echo", &json!({"text": "pwned"}));
    let mut headers = raw::MCP_POST.to_vec();
    headers.extend([
        ("Mcp-Session-Id", id.as_str()),
        ("Origin", "http://evil.example"),
    ]);
    let reply = raw::send(&url, "POST", &headers, &call).await;
    assert_eq!(reply.status, 403, "{reply:?}");
    assert!(logged(&log).is_empty(), "no tool ran: {:?}", logged(&log));

    // The same call without a foreign Origin runs.
    let reply = post(&url, Some(&id), &call).await;
    assert_eq!(reply.status, 200, "{reply:?}");
    assert!(reply.body.contains("pwned"), "{}", reply.body);
    assert_eq!(logged(&log), ["echo"]);

    // Loopback origins (a local dev page) and the allowed one pass.
    for origin in [
        "http://localhost:5173",
        "http://127.0.0.1:3000",
        "https://app.example.com",
        "https://app.example.com:443",
    ] {
        let (reply, session) = initialize(&url, &[("Origin", origin)]).await;
        assert_eq!(reply.status, 200, "{origin}: {reply:?}");
        assert!(session.is_some(), "{origin}");
    }
}

#[tokio::test]
async fn a_foreign_host_is_refused_unless_allowed() {
    let log = log_file("gate-host.log");
    let (url, _server) = fixture_over_http(SERVER, &log, &["--allowed-host", "mcp.internal"]);
    let port = raw::authority(&url).rsplit(':').next().unwrap().to_owned();
    for host in [
        "evil.example",
        "localhost.evil.example",
        "mcp.internal.evil.example",
    ] {
        let (reply, session) = initialize(&url, &[("Host", host)]).await;
        assert_eq!(reply.status, 403, "{host}: {reply:?}");
        assert!(reply.body.contains("Host"), "{}", reply.body);
        assert_eq!(session, None);
    }
    let allowed = format!("mcp.internal:{port}");
    for host in [allowed.as_str(), "localhost", "127.0.0.1"] {
        let (reply, session) = initialize(&url, &[("Host", host)]).await;
        assert_eq!(reply.status, 200, "{host}: {reply:?}");
        assert!(session.is_some(), "{host}");
    }
    assert!(logged(&log).is_empty());
}

#[tokio::test]
async fn without_options_only_loopback_hosts_pass() {
    let log = log_file("gate-default.log");
    let (url, _server) = fixture_over_http(SERVER, &log, &[]);
    let (reply, _) = initialize(&url, &[("Host", "mcp.internal")]).await;
    assert_eq!(reply.status, 403, "{reply:?}");
    let (reply, _) = initialize(&url, &[("Origin", "http://evil.example")]).await;
    assert_eq!(reply.status, 403, "{reply:?}");
    let (reply, session) = initialize(&url, &[]).await;
    assert_eq!(reply.status, 200, "{reply:?}");
    assert!(session.is_some());
}

#[tokio::test]
async fn stateless_json_mode_serves_a_call_without_a_session() {
    let log = log_file("gate-stateless.log");
    let (url, _server) = fixture_over_http(SERVER, &log, &["--stateless", "--json-response"]);
    let (reply, session) = initialize(&url, &[]).await;
    assert_eq!(reply.status, 200, "{reply:?}");
    assert_eq!(session, None, "no session in stateless mode");
    // A call on its own, no session, answered as plain JSON.
    let reply = post(&url, None, &raw::call(2, "echo", &json!({"text": "alone"}))).await;
    assert_eq!(reply.status, 200, "{reply:?}");
    assert_eq!(reply.header("content-type"), Some("application/json"));
    let answer: serde_json::Value = serde_json::from_str(&reply.body).expect("a JSON body");
    assert_eq!(answer["result"]["content"][0]["text"], "alone");
    // The checks hold in stateless mode too.
    let mut headers = raw::MCP_POST.to_vec();
    headers.push(("Origin", "http://evil.example"));
    let call = raw::call(3, "echo", &json!({"text": "pwned"}));
    let reply = raw::send(&url, "POST", &headers, &call).await;
    assert_eq!(reply.status, 403, "{reply:?}");
    assert_eq!(logged(&log), ["echo"]);
}
