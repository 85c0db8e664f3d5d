//! Serves `get_weather` over streamable HTTP, mounted in an axum app behind a bearer token:
//! the MCP service is one route of the host's own router, and authentication is the host's
//! own layer (rate limits, CORS and TLS would be layers the same way). The app is served with
//! `serve_bounded`, which keeps the service's connection cap and header timeout (`axum::serve`
//! has neither: idle sockets without a token would pin every file descriptor).
//!
//! `MCP_TOKEN=secret cargo run -p toolnexus-examples-mcp --example mcp_serve_http`, then point
//! an MCP client at `http://127.0.0.1:8000/mcp` with the header `Authorization: Bearer secret`.

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{header, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::Router;
use toolnexus::mcp::{serve_bounded, HttpOptions, McpServer};

#[allow(dead_code)] // only its toolkit is used here
#[path = "mcp_serve.rs"]
mod served;

/// The app: `/mcp` serves the toolkit under `options`, every request must carry
/// `Authorization: Bearer TOKEN`.
pub fn app(token: &str, options: &HttpOptions) -> Result<Router, toolnexus::Error> {
    let mcp = McpServer::new(served::toolkit()?)
        .with_name("weather", "0.1.0")
        .http_service(options.clone());
    Ok(Router::new()
        .route_service("/mcp", mcp)
        .layer(middleware::from_fn_with_state(
            Arc::from(token),
            require_bearer,
        )))
}

/// A few lines of middleware: `401` unless the request carries the token.
async fn require_bearer(State(token): State<Arc<str>>, request: Request, next: Next) -> Response {
    let given = request
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "));
    match given {
        Some(given) if same(given.as_bytes(), token.as_bytes()) => next.run(request).await,
        _ => (
            StatusCode::UNAUTHORIZED,
            [(header::WWW_AUTHENTICATE, "Bearer")],
            "a bearer token is required",
        )
            .into_response(),
    }
}

/// Compares in time independent of where the bytes differ.
fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |d, (x, y)| d | (x ^ y)) == 0
}

#[allow(dead_code)] // the test includes this file for `app`
#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let token = std::env::var("MCP_TOKEN").map_err(|_| "set MCP_TOKEN to the bearer token")?;
    // Loopback: put TLS in front (a reverse proxy, or a TLS acceptor) before exposing it.
    let listener = tokio::net::TcpListener::bind("127.0.0.1:8000").await?;
    // Loopback by default; name the hosts and browser origins you serve if you do.
    let options = HttpOptions::new();
    // The service's bounds hold for the whole app: at most so many connections, each request's
    // head within the read timeout.
    serve_bounded(listener, app(&token, &options)?, &options).await;
    Ok(())
}
