//! A hand-written, stateless MCP server over HTTP whose answers attack the client's memory:
//! `tools/call` of `blocks` answers 500,000 empty content blocks, `zeros` 15 MiB of zeros as
//! `structuredContent`, `wide_list` is listed beside `fine` with a schema of 150,000 values;
//! `fine` answers `fine`. Every answer is one JSON body, or with `--sse` one event of an event
//! stream. It prints its URL (`http://127.0.0.1:PORT/mcp`) as its first line; each connection
//! carries one request (`Connection: close`). Plain std, so that nothing of an HTTP stack's
//! stands between the bytes written and the client under test.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};

use serde_json::{json, Value};

fn main() {
    let sse = std::env::args().any(|a| a == "--sse");
    let listener = TcpListener::bind("127.0.0.1:0").expect("binds");
    println!("http://{}/mcp", listener.local_addr().expect("an address"));
    std::io::stdout().flush().expect("flushes");
    for stream in listener.incoming().flatten() {
        std::thread::spawn(move || answer(stream, sse));
    }
}

/// Reads one request and answers it.
fn answer(stream: TcpStream, sse: bool) {
    let mut reader = BufReader::new(stream);
    let mut method = String::new();
    let mut length = 0;
    let mut line = String::new();
    loop {
        line.clear();
        if reader.read_line(&mut line).unwrap_or(0) == 0 {
            return;
        }
        if method.is_empty() {
            method = line.split(' ').next().unwrap_or_default().to_owned();
        }
        let lower = line.to_ascii_lowercase();
        if let Some(value) = lower.strip_prefix("content-length:") {
            length = value.trim().parse().unwrap_or(0);
        }
        if line == "\r\n" {
            break;
        }
    }
    let mut body = vec![0; length];
    if reader.read_exact(&mut body).is_err() {
        return;
    }
    let mut stream = reader.into_inner();
    if method != "POST" {
        let _ = stream.write_all(
            b"HTTP/1.1 405 Method Not Allowed\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
        );
        return;
    }
    let message: Value = serde_json::from_slice(&body).unwrap_or_default();
    let Some(id) = message.get("id").cloned() else {
        // A notification: accepted.
        let _ = stream
            .write_all(b"HTTP/1.1 202 Accepted\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
        return;
    };
    let result = match message["method"].as_str().unwrap_or_default() {
        "initialize" => json!({
            "protocolVersion": message["params"]["protocolVersion"],
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "hostile_http", "version": "0"},
        })
        .to_string(),
        "tools/list" => {
            let wide = json!({"type": "object", "properties": {"x": {"enum": vec![0; 150_000]}}});
            let object = json!({"type": "object"});
            let tools = ["blocks", "zeros", "fine"]
                .map(|name| json!({"name": name, "inputSchema": object}));
            let mut tools = tools.to_vec();
            tools.push(json!({"name": "wide_list", "inputSchema": wide}));
            json!({ "tools": tools }).to_string()
        }
        "tools/call" => attack(message["params"]["name"].as_str().unwrap_or_default()),
        _ => json!({}).to_string(),
    };
    let answer = format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{result}}}"#);
    let (content_type, body) = if sse {
        (
            "text/event-stream",
            format!("event: message\ndata: {answer}\n\n"),
        )
    } else {
        ("application/json", answer)
    };
    let head = format!(
        "HTTP/1.1 200 OK\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\n\
         Connection: close\r\n\r\n",
        body.len()
    );
    let _ = stream.write_all(head.as_bytes());
    let _ = stream.write_all(body.as_bytes());
}

/// The result of a call of `name`, as JSON text.
fn attack(name: &str) -> String {
    toolnexus_mcp_tests::flood_result(name)
        .unwrap_or_else(|| r#"{"content":[{"type":"text","text":"fine"}]}"#.to_owned())
}
