//! The host decides what runs: a scripted model asks to delete files, the toolkit's `Policy`
//! holds the destructive calls back, and each one is approved or denied before anything runs.
//! Run with `cargo run --example approval`: it asks on stdin when stdin is a terminal;
//! otherwise (CI, a pipe) a rule approves deletions under `/tmp/` and denies the rest.

use std::io::{BufRead, IsTerminal, Write};

use serde_json::{json, Value};
use toolnexus::{tool, Answer, Dialect, Gated, PendingCall, PendingTurn, Policy, Toolkit};

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
    // `Policy::new()`: decided by the tools' hints, so `delete_file` (destructive) asks.
    let toolkit = Toolkit::new()
        .with_all((ListFolder, DeleteFile))?
        .with_policy(Policy::new());
    let mut messages = vec![Dialect::Anthropic.user_message("Clean up my files.")];
    for step in 0.. {
        let turn = match toolkit
            .respond_gated(&model(step), Dialect::Anthropic)
            .await?
        {
            Gated::Ran(turn) => turn,
            Gated::Pending(pending) => {
                // Nothing has run yet. The pending turn could wait in a database for a person,
                // across a restart: stored as JSON, read back, answered, resumed.
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
    run(std::io::stdin().is_terminal()).await.map(drop)
}
