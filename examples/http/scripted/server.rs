//! The scripted stand-in for an OpenAI-compatible Chat Completions endpoint that both HTTP
//! examples talk to offline: a minimal HTTP/1.1 responder on tokio's `TcpListener` that plays a
//! two-request conversation and checks what the client sends. Each example supplies the script
//! (what to answer, and what else to check); the plumbing and the checks they share live here.

// Each example answers in one way only (whole bodies or a stream), so the other `Reply` is unused
// in each.
#![allow(dead_code)]

use std::time::Duration;

use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::task::JoinHandle;

/// The text the server answers with once it got both tool results.
pub const FINAL_ANSWER: &str = "In Paris it is 18°C and sunny, and 2 + 3 = 5.";

const MAX_REQUEST: usize = 1 << 20;

/// One answer of the script.
pub enum Reply {
    /// A whole `chat.completion` body.
    Json(Value),
    /// `chat.completion.chunk`s sent as server-sent events with pauses, then `[DONE]`.
    Stream(Vec<Value>),
}

/// Starts the server on a random local port; returns its base URL and the task, which ends after
/// the second request with `Ok` if the client sent what a correct loop sends, or `Err` saying
/// what was wrong. `script(turn, request)` checks request `turn` (0 or 1) and gives the answer.
pub async fn start(
    script: fn(usize, &Value) -> Result<Reply, String>,
) -> std::io::Result<(String, JoinHandle<Result<(), String>>)> {
    let (address, task) = serve(move |turn, request| {
        if request.path != "/v1/chat/completions" {
            return Err(format!("unexpected path {}", request.path));
        }
        script(turn, &request.body)
    })
    .await?;
    Ok((format!("{address}/v1"), task))
}

/// One request as the server read it.
pub struct Request {
    /// The path, e.g. `/v1/messages`.
    pub path: String,
    /// The headers, names in lower case.
    pub headers: Vec<(String, String)>,
    /// The JSON body.
    pub body: Value,
}

impl Request {
    /// The value of header `name` (lower case), if sent.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// [`start`] for any path and headers: `script(turn, request)` checks everything. Returns the
/// server's address (`http://127.0.0.1:PORT`) and the task.
pub async fn serve(
    script: impl Fn(usize, &Request) -> Result<Reply, String> + Send + 'static,
) -> std::io::Result<(String, JoinHandle<Result<(), String>>)> {
    let listener = TcpListener::bind("127.0.0.1:0").await?;
    let address = format!("http://{}", listener.local_addr()?);
    let task = tokio::spawn(async move {
        for turn in 0..2 {
            let (mut stream, _) = listener.accept().await.map_err(|e| e.to_string())?;
            let (path, headers, body) = read_request(&mut stream).await?;
            let verdict = match serde_json::from_slice::<Value>(&body) {
                Ok(body) => script(
                    turn,
                    &Request {
                        path,
                        headers,
                        body,
                    },
                ),
                Err(e) => Err(format!("the request body is not JSON: {e}")),
            };
            match &verdict {
                Ok(Reply::Json(body)) => write_json(&mut stream, "200 OK", body).await?,
                Ok(Reply::Stream(events)) => write_stream(&mut stream, events).await?,
                Err(why) => {
                    let body = json!({"error": {"message": format!("scripted server: {why}"),
                                                "type": "invalid_request_error"}});
                    write_json(&mut stream, "400 Bad Request", &body).await?
                }
            }
            verdict?;
        }
        Ok(())
    });
    Ok((address, task))
}

/// The first request: the tools `get_weather` and `add`, and one user message.
pub fn check_first(request: &Value) -> Result<(), String> {
    let names: Vec<_> = request["tools"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|t| t["function"]["name"].as_str())
        .collect();
    if names != ["get_weather", "add"] {
        return Err(format!(
            "expected the tools get_weather and add, got {names:?}"
        ));
    }
    match request["messages"].as_array() {
        Some(m) if m.len() == 1 && m[0]["role"] == "user" => Ok(()),
        _ => Err("expected one user message in the first request".to_owned()),
    }
}

/// The second request: four messages, the assistant's turn second (the example checks what it
/// holds with `assistant_ok`), then both tool results with their `tool_call_id`s.
pub fn check_second(request: &Value, assistant_ok: fn(&Value) -> bool) -> Result<(), String> {
    let messages = request["messages"].as_array().cloned().unwrap_or_default();
    let expected_tail = [
        json!({"role": "tool", "tool_call_id": "call_weather_paris", "content": "Paris: 18°C, sunny"}),
        json!({"role": "tool", "tool_call_id": "call_add_2_3", "content": "5"}),
    ];
    if messages.len() != 4 {
        return Err(format!(
            "expected 4 messages in the second request, got {}",
            messages.len()
        ));
    }
    let assistant = &messages[1];
    if assistant["role"] != "assistant"
        || assistant["tool_calls"].as_array().map(Vec::len) != Some(2)
        || !assistant_ok(assistant)
    {
        return Err(format!(
            "expected the assistant message with its two tool_calls second, got {assistant}"
        ));
    }
    if messages[2..] != expected_tail {
        return Err(format!(
            "expected the two tool results {}, got {}",
            Value::from(expected_tail.to_vec()),
            Value::from(messages[2..].to_vec())
        ));
    }
    Ok(())
}

/// The headers of a request: (name in lower case, value).
type Headers = Vec<(String, String)>;

/// Reads one request with a `Content-Length` body; returns its path, headers and body.
async fn read_request(stream: &mut TcpStream) -> Result<(String, Headers, Vec<u8>), String> {
    let mut data = Vec::new();
    let mut chunk = [0u8; 8192];
    let header_end = loop {
        if let Some(at) = data.windows(4).position(|w| w == b"\r\n\r\n") {
            break at + 4;
        }
        if data.len() > MAX_REQUEST {
            return Err("request headers too large".to_owned());
        }
        let n = stream.read(&mut chunk).await.map_err(|e| e.to_string())?;
        if n == 0 {
            return Err("connection closed before the headers ended".to_owned());
        }
        data.extend_from_slice(&chunk[..n]);
    };
    let head = String::from_utf8_lossy(&data[..header_end]).into_owned();
    let mut lines = head.split("\r\n");
    let request_line = lines.next().unwrap_or_default();
    let mut parts = request_line.split(' ');
    if parts.next() != Some("POST") {
        return Err(format!("expected a POST, got `{request_line}`"));
    }
    let path = parts.next().unwrap_or_default().to_owned();
    let headers: Headers = lines
        .filter_map(|line| line.split_once(':'))
        .map(|(name, value)| (name.trim().to_ascii_lowercase(), value.trim().to_owned()))
        .collect();
    let length = headers
        .iter()
        .find(|(name, _)| name == "content-length")
        .and_then(|(_, value)| value.parse::<usize>().ok())
        .ok_or("the request has no Content-Length")?;
    if length > MAX_REQUEST {
        return Err("request body too large".to_owned());
    }
    let mut body = data.split_off(header_end);
    while body.len() < length {
        let n = stream.read(&mut chunk).await.map_err(|e| e.to_string())?;
        if n == 0 {
            return Err("connection closed before the body ended".to_owned());
        }
        body.extend_from_slice(&chunk[..n]);
    }
    body.truncate(length);
    Ok((path, headers, body))
}

async fn write_json(stream: &mut TcpStream, status: &str, body: &Value) -> Result<(), String> {
    let body = body.to_string();
    let head = format!(
        "HTTP/1.1 {status}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    let io = |e: std::io::Error| e.to_string();
    stream.write_all(head.as_bytes()).await.map_err(io)?;
    stream.write_all(body.as_bytes()).await.map_err(io)?;
    stream.shutdown().await.map_err(io)
}

/// Streams `events` as server-sent events, a pause between them, then the usage chunk and
/// `[DONE]`; the body ends when the connection closes.
async fn write_stream(stream: &mut TcpStream, events: &[Value]) -> Result<(), String> {
    let head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\nConnection: close\r\n\r\n";
    let io = |e: std::io::Error| e.to_string();
    stream.write_all(head.as_bytes()).await.map_err(io)?;
    for event in events {
        let line = format!("data: {event}\n\n");
        stream.write_all(line.as_bytes()).await.map_err(io)?;
        stream.flush().await.map_err(io)?;
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let usage = json!({"id": "chatcmpl-scripted", "object": "chat.completion.chunk",
        "created": 1764489600, "model": "scripted", "choices": [],
        "usage": {"prompt_tokens": 80, "completion_tokens": 40, "total_tokens": 120}});
    let tail = format!(": done\n\ndata: {usage}\n\ndata: [DONE]\n\n");
    stream.write_all(tail.as_bytes()).await.map_err(io)?;
    stream.shutdown().await.map_err(io)
}
