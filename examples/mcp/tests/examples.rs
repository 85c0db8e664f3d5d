//! The MCP examples end to end, offline: `mcp_source` connects to the `mcp_serve` example
//! (built by `cargo test` next to this test) and answers a model turn with its `get_weather`.

#[allow(dead_code)] // `main` is the example's, not the test's
#[path = "../mcp_source.rs"]
mod mcp_source;

use std::path::PathBuf;

use toolnexus::mcp::{serve_bounded, HttpOptions};

/// An example binary of this package (`cargo test` builds them before running the tests).
fn example(name: &str) -> PathBuf {
    let exe = std::env::current_exe().expect("the test binary's path");
    let dir = exe
        .parent()
        .and_then(|deps| deps.parent())
        .expect("target/<profile>");
    dir.join("examples").join(name)
}

#[tokio::test]
async fn mcp_source_answers_a_turn_with_the_tool_mcp_serve_serves() {
    let server = example("mcp_serve");
    assert!(server.exists(), "{} was built", server.display());
    let messages = mcp_source::run(&server, &[]).await.unwrap();
    assert_eq!(messages.len(), 2);
    assert_eq!(messages[1]["role"], "user");
    let result = &messages[1]["content"][0];
    assert_eq!(result["type"], "tool_result");
    assert_eq!(result["tool_use_id"], "toolu_1");
    assert_eq!(result["content"], "sunny in Chennai, 31°C");
}

// `main` is the example's, not the test's; both examples include mcp_serve.rs for its toolkit.
#[allow(dead_code, clippy::duplicate_mod)]
#[path = "../mcp_serve_http.rs"]
mod mcp_serve_http;

/// One raw HTTP/1.1 POST of an MCP `initialize` to `addr`, with `extra` headers: the status
/// line and the rest of the response.
async fn initialize(addr: std::net::SocketAddr, extra: &str) -> (String, String) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#;
    let request = format!(
        "POST /mcp HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\n{extra}Content-Length: {}\r\n\
         Connection: close\r\n\r\n{body}",
        body.len()
    );
    let exchange = async {
        let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
        stream.write_all(request.as_bytes()).await.unwrap();
        let mut reply = String::new();
        stream.read_to_string(&mut reply).await.unwrap();
        reply
    };
    let reply = tokio::time::timeout(std::time::Duration::from_secs(15), exchange)
        .await
        .expect("the app answers in time");
    let (status, rest) = reply.split_once("\r\n").unwrap_or((&reply, ""));
    (status.to_owned(), rest.to_owned())
}

#[tokio::test]
async fn mcp_serve_http_wants_the_bearer_token() {
    let options = HttpOptions::new();
    let app = mcp_serve_http::app("s3cret", &options).unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let serving = tokio::spawn(async move { serve_bounded(listener, app, &options).await });

    let (status, rest) = initialize(addr, "").await;
    assert_eq!(status, "HTTP/1.1 401 Unauthorized", "{rest}");
    assert!(
        rest.to_ascii_lowercase()
            .contains("www-authenticate: bearer"),
        "{rest}"
    );
    let (status, _) = initialize(addr, "Authorization: Bearer wrong\r\n").await;
    assert_eq!(status, "HTTP/1.1 401 Unauthorized");

    let (status, rest) = initialize(addr, "Authorization: Bearer s3cret\r\n").await;
    assert_eq!(status, "HTTP/1.1 200 OK", "{rest}");
    assert!(
        rest.to_ascii_lowercase().contains("mcp-session-id:"),
        "{rest}"
    );
    assert!(rest.contains(r#""name":"weather""#), "{rest}");

    // The service's own checks still hold behind the host's layer.
    let (status, _) = initialize(
        addr,
        "Authorization: Bearer s3cret\r\nOrigin: http://evil.example\r\n",
    )
    .await;
    assert_eq!(status, "HTTP/1.1 403 Forbidden");
    serving.abort();
}

/// The attacks the service itself withstands, run against the example app (issue 39): idle
/// sockets without a token cannot hold the connection cap (a new client past it gets `503` at
/// once, not a hang), and each is cut at the read timeout, after which clients are served.
#[tokio::test]
async fn mcp_serve_http_keeps_the_services_connection_bounds() {
    use tokio::io::AsyncReadExt;
    let options = HttpOptions::new()
        .with_max_connections(8)
        .with_read_timeout(std::time::Duration::from_millis(500));
    let app = mcp_serve_http::app("s3cret", &options).unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let serving = tokio::spawn(async move { serve_bounded(listener, app, &options).await });

    // Eight idle sockets, no token, not a byte sent.
    let mut idle = Vec::new();
    for _ in 0..8 {
        idle.push(tokio::net::TcpStream::connect(addr).await.unwrap());
    }
    tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    let (status, rest) = initialize(addr, "Authorization: Bearer s3cret\r\n").await;
    assert_eq!(status, "HTTP/1.1 503 Service Unavailable", "{rest}");

    // Cut at the read timeout: each idle socket reads its end, and clients are served again.
    for socket in &mut idle {
        let mut buf = [0u8; 64];
        // Whatever hyper says on the way out (nothing, or a 408), then the end of the stream.
        let cut = async {
            while let Ok(n) = socket.read(&mut buf).await {
                if n == 0 {
                    break;
                }
            }
        };
        tokio::time::timeout(std::time::Duration::from_secs(10), cut)
            .await
            .expect("an idle socket is cut at the read timeout");
    }
    let (status, rest) = initialize(addr, "Authorization: Bearer s3cret\r\n").await;
    assert_eq!(status, "HTTP/1.1 200 OK", "{rest}");
    serving.abort();
}
