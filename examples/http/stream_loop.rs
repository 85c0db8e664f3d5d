//! A streaming tool-calling loop over HTTP against an OpenAI-compatible Chat Completions
//! endpoint: text is printed as it arrives, and each tool starts as soon as the model has
//! finished writing its arguments, while the rest of the response is still streaming.
//!
//! ```text
//! cargo run --example stream_loop                      # offline: a scripted local SSE server
//! OPENAI_BASE_URL=https://api.openai.com/v1 OPENAI_API_KEY=sk-... \
//!     cargo run --example stream_loop                  # a real endpoint (OPENAI_MODEL: gpt-4o-mini)
//! ```
//!
//! Without `OPENAI_BASE_URL` the example starts a scripted server on 127.0.0.1 (a random port)
//! that streams two tool calls in small pieces, checks that the second request carries both
//! results with the right `tool_call_id`s, and then streams the answer. This package's
//! `examples/http/tests/stream_loop.rs` runs the same code end to end.
//!
//! The loop is `run`: send the conversation with `"stream": true`, feed the body's bytes to a
//! `StreamTurn` (reqwest's `bytes_stream()`), show its events, append the finished turn's
//! messages, repeat until the model answers in text.

use std::error::Error;
use std::time::Duration;

use futures::StreamExt;
use serde_json::{json, Value};
use toolnexus::stream::{StreamEvent, StreamTurn};
use toolnexus::{tool, Dialect, RunOptions, Toolkit};

/// Errors of the example: HTTP, a stream that did not complete, the scripted server.
pub type BoxError = Box<dyn Error + Send + Sync>;

/// What the example asks.
pub const QUESTION: &str = "What is the weather in Paris, and what is 2 + 3?";

/// The most model turns before the loop gives up.
const MAX_TURNS: usize = 8;

/// Current weather for a city.
#[tool]
async fn get_weather(
    /// City name
    city: String,
) -> String {
    // A real tool would await an HTTP call here; this one takes a moment too.
    tokio::time::sleep(Duration::from_millis(30)).await;
    match city.as_str() {
        "Paris" => "Paris: 18°C, sunny".to_owned(),
        _ => format!("{city}: 21°C, clear"),
    }
}

/// Adds two integers.
#[tool]
fn add(a: i64, b: i64) -> Result<String, &'static str> {
    a.checked_add(b)
        .map(|sum| sum.to_string())
        .ok_or("the sum does not fit in 64 bits")
}

/// The example's tools.
pub fn toolkit() -> Result<Toolkit, toolnexus::Error> {
    Toolkit::new().with(GetWeather)?.with(Add)
}

/// An OpenAI-compatible Chat Completions endpoint.
pub struct Endpoint {
    /// Everything before `/chat/completions`, e.g. `https://api.openai.com/v1`.
    pub base_url: String,
    /// Sent as `Authorization: Bearer ...` when set.
    pub api_key: Option<String>,
    /// The `model` field of every request.
    pub model: String,
    client: reqwest::Client,
}

impl Endpoint {
    /// An endpoint; a request may take two minutes at most.
    pub fn new(base_url: String, api_key: Option<String>, model: String) -> Result<Self, BoxError> {
        // reqwest is built with rustls but without a crypto provider: use ring's, as ureq does.
        let _ = rustls::crypto::ring::default_provider().install_default();
        let client = reqwest::Client::builder()
            .timeout(Duration::from_secs(120))
            .build()?;
        Ok(Self {
            base_url,
            api_key,
            model,
            client,
        })
    }

    /// POSTs one streaming request; returns the response, whose body is still arriving.
    async fn stream(&self, body: &Value) -> Result<reqwest::Response, BoxError> {
        let url = format!("{}/chat/completions", self.base_url.trim_end_matches('/'));
        let mut request = self
            .client
            .post(url)
            .header("Content-Type", "application/json")
            .body(serde_json::to_vec(body)?);
        if let Some(key) = &self.api_key {
            request = request.bearer_auth(key);
        }
        let response = request.send().await?;
        if !response.status().is_success() {
            let status = response.status();
            let text = response.text().await.unwrap_or_default();
            return Err(format!("HTTP status {status}: {text}").into());
        }
        Ok(response)
    }
}

/// What the loop shows while it runs.
#[derive(Debug, Clone, PartialEq)]
pub enum Shown {
    /// A piece of the model's text.
    Text(String),
    /// A tool started: its name.
    Started(String),
    /// A tool finished: its name and output.
    Finished(String, String),
}

/// The loop: stream the model's turn, run its calls as they complete, send the results back,
/// until the model answers; `show` sees everything as it happens. Returns the answer.
pub async fn run(
    endpoint: &Endpoint,
    toolkit: &Toolkit,
    question: &str,
    show: &mut dyn FnMut(Shown),
) -> Result<String, BoxError> {
    let tools = toolkit.to_openai();
    let mut messages = vec![json!({"role": "user", "content": question})];
    for _ in 0..MAX_TURNS {
        let body = json!({"model": endpoint.model, "messages": messages, "tools": tools,
                          "stream": true, "stream_options": {"include_usage": true}});
        let response = endpoint.stream(&body).await?;

        let mut turn = StreamTurn::new(toolkit, Dialect::OpenAiChat, RunOptions::default());
        let mut text = String::new();
        let mut events = turn.read(response.bytes_stream());
        while let Some(event) = events.next().await {
            match event? {
                StreamEvent::Text(piece) => {
                    text.push_str(&piece);
                    show(Shown::Text(piece));
                }
                StreamEvent::CallStarted { call, .. } => show(Shown::Started(call.name)),
                StreamEvent::CallFinished { call, result, .. } => {
                    show(Shown::Finished(call.name, result.output))
                }
                _ => {}
            }
        }
        // The assistant message (text and tool_calls) and one tool message per call.
        let turn = turn.finish().await?;
        if turn.calls.is_empty() {
            return Ok(text);
        }
        messages.extend(turn.model_turn);
        messages.extend(turn.result_messages);
    }
    Err(format!("no answer after {MAX_TURNS} turns").into())
}

/// Runs the loop against the scripted local server; the server's verdict on what it was sent
/// comes first.
pub async fn run_offline(
    toolkit: &Toolkit,
    question: &str,
    show: &mut dyn FnMut(Shown),
) -> Result<String, BoxError> {
    let (base_url, mut server) = scripted::start().await?;
    let endpoint = Endpoint::new(base_url, None, "scripted".to_owned())?;
    let answer = run(&endpoint, toolkit, question, show).await;
    if answer.is_err() {
        match tokio::time::timeout(Duration::from_secs(5), &mut server).await {
            Ok(verdict) => verdict??,
            Err(_) => server.abort(),
        }
        return answer;
    }
    server.await??;
    answer
}

#[tokio::main]
async fn main() -> Result<(), BoxError> {
    use std::io::Write;
    let toolkit = toolkit()?;
    let mut show = |shown: Shown| {
        match shown {
            Shown::Text(piece) => print!("{piece}"),
            Shown::Started(name) => println!("\n[{name} started]"),
            Shown::Finished(name, output) => println!("[{name} finished: {output}]"),
        }
        let _ = std::io::stdout().flush();
    };
    match std::env::var("OPENAI_BASE_URL") {
        Ok(base_url) => {
            let model = std::env::var("OPENAI_MODEL").unwrap_or_else(|_| "gpt-4o-mini".to_owned());
            let endpoint = Endpoint::new(base_url, std::env::var("OPENAI_API_KEY").ok(), model)?;
            run(&endpoint, &toolkit, QUESTION, &mut show).await?;
        }
        Err(_) => {
            eprintln!("OPENAI_BASE_URL is not set: talking to a scripted server on 127.0.0.1");
            run_offline(&toolkit, QUESTION, &mut show).await?;
        }
    }
    println!();
    Ok(())
}

/// A scripted streaming Chat Completions server: a minimal HTTP/1.1 responder on tokio's
/// `TcpListener` that streams one conversation as server-sent events, in small pieces with
/// pauses, and checks what the client sends.
pub mod scripted {
    use std::time::Duration;

    use serde_json::{json, Value};
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    use tokio::net::{TcpListener, TcpStream};
    use tokio::task::JoinHandle;

    use super::BoxError;

    /// The text the server streams once it got both tool results.
    pub const FINAL_ANSWER: &str = "In Paris it is 18°C and sunny, and 2 + 3 = 5.";

    const MAX_REQUEST: usize = 1 << 20;

    /// Starts the server; returns its base URL and the task, which ends after the second request
    /// with `Ok` if the client sent what a correct loop sends, or `Err` saying what was wrong.
    pub async fn start() -> Result<(String, JoinHandle<Result<(), String>>), BoxError> {
        let listener = TcpListener::bind("127.0.0.1:0").await?;
        let base_url = format!("http://{}/v1", listener.local_addr()?);
        let task = tokio::spawn(async move {
            for turn in 0..2 {
                let (mut stream, _) = listener.accept().await.map_err(|e| e.to_string())?;
                let (path, body) = read_request(&mut stream).await?;
                let verdict = if path != "/v1/chat/completions" {
                    Err(format!("unexpected path {path}"))
                } else {
                    match serde_json::from_slice::<Value>(&body) {
                        Ok(request) if request["stream"] != true => {
                            Err("expected `\"stream\": true`".to_owned())
                        }
                        Ok(request) if turn == 0 => check_first(&request).map(|()| two_calls()),
                        Ok(request) => check_second(&request).map(|()| text_answer()),
                        Err(e) => Err(format!("the request body is not JSON: {e}")),
                    }
                };
                match &verdict {
                    Ok(pieces) => write_stream(&mut stream, pieces).await?,
                    Err(why) => write_error(&mut stream, why).await?,
                }
                verdict?;
            }
            Ok(())
        });
        Ok((base_url, task))
    }

    fn check_first(request: &Value) -> Result<(), String> {
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

    fn chunk(delta: Value, finish: Value) -> Value {
        json!({"id": "chatcmpl-scripted", "object": "chat.completion.chunk", "created": 1764489600,
               "model": "scripted", "choices": [{"index": 0, "delta": delta, "logprobs": null,
               "finish_reason": finish}]})
    }

    fn call_piece(index: usize, piece: &str) -> Value {
        chunk(
            json!({"tool_calls": [{"index": index, "function": {"arguments": piece}}]}),
            Value::Null,
        )
    }

    fn call_start(index: usize, id: &str, name: &str) -> Value {
        chunk(
            json!({"tool_calls": [{"index": index, "id": id, "type": "function",
                                   "function": {"name": name, "arguments": ""}}]}),
            Value::Null,
        )
    }

    /// The first answer: a sentence, then two calls, their arguments in pieces.
    fn two_calls() -> Vec<Value> {
        vec![
            chunk(json!({"role": "assistant", "content": ""}), Value::Null),
            chunk(json!({"content": "Let me look "}), Value::Null),
            chunk(json!({"content": "that up."}), Value::Null),
            call_start(0, "call_weather_paris", "get_weather"),
            call_piece(0, "{\"ci"),
            call_piece(0, "ty\": \"Par"),
            call_piece(0, "is\"}"),
            // `get_weather` is complete once the next call begins: it starts here, while
            // the server is still writing `add`.
            call_start(1, "call_add_2_3", "add"),
            call_piece(1, "{\"a\": 2, "),
            call_piece(1, "\"b\": 3}"),
            chunk(json!({}), "tool_calls".into()),
        ]
    }

    fn check_second(request: &Value) -> Result<(), String> {
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
            || assistant["content"] != "Let me look that up."
            || assistant["tool_calls"].as_array().map(Vec::len) != Some(2)
            || assistant["tool_calls"][0]["function"]["arguments"] != "{\"city\": \"Paris\"}"
        {
            return Err(format!(
                "expected the assistant message with its text and two tool_calls second, got {assistant}"
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

    /// The answer, a few characters per chunk.
    fn text_answer() -> Vec<Value> {
        let mut chunks = vec![chunk(
            json!({"role": "assistant", "content": ""}),
            Value::Null,
        )];
        let characters: Vec<char> = super::scripted::FINAL_ANSWER.chars().collect();
        for piece in characters.chunks(6) {
            let piece: String = piece.iter().collect();
            chunks.push(chunk(json!({"content": piece}), Value::Null));
        }
        chunks.push(chunk(json!({}), "stop".into()));
        chunks
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

    async fn write_error(stream: &mut TcpStream, why: &str) -> Result<(), String> {
        let body = json!({"error": {"message": format!("scripted server: {why}"),
                                    "type": "invalid_request_error"}})
        .to_string();
        let head = format!(
            "HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
            body.len()
        );
        let io = |e: std::io::Error| e.to_string();
        stream.write_all(head.as_bytes()).await.map_err(io)?;
        stream.write_all(body.as_bytes()).await.map_err(io)?;
        stream.shutdown().await.map_err(io)
    }

    /// Reads one request with a `Content-Length` body; returns its path and body.
    async fn read_request(stream: &mut TcpStream) -> Result<(String, Vec<u8>), String> {
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
        let length = lines
            .filter_map(|line| line.split_once(':'))
            .find(|(name, _)| name.trim().eq_ignore_ascii_case("content-length"))
            .and_then(|(_, value)| value.trim().parse::<usize>().ok())
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
        Ok((path, body))
    }
}
