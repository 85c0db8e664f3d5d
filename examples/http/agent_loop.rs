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
    Toolkit::new().with((GetWeather, Add))
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

/// The scripted Chat Completions server: it answers the first request with two tool calls and
/// the second, once it carries both results, with text (`scripted/server.rs`, shared with
/// `stream_loop`, is the HTTP plumbing and the checks).
pub mod scripted {
    use serde_json::{json, Value};
    use tokio::task::JoinHandle;

    #[path = "../scripted/server.rs"]
    mod server;
    pub use server::FINAL_ANSWER;
    use server::{check_first, check_second, Reply};

    /// Starts the server; see `server::start`.
    pub async fn start() -> std::io::Result<(String, JoinHandle<Result<(), String>>)> {
        server::start(|turn, request| match turn {
            0 => check_first(request).map(|()| Reply::Json(two_calls())),
            _ => check_second(request, |_| true).map(|()| Reply::Json(text_answer())),
        })
        .await
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

    fn text_answer() -> Value {
        json!({
            "id": "chatcmpl-scripted-2", "object": "chat.completion", "created": 1764489601,
            "model": "scripted",
            "choices": [{"index": 0, "finish_reason": "stop", "logprobs": null, "message": {
                "role": "assistant", "content": FINAL_ANSWER, "refusal": null}}],
            "usage": {"prompt_tokens": 150, "completion_tokens": 20, "total_tokens": 170}
        })
    }
}
