//! An MCP server's tools in a toolkit, offline: this example starts itself again as a child
//! process serving `get_weather` over stdio (the code of `mcp_serve`), connects to it, and
//! answers one canned Anthropic response that calls the tool.
//! Run with `cargo run -p toolnexus-examples-mcp --example mcp_source`.

use std::ffi::OsStr;
use std::path::Path;

use serde_json::{json, Value};
use toolnexus::mcp::{LiveToolkit, McpSource};
use toolnexus::{Dialect, Toolkit};

#[path = "mcp_serve.rs"]
mod served;

/// Connects to the MCP server `program args...`, takes its tools and answers one model turn
/// with them; the messages for the next request.
pub async fn run(
    program: &Path,
    args: &[&OsStr],
) -> Result<Vec<Value>, Box<dyn std::error::Error>> {
    let weather = McpSource::stdio("weather", program)
        .args(args)
        .connect()
        .await?;
    // A toolkit that follows the server: when it says its tools changed
    // (`notifications/tools/list_changed`), `current()` gives a new toolkit with the new list.
    // Your own tools go into the `Toolkit` you start it with.
    let live = LiveToolkit::new(Toolkit::new());
    live.attach(&weather)?;
    // One toolkit for this turn: its request body and its answer.
    let toolkit = live.current();

    // The tools array any provider gets, here Anthropic's.
    let body = json!({"model": "claude-sonnet-4-5", "tools": toolkit.to_anthropic()});
    println!("request tools: {}", body["tools"]);

    // What the model answered (canned, so the example runs offline).
    let response = json!({"role": "assistant", "stop_reason": "tool_use", "content": [
        {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {"city": "Chennai"}}
    ]});
    let messages = toolkit
        .respond(&response, Dialect::Anthropic)
        .await?
        .into_messages();
    Ok(messages)
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    if std::env::args().any(|a| a == "--serve") {
        return served::serve().await;
    }
    let me = std::env::current_exe()?;
    let messages = run(&me, &[OsStr::new("--serve")]).await?;
    println!(
        "next messages: {}",
        serde_json::to_string_pretty(&messages)?
    );
    Ok(())
}
