//! Streamable HTTP both ways (feature `mcp-http`): the client transport for
//! [`McpSource::http`](super::McpSource::http), and [`McpServer::serve_http`].

use std::collections::HashMap;

use http::{HeaderName, HeaderValue};
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::transport::StreamableHttpClientTransport;

use super::connection::{self, McpConnection};
use super::error::McpError;
use super::serve::McpServer;
use super::source::McpSource;

pub(crate) async fn connect(source: McpSource) -> Result<McpConnection, McpError> {
    let url = source.url.clone().unwrap_or_default();
    let mut headers = HashMap::new();
    for (name, value) in &source.headers {
        let invalid = |what: &str| McpError::Initialize {
            server: source.name.clone(),
            reason: format!("the header `{name}` has an invalid {what}"),
        };
        let name = HeaderName::from_bytes(name.as_bytes()).map_err(|_| invalid("name"))?;
        let value = HeaderValue::from_str(value).map_err(|_| invalid("value"))?;
        headers.insert(name, value);
    }
    // The SDK holds each body and event to `max_message_bytes` before it parses it.
    let config = StreamableHttpClientTransportConfig::with_uri(url)
        .custom_headers(headers)
        .max_json_response_size(source.limits.max_message_bytes)
        .max_sse_event_size(source.limits.max_message_bytes);
    // reqwest panics while building its client when the application turned on rustls without
    // a crypto provider (`rustls-no-provider`) and installed none: an error here instead.
    let built = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        StreamableHttpClientTransport::from_config(config)
    }));
    let Ok(transport) = built else {
        return Err(McpError::Initialize {
            server: source.name.clone(),
            reason: "the HTTP client could not be built: with reqwest's `rustls-no-provider` \
                     feature, install a rustls crypto provider first \
                     (`rustls::crypto::ring::default_provider().install_default()`)"
                .to_owned(),
        });
    };
    connection::start(source, transport, None).await
}

impl McpServer {
    /// Serves over streamable HTTP on `listener` (bound by the host, such as
    /// `TcpListener::bind("127.0.0.1:8000")`), at any path; the future runs until it is
    /// dropped (abort its task to stop serving). Each client gets a session of its own; a connection that fails ends alone,
    /// and a failed accept (out of file descriptors, say) is retried.
    ///
    /// ```no_run
    /// # async fn run(toolkit: toolnexus::Toolkit) -> Result<(), Box<dyn std::error::Error>> {
    /// let listener = tokio::net::TcpListener::bind("127.0.0.1:8000").await?;
    /// toolnexus::mcp::McpServer::new(toolkit).serve_http(listener).await;
    /// # Ok(()) }
    /// ```
    #[cfg_attr(docsrs, doc(cfg(feature = "mcp-http")))]
    pub async fn serve_http(self, listener: tokio::net::TcpListener) {
        let service = StreamableHttpService::new(
            move || Ok(self.clone()),
            LocalSessionManager::default().into(),
            StreamableHttpServerConfig::default(),
        );
        loop {
            let stream = match listener.accept().await {
                Ok((stream, _)) => stream,
                // Out of file descriptors, say: wait a little, then accept again.
                Err(_) => {
                    tokio::time::sleep(std::time::Duration::from_millis(50)).await;
                    continue;
                }
            };
            let service = TowerToHyperService::new(service.clone());
            tokio::spawn(async move {
                let connection = hyper::server::conn::http1::Builder::new()
                    .timer(TokioTimer::new())
                    .serve_connection(TokioIo::new(stream), service);
                // A client that goes away mid-request ends only its own connection.
                let _ = connection.await;
            });
        }
    }
}
