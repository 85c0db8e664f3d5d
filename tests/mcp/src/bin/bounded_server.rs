//! Our MCP server with every bound and check set from its arguments, for the tests that attack
//! them. Tools: `echo`, `count` and `slow` (logs `slow` when it starts and `slow-done` when it ends to
//! the file given by `--log`, so a test sees which calls ran and which were cut).
//!
//! Arguments: `--http ADDR` (else stdio; the URL is printed as the first line), `--log PATH`,
//! `--allowed-host H` and `--allowed-origin O` (each repeatable), `--max-sessions N`,
//! `--idle-ms N`, `--max-connections N`, `--read-timeout-ms N`, `--max-calls N`,
//! `--max-session-calls N`, `--max-request-bytes N`, `--max-request-values N`, `--stateless`, `--json-response`,
//! `--max-sessions-per-client N`, `--max-calls-per-client N`, `--client-header NAME` (the
//! client is the value of that header, as an auth layer's principal would be),
//! `--gateway PROGRAM SCRIPT` (serve a live toolkit with our tools and those of the MCP server
//! `PROGRAM SCRIPT` over stdio, which follows its list changes).

use std::io::Write;
use std::path::PathBuf;
use std::sync::OnceLock;
use std::time::Duration;

use toolnexus::mcp::{HttpOptions, LiveToolkit, McpServer, McpSource};
use toolnexus::{tool, Toolkit};

static LOG: OnceLock<Option<PathBuf>> = OnceLock::new();

fn log(line: &str) {
    if let Some(path) = LOG.get().cloned().flatten() {
        if let Ok(mut file) = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
        {
            let _ = file.write_all(format!("{line}\n").as_bytes());
        }
    }
}

/// Echoes the text back.
#[tool]
fn echo(text: String) -> String {
    log("echo");
    text
}

/// How many numbers it was given.
#[tool]
fn count(numbers: Vec<u64>) -> usize {
    log("count");
    numbers.len()
}

/// Sleeps for `ms` milliseconds.
#[tool]
async fn slow(ms: u64) -> String {
    log("slow");
    tokio::time::sleep(Duration::from_millis(ms)).await;
    log("slow-done");
    format!("slept {ms} ms")
}

fn values<'a>(args: &'a [String], name: &'a str) -> impl Iterator<Item = &'a str> + 'a {
    args.windows(2)
        .filter(move |w| w[0] == name)
        .map(|w| w[1].as_str())
}

fn number(args: &[String], name: &str) -> Option<u64> {
    values(args, name).next()?.parse().ok()
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let _ = LOG.set(values(&args, "--log").next().map(PathBuf::from));
    let toolkit = Toolkit::new().with((Echo, Count, Slow))?;
    let gateway = args.iter().position(|a| a == "--gateway");
    // The upstream connection lives as long as the server: the live toolkit follows it.
    let (mut server, _upstream) = match gateway {
        Some(at) => {
            let source = McpSource::stdio("upstream", &args[at + 1])
                .arg(&args[at + 2])
                .connect()
                .await?;
            let live = LiveToolkit::new(toolkit);
            live.attach(&source)?;
            (McpServer::live(live), Some(source))
        }
        None => (McpServer::new(toolkit), None),
    };
    if let Some(n) = number(&args, "--max-calls") {
        server = server.with_max_calls(n as usize);
    }
    if let Some(n) = number(&args, "--max-session-calls") {
        server = server.with_max_calls_per_session(n as usize);
    }
    if let Some(n) = number(&args, "--max-request-bytes") {
        server = server.with_max_request_bytes(n as usize);
    }
    let Some(addr) = values(&args, "--http").next() else {
        server.serve_stdio().await?;
        return Ok(());
    };
    let mut options = HttpOptions::new()
        .with_allowed_hosts(values(&args, "--allowed-host"))
        .with_allowed_origins(values(&args, "--allowed-origin"))
        .with_stateless(args.iter().any(|a| a == "--stateless"))
        .with_json_response(args.iter().any(|a| a == "--json-response"));
    if let Some(n) = number(&args, "--max-sessions") {
        options = options.with_max_sessions(n as usize);
    }
    if let Some(ms) = number(&args, "--idle-ms") {
        options = options.with_session_idle_timeout(Duration::from_millis(ms));
    }
    if let Some(n) = number(&args, "--max-connections") {
        options = options.with_max_connections(n as usize);
    }
    if let Some(ms) = number(&args, "--read-timeout-ms") {
        options = options.with_read_timeout(Duration::from_millis(ms));
    }
    if let Some(n) = number(&args, "--max-sessions-per-client") {
        options = options.with_max_sessions_per_client(n as usize);
    }
    if let Some(n) = number(&args, "--max-calls-per-client") {
        options = options.with_max_calls_per_client(n as usize);
    }
    if let Some(name) = values(&args, "--client-header").next() {
        let name = name.to_owned();
        options = options.with_client_key(move |parts| {
            let value = parts.headers.get(name.as_str())?;
            value.to_str().ok().map(str::to_owned)
        });
    }
    if let Some(n) = number(&args, "--max-request-values") {
        options = options.with_max_request_values(n as usize);
    }
    let listener = tokio::net::TcpListener::bind(addr).await?;
    println!("http://{}/mcp", listener.local_addr()?);
    std::io::stdout().flush()?;
    server.http_service(options).serve(listener).await;
    Ok(())
}
