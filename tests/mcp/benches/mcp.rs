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

use criterion::{criterion_group, Criterion};
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
    Map::from_iter([("text".to_owned(), json!("hello"))])
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

/// Our server and the `#[tool_router]` one, each behind an rmcp client over an in-process pipe.
async fn serve_pair() -> (
    RunningService<RoleClient, ()>,
    RunningService<RoleClient, ()>,
) {
    let (server, client) = tokio::io::duplex(1 << 16);
    let toolkit = Toolkit::new().with(Echo).unwrap();
    let served = McpServer::new(toolkit);
    tokio::spawn(async move {
        if let Ok(running) = served.serve(server).await {
            let _ = running.waiting().await;
        }
    });
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
}

fn serve(c: &mut Criterion) {
    // One thread: client and server take turns on it, so the time is their work, not how two
    // threads happened to hand the messages over (on a 2-core machine that swings by 20%).
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let (ours, theirs) = rt.block_on(serve_pair());
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

/// `MCP_BENCH_ONLY=PATH-WHICH:N`, PATH `serve` or `call`, WHICH `setup`, `floor`, `toolkit` or
/// `interleaved`: both sides of one path set up and called once each on one thread, then `N`
/// more calls of one side, for `scripts/mcp_instructions.sh` to count under callgrind (machine
/// load does not change it; for `call` the count is this process's side: the client's work, not
/// the fixture server's); or, with `interleaved`, `N` rounds timed (see [`interleaved`]).
fn only(spec: &str) {
    let (which, n) = spec.split_once(':').expect("PATH-WHICH:N");
    let n: usize = n.parse().expect("a number");
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        match which.split_once('-') {
            Some(("serve", which)) => {
                let (ours, theirs) = serve_pair().await;
                let floor = async || rmcp_call(&theirs).await;
                let toolkit = async || rmcp_call(&ours).await;
                run(
                    which,
                    n,
                    "tools/call served, McpServer / #[tool_router]",
                    floor,
                    toolkit,
                )
                .await;
            }
            Some(("call", which)) => {
                let connection = McpSource::stdio("fixture", FIXTURE)
                    .connect()
                    .await
                    .unwrap();
                let transport =
                    TokioChildProcess::new(tokio::process::Command::new(FIXTURE)).unwrap();
                let direct = ().serve(transport).await.unwrap();
                let mut toolkit = Toolkit::new();
                connection.add_to(&mut toolkit).unwrap();
                let args = Value::Object(arguments());
                let floor = async || rmcp_call(&direct).await;
                let ours = async || toolkit.execute("echo", args.clone()).await.output;
                run(
                    which,
                    n,
                    "MCP tool called, Toolkit / rmcp client",
                    floor,
                    ours,
                )
                .await;
            }
            _ => panic!("unknown MCP_BENCH_ONLY {spec}"),
        }
    });
}

/// Both sides answer `hello` once, then `which` runs.
async fn run(
    which: &str,
    n: usize,
    label: &str,
    floor: impl AsyncFn() -> String,
    ours: impl AsyncFn() -> String,
) {
    assert_eq!(floor().await, "hello");
    assert_eq!(ours().await, "hello");
    match which {
        "setup" => {}
        "interleaved" => interleaved(label, n, floor, ours).await,
        "floor" => {
            for _ in 0..n {
                black_box(floor().await);
            }
        }
        "toolkit" => {
            for _ in 0..n {
                black_box(ours().await);
            }
        }
        other => panic!("unknown side {other}"),
    }
}

/// `interleaved:ROUNDS`: rounds of 500 calls of the floor, then 500 of ours, timed one after
/// the other on one thread; prints the median of the rounds' ratios, which drift in the
/// machine's load moves less than two separate criterion runs.
async fn interleaved(
    label: &str,
    rounds: usize,
    floor: impl AsyncFn() -> String,
    ours: impl AsyncFn() -> String,
) {
    async fn time(op: &impl AsyncFn() -> String) -> std::time::Duration {
        let started = std::time::Instant::now();
        for _ in 0..500 {
            black_box(op().await);
        }
        started.elapsed()
    }
    let mut ratios = Vec::with_capacity(rounds);
    for _ in 0..rounds {
        let floor = time(&floor).await;
        let ours = time(&ours).await;
        ratios.push(ours.as_secs_f64() / floor.as_secs_f64());
    }
    ratios.sort_by(f64::total_cmp);
    println!(
        "{label}: median {:.2}x over {rounds} rounds of 500 calls each (min {:.2}x, max {:.2}x)",
        ratios[rounds / 2],
        ratios[0],
        ratios[rounds - 1]
    );
}

criterion_group!(benches, call, serve);

fn main() {
    if let Ok(spec) = std::env::var("MCP_BENCH_ONLY") {
        only(&spec);
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
