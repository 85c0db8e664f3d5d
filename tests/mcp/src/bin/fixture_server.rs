//! Our MCP server over stdio, with tools that exercise each kind of result and fault. Every
//! call a tool receives is appended to the file named by `--log PATH` (or `FIXTURE_LOG`): the
//! tool, then its arguments, so tests see what each tool got and how often.
//!
//! Arguments: `--log-drops` (see `slow`), `--structured` adds `weather` (a `Json<T>` return type: an output schema and
//! structured results) and `bad_weather` (an output schema its results break), `--many N` adds N more tools (`extra_0` ..., each with a title and hints), `--page-size N`, `--timeout-ms N`,
//! `--log PATH`, and `--http ADDR` to serve over streamable HTTP on `ADDR` (such as
//! `127.0.0.1:0`) instead of stdio, after printing the URL as the first line of stdout.

use std::io::Write;
use std::path::PathBuf;
use std::sync::OnceLock;
use std::time::Duration;

use serde_json::{json, Value};
use toolnexus::mcp::McpServer;
use toolnexus::{tool, Json, NativeTool, ToolHints, ToolResult, Toolkit};

static LOG: OnceLock<Option<PathBuf>> = OnceLock::new();
/// `--log-drops`: `slow` logs `slow-dropped` when its call is dropped before it ends.
static LOG_DROPS: OnceLock<bool> = OnceLock::new();

/// Logs `slow-dropped` when dropped before `done` (with `--log-drops`).
struct DropLog {
    ms: u64,
    done: bool,
}

impl Drop for DropLog {
    fn drop(&mut self) {
        if !self.done && LOG_DROPS.get() == Some(&true) {
            log("slow-dropped", &json!({ "ms": self.ms }));
        }
    }
}

fn log(tool: &str, args: &Value) {
    if let Some(path) = LOG.get().cloned().flatten() {
        if let Ok(mut file) = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
        {
            // One write per line: concurrent calls append whole lines (O_APPEND), never
            // pieces of two lines interleaved.
            let _ = file.write_all(format!("{tool} {args}\n").as_bytes());
        }
    }
}

/// Echoes the text back.
#[tool]
fn echo(
    /// The text to echo.
    text: String,
) -> String {
    log("echo", &json!({ "text": text }));
    text
}

/// Adds two integers.
#[tool]
fn add(a: i64, b: i64) -> i64 {
    log("add", &json!({ "a": a, "b": b }));
    a + b
}

/// A tiny chart, as a PNG.
#[tool]
fn chart() -> ToolResult {
    log("chart", &json!({}));
    ToolResult::ok("the chart").with_image("image/png", vec![0x89, b'P', b'N', b'G'])
}

/// A report, as a PDF file.
#[tool]
fn report() -> ToolResult {
    log("report", &json!({}));
    ToolResult::ok("").with_file("application/pdf", b"%PDF-1.7".to_vec(), "report.pdf")
}

/// Always fails, with the reason given.
#[tool]
fn fail(reason: String) -> ToolResult {
    log("fail", &json!({ "reason": reason }));
    ToolResult::error(format!("failed: {reason}"))
}

/// Panics.
#[tool]
fn boom() -> String {
    log("boom", &json!({}));
    panic!("boom")
}

/// Sleeps for `ms` milliseconds, then says so (logged when it starts and when it ends, and with
/// `--log-drops` when it is dropped before, so a test sees a call that was dropped half-way).
#[tool]
async fn slow(ms: u64) -> String {
    log("slow", &json!({ "ms": ms }));
    let mut guard = DropLog { ms, done: false };
    tokio::time::sleep(Duration::from_millis(ms)).await;
    guard.done = true;
    log("slow-done", &json!({ "ms": ms }));
    format!("slept {ms} ms")
}

/// The weather in a city.
#[derive(serde::Serialize, schemars::JsonSchema)]
struct Forecast {
    city: String,
    celsius: f64,
}

/// The weather in a city, as structured data.
#[tool]
fn weather(city: String) -> Json<Forecast> {
    log("weather", &json!({ "city": city }));
    Json(Forecast {
        city,
        celsius: 31.5,
    })
}

/// A tool whose structured result breaks its own output schema (`celsius` a string).
fn bad_weather() -> Result<NativeTool, toolnexus::Error> {
    let schema = json!({"type": "object"});
    let output = json!({"type": "object", "properties": {"celsius": {"type": "number"}}, "required": ["celsius"]});
    Ok(NativeTool::of(
        "bad_weather",
        "Breaks its output schema.",
        schema,
        |_| async {
            let value = json!({"celsius": "warm"});
            ToolResult::ok(value.to_string()).with_metadata(json!({"structuredContent": value}))
        },
    )?
    .with_output_schema(output))
}

fn flag(args: &[String], name: &str) -> Option<u64> {
    let at = args.iter().position(|a| a == name)?;
    args.get(at + 1)?.parse().ok()
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    // `boom` panics on purpose; the toolkit's guard answers it, so no report on stderr.
    std::panic::set_hook(Box::new(|_| {}));
    let args: Vec<String> = std::env::args().collect();
    let log_path = args
        .iter()
        .position(|a| a == "--log")
        .and_then(|at| args.get(at + 1).map(PathBuf::from))
        .or_else(|| std::env::var_os("FIXTURE_LOG").map(PathBuf::from));
    let _ = LOG.set(log_path);
    let _ = LOG_DROPS.set(args.iter().any(|a| a == "--log-drops"));
    let mut toolkit = Toolkit::new().with((Echo, Add, Chart, Report, Fail, Boom, Slow))?;
    for i in 0..flag(&args, "--many").unwrap_or(0) {
        let name = format!("extra_{i}");
        let schema = json!({"type": "object", "properties": {"n": {"type": "integer"}}});
        let extra = NativeTool::of(name, "An extra tool.", schema, move |a| async move {
            log(&format!("extra_{i}"), &a);
            format!("extra {i}")
        })?
        .with_title(format!("Extra {i}"))
        .with_hints(ToolHints::new().with_read_only(true).with_idempotent(true));
        toolkit.add(extra)?;
    }
    if args.iter().any(|a| a == "--structured") {
        toolkit.add(Weather)?;
        toolkit.add(bad_weather()?)?;
    }
    let mut server = McpServer::new(toolkit);
    if let Some(size) = flag(&args, "--page-size") {
        server = server.with_page_size(size as usize);
    }
    if let Some(ms) = flag(&args, "--timeout-ms") {
        server = server.with_call_timeout(Duration::from_millis(ms));
    }
    match args.iter().position(|a| a == "--http") {
        Some(at) => {
            let addr = args.get(at + 1).map_or("127.0.0.1:0", String::as_str);
            let listener = tokio::net::TcpListener::bind(addr).await?;
            println!("http://{}/mcp", listener.local_addr()?);
            server.serve_http(listener).await;
        }
        None => server.serve_stdio().await?,
    }
    Ok(())
}
