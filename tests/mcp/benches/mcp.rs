//! MCP through toolnexus, next to rmcp used directly (the floor), in one run:
//!
//! - `mcp/call`: a call of a server's `echo` tool through a `Toolkit` (`McpTool`: the toolkit's
//!   path, then `tools/call`) against the same `tools/call` with rmcp's client directly; both
//!   talk to the same `fixture_server` child process over stdio.
//! - `mcp/serve`: `tools/call` of `echo` served by `McpServer` (a toolkit) against an rmcp
//!   `#[tool_router]` server with the same tool; the same rmcp client drives both over an
//!   in-process pipe.
//!
//! `cargo bench -p toolnexus-mcp-tests --bench mcp`; the ratio is `toolkit` / `floor`.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolRequestParams, ServerCapabilities, ServerConfig};
use rmcp::service::RunningService;
use rmcp::transport::TokioChildProcess;
use rmcp::{tool, tool_handler, tool_router, RoleClient, ServerHandler, ServiceExt};
use serde_json::{json, Map, Value};
use toolnexus::mcp::{McpServer, McpSource};
use toolnexus::{tool as tn_tool, Toolkit};

const FIXTURE: &str = env!("CARGO_BIN_EXE_fixture_server");

fn arguments() -> Map<String, Value> {
    match json!({"text": "hello"}) {
        Value::Object(map) => map,
        _ => unreachable!(),
    }
}

async fn rmcp_call(client: &RunningService<RoleClient, ()>) -> String {
    let params = CallToolRequestParams::new("echo").with_arguments(arguments());
    let result = client
        .call_tool(params)
        .await
        .expect("the call is answered");
    result.content[0].as_text().expect("text").text.clone()
}

fn call(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let (connection, direct) = rt.block_on(async {
        let connection = McpSource::stdio("fixture", FIXTURE)
            .connect()
            .await
            .unwrap();
        let transport = TokioChildProcess::new(tokio::process::Command::new(FIXTURE)).unwrap();
        (connection, ().serve(transport).await.unwrap())
    });
    let mut toolkit = Toolkit::new();
    connection.add_to(&mut toolkit).unwrap();
    let args = Value::Object(arguments());
    // Both sides get the same answer.
    assert_eq!(rt.block_on(rmcp_call(&direct)), "hello");
    assert_eq!(
        rt.block_on(toolkit.execute("echo", args.clone())).output,
        "hello"
    );

    let mut group = c.benchmark_group("mcp/call");
    group.bench_function("floor", |b| {
        b.to_async(&rt).iter(|| rmcp_call(black_box(&direct)))
    });
    group.bench_function("toolkit", |b| {
        b.to_async(&rt)
            .iter(|| toolkit.execute(black_box("echo"), black_box(args.clone())))
    });
    group.finish();
}

/// Echoes the text back.
#[tn_tool]
fn echo(
    /// The text to echo.
    text: String,
) -> String {
    text
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct EchoArgs {
    /// The text to echo.
    text: String,
}

/// The same tool as an rmcp `#[tool_router]` server.
#[derive(Clone)]
struct RmcpEcho {
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl RmcpEcho {
    #[tool(description = "Echoes the text back.")]
    fn echo(&self, Parameters(EchoArgs { text }): Parameters<EchoArgs>) -> String {
        text
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for RmcpEcho {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }
}

fn serve(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let (ours, theirs) = rt.block_on(async {
        let (server, client) = tokio::io::duplex(1 << 16);
        let (read, write) = tokio::io::split(server);
        let toolkit = Toolkit::new().with(Echo).unwrap();
        tokio::spawn(McpServer::new(toolkit).serve_io(read, write));
        let ours = ().serve(client).await.unwrap();

        let (server, client) = tokio::io::duplex(1 << 16);
        let router = RmcpEcho {
            tool_router: RmcpEcho::tool_router(),
        };
        tokio::spawn(async move {
            if let Ok(running) = router.serve(server).await {
                let _ = running.waiting().await;
            }
        });
        (ours, ().serve(client).await.unwrap())
    });
    assert_eq!(rt.block_on(rmcp_call(&ours)), "hello");
    assert_eq!(rt.block_on(rmcp_call(&theirs)), "hello");

    let mut group = c.benchmark_group("mcp/serve");
    group.bench_function("floor", |b| {
        b.to_async(&rt).iter(|| rmcp_call(black_box(&theirs)))
    });
    group.bench_function("toolkit", |b| {
        b.to_async(&rt).iter(|| rmcp_call(black_box(&ours)))
    });
    group.finish();
}

criterion_group!(benches, call, serve);
criterion_main!(benches);
