//! The loop every provider example runs, over HTTP with reqwest: the request each provider
//! wants (its URL, its headers, its body with the tools in its envelope), then the same loop
//! shape for all of them. Shared by `openai_chat`, `openai_responses`, `anthropic` and `gemini`.
//!
//! | provider | URL | headers | key from |
//! |---|---|---|---|
//! | OpenAI Chat | `{base}/chat/completions` | `Authorization: Bearer KEY` | `OPENAI_API_KEY` |
//! | OpenAI Responses | `{base}/responses` | `Authorization: Bearer KEY` | `OPENAI_API_KEY` |
//! | Anthropic | `{base}/v1/messages` | `x-api-key: KEY`, `anthropic-version: 2023-06-01` | `ANTHROPIC_API_KEY` |
//! | Gemini | `{base}/v1beta/models/MODEL:generateContent` | `x-goog-api-key: KEY` | `GEMINI_API_KEY` |

pub mod scripted;

use std::error::Error;
use std::time::Duration;

use serde_json::{json, Value};
use toolnexus::{tool, Dialect, Toolkit, ToolsOptions};

/// Errors of the examples: HTTP, a response the dialect does not recognise, the scripted server.
pub type BoxError = Box<dyn Error + Send + Sync>;

/// What the examples ask.
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

/// The examples' tools.
pub fn toolkit() -> Result<Toolkit, toolnexus::Error> {
    Toolkit::new().with((GetWeather, Add))
}

/// A provider's endpoint: where to send, with which key and model.
pub struct Provider {
    /// The dialect it speaks.
    pub dialect: Dialect,
    /// Everything before the API's own path, e.g. `https://api.anthropic.com`.
    pub base_url: String,
    /// The API key.
    pub api_key: String,
    /// The model.
    pub model: String,
}

impl Provider {
    /// The real endpoint of `dialect` when its key is in the environment (`OPENAI_API_KEY`,
    /// `ANTHROPIC_API_KEY`, `GEMINI_API_KEY`; `*_BASE_URL` and `*_MODEL` override the defaults).
    pub fn from_env(dialect: Dialect) -> Option<Self> {
        let (prefix, base_url, model) = match dialect {
            Dialect::OpenAiChat | Dialect::OpenAiResponses => {
                ("OPENAI", "https://api.openai.com/v1", "gpt-4o-mini")
            }
            Dialect::Anthropic => (
                "ANTHROPIC",
                "https://api.anthropic.com",
                "claude-sonnet-4-5",
            ),
            _ => (
                "GEMINI",
                "https://generativelanguage.googleapis.com",
                "gemini-2.5-flash",
            ),
        };
        let var = |name: &str| std::env::var(format!("{prefix}_{name}")).ok();
        Some(Self {
            dialect,
            api_key: var("API_KEY")?,
            base_url: var("BASE_URL").unwrap_or_else(|| base_url.to_owned()),
            model: var("MODEL").unwrap_or_else(|| model.to_owned()),
        })
    }

    /// The URL a request is sent to.
    pub fn url(&self) -> String {
        let base = self.base_url.trim_end_matches('/');
        match self.dialect {
            Dialect::OpenAiChat => format!("{base}/chat/completions"),
            Dialect::OpenAiResponses => format!("{base}/responses"),
            Dialect::Anthropic => format!("{base}/v1/messages"),
            _ => format!("{base}/v1beta/models/{}:generateContent", self.model),
        }
    }

    /// The headers that authenticate a request (and Anthropic's API version).
    pub fn headers(&self) -> Vec<(&'static str, String)> {
        let key = self.api_key.clone();
        match self.dialect {
            Dialect::OpenAiChat | Dialect::OpenAiResponses => {
                vec![("authorization", format!("Bearer {key}"))]
            }
            Dialect::Anthropic => vec![
                ("x-api-key", key),
                ("anthropic-version", "2023-06-01".to_owned()),
            ],
            _ => vec![("x-goog-api-key", key)],
        }
    }

    /// The request body: the conversation so far and the tools, in this provider's fields.
    pub fn body(&self, toolkit: &Toolkit, history: &[Value]) -> Value {
        match self.dialect {
            Dialect::OpenAiChat => json!({"model": self.model, "messages": history,
                "tools": toolkit.to_openai()}),
            Dialect::OpenAiResponses => json!({"model": self.model, "input": history,
                "tools": toolkit.tools_for(Dialect::OpenAiResponses, ToolsOptions::default())}),
            Dialect::Anthropic => json!({"model": self.model, "max_tokens": 1024,
                "messages": history, "tools": toolkit.to_anthropic()}),
            _ => json!({"contents": history, "tools": toolkit.to_gemini()}),
        }
    }
}

/// The loop, the same for every provider: send the conversation, let the toolkit answer the
/// model's calls, keep the model's turn and the results, repeat until the model answers in
/// text. Returns the answer and the whole conversation, which can go on.
pub async fn run(
    provider: &Provider,
    toolkit: &Toolkit,
    question: &str,
) -> Result<(String, Vec<Value>), BoxError> {
    // reqwest is built with rustls but without a crypto provider: use ring's.
    let _ = rustls::crypto::ring::default_provider().install_default();
    let client = reqwest::Client::builder()
        .timeout(Duration::from_secs(120))
        .build()?;
    let dialect = provider.dialect;
    let mut history = vec![dialect.user_message(question)];
    for _ in 0..MAX_TURNS {
        let mut request = client
            .post(provider.url())
            .header("content-type", "application/json");
        for (name, value) in provider.headers() {
            request = request.header(name, value);
        }
        let reply = request
            .body(provider.body(toolkit, &history).to_string())
            .send()
            .await?;
        let status = reply.status();
        let text = reply.text().await?;
        if !status.is_success() {
            return Err(format!("{} answered {status}: {text}", provider.url()).into());
        }
        let turn = toolkit
            .respond(&dialect.parse_body(&text)?, dialect)
            .await?;
        let answered = turn.is_final();
        let answer = turn.text();
        // The model's turn, then the results (none once it answered): the conversation goes on.
        history.extend(turn.into_messages());
        if answered {
            return Ok((answer, history));
        }
    }
    Err(format!("no answer after {MAX_TURNS} turns").into())
}

/// The loop against the provider's real endpoint when its key is set, else against a scripted
/// local server that speaks the same dialect and checks the URL, the headers and the results.
pub async fn main(dialect: Dialect) -> Result<(), BoxError> {
    let toolkit = toolkit()?;
    let (answer, history) = match Provider::from_env(dialect) {
        Some(provider) => run(&provider, &toolkit, QUESTION).await?,
        None => {
            eprintln!("no API key in the environment: talking to a scripted {dialect} server on 127.0.0.1");
            scripted::run_offline(dialect, &toolkit, QUESTION).await?
        }
    };
    println!("{answer}");
    eprintln!("({} messages in the conversation)", history.len());
    Ok(())
}
