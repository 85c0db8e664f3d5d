//! One instance of the scale-out measurement (scripts/mcp_scale.sh): an `echo` tool served
//! statelessly over streamable HTTP with JSON answers, by our server (`ours`) or by an rmcp
//! `#[tool_router]` server on the same hyper loop (`rmcp`, the floor). Prints its URL first.
//!
//! Usage: `scale_server ours|rmcp ADDR`.

use std::io::Write;
use std::sync::Arc;

use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{ServerCapabilities, ServerConfig};
use rmcp::transport::streamable_http_server::session::never::NeverSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{tool, tool_handler, tool_router, ServerHandler};
use toolnexus::mcp::{HttpOptions, McpServer};
use toolnexus::Toolkit;

/// Echoes the text back.
#[toolnexus::tool]
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

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let which = args.get(1).map_or("ours", String::as_str);
    let listener =
        tokio::net::TcpListener::bind(args.get(2).map_or("127.0.0.1:0", String::as_str)).await?;
    println!("http://{}/mcp", listener.local_addr()?);
    std::io::stdout().flush()?;
    if which == "ours" {
        let toolkit = Toolkit::new().with(Echo)?;
        let options = HttpOptions::new()
            .with_stateless(true)
            .with_json_response(true);
        McpServer::new(toolkit)
            .http_service(options)
            .serve(listener)
            .await;
        return Ok(());
    }
    let config = StreamableHttpServerConfig::default()
        .with_legacy_session_mode(false)
        .with_json_response(true);
    let service = StreamableHttpService::new(
        || {
            Ok(RmcpEcho {
                tool_router: RmcpEcho::tool_router(),
            })
        },
        Arc::new(NeverSessionManager::default()),
        config,
    );
    loop {
        let Ok((stream, _)) = listener.accept().await else {
            continue;
        };
        let service = TowerToHyperService::new(service.clone());
        tokio::spawn(async move {
            let connection = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .serve_connection(TokioIo::new(stream), service);
            let _ = connection.await;
        });
    }
}
