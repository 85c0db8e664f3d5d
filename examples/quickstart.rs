//! Offline tour: declare tools with `#[tool]`, print the request body for each provider (OpenAI,
//! Anthropic, Gemini, Amazon Bedrock Converse), and
//! answer one canned model response per provider. Run with `cargo run --example quickstart`.

use serde::Serialize;
use serde_json::{json, Value};
use toolnexus::{tool, Dialect, Toolkit, ToolsOptions};

/// Current weather for a city.
#[tool]
async fn get_weather(
    /// City name, e.g. Chennai.
    city: String,
    /// Days ahead (0 = today).
    days: Option<u8>,
) -> String {
    format!("sunny in {city}, {} day(s) ahead", days.unwrap_or(0))
}

#[derive(Serialize)]
struct Sum {
    total: i64,
}

/// Add two integers.
#[tool]
fn add(a: i64, b: i64) -> Sum {
    Sum { total: a + b }
}

#[tokio::main]
pub async fn main() -> Result<(), Box<dyn std::error::Error>> {
    // Each #[tool] fn has a tool type named after it in PascalCase; the fn stays a plain fn.
    let toolkit = Toolkit::new().with((GetWeather, Add))?;
    assert_eq!(add(2, 3).total, 5);

    // 1. Request bodies: the same tools, each provider's envelope.
    let ask = "Weather in Chennai, and 2 + 3?";
    let bodies = [
        (
            "OpenAI",
            json!({"model": "gpt-4o", "messages": [{"role": "user", "content": ask}], "tools": toolkit.to_openai()}),
        ),
        (
            "Anthropic",
            json!({"model": "claude-sonnet-4-5", "max_tokens": 1024, "messages": [{"role": "user", "content": ask}], "tools": toolkit.to_anthropic()}),
        ),
        (
            "Gemini",
            json!({"contents": [{"role": "user", "parts": [{"text": ask}]}], "tools": toolkit.to_gemini()}),
        ),
        (
            // Converse's body (the AWS SDK signs and sends it; `modelId` goes in the URL).
            "Amazon Bedrock Converse",
            json!({"messages": [Dialect::Bedrock.user_message(ask)],
                   "toolConfig": {"tools": toolkit.tools_for(Dialect::Bedrock, ToolsOptions::default())}}),
        ),
    ];
    for (provider, body) in &bodies {
        println!(
            "== {provider} request body\n{}\n",
            serde_json::to_string_pretty(body)?
        );
    }

    // 2. One canned model response per provider: its calls are run (concurrently, each
    //    answered in order, errors included) and the next request's messages come back.
    let responses: [(Dialect, Value); 4] = [
        (
            Dialect::OpenAiChat,
            json!({"choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
            "role": "assistant", "content": null, "tool_calls": [
                {"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\":\"Chennai\"}"}},
                {"id": "call_2", "type": "function", "function": {"name": "add", "arguments": "{\"a\":2,\"b\":3}"}}]}}]}),
        ),
        (
            Dialect::Anthropic,
            json!({"role": "assistant", "stop_reason": "tool_use", "content": [
            {"type": "tool_use", "id": "toolu_01", "name": "get_weather", "input": {"city": "Chennai", "days": 1}},
            {"type": "tool_use", "id": "toolu_02", "name": "add", "input": {"a": 2, "b": "three"}}]}),
        ),
        (
            Dialect::Gemini,
            json!({"candidates": [{"finishReason": "STOP", "content": {"role": "model", "parts": [
            {"functionCall": {"name": "get_weather", "args": {"city": "Chennai"}}},
            {"functionCall": {"name": "get_time", "args": {}}}]}}]}),
        ),
        (
            Dialect::Bedrock,
            json!({"stopReason": "tool_use", "output": {"message": {"role": "assistant", "content": [
            {"toolUse": {"toolUseId": "tooluse_1", "name": "add", "input": {"a": 2, "b": 3}}}]}}}),
        ),
    ];
    for (dialect, response) in &responses {
        // The model's turn, then the results: what the next request appends.
        let next = toolkit.respond(response, *dialect).await?.into_messages();
        println!(
            "== {} calls -> next request\n{}\n",
            dialect.api_name(),
            serde_json::to_string_pretty(&next)?
        );
    }
    Ok(())
}
