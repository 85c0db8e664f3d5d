//! A raw HTTP/1.1 client for the tests that attack our HTTP server: every header as the test
//! writes it (a foreign `Origin`, a wrong `Host`, a body that never ends), one request per
//! connection, each read bounded in time.

use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// How long any one exchange may take before the test fails.
pub const EXCHANGE_TIMEOUT: Duration = Duration::from_secs(15);

/// A response: status, headers (names lowercased) and body (chunked encoding undone).
#[derive(Debug, Clone)]
pub struct Reply {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Reply {
    /// The first header of that (lowercase) name.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// `host:port` of an `http://host:port/path` URL.
pub fn authority(url: &str) -> &str {
    let rest = url.strip_prefix("http://").unwrap_or(url);
    rest.split('/').next().unwrap_or(rest)
}

/// The request's head: the method, `/mcp`, `Host` (unless `headers` has one), the headers,
/// `Content-Length` and `Connection: close`.
pub fn head(url: &str, method: &str, headers: &[(&str, &str)], length: usize) -> String {
    let mut head = format!("{method} /mcp HTTP/1.1\r\n");
    if !headers.iter().any(|(n, _)| n.eq_ignore_ascii_case("host")) {
        head += &format!("Host: {}\r\n", authority(url));
    }
    for (name, value) in headers {
        head += &format!("{name}: {value}\r\n");
    }
    head += &format!("Content-Length: {length}\r\nConnection: close\r\n\r\n");
    head
}

/// Sends one request and reads the whole response (the server closes the connection).
pub async fn send(url: &str, method: &str, headers: &[(&str, &str)], body: &[u8]) -> Reply {
    send_from(None, url, method, headers, body).await
}

/// [`send`] from the local address `source` (`127.0.0.2`: another client of a loopback
/// server), or any when `None`.
pub async fn send_from(
    source: Option<&str>,
    url: &str,
    method: &str,
    headers: &[(&str, &str)],
    body: &[u8],
) -> Reply {
    let exchange = async {
        let mut stream = match source {
            None => TcpStream::connect(authority(url)).await.expect("connects"),
            Some(source) => {
                let socket = tokio::net::TcpSocket::new_v4().expect("a socket");
                let source = format!("{source}:0").parse().expect("an IPv4 address");
                socket.bind(source).expect("binds the source address");
                let server = authority(url).parse().expect("a socket address");
                socket.connect(server).await.expect("connects")
            }
        };
        stream
            .write_all(head(url, method, headers, body.len()).as_bytes())
            .await
            .expect("the head is sent");
        // A server that refuses early may close before the whole body is written.
        let _ = stream.write_all(body).await;
        read_reply(&mut stream).await
    };
    tokio::time::timeout(EXCHANGE_TIMEOUT, exchange)
        .await
        .expect("the server answers in time")
}

/// Reads a response to its end from `stream`.
pub async fn read_reply(stream: &mut TcpStream) -> Reply {
    let mut raw = Vec::new();
    let _ = stream.read_to_end(&mut raw).await;
    parse(&raw)
}

/// A response's bytes as a [`Reply`].
pub fn parse(raw: &[u8]) -> Reply {
    let text = String::from_utf8_lossy(raw);
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let mut lines = head.lines();
    let status = lines
        .next()
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    let chunked = headers
        .iter()
        .any(|(n, v)| n == "transfer-encoding" && v.contains("chunked"));
    let body = if chunked {
        unchunk(body)
    } else {
        body.to_owned()
    };
    Reply {
        status,
        headers,
        body,
    }
}

fn unchunk(mut body: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = body.split_once("\r\n") {
        let Ok(size) = usize::from_str_radix(size.trim(), 16) else {
            break;
        };
        if size == 0 || rest.len() < size {
            out.push_str(&rest[..size.min(rest.len())]);
            break;
        }
        out.push_str(&rest[..size]);
        body = rest[size..].strip_prefix("\r\n").unwrap_or(&rest[size..]);
    }
    out
}

/// The headers every MCP POST carries.
pub const MCP_POST: [(&str, &str); 2] = [
    ("Content-Type", "application/json"),
    ("Accept", "application/json, text/event-stream"),
];

/// An `initialize` request body.
pub const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}"#;

/// `initialize` with `extra` headers: the reply, and the session id it gave.
pub async fn initialize(url: &str, extra: &[(&str, &str)]) -> (Reply, Option<String>) {
    let mut headers = MCP_POST.to_vec();
    headers.extend_from_slice(extra);
    let reply = send(url, "POST", &headers, INITIALIZE.as_bytes()).await;
    let session = reply.header("mcp-session-id").map(str::to_owned);
    (reply, session)
}

/// A session, initialized and told so (`notifications/initialized`).
pub async fn session(url: &str) -> String {
    let (reply, session) = initialize(url, &[]).await;
    assert_eq!(reply.status, 200, "{reply:?}");
    let session = session.expect("a session id");
    let initialized = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
    let reply = post(url, Some(&session), initialized.as_bytes()).await;
    assert_eq!(reply.status, 202, "{reply:?}");
    session
}

/// A JSON-RPC message POSTed in `session` (if any).
pub async fn post(url: &str, session: Option<&str>, body: &[u8]) -> Reply {
    post_with(url, session, &[], body).await
}

/// [`post`] with `extra` headers.
pub async fn post_with(
    url: &str,
    session: Option<&str>,
    extra: &[(&str, &str)],
    body: &[u8],
) -> Reply {
    let mut headers = MCP_POST.to_vec();
    if let Some(session) = session {
        headers.push(("Mcp-Session-Id", session));
        headers.push(("MCP-Protocol-Version", "2025-06-18"));
    }
    headers.extend_from_slice(extra);
    send(url, "POST", &headers, body).await
}

/// A `tools/call` body.
pub fn call(id: u64, tool: &str, arguments: &serde_json::Value) -> Vec<u8> {
    serde_json::json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": {"name": tool, "arguments": arguments}})
    .to_string()
    .into_bytes()
}

/// A line of `/proc/PID/status` in MiB (`VmRSS`, `VmHWM`: the peak).
pub fn memory_mib(pid: u32, key: &str) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("/proc is read");
    status
        .lines()
        .find_map(|l| l.strip_prefix(key)?.strip_prefix(':'))
        .and_then(|v| v.split_whitespace().next()?.parse::<u64>().ok())
        .map(|kib| kib / 1024)
        .expect("the key is in /proc/PID/status")
}
