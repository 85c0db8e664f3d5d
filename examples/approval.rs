//! The host decides what runs: a scripted model asks to delete files, the toolkit's `Policy`
//! holds the destructive calls back, and each one is approved or denied before anything runs.
//! Run with `cargo run --example approval`: it asks on stdin when stdin is a terminal;
//! otherwise (CI, a pipe) a rule approves deletions under `/tmp/` and denies the rest. With
//! `-- --stream` the model's responses arrive as event streams: `list_folder` runs while the
//! stream arrives, the deletions wait for their answers all the same.

use std::io::{BufRead, IsTerminal, Write};

use serde_json::{json, Value};
use toolnexus::approval::{Answer, Gated, PendingCall, PendingTurn};
use toolnexus::stream::{StreamEvent, StreamTurn};
use toolnexus::{tool, Dialect, Policy, RunOptions, Toolkit};

/// Lists the files of a folder.
#[tool(read_only)]
fn list_folder(path: String) -> Vec<String> {
    vec![format!("{path}/old.log"), format!("{path}/today.log")]
}

/// Deletes a file (this example only pretends to).
#[tool(destructive)]
fn delete_file(path: String) -> String {
    format!("deleted {path}")
}

/// The scripted model: first it lists and deletes, then it answers.
fn model(step: usize) -> Value {
    match step {
        0 => json!({"role": "assistant", "stop_reason": "tool_use", "content": [
            {"type": "text", "text": "Cleaning up."},
            {"type": "tool_use", "id": "toolu_1", "name": "list_folder", "input": {"path": "/tmp/cache"}},
            {"type": "tool_use", "id": "toolu_2", "name": "delete_file", "input": {"path": "/tmp/cache/old.log"}},
            {"type": "tool_use", "id": "toolu_3", "name": "delete_file", "input": {"path": "/home/me/notes.txt"}}]}),
        _ => json!({"role": "assistant", "stop_reason": "end_turn", "content": [
            {"type": "text", "text": "Deleted the old log; I was not allowed to touch your notes."}]}),
    }
}

/// The same response as an Anthropic event stream (each block started, its content in one
/// delta, stopped), as `"stream": true` would send it.
fn events(response: &Value) -> Vec<Value> {
    let mut events = vec![
        json!({"type": "message_start", "message": {"type": "message",
        "role": "assistant", "content": [], "stop_reason": null}}),
    ];
    for (index, block) in response["content"]
        .as_array()
        .into_iter()
        .flatten()
        .enumerate()
    {
        let (start, delta) = match block["type"].as_str() {
            Some("tool_use") => {
                let partial_json = block["input"].to_string();
                let mut start = block.clone();
                start["input"] = json!({});
                (
                    start,
                    json!({"type": "input_json_delta", "partial_json": partial_json}),
                )
            }
            _ => (
                json!({"type": "text", "text": ""}),
                json!({"type": "text_delta", "text": block["text"]}),
            ),
        };
        events.extend([
            json!({"type": "content_block_start", "index": index, "content_block": start}),
            json!({"type": "content_block_delta", "index": index, "delta": delta}),
            json!({"type": "content_block_stop", "index": index}),
        ]);
    }
    events
        .push(json!({"type": "message_delta", "delta": {"stop_reason": response["stop_reason"]}}));
    events.push(json!({"type": "message_stop"}));
    events
}

/// One answer: asked on stdin, or by the rule.
fn decide(call: &PendingCall, interactive: bool) -> std::io::Result<Answer> {
    let path = match call.arguments() {
        toolnexus::Arguments::Value(args) => args["path"].as_str().unwrap_or_default().to_owned(),
        _ => String::new(),
    };
    let request = call.request().expect("an awaiting call has a request");
    if interactive {
        print!("{} {path} [y/N] ", request.prompt);
        std::io::stdout().flush()?;
        let mut line = String::new();
        std::io::stdin().lock().read_line(&mut line)?;
        return Ok(match line.trim() {
            "y" | "Y" | "yes" => Answer::approve(call),
            _ => Answer::deny(call, "the user said no"),
        });
    }
    let answer = if path.starts_with("/tmp/") {
        Answer::approve(call)
    } else {
        Answer::deny(
            call,
            "only files under /tmp/ may be deleted without a person",
        )
    };
    println!(
        "{} {path}: {}",
        request.prompt,
        if answer.approves() {
            "approved by rule"
        } else {
            "denied by rule"
        }
    );
    Ok(answer)
}

/// The loop; `interactive`: ask on stdin.
pub async fn run(interactive: bool) -> Result<String, Box<dyn std::error::Error>> {
    run_with(interactive, false).await
}

/// The loop; `streamed`: each response arrives as an event stream.
pub async fn run_with(
    interactive: bool,
    streamed: bool,
) -> Result<String, Box<dyn std::error::Error>> {
    // `Policy::new()`: decided by the tools' hints, so `delete_file` (destructive) asks.
    let toolkit = Toolkit::new()
        .with((ListFolder, DeleteFile))?
        .with_policy(Policy::new());
    let mut messages = vec![Dialect::Anthropic.user_message("Clean up my files.")];
    for step in 0.. {
        let gated = if streamed {
            // Calls the policy lets run start as their arguments complete; the others wait.
            let mut turn = StreamTurn::new(&toolkit, Dialect::Anthropic, RunOptions::default());
            for event in events(&model(step)) {
                for happened in turn.feed_event(event) {
                    if let StreamEvent::CallStarted { call, .. } = happened {
                        println!("started while streaming: {}", call.name);
                    }
                }
            }
            turn.finish_gated().await?
        } else {
            toolkit
                .respond_gated(&model(step), Dialect::Anthropic)
                .await?
        };
        let turn = match gated {
            Gated::Ran(turn) => turn,
            Gated::Pending(pending) => {
                // No deletion has run yet (streamed, `list_folder` has, and keeps its result).
                // The pending turn could wait in a database for a person, across a restart:
                // stored as JSON, read back, answered, resumed.
                let stored = pending.to_json();
                let pending = PendingTurn::from_json(&stored)?;
                let answers = pending
                    .awaiting()
                    .map(|call| decide(call, interactive))
                    .collect::<Result<Vec<_>, _>>()?;
                toolkit.resume(pending, &answers).await?
            }
        };
        for (call, result) in turn.calls.iter().zip(&turn.results) {
            println!("{} -> {}", call.name, result.output);
        }
        let answered = turn.is_final();
        let text = turn.text();
        messages.extend(turn.into_messages());
        if answered {
            println!("model: {text}");
            return Ok(text);
        }
    }
    unreachable!("the scripted model answers at its second step")
}

#[tokio::main]
pub async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let streamed = std::env::args().any(|arg| arg == "--stream");
    run_with(std::io::stdin().is_terminal(), streamed)
        .await
        .map(drop)
}
