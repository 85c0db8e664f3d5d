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
//! `tests/stream_loop.rs` runs the same code end to end.
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

/// The scripted streaming Chat Completions server: it streams two tool calls in small pieces
/// with pauses, and once the second request carries both results, the answer
/// (`scripted/server.rs`, shared with `agent_loop`, is the HTTP plumbing and the checks).
pub mod scripted {
    use serde_json::{json, Value};
    use tokio::task::JoinHandle;

    #[path = "../scripted/server.rs"]
    mod server;
    pub use server::FINAL_ANSWER;
    use server::{check_first, check_second, Reply};

    /// Starts the server; see `server::start`.
    pub async fn start() -> std::io::Result<(String, JoinHandle<Result<(), String>>)> {
        server::start(|turn, request| {
            if request["stream"] != true {
                return Err("expected `\"stream\": true`".to_owned());
            }
            match turn {
                0 => check_first(request).map(|()| Reply::Stream(two_calls())),
                _ => check_second(request, |assistant| {
                    assistant["content"] == "Let me look that up."
                        && assistant["tool_calls"][0]["function"]["arguments"]
                            == "{\"city\": \"Paris\"}"
                })
                .map(|()| Reply::Stream(text_answer())),
            }
        })
        .await
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

    /// The answer, a few characters per chunk.
    fn text_answer() -> Vec<Value> {
        let mut chunks = vec![chunk(
            json!({"role": "assistant", "content": ""}),
            Value::Null,
        )];
        let characters: Vec<char> = FINAL_ANSWER.chars().collect();
        for piece in characters.chunks(6) {
            let piece: String = piece.iter().collect();
            chunks.push(chunk(json!({"content": piece}), Value::Null));
        }
        chunks.push(chunk(json!({}), "stop".into()));
        chunks
    }
}
