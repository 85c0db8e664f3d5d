//! A complete tool-calling loop over HTTP against an OpenAI-compatible Chat Completions endpoint.
//!
//! ```text
//! cargo run --example agent_loop                       # offline: a scripted local server
//! OPENAI_BASE_URL=https://api.openai.com/v1 OPENAI_API_KEY=sk-... \
//!     cargo run --example agent_loop                   # a real endpoint (OPENAI_MODEL: gpt-4o-mini)
//! ```
//!
//! Without `OPENAI_BASE_URL` the example starts a small scripted server on 127.0.0.1 (a random
//! port) that answers the first request with two tool calls, checks that the second request
//! carries both tool results with the right `tool_call_id`s, and then answers with text.
//! `examples/http/tests/agent_loop.rs` runs the same code end to end.
//!
//! The loop itself is `run`: send the conversation and the tools, let
//! `Toolkit::respond` run the model's calls and return the turn's messages, append, repeat until
//! the model answers in text.

use std::error::Error;
use std::time::Duration;

use serde_json::{json, Value};
use toolnexus::{tool, Dialect, Toolkit};

/// Errors of the example: HTTP, a response the dialect does not recognise, the scripted server.
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
    Toolkit::new().with_all((GetWeather, Add))
}

/// An OpenAI-compatible Chat Completions endpoint.
pub struct Endpoint {
    /// Everything before `/chat/completions`, e.g. `https://api.openai.com/v1`.
    pub base_url: String,
    /// Sent as `Authorization: Bearer ...` when set.
    pub api_key: Option<String>,
    /// The `model` field of every request.
    pub model: String,
    agent: ureq::Agent,
}

impl Endpoint {
    /// An endpoint; requests time out after two minutes.
    pub fn new(base_url: String, api_key: Option<String>, model: String) -> Self {
        let agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(Duration::from_secs(120)))
            .build()
            .into();
        Self {
            base_url,
            api_key,
            model,
            agent,
        }
    }

    /// POSTs one request body and returns the parsed response. An error status with a JSON body
    /// is returned as the body: `Toolkit::respond` turns an `{"error": ...}` object into a clear
    /// `ResponseError`.
    async fn chat(&self, body: &Value) -> Result<Value, BoxError> {
        let url = format!("{}/chat/completions", self.base_url.trim_end_matches('/'));
        let body = serde_json::to_string(body)?;
        let (agent, key) = (self.agent.clone(), self.api_key.clone());
        // ureq is blocking: keep it off the async worker threads.
        let (status, text) = tokio::task::spawn_blocking(move || -> Result<_, ureq::Error> {
            let mut request = agent.post(&url).header("Content-Type", "application/json");
            if let Some(key) = key {
                request = request.header("Authorization", format!("Bearer {key}"));
            }
            let mut response = request.send(body)?;
            let status = response.status().as_u16();
            Ok((status, response.body_mut().read_to_string()?))
        })
        .await??;
        match Dialect::OpenAiChat.parse_body(&text) {
            Ok(value) => Ok(value),
            Err(_) if !(200..300).contains(&status) => Err(format!("HTTP status {status}").into()),
            Err(e) => Err(e.into()),
        }
    }
}

/// The loop: ask, run the model's tool calls, send the results back, until the model answers.
pub async fn run(
    endpoint: &Endpoint,
    toolkit: &Toolkit,
    question: &str,
) -> Result<String, BoxError> {
    let tools = toolkit.to_openai();
    let mut messages = vec![json!({"role": "user", "content": question})];
    for _ in 0..MAX_TURNS {
        let body = json!({"model": endpoint.model, "messages": messages, "tools": tools});
        let response = endpoint.chat(&body).await?;
        // Reads the calls, runs them (concurrently, each answered), renders the tool messages.
        let turn = toolkit.respond(&response, Dialect::OpenAiChat).await?;
        if turn.is_final() {
            // No calls: the model has answered.
            let text = &response["choices"][0]["message"]["content"];
            return Ok(text.as_str().unwrap_or_default().to_owned());
        }
        eprintln!("the model called {} tool(s)", turn.calls.len());
        // The assistant message with its tool_calls, then one tool message per call.
        messages.extend(turn.into_messages());
    }
    Err(format!("no answer after {MAX_TURNS} turns").into())
}

/// Runs the loop against the scripted local server; the server's verdict on what it was sent
/// comes first.
pub async fn run_offline(toolkit: &Toolkit, question: &str) -> Result<String, BoxError> {
    let (base_url, mut server) = scripted::start().await?;
    let endpoint = Endpoint::new(base_url, None, "scripted".to_owned());
    let answer = run(&endpoint, toolkit, question).await;
    if answer.is_err() {
        // The server's own reason is the clearer one when it refused a request; if it is still
        // waiting for a request that will never come, stop it.
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
    let toolkit = toolkit()?;
    let answer = match std::env::var("OPENAI_BASE_URL") {
        Ok(base_url) => {
            let model = std::env::var("OPENAI_MODEL").unwrap_or_else(|_| "gpt-4o-mini".to_owned());
            let endpoint = Endpoint::new(base_url, std::env::var("OPENAI_API_KEY").ok(), model);
            run(&endpoint, &toolkit, QUESTION).await?
        }
        Err(_) => {
            eprintln!("OPENAI_BASE_URL is not set: talking to a scripted server on 127.0.0.1");
            run_offline(&toolkit, QUESTION).await?
        }
    };
    println!("{answer}");
    Ok(())
}

/// A scripted Chat Completions server: a minimal HTTP/1.1 responder on tokio's `TcpListener`
/// that plays one conversation and checks what the client sends.
pub mod scripted {
    use serde_json::{json, Value};
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    use tokio::net::{TcpListener, TcpStream};
    use tokio::task::JoinHandle;

    use super::BoxError;

    /// The text the server answers with once it got both tool results.
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
                        Ok(request) if turn == 0 => check_first(&request).map(|()| two_calls()),
                        Ok(request) => check_second(&request).map(|()| text_answer()),
                        Err(e) => Err(format!("the request body is not JSON: {e}")),
                    }
                };
                let (status, reply) = match &verdict {
                    Ok(reply) => ("200 OK", reply.clone()),
                    Err(why) => (
                        "400 Bad Request",
                        json!({"error": {"message": format!("scripted server: {why}"), "type": "invalid_request_error"}}),
                    ),
                };
                write_response(&mut stream, status, &reply).await?;
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

    fn two_calls() -> Value {
        json!({
            "id": "chatcmpl-scripted-1", "object": "chat.completion", "created": 1764489600,
            "model": "scripted",
            "choices": [{"index": 0, "finish_reason": "tool_calls", "logprobs": null, "message": {
                "role": "assistant", "content": null, "refusal": null,
                "tool_calls": [
                    {"id": "call_weather_paris", "type": "function",
                     "function": {"name": "get_weather", "arguments": "{\"city\":\"Paris\"}"}},
                    {"id": "call_add_2_3", "type": "function",
                     "function": {"name": "add", "arguments": "{\"a\":2,\"b\":3}"}}
                ]}}],
            "usage": {"prompt_tokens": 80, "completion_tokens": 40, "total_tokens": 120}
        })
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
        if messages[1]["role"] != "assistant"
            || messages[1]["tool_calls"].as_array().map(Vec::len) != Some(2)
        {
            return Err("expected the assistant message with its two tool_calls second".to_owned());
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

    fn text_answer() -> Value {
        json!({
            "id": "chatcmpl-scripted-2", "object": "chat.completion", "created": 1764489601,
            "model": "scripted",
            "choices": [{"index": 0, "finish_reason": "stop", "logprobs": null, "message": {
                "role": "assistant", "content": FINAL_ANSWER, "refusal": null}}],
            "usage": {"prompt_tokens": 150, "completion_tokens": 20, "total_tokens": 170}
        })
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

    async fn write_response(
        stream: &mut TcpStream,
        status: &str,
        body: &Value,
    ) -> Result<(), String> {
        let body = body.to_string();
        let head = format!(
            "HTTP/1.1 {status}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
            body.len()
        );
        stream
            .write_all(head.as_bytes())
            .await
            .map_err(|e| e.to_string())?;
        stream
            .write_all(body.as_bytes())
            .await
            .map_err(|e| e.to_string())?;
        stream.shutdown().await.map_err(|e| e.to_string())
    }
}
