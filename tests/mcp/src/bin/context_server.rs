//! Our MCP server over stdio, with tools that read their `CallContext`: `steps` reports `n`
//! steps of progress, `hang` reports that it started and then never answers (a task it
//! spawned waits on the call's cancellation signal), and `was_cancelled` says whether that
//! signal fired (waiting for it up to ten seconds). For the Python SDK's client in
//! `tests/context.rs`.
//!
//! `chatty` logs one message at each of MCP's eight levels, the last one as JSON from the
//! logger `chatty`.
//!
//! `ask_city` asks the user for a city (required) and a number of days (1 to 30) and says
//! what came back: the answer, the user's no, or why nobody could be asked.
//!
//! `summarise` asks the client's model to summarise `text` (a system prompt, 50 tokens, a
//! model hint and priorities) and says what came back.
//!
//! `--gateway PROGRAM ARGS...` serves instead the tools of the MCP server `PROGRAM ARGS...`
//! (over stdio): a gateway, whose calls pass their progress and cancellation through.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use tokio::sync::Notify;
use toolnexus::ask::{Elicitation, Elicited, Sampling, SamplingRole};
use toolnexus::logging::LogLevel;
use toolnexus::mcp::{McpServer, McpSource};
use toolnexus::{tool, CallContext, Toolkit};

static CANCELLED: AtomicBool = AtomicBool::new(false);
static FIRED: Notify = Notify::const_new();

/// Reports `n` steps of progress, then answers.
#[tool]
async fn steps(n: u32, ctx: CallContext) -> String {
    for step in 1..=n {
        ctx.progress(
            f64::from(step),
            Some(f64::from(n)),
            Some(&format!("step {step}")),
        );
    }
    format!("{n} steps, call {}", ctx.id().unwrap_or("-"))
}

/// Reports that it started, then waits until the call is cancelled.
#[tool]
async fn hang(ctx: CallContext) -> String {
    let watcher = ctx.clone();
    // The call's future is dropped when it is cancelled: a task of its own sees the signal.
    tokio::spawn(async move {
        watcher.cancelled().await;
        CANCELLED.store(true, Ordering::SeqCst);
        FIRED.notify_waiters();
    });
    ctx.progress(0.0, None, Some("started"));
    std::future::pending::<String>().await
}

/// Logs a message at each level, least severe first, then answers.
#[tool]
async fn chatty(ctx: CallContext) -> String {
    for level in &LogLevel::ALL[..7] {
        ctx.log(*level, format!("at {level}"));
    }
    ctx.log_as(
        "chatty",
        LogLevel::Emergency,
        serde_json::json!({"level": "emergency", "n": 8}),
    );
    "logged".into()
}

/// Asks the user where to go, and says what came back.
#[tool]
async fn ask_city(ctx: CallContext) -> String {
    let form = serde_json::json!({"type": "object", "properties": {
        "city": {"type": "string", "title": "City", "minLength": 1},
        "days": {"type": "integer", "minimum": 1, "maximum": 30}},
        "required": ["city"]});
    let question = match Elicitation::form("Where to?", form) {
        Ok(question) => question.with_timeout(Duration::from_secs(10)),
        Err(e) => return e.to_string(),
    };
    match ctx.elicit(question).await {
        Ok(Elicited::Accept(answer)) => format!("accept {}", serde_json::Value::Object(answer)),
        Ok(Elicited::Decline) => "decline".into(),
        Ok(Elicited::Cancel) => "cancel".into(),
        Ok(other) => format!("{other:?}"),
        Err(e) => format!("error: {e}"),
    }
}

/// Asks the client's model for a summary of `text`, and says what came back.
#[tool]
async fn summarise(text: String, ctx: CallContext) -> String {
    let request = Sampling::new(text, 50)
        .with_message(SamplingRole::Assistant, "Ready.")
        .with_message(SamplingRole::User, "Go on.")
        .with_system_prompt("One sentence.")
        .with_model_hint("claude")
        .with_priorities(Some(0.25), None, Some(0.75))
        .with_stop_sequence("END")
        .with_timeout(Duration::from_secs(10));
    match ctx.sample(request).await {
        Ok(answer) => format!(
            "{} | {} | {}",
            answer.text,
            answer.model,
            answer.stop_reason.as_deref().unwrap_or("-")
        ),
        Err(e) => format!("error: {e}"),
    }
}

/// Whether `hang`'s cancellation signal fired (waits for it up to ten seconds).
#[tool]
async fn was_cancelled() -> String {
    let fired = FIRED.notified();
    if !CANCELLED.load(Ordering::SeqCst) {
        let _ = tokio::time::timeout(Duration::from_secs(10), fired).await;
    }
    CANCELLED.load(Ordering::SeqCst).to_string()
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let toolkit = match args.split_first() {
        Some((flag, upstream)) if flag == "--gateway" => {
            let (program, rest) = upstream.split_first().ok_or("--gateway needs a program")?;
            let connection = McpSource::stdio("upstream", program)
                .args(rest)
                .connect()
                .await?;
            let mut toolkit = Toolkit::new();
            connection.add_to(&mut toolkit)?;
            toolkit
        }
        _ => Toolkit::new().with((Steps, Hang, WasCancelled, Chatty, AskCity, Summarise))?,
    };
    McpServer::new(toolkit).serve_stdio().await?;
    Ok(())
}
