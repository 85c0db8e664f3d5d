//! One conversation, three providers, offline: it starts on OpenAI Chat, moves to Anthropic when
//! OpenAI answers 529 (overloaded), and ends on Gemini. Each move reads the history as a
//! `Transcript` and renders it for the next provider: call ids fitted to its rule, every call
//! still with its result, the instructions where that provider wants them. The providers are
//! scripted (no network, no keys). Run with `cargo run --example failover`.

use serde_json::{json, Value};
use toolnexus::transcript::Transcript;
use toolnexus::{tool, Dialect, Toolkit};

/// Current weather for a city.
#[tool]
fn get_weather(
    /// City name
    city: String,
) -> String {
    format!("sunny in {city}")
}

/// A scripted provider: what it answers to a request body (an HTTP status for a failure).
fn provider(dialect: Dialect, body: &Value) -> Result<Value, u16> {
    match dialect {
        Dialect::OpenAiChat if body["messages"].as_array().map_or(0, Vec::len) > 2 => Err(529),
        Dialect::OpenAiChat => Ok(
            json!({"choices": [{"index": 0, "finish_reason": "tool_calls",
            "message": {"role": "assistant", "content": null, "tool_calls": [{
                "id": "call_Q2x9aP7bLm3kR8sT1vW4yZ6c", "type": "function",
                "function": {"name": "get_weather", "arguments": "{\"city\":\"Paris\"}"}}]}}]}),
        ),
        Dialect::Anthropic => Ok(json!({"type": "message", "role": "assistant",
            "stop_reason": "tool_use", "content": [
                {"type": "text", "text": "Now Oslo."},
                {"type": "tool_use", "id": "toolu_01Oslo", "name": "get_weather",
                 "input": {"city": "Oslo"}}]})),
        _ => Ok(
            json!({"candidates": [{"finishReason": "STOP", "content": {"role": "model",
            "parts": [{"text": "Sunny in Paris and in Oslo."}]}}]}),
        ),
    }
}

/// The request body of `dialect` for `history` (and the instructions `system`, where the
/// provider takes them apart).
fn request(dialect: Dialect, toolkit: &Toolkit, history: &[Value], system: Option<&str>) -> Value {
    match dialect {
        Dialect::OpenAiChat => json!({"model": "gpt-4.1", "messages": history,
            "tools": toolkit.to_openai()}),
        Dialect::Anthropic => json!({"model": "claude-sonnet-4-5", "max_tokens": 1024,
            "system": system, "messages": history, "tools": toolkit.to_anthropic()}),
        _ => json!({"systemInstruction": {"parts": [{"text": system}]}, "contents": history,
            "tools": [{"functionDeclarations": toolkit.to_gemini()}]}),
    }
}

/// The conversation, to its last answer; also the last request body sent (Gemini's).
pub async fn run() -> Result<(String, Value), Box<dyn std::error::Error>> {
    let toolkit = Toolkit::new().with(GetWeather)?;
    let mut dialect = Dialect::OpenAiChat;
    let mut history = vec![
        json!({"role": "system", "content": "Answer in one sentence."}),
        dialect.user_message("Is it sunny in Paris and in Oslo?"),
    ];
    let mut system = None;
    // Anthropic takes over when OpenAI fails; Gemini writes the last answer.
    let mut next = [Dialect::Anthropic, Dialect::Gemini].into_iter();
    loop {
        let body = request(dialect, &toolkit, &history, system.as_deref());
        let response = match provider(dialect, &body) {
            Ok(response) => response,
            Err(status) => {
                let to = next.next().ok_or("no provider left")?;
                println!("{dialect} answered {status}: moving to {to}");
                let moved = Transcript::read(dialect, &history)?.render(to);
                (dialect, history, system) = (to, moved.messages, moved.system);
                continue;
            }
        };
        let turn = toolkit.respond(&response, dialect).await?;
        if turn.is_final() {
            let answer = turn.text();
            println!("{dialect}: {answer}");
            return Ok((answer, body));
        }
        for (call, result) in turn.calls.iter().zip(&turn.results) {
            println!("{dialect} called {}: {}", call.name, result.output);
        }
        history.extend(turn.into_messages());
        // After Anthropic's call, the cheaper Gemini writes the answer.
        if dialect == Dialect::Anthropic {
            let to = next.next().ok_or("no provider left")?;
            println!("moving to {to} for the answer");
            let moved = Transcript::read(dialect, &history)?.render(to);
            // Instructions Anthropic kept apart are in the transcript no more: keep them.
            (dialect, history) = (to, moved.messages);
        }
    }
}

#[tokio::main]
pub async fn main() -> Result<(), Box<dyn std::error::Error>> {
    run().await.map(|_| ())
}
