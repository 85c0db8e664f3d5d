//! A scripted server for each provider's dialect: it checks the URL and the headers the provider
//! wants, answers the first request with two tool calls, and answers with text once the second
//! request carries both results (`scripted/server.rs` is the HTTP plumbing).

use serde_json::{json, Value};
use tokio::task::JoinHandle;
use toolnexus::{Dialect, Toolkit};

#[path = "../scripted/server.rs"]
mod server;
pub use server::FINAL_ANSWER;
use server::{Reply, Request};

use super::{run, BoxError, Provider};

/// The key the examples send to the scripted server.
const KEY: &str = "test-key";

/// The loop of [`run`] against the scripted server of `dialect`.
pub async fn run_offline(
    dialect: Dialect,
    toolkit: &Toolkit,
    question: &str,
) -> Result<(String, Vec<Value>), BoxError> {
    let (base_url, server) = start(dialect).await?;
    let provider = Provider {
        dialect,
        base_url,
        api_key: KEY.to_owned(),
        model: "gemini-2.5-flash".to_owned(),
    };
    let answer = run(&provider, toolkit, question).await;
    if answer.is_err() {
        server.abort();
        // The server's verdict says what was wrong, when it saw it.
        if let Ok(Err(why)) = server.await {
            return Err(why.into());
        }
        return answer;
    }
    server.await??;
    answer
}

/// Starts the scripted server of `dialect`; returns its base URL and its task.
pub async fn start(dialect: Dialect) -> std::io::Result<(String, JoinHandle<Result<(), String>>)> {
    server::serve(move |turn, request| {
        check_request(dialect, request)?;
        let conversation = conversation(dialect, &request.body);
        match turn {
            0 => {
                check_tools(dialect, &request.body)?;
                if conversation.len() != 1 {
                    return Err("expected only the user's message in the first request".into());
                }
                Ok(Reply::Json(two_calls(dialect)))
            }
            _ => {
                let got = results(dialect, conversation);
                let expected = expected_results(dialect);
                if got != expected {
                    return Err(format!(
                        "expected the two tool results {expected:?} last, got {got:?}"
                    ));
                }
                Ok(Reply::Json(answer(dialect)))
            }
        }
    })
    .await
}

/// The path and the headers each provider wants.
fn check_request(dialect: Dialect, request: &Request) -> Result<(), String> {
    let (path, headers): (&str, &[(&str, &str)]) = match dialect {
        Dialect::OpenAiChat => ("/chat/completions", &[("authorization", "Bearer test-key")]),
        Dialect::OpenAiResponses => ("/responses", &[("authorization", "Bearer test-key")]),
        Dialect::Anthropic => (
            "/v1/messages",
            &[("x-api-key", KEY), ("anthropic-version", "2023-06-01")],
        ),
        _ => (
            "/v1beta/models/gemini-2.5-flash:generateContent",
            &[("x-goog-api-key", KEY)],
        ),
    };
    if request.path != path {
        return Err(format!("expected a POST to {path}, got {}", request.path));
    }
    for (name, value) in headers {
        if request.header(name) != Some(value) {
            return Err(format!("expected the header `{name}: {value}`"));
        }
    }
    if request.header("content-type") != Some("application/json") {
        return Err("expected `content-type: application/json`".into());
    }
    Ok(())
}

/// The tools, in the provider's envelope: `get_weather` and `add`.
fn check_tools(dialect: Dialect, body: &Value) -> Result<(), String> {
    let tools = match dialect {
        Dialect::Gemini => &body["tools"][0]["functionDeclarations"],
        _ => &body["tools"],
    };
    let names: Vec<&str> = tools
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|t| match dialect {
            Dialect::OpenAiChat => t["function"]["name"].as_str(),
            _ => t["name"].as_str(),
        })
        .collect();
    if names != ["get_weather", "add"] {
        return Err(format!(
            "expected the tools get_weather and add, got {names:?}"
        ));
    }
    Ok(())
}

/// The conversation field of a request.
fn conversation(dialect: Dialect, body: &Value) -> &[Value] {
    let field = match dialect {
        Dialect::OpenAiChat | Dialect::Anthropic => "messages",
        Dialect::OpenAiResponses => "input",
        _ => "contents",
    };
    body[field].as_array().map_or(&[], Vec::as_slice)
}

/// The results at the end of the conversation: (the call's id, or name for Gemini; the output).
fn results(dialect: Dialect, conversation: &[Value]) -> Vec<(String, String)> {
    let text = |v: &Value| v.as_str().unwrap_or_default().to_owned();
    let last = conversation.last().cloned().unwrap_or_default();
    match dialect {
        Dialect::OpenAiChat => conversation[conversation.len().saturating_sub(2)..]
            .iter()
            .map(|m| (text(&m["tool_call_id"]), text(&m["content"])))
            .collect(),
        Dialect::OpenAiResponses => conversation[conversation.len().saturating_sub(2)..]
            .iter()
            .map(|m| (text(&m["call_id"]), text(&m["output"])))
            .collect(),
        Dialect::Anthropic => last["content"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|b| (text(&b["tool_use_id"]), text(&b["content"])))
            .collect(),
        _ => last["parts"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|p| {
                let response = &p["functionResponse"];
                (
                    text(&response["name"]),
                    text(&response["response"]["output"]),
                )
            })
            .collect(),
    }
}

fn expected_results(dialect: Dialect) -> Vec<(String, String)> {
    let ids = match dialect {
        Dialect::Anthropic => ["toolu_weather", "toolu_add"],
        Dialect::Gemini => ["get_weather", "add"],
        _ => ["call_weather_paris", "call_add_2_3"],
    };
    vec![
        (ids[0].to_owned(), "Paris: 18°C, sunny".to_owned()),
        (ids[1].to_owned(), "5".to_owned()),
    ]
}

/// The first answer: `get_weather(Paris)` and `add(2, 3)`, as each provider sends them.
fn two_calls(dialect: Dialect) -> Value {
    match dialect {
        Dialect::OpenAiChat => json!({"id": "chatcmpl-1", "object": "chat.completion",
            "model": "scripted", "choices": [{"index": 0, "finish_reason": "tool_calls",
            "message": {"role": "assistant", "content": null, "tool_calls": [
                {"id": "call_weather_paris", "type": "function",
                 "function": {"name": "get_weather", "arguments": "{\"city\":\"Paris\"}"}},
                {"id": "call_add_2_3", "type": "function",
                 "function": {"name": "add", "arguments": "{\"a\":2,\"b\":3}"}}]}}]}),
        Dialect::OpenAiResponses => json!({"id": "resp_1", "object": "response",
            "status": "completed", "output": [
                {"type": "function_call", "id": "fc_1", "call_id": "call_weather_paris",
                 "name": "get_weather", "arguments": "{\"city\":\"Paris\"}", "status": "completed"},
                {"type": "function_call", "id": "fc_2", "call_id": "call_add_2_3",
                 "name": "add", "arguments": "{\"a\":2,\"b\":3}", "status": "completed"}]}),
        Dialect::Anthropic => json!({"id": "msg_1", "type": "message", "role": "assistant",
            "model": "scripted", "stop_reason": "tool_use", "content": [
                {"type": "text", "text": "Let me look that up."},
                {"type": "tool_use", "id": "toolu_weather", "name": "get_weather",
                 "input": {"city": "Paris"}},
                {"type": "tool_use", "id": "toolu_add", "name": "add", "input": {"a": 2, "b": 3}}]}),
        _ => json!({"candidates": [{"content": {"role": "model", "parts": [
                {"functionCall": {"name": "get_weather", "args": {"city": "Paris"}}},
                {"functionCall": {"name": "add", "args": {"a": 2.0, "b": 3.0}}}]},
            "finishReason": "STOP"}]}),
    }
}

/// The second answer: text.
fn answer(dialect: Dialect) -> Value {
    match dialect {
        Dialect::OpenAiChat => json!({"id": "chatcmpl-2", "object": "chat.completion",
            "model": "scripted", "choices": [{"index": 0, "finish_reason": "stop",
            "message": {"role": "assistant", "content": FINAL_ANSWER}}]}),
        Dialect::OpenAiResponses => json!({"id": "resp_2", "object": "response",
            "status": "completed", "output": [{"type": "message", "id": "msg_2",
            "role": "assistant", "status": "completed",
            "content": [{"type": "output_text", "text": FINAL_ANSWER, "annotations": []}]}]}),
        Dialect::Anthropic => json!({"id": "msg_2", "type": "message", "role": "assistant",
            "model": "scripted", "stop_reason": "end_turn",
            "content": [{"type": "text", "text": FINAL_ANSWER}]}),
        _ => json!({"candidates": [{"content": {"role": "model",
            "parts": [{"text": FINAL_ANSWER}]}, "finishReason": "STOP"}]}),
    }
}
