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
//! - `flood`: the first `tools/call` is answered, then followed by 1000
//!   `notifications/tools/list_changed` at once (later calls are only answered); each
//!   `tools/list` is logged (`tools/list`).
//!
//! - `handshake`: the `initialize` request's params logged as one JSON line;
//! - `stall_init`, `stall_list`: never answer `initialize`, `tools/list`;
//! - `slow_pages`: each `tools/list` page answered after 400 ms, always with a next cursor;
//! - `not_a_list`: `tools/list` answered with a result that has no `tools`;
//! - `undecodable`: next to `ok_tool`, entries serde_json cannot read (a lone surrogate in a
//!   description, a schema nested 130 levels) and a name with control characters;
//! - `tiny_flood`: 10 pages of 20,000 tiny tools each;
//! - `budget`: 100 tools over 10 pages, each with a 60 KiB description and a 60 KiB schema;
//! - `wide_pair`: `small`, then `wide_a` and `wide_b`, whose schemas (120 KB each, inside
//!   `max_schema_bytes`) hold 60,000 JSON values each, so the page holds more than the
//!   100,000 of `max_message_values`;
//! - `results`: tools whose answers attack the client: `blocks` (500,000 empty content
//!   blocks), `zeros` (15 MiB of zeros as `structuredContent`), `huge` (17 MiB of text),
//!   `long_error` (a 10 MB JSON-RPC error message with control characters), `surrogate` (a lone
//!   surrogate in its text), `deep` (`structuredContent` nested 130 levels), `fine`.
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
            "initialize" if mode == "stall_init" => continue,
            "tools/list" if mode == "stall_list" => continue,
            "initialize" => {
                if mode == "handshake" {
                    log_line(&message["params"].to_string());
                }
                json!({
                    "protocolVersion": message["params"]["protocolVersion"],
                    "capabilities": {"tools": {"listChanged": true}},
                    "serverInfo": {"name": "hostile", "version": "0"},
                })
            }
            "tools/list" if pending.is_some() => {
                let answer =
                    json!({"jsonrpc": "2.0", "id": id, "result": list(&mode, &message, calls)});
                send(&mut out, &[answer]);
                std::thread::sleep(std::time::Duration::from_millis(500));
                send(&mut out, &[text_answer(pending.take(), "finished")]);
                continue;
            }
            "tools/list" if mode == "undecodable" => {
                let answer =
                    json!({"jsonrpc": "2.0", "id": id, "result": list(&mode, &message, calls)});
                // A lone surrogate no Rust string can hold, written into the JSON text.
                let line = answer
                    .to_string()
                    .replace("PLACEHOLDER", "bad \\ud800 text");
                let _ = writeln!(out, "{line}");
                let _ = out.flush();
                continue;
            }
            "tools/list" => {
                if mode == "flood" {
                    log_line("tools/list");
                }
                if mode == "slow_pages" {
                    std::thread::sleep(std::time::Duration::from_millis(400));
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
                    "results" => {
                        let name = message["params"]["name"].as_str().unwrap_or_default();
                        let _ = out.write_all(attack(name, &id.unwrap_or_default()).as_bytes());
                        let _ = out.flush();
                        continue;
                    }
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
                        if calls == 1 {
                            lines.extend(std::iter::repeat_n(list_changed(), 1000));
                        }
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

/// The answer line to call `id` of tool `name` in mode `results`, written by hand: building
/// half a million values first would take the fixture longer than the client.
fn attack(name: &str, id: &Value) -> String {
    let result = match name {
        "blocks" | "zeros" => toolnexus_mcp_tests::flood_result(name).unwrap_or_default(),
        // A lone surrogate no reader can decode, and nesting past serde_json's limit.
        "surrogate" => r#"{"content":[{"type":"text","text":"bad \ud800 text"}]}"#.to_owned(),
        "deep" => format!(
            r#"{{"content":[],"structuredContent":{{"x":{}{}}}}}"#,
            "[".repeat(130),
            "]".repeat(130)
        ),
        "huge" => format!(
            r#"{{"content":[{{"type":"text","text":"{}"}}]}}"#,
            "x".repeat(17 << 20)
        ),
        "long_error" => {
            let message = format!("\\u001b[31mdisk\\u0000{}", "y".repeat(10_000_000));
            return format!(
                r#"{{"jsonrpc":"2.0","id":{id},"error":{{"code":-32603,"message":"{message}"}}}}"#
            ) + "\n";
        }
        _ => r#"{"content":[{"type":"text","text":"fine"}]}"#.to_owned(),
    };
    format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{result}}}"#) + "\n"
}

/// A JSON value nested `levels` arrays deep.
fn nested(levels: usize) -> Value {
    (1..levels).fold(json!([]), |inner, _| Value::Array(vec![inner]))
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
        "slow_pages" => {
            let page = cursor.unwrap_or(0);
            json!({"tools": [tool(&format!("p{page}"), "A page.", object())], "nextCursor": (page + 1).to_string()})
        }
        "not_a_list" => json!({"something": 1}),
        "results" => {
            let tools = [
                "blocks",
                "zeros",
                "huge",
                "long_error",
                "surrogate",
                "deep",
                "fine",
            ]
            .map(|name| tool(name, "An answer that attacks the client.", object()));
            json!({ "tools": tools })
        }
        "undecodable" => json!({"tools": [
            tool("ok_tool", "A tool that works.", object()),
            tool("lone_surrogate", "PLACEHOLDER", object()),
            tool("too_deep", "Nested past the limit.", json!({"type": "object", "properties": {"x": {"default": nested(130)}}})),
            tool("esc\u{1b}[31mred\u{7}", "A name with control characters.", object()),
            tool("after", "Still here.", object()),
        ]}),
        "tiny_flood" => {
            let page = cursor.unwrap_or(0);
            let tools: Vec<Value> = (page * 20_000..(page + 1) * 20_000)
                .map(|i| json!({"name": format!("t{i}"), "inputSchema": {"type": "object"}}))
                .collect();
            json!({"tools": tools, "nextCursor": (page < 9).then(|| (page + 1).to_string())})
        }
        "budget" => {
            let page = cursor.unwrap_or(0);
            let tools: Vec<Value> = (page * 10..(page + 1) * 10)
                .map(|i| {
                    let schema = json!({"type": "object", "properties": {"x": {"type": "string", "description": "s".repeat(60 << 10)}}});
                    tool(&format!("b{i}"), &"d".repeat(60 << 10), schema)
                })
                .collect();
            json!({"tools": tools, "nextCursor": (page < 9).then(|| (page + 1).to_string())})
        }
        "wide_pair" => {
            let wide = json!({"type": "object", "properties": {"x": {"enum": vec![0; 60_000]}}});
            json!({"tools": [
                tool("small", "A small tool.", object()),
                tool("wide_a", "A wide schema.", wide.clone()),
                tool("wide_b", "Another wide schema.", wide),
            ]})
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
