//! Offline tour: declare tools, print the request body for each provider, and answer one canned
//! model call per provider. Run with `cargo run --example quickstart`.

use serde_json::{json, Value};
use toolnexus::{NativeTool, Toolkit};

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let weather = NativeTool::of(
        "get_weather",
        "Current weather for a city",
        json!({
            "type": "object",
            "properties": {"city": {"type": "string", "description": "City name, e.g. Chennai"}},
            "required": ["city"],
        }),
        |args| async move { format!("sunny in {}", args["city"].as_str().unwrap_or("?")) },
    )?;
    let toolkit = Toolkit::new().with(weather)?;

    // 1. Request bodies: the same tools, each provider's envelope.
    let openai = json!({"model": "gpt-4o", "messages": [{"role": "user", "content": "Weather in Chennai?"}], "tools": toolkit.to_openai()});
    let anthropic = json!({"model": "claude-sonnet-4-5", "max_tokens": 1024, "messages": [{"role": "user", "content": "Weather in Chennai?"}], "tools": toolkit.to_anthropic()});
    let gemini = json!({"contents": [{"role": "user", "parts": [{"text": "Weather in Chennai?"}]}], "tools": toolkit.to_gemini()});
    for (provider, body) in [
        ("OpenAI", &openai),
        ("Anthropic", &anthropic),
        ("Gemini", &gemini),
    ] {
        println!(
            "== {provider} request body\n{}\n",
            serde_json::to_string_pretty(body)?
        );
    }

    // 2. One canned model call per provider, executed, and the reply each provider expects.
    // OpenAI: `arguments` is JSON text.
    let call: Value = json!({"id": "call_abc123", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\":\"Chennai\"}"}});
    let result = toolkit
        .execute_json(
            call["function"]["name"].as_str().unwrap_or_default(),
            call["function"]["arguments"].as_str().unwrap_or_default(),
        )
        .await;
    let reply = json!({"role": "tool", "tool_call_id": call["id"], "content": result.output});
    println!(
        "== OpenAI call -> reply\n{}\n",
        serde_json::to_string(&reply)?
    );

    // Anthropic: `input` is an object.
    let block = json!({"type": "tool_use", "id": "toolu_01A09q90qw90lq917835lq9", "name": "get_weather", "input": {"city": "Chennai"}});
    let result = toolkit
        .execute(
            block["name"].as_str().unwrap_or_default(),
            block["input"].clone(),
        )
        .await;
    let reply = json!({"role": "user", "content": [{"type": "tool_result", "tool_use_id": block["id"], "content": result.output}]});
    println!(
        "== Anthropic call -> reply\n{}\n",
        serde_json::to_string(&reply)?
    );

    // Gemini: `args` is an object; the reply is matched by name.
    let part = json!({"functionCall": {"name": "get_weather", "args": {"city": "Chennai"}}});
    let call = &part["functionCall"];
    let result = toolkit
        .execute(
            call["name"].as_str().unwrap_or_default(),
            call["args"].clone(),
        )
        .await;
    let reply = json!({"role": "user", "parts": [{"functionResponse": {"name": call["name"], "response": {"output": result.output}}}]});
    println!(
        "== Gemini call -> reply\n{}",
        serde_json::to_string(&reply)?
    );
    Ok(())
}
