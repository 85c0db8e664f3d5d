//! Many tools, one request, offline: a catalog of 300 tools of which only `get_time` and
//! `search_tools` are sent. A scripted OpenAI Chat model searches, the tool it finds joins the
//! next request's tools, and it calls it; then the same catalog on Anthropic, where the API
//! searches itself. Run with `cargo run --example many_tools`.

use serde_json::{json, Value};
use toolnexus::deferred::{AnthropicSearch, Deferred};
use toolnexus::{Dialect, NativeTool, Toolkit};

/// A catalog of 300 tools over ten services, and `get_time`.
fn catalog() -> Result<Toolkit, toolnexus::Error> {
    const SERVICES: [&str; 10] = [
        "billing", "crm", "helpdesk", "shop", "ads", "mail", "calendar", "drive", "chat", "hr",
    ];
    const ACTIONS: [(&str, &str); 30] = [
        ("list", "Lists"),
        ("get", "Gets one of"),
        ("create", "Creates one of"),
        ("update", "Updates one of"),
        ("delete", "Deletes one of"),
        ("archive", "Archives one of"),
        ("export", "Exports"),
        ("import", "Imports"),
        ("search", "Searches"),
        ("count", "Counts"),
        ("tag", "Tags one of"),
        ("refund", "Refunds one of"),
        ("share", "Shares one of"),
        ("lock", "Locks one of"),
        ("unlock", "Unlocks one of"),
        ("copy", "Copies one of"),
        ("move", "Moves one of"),
        ("rename", "Renames one of"),
        ("restore", "Restores one of"),
        ("audit", "Audits"),
        ("approve", "Approves one of"),
        ("reject", "Rejects one of"),
        ("assign", "Assigns one of"),
        ("comment", "Comments on one of"),
        ("follow", "Follows one of"),
        ("notify", "Notifies the owners of"),
        ("schedule", "Schedules one of"),
        ("sync", "Syncs"),
        ("merge", "Merges two of"),
        ("summarize", "Summarizes"),
    ];
    let tool = |name: String, description: String| {
        let answer = format!("{name}: done");
        NativeTool::of(
            name,
            description,
            json!({"type": "object", "properties": {"id": {"type": "string",
                "description": "The record's id"}}}),
            move |_| {
                let answer = answer.clone();
                async move { answer }
            },
        )
    };
    let mut toolkit = Toolkit::new().with(tool("get_time".into(), "The current time.".into())?)?;
    for service in SERVICES {
        for (action, verb) in ACTIONS {
            let name = format!("{service}_{action}");
            toolkit.add(tool(name, format!("{verb} the {service} records."))?)?;
        }
    }
    Ok(toolkit)
}

/// The names of a Chat tools array.
fn names(tools: &[Value]) -> Vec<&str> {
    tools
        .iter()
        .filter_map(|t| t["function"]["name"].as_str())
        .collect()
}

/// The scripted model: searches first, then calls the first tool the search found.
fn model(history: &[Value]) -> Value {
    let found = history.iter().rev().find_map(|m| {
        let content = m.get("content")?.as_str()?;
        let value: Value = serde_json::from_str(content).ok()?;
        value["found"][0]["name"].as_str().map(str::to_owned)
    });
    let (id, name, arguments) = match found {
        None => (
            "call_1",
            "search_tools".to_owned(),
            r#"{"query":"refund a billing record"}"#,
        ),
        Some(name) => ("call_2", name, r#"{"id":"INV-42"}"#),
    };
    json!({"choices": [{"finish_reason": "tool_calls", "message": {"role": "assistant",
        "content": null, "tool_calls": [{"id": id, "type": "function",
        "function": {"name": name, "arguments": arguments}}]}}]})
}

/// The conversation on OpenAI Chat; gives the tools each request sent.
pub async fn run() -> Result<Vec<Vec<String>>, Box<dyn std::error::Error>> {
    let deferred = Deferred::new(catalog()?, ["get_time"])?;
    println!("{} tools, sent at first: 2", deferred.toolkit().len());
    let mut history = vec![Dialect::OpenAiChat.user_message("Refund invoice INV-42.")];
    let mut sent = Vec::new();
    for _ in 0..2 {
        let tools = deferred.tools_for(Dialect::OpenAiChat, &history)?;
        let _body = json!({"model": "gpt-4.1", "messages": history, "tools": tools});
        sent.push(names(&tools).into_iter().map(str::to_owned).collect());
        let turn = deferred
            .toolkit()
            .respond(&model(&history), Dialect::OpenAiChat)
            .await?;
        for (call, result) in turn.calls.iter().zip(&turn.results) {
            println!("{} -> {}", call.name, result.output);
        }
        history.extend(turn.into_messages());
    }
    // On Anthropic the API searches itself: its search tool, the catalog deferred.
    let tools = deferred.to_anthropic_native(AnthropicSearch::Bm25);
    let deferred_count = tools.iter().filter(|t| t["defer_loading"] == true).count();
    println!(
        "Anthropic: {} tools, {deferred_count} deferred, searched by the API",
        tools.len()
    );
    Ok(sent)
}

#[tokio::main]
pub async fn main() -> Result<(), Box<dyn std::error::Error>> {
    run().await.map(|_| ())
}
