//! A hand-written MCP server over stdio (plain JSON-RPC lines, no SDK) that misbehaves on
//! purpose, one way per mode (the first argument):
//!
//! - `catalog`: valid tools next to ones no client should load (a 1 MB description, a `$ref`
//!   to elsewhere, a root that is not an object, names that collide or are too long);
//! - `many`: 10,000 tools over 4 pages;
//! - `endless`: a next cursor on every page;
//! - `not_json_object`: a tool whose `inputSchema` is an array, which is not MCP at all, next to
//!   one that is fine;
//! - `exit`, `hang`, `garbage`, `error`: on `tools/call`, exit, never answer, answer a line that
//!   is not JSON, answer a JSON-RPC error;
//! - `changing`: after the first `tools/call`, a second tool appears and the server sends
//!   `notifications/tools/list_changed`;
//! - `in_flight`: a `tools/call` of `slow_tool` is not answered at once: the server sends
//!   `notifications/tools/list_changed`, answers the `tools/list` that follows with a second
//!   tool, and only half a second later answers the call (`finished`);
//! - `flood`: a `tools/call` is answered, then followed by 1000
//!   `notifications/tools/list_changed` at once; each `tools/list` is logged (`tools/list`).
//!
//! Each `tools/call` is appended to the file named by `HOSTILE_LOG` (tool name, arguments).

use std::io::{BufRead, Write};

use serde_json::{json, Value};

fn tool(name: &str, description: &str, schema: Value) -> Value {
    json!({"name": name, "description": description, "inputSchema": schema})
}

fn object() -> Value {
    json!({"type": "object", "properties": {"x": {"type": "string"}}})
}

fn catalog() -> Vec<Value> {
    vec![
        tool("ok_tool", "A tool that works.", object()),
        tool("big_description", &"x".repeat(1 << 20), object()),
        tool(
            "ref_elsewhere",
            "Its schema points elsewhere.",
            json!({"type": "object", "properties": {"a": {"$ref": "https://example.com/a.json"}}}),
        ),
        tool(
            "not_object",
            "Its root is a string.",
            json!({"type": "string"}),
        ),
        tool(
            "dotted.name/v1",
            "A name with MCP's extra characters.",
            object(),
        ),
        tool(
            "dotted_name_v1",
            "Collides with the one above once sanitized.",
            object(),
        ),
        tool(&"n".repeat(70), "A name past 64 characters.", object()),
    ]
}

fn main() {
    let mode = std::env::args().nth(1).unwrap_or_default();
    let stdin = std::io::stdin();
    let mut out = std::io::stdout();
    let mut calls = 0;
    // `in_flight`: the call still to answer once the tools are listed again.
    let mut pending: Option<Value> = None;
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let Ok(message) = serde_json::from_str::<Value>(&line) else {
            continue;
        };
        let id = message.get("id").cloned();
        let method = message["method"].as_str().unwrap_or_default();
        let result = match method {
            "initialize" => json!({
                "protocolVersion": message["params"]["protocolVersion"],
                "capabilities": {"tools": {"listChanged": true}},
                "serverInfo": {"name": "hostile", "version": "0"},
            }),
            "tools/list" if pending.is_some() => {
                let answer =
                    json!({"jsonrpc": "2.0", "id": id, "result": list(&mode, &message, calls)});
                send(&mut out, &[answer]);
                std::thread::sleep(std::time::Duration::from_millis(500));
                send(&mut out, &[text_answer(pending.take(), "finished")]);
                continue;
            }
            "tools/list" => {
                if mode == "flood" {
                    log_line("tools/list");
                }
                list(&mode, &message, calls)
            }
            "tools/call" => {
                calls += 1;
                log_line(&format!(
                    "{} {}",
                    message["params"]["name"], message["params"]["arguments"]
                ));
                match mode.as_str() {
                    "exit" => std::process::exit(3),
                    "hang" => continue,
                    "garbage" => {
                        let _ = writeln!(out, "this is not JSON-RPC {{");
                        let _ = out.flush();
                        continue;
                    }
                    "error" => {
                        let error = json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32603, "message": "the database is down"}});
                        send(&mut out, &[error]);
                        continue;
                    }
                    "in_flight" => {
                        pending = id;
                        send(&mut out, &[list_changed()]);
                        continue;
                    }
                    "flood" => {
                        let mut lines = vec![text_answer(id, "ok")];
                        lines.extend(std::iter::repeat_n(list_changed(), 1000));
                        send(&mut out, &lines);
                        continue;
                    }
                    "changing" => {
                        send(&mut out, &[text_answer(id, "added"), list_changed()]);
                        continue;
                    }
                    _ => json!({"content": [{"type": "text", "text": "ok"}]}),
                }
            }
            "ping" => json!({}),
            _ => match id {
                None => continue, // a notification
                Some(_) => {
                    let error = json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32601, "message": "method not found"}});
                    send(&mut out, &[error]);
                    continue;
                }
            },
        };
        send(
            &mut out,
            &[json!({"jsonrpc": "2.0", "id": id, "result": result})],
        );
    }
}

/// Writes `messages` one a line, in one write, and flushes.
fn send(out: &mut impl Write, messages: &[Value]) {
    let mut lines = String::new();
    for message in messages {
        lines.push_str(&message.to_string());
        lines.push('\n');
    }
    let _ = out.write_all(lines.as_bytes());
    let _ = out.flush();
}

/// The answer to call `id`: one text part.
fn text_answer(id: Option<Value>, text: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "result": {"content": [{"type": "text", "text": text}]}})
}

fn list_changed() -> Value {
    json!({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"})
}

/// Appends a line to the file `HOSTILE_LOG` names.
fn log_line(line: &str) {
    if let Some(path) = std::env::var_os("HOSTILE_LOG") {
        if let Ok(mut f) = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
        {
            let _ = writeln!(f, "{line}");
        }
    }
}

fn list(mode: &str, message: &Value, calls: usize) -> Value {
    let cursor = message["params"]["cursor"]
        .as_str()
        .and_then(|c| c.parse::<usize>().ok());
    match mode {
        "catalog" => json!({"tools": catalog()}),
        "many" => {
            let page = cursor.unwrap_or(0);
            let tools: Vec<Value> = (page * 2500..(page + 1) * 2500)
                .map(|i| tool(&format!("t{i}"), "One of many.", object()))
                .collect();
            let next = (page < 3).then(|| (page + 1).to_string());
            json!({"tools": tools, "nextCursor": next})
        }
        "endless" => {
            let page = cursor.unwrap_or(0);
            json!({"tools": [tool(&format!("p{page}"), "A page.", object())], "nextCursor": (page + 1).to_string()})
        }
        "not_json_object" => json!({"tools": [
            tool("ok_tool", "A tool that works.", object()),
            tool("array_schema", "Its schema is an array.", json!([])),
        ]}),
        "changing" if calls > 0 => json!({"tools": [
            tool("add_tool", "Adds a tool.", object()),
            tool("new_tool", "The tool that was added.", object()),
        ]}),
        "changing" => json!({"tools": [tool("add_tool", "Adds a tool.", object())]}),
        "in_flight" if calls > 0 => json!({"tools": [
            tool("slow_tool", "Answers after the list changed.", object()),
            tool("new_tool", "The tool that was added.", object()),
        ]}),
        "in_flight" => {
            json!({"tools": [tool("slow_tool", "Answers after the list changed.", object())]})
        }
        _ => json!({"tools": [tool("call_me", "A tool to call.", object())]}),
    }
}
