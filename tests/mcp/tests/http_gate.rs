//! Our HTTP server is secure by default, attacked with a raw HTTP client: a foreign `Origin`
//! (a web page's request) and `Origin: null` are refused with 403 and no tool runs; a loopback
//! origin and an allowed one pass; a foreign `Host` (DNS rebinding) is refused unless
//! `HttpOptions::with_allowed_hosts` names it, and so is one with userinfo or a second `Host`;
//! a `DELETE` of a session it never issued is 404.

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
    // Userinfo before a loopback or allowed name: a Host never carries it, and no check of a
    // name before `@` may pass it.
    let tricks = [
        format!("127.0.0.1:{port}@evil.example"),
        format!("localhost:{port}@evil.example"),
        format!("mcp.internal:{port}@evil.example"),
        format!("evil.example@127.0.0.1:{port}"),
    ];
    for host in &tricks {
        let (reply, session) = initialize(&url, &[("Host", host)]).await;
        assert_eq!(reply.status, 403, "{host}: {reply:?}");
        assert_eq!(session, None);
    }
    // Two Host headers, the first one allowed: which one a proxy reads is anyone's guess.
    let loopback = format!("127.0.0.1:{port}");
    let (reply, session) = initialize(&url, &[("Host", &loopback), ("Host", "evil.example")]).await;
    assert!(reply.status == 400 || reply.status == 403, "{reply:?}");
    assert_eq!(session, None);
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

#[tokio::test]
async fn a_delete_of_an_unknown_session_is_404_and_of_a_real_one_200() {
    let log = log_file("gate-delete.log");
    let (url, _server) = fixture_over_http(SERVER, &log, &[]);
    let delete = |id: String| {
        let url = url.clone();
        async move {
            let headers = [
                ("Mcp-Session-Id", id.as_str()),
                ("MCP-Protocol-Version", "2025-06-18"),
            ];
            raw::send(&url, "DELETE", &headers, b"").await
        }
    };
    for invented in ["no-such-session".to_owned(), "x".repeat(4096)] {
        let reply = delete(invented).await;
        assert_eq!(reply.status, 404, "{reply:?}");
    }
    let id = session(&url).await;
    let reply = delete(id.clone()).await;
    assert_eq!(reply.status, 200, "{reply:?}");
    // Closed: a second DELETE finds nothing, and a call in it is refused.
    let reply = delete(id.clone()).await;
    assert_eq!(reply.status, 404, "{reply:?}");
    let reply = post(
        &url,
        Some(&id),
        &raw::call(3, "echo", &json!({"text": "late"})),
    )
    .await;
    assert!(reply.status >= 400, "{reply:?}");
    assert!(logged(&log).is_empty(), "{:?}", logged(&log));
}
