//! Every shape of the file, every variable form, every error.

use std::time::Duration;

use super::{McpConfig, McpConfigError};

fn vars(name: &str) -> Option<String> {
    match name {
        "TOKEN" => Some("t0k".into()),
        "HOME" => Some("/home/ada".into()),
        "input:api-key" => Some("k3y".into()),
        _ => None,
    }
}

fn config(text: &str) -> McpConfig {
    McpConfig::from_json("mcp.json", text)
        .unwrap()
        .with_resolver(vars)
}

#[test]
fn claude_desktops_own_example_reads_as_it_is() {
    // The example of Claude Desktop's documentation (claude_desktop_config.json).
    let config = config(
        r#"{"mcpServers": {"filesystem": {"command": "npx", "args": ["-y",
            "@modelcontextprotocol/server-filesystem", "/Users/username/Desktop",
            "/Users/username/Downloads"]}}}"#,
    );
    let sources = config.sources().unwrap();
    let source = sources[0].1.as_ref().unwrap();
    assert_eq!(source.name, "filesystem");
    assert_eq!(source.program, "npx");
    assert_eq!(source.args.len(), 4);
    assert_eq!(source.call_timeout, Duration::from_secs(30));
}

#[test]
fn each_shape_and_variable_form_is_read() {
    // Claude Code: `${VAR}` and `${VAR:-default}` in every string.
    let code = config(
        r#"{"mcpServers": {"local": {"type": "stdio", "command": "${HOME}/bin/server",
            "args": ["--mode", "${MODE:-fast}"], "env": {"TOKEN": "${TOKEN}"}}}}"#,
    );
    let local = code.sources().unwrap().remove(0).1.unwrap();
    assert_eq!(local.program, "/home/ada/bin/server");
    assert_eq!(local.args, ["--mode", "fast"]);
    assert_eq!(local.env, [("TOKEN".into(), "t0k".into())]);

    // VS Code: `servers`, `inputs`, `${env:VAR}` and `${input:ID}`.
    let vscode = config(
        r#"{"inputs": [{"id": "api-key", "type": "promptString"}], "servers": {"gh":
            {"command": "gh-mcp", "env": {"KEY": "${input:api-key}", "T": "${env:TOKEN}"}}}}"#,
    );
    let gh = vscode.sources().unwrap().remove(0).1.unwrap();
    assert_eq!(
        gh.env,
        [("KEY".into(), "k3y".into()), ("T".into(), "t0k".into())]
    );

    // The family's own: `mcp`, a command list, `environment`, timeout, tools, prefix.
    let own = config(
        r#"{"mcp": {"fs": {"command": ["node", "server.js", "--root", "/srv"],
            "environment": {"A": "1"}, "timeout": 5000, "prefix": "fs_",
            "tools": {"read_file": true, "write_file": false}},
            "off": {"command": "x", "enabled": false}, "gone": {"command": "x", "disabled": true}}}"#,
    );
    let sources = own.sources().unwrap();
    let fs = sources[0].1.as_ref().unwrap();
    assert_eq!(fs.program, "node");
    assert_eq!(fs.args, ["server.js", "--root", "/srv"]);
    assert_eq!(fs.env, [("A".into(), "1".into())]);
    assert_eq!(fs.call_timeout, Duration::from_millis(5000));
    assert_eq!(fs.prefix, "fs_");
    assert_eq!(fs.allow.as_deref(), Some(&["read_file".to_owned()][..]));
    assert!(sources[1].1.is_none() && sources[2].1.is_none());

    // A bare map, siblings of the family's other config left out.
    let bare = config(r#"{"time": {"command": "uvx"}, "agents": {}, "builtins": {}}"#);
    assert_eq!(bare.names(), ["time"]);

    // Only `false`s: those left out.
    let deny = config(r#"{"s": {"command": "x", "tools": {"rm": false}}}"#);
    assert_eq!(deny.sources().unwrap()[0].1.as_ref().unwrap().deny, ["rm"]);
}

#[cfg(feature = "mcp-http")]
#[test]
fn a_remote_server_gets_its_url_and_headers_resolved() {
    let remote = config(
        r#"{"mcpServers": {"api": {"type": "http", "url": "https://api.example/mcp",
            "headers": {"Authorization": "Bearer ${TOKEN}"}}}}"#,
    );
    let api = remote.sources().unwrap().remove(0).1.unwrap();
    assert_eq!(api.url.as_deref(), Some("https://api.example/mcp"));
    assert_eq!(api.headers, [("Authorization".into(), "Bearer t0k".into())]);
    // A `url` alone means HTTP too.
    let implied = config(r#"{"mcpServers": {"api": {"url": "http://127.0.0.1:1/mcp"}}}"#);
    assert!(implied.sources().unwrap()[0]
        .1
        .as_ref()
        .unwrap()
        .url
        .is_some());
}

#[test]
fn an_unset_variable_is_an_error_naming_the_file_server_and_key() {
    let err = config(r#"{"mcpServers": {"api": {"command": "x", "env": {"KEY": "${MISSING}"}}}}"#)
        .sources()
        .unwrap_err();
    assert_eq!(
        err,
        McpConfigError::Unset {
            file: "mcp.json".into(),
            server: "api".into(),
            key: "env.KEY".into(),
            variable: "MISSING".into()
        }
    );
    assert_eq!(
        err.to_string(),
        "mcp.json: server `api`: `env.KEY` uses `${MISSING}`, which is not set; set it, or give \
         a default (`${MISSING:-value}`)"
    );
    // An input the resolver does not know is unset too, never an empty string.
    let input = config(r#"{"servers": {"s": {"command": "x", "args": ["${input:other}"]}}}"#);
    assert!(matches!(input.sources(), Err(McpConfigError::Unset { key, .. }) if key == "args"));
}

#[test]
fn entries_that_are_not_what_their_keys_allow_are_refused_by_name() {
    let why = |text: &str| {
        McpConfig::from_json("mcp.json", text)
            .and_then(|c| c.sources().map(drop))
            .unwrap_err()
            .to_string()
    };
    assert!(why("not json").starts_with("mcp.json: not JSON: "));
    assert_eq!(why("[]"), "mcp.json: the file is a JSON object of servers");
    assert_eq!(
        why(r#"{"mcpServers": []}"#),
        "mcp.json: its servers are a JSON object, by name"
    );
    assert_eq!(
        why(r#"{"mcpServers": {"a": 1}}"#),
        "mcp.json: server `a`: its entry is a JSON object"
    );
    assert_eq!(
        why(r#"{"mcpServers": {"a": {}}}"#),
        "mcp.json: server `a`: a server needs `command` (a program, or a list of the program \
         and its arguments) or `url`"
    );
    assert_eq!(
        why(r#"{"mcpServers": {"a": {"command": 1}}}"#),
        "mcp.json: server `a`: `command` is a program (a string) or a list of the program and \
         its arguments"
    );
    assert_eq!(
        why(r#"{"mcpServers": {"a": {"command": "x", "args": ["y", 2]}}}"#),
        "mcp.json: server `a`: `args` is a string"
    );
    assert_eq!(
        why(r#"{"mcpServers": {"a": {"command": "x", "timeout": -1}}}"#),
        "mcp.json: server `a`: `timeout` is a positive number of milliseconds"
    );
    assert!(
        why(r#"{"mcpServers": {"a": {"type": "sse", "url": "http://x/sse"}}}"#)
            .contains("`type` `sse` (the old HTTP+SSE transport) is not supported")
    );
    assert_eq!(
        why(r#"{"mcpServers": {"a": {"command": "x", "tools": {"t": "yes"}}}}"#),
        "mcp.json: server `a`: `tools.t` is true or false"
    );
}

#[test]
fn debug_shows_names_only() {
    let config = config(r#"{"mcpServers": {"api": {"command": "x", "env": {"K": "${TOKEN}"}}}}"#);
    let debug = format!("{config:?}");
    assert!(debug.contains("api") && !debug.contains("TOKEN"), "{debug}");
}
