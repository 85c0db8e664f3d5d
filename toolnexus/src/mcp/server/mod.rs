//! The server side: [`McpServer`] and what serving a toolkit is made of.

mod ask;
#[cfg(feature = "mcp-http")]
mod bounded;
#[cfg(feature = "mcp-http")]
mod gate;
#[cfg(feature = "mcp-http")]
mod http_options;
#[cfg(feature = "mcp-http")]
mod http_service;
mod listing;
#[cfg(feature = "mcp-http")]
mod resource;
mod serve;
#[cfg(feature = "mcp-http")]
mod sessions;
#[cfg_attr(not(feature = "mcp-http"), allow(dead_code))]
mod shares;
mod slots;

use std::sync::Arc;
use std::time::Duration;

use rmcp::model::Implementation;
use rmcp::transport::async_rw::AsyncRwTransport;
use rmcp::{RoleServer, ServiceExt};

use crate::mcp::logging::SessionLevel;
use crate::mcp::{frame, LiveToolkit, McpError, McpLimits};
use crate::toolkit::Toolkit;
use listing::Served;
use slots::Slots;

#[cfg(feature = "mcp-http")]
pub use bounded::{serve_bounded, PeerAddr};
#[cfg(feature = "mcp-http")]
pub use http_options::{
    ClientKey, HttpOptions, DEFAULT_MAX_CONNECTIONS, DEFAULT_MAX_SESSIONS, DEFAULT_READ_TIMEOUT,
    DEFAULT_SESSION_IDLE_TIMEOUT,
};
#[cfg(feature = "mcp-http")]
pub use http_service::{McpHttpBody, McpHttpService};
#[cfg(feature = "mcp-http")]
pub use resource::{Grant, ResourceServer};
pub use serve::{
    DEFAULT_MAX_CALLS, DEFAULT_MAX_CALLS_PER_SESSION, DEFAULT_MAX_REQUEST_BYTES,
    DEFAULT_MAX_REQUEST_VALUES, DEFAULT_PAGE_SIZE, DEFAULT_SERVE_TIMEOUT,
};

/// A [`Toolkit`] served over MCP: `tools/list` gives each tool's name, description and JSON
/// Schema (`inputSchema`), paginated; `tools/call` runs through the toolkit's one call path
/// (limits, panic guard, timeout), so a tool's text becomes a text part, its images image
/// parts, its files embedded resources, and an error result `isError: true`.
///
/// What the MCP spec asks for each mistake: an unknown tool is a JSON-RPC error (`-32602`,
/// invalid params); arguments the tool refuses, a tool that panics, and one that takes longer
/// than [`McpServer::with_call_timeout`] are results with `isError: true` the model can read. The
/// server keeps answering after each of them; a cancelled request drops its call.
///
/// Bounds (the guide's table lists them all): at most [`McpServer::with_max_calls`] calls run at
/// once in the whole server and [`McpServer::with_max_calls_per_session`] in one session; a call
/// past them waits for a slot, at most its call timeout, then is an `isError` result saying the
/// server is busy. A request (a stdio line, an HTTP body) over [`McpServer::with_max_request_bytes`]
/// is refused before it is parsed.
///
/// ```no_run
/// use toolnexus::{mcp::McpServer, tool, Toolkit};
///
/// /// Current weather for a city.
/// #[tool]
/// async fn get_weather(city: String) -> String {
///     format!("sunny in {city}")
/// }
///
/// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
/// // Until the client closes stdin.
/// McpServer::new(Toolkit::new().with(GetWeather)?).serve_stdio().await?;
/// # Ok(()) }
/// ```
#[derive(Clone)]
pub struct McpServer {
    pub(crate) served: Served,
    page_size: usize,
    timeout: Option<Duration>,
    info: Arc<Implementation>,
    pub(crate) max_request_bytes: usize,
    max_calls: usize,
    max_session_calls: usize,
    pub(crate) slots: Slots,
    /// The level this session's client set for log messages (`logging/setLevel`).
    pub(crate) log_level: SessionLevel,
    /// Who answers this session's questions (its client), made on the first call: one per
    /// session, never shared with another (`for_session` and `for_request` start it empty).
    pub(crate) asker: std::sync::OnceLock<crate::ask::Asker>,
    /// Set when served over HTTP: the sessions, whose close ends their calls.
    #[cfg(feature = "mcp-http")]
    pub(crate) sessions: Option<Arc<sessions::Sessions>>,
    /// Set when served over HTTP: each client's share of the call slots.
    #[cfg(feature = "mcp-http")]
    pub(crate) clients: Option<shares::ClientCalls>,
}

impl std::fmt::Debug for McpServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("McpServer")
            .field("page_size", &self.page_size)
            .field("timeout", &self.timeout)
            .field("max_request_bytes", &self.max_request_bytes)
            .field("max_calls", &self.max_calls)
            .field("max_session_calls", &self.max_session_calls)
            .finish_non_exhaustive()
    }
}

impl McpServer {
    /// Serves `toolkit`, named `toolnexus` in the handshake.
    pub fn new(toolkit: Toolkit) -> Self {
        Self::serving(Served::fixed(toolkit))
    }

    /// Serves the latest toolkit of `live` (a gateway in front of other MCP servers, say):
    /// each `tools/list` and `tools/call` uses the toolkit as it is then, and each connected
    /// client gets `notifications/tools/list_changed` when it changes (clients of stateless
    /// HTTP have no stream to get it on, and list again when they like).
    ///
    /// ```no_run
    /// use toolnexus::mcp::{LiveToolkit, McpServer, McpSource};
    /// use toolnexus::Toolkit;
    ///
    /// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
    /// let files = McpSource::stdio("files", "npx")
    ///     .args(["-y", "@modelcontextprotocol/server-filesystem", "/tmp"])
    ///     .connect()
    ///     .await?;
    /// let live = LiveToolkit::new(Toolkit::new());
    /// live.attach(&files)?;
    /// McpServer::live(live).serve_stdio().await?;
    /// # Ok(()) }
    /// ```
    #[must_use]
    pub fn live(live: LiveToolkit) -> Self {
        Self::serving(Served::live(live))
    }

    fn serving(served: Served) -> Self {
        Self {
            served,
            page_size: DEFAULT_PAGE_SIZE,
            timeout: Some(DEFAULT_SERVE_TIMEOUT),
            info: Arc::new(Implementation::new("toolnexus", env!("CARGO_PKG_VERSION"))),
            max_request_bytes: DEFAULT_MAX_REQUEST_BYTES,
            max_calls: DEFAULT_MAX_CALLS,
            max_session_calls: DEFAULT_MAX_CALLS_PER_SESSION,
            slots: Slots::new(DEFAULT_MAX_CALLS, DEFAULT_MAX_CALLS_PER_SESSION),
            log_level: SessionLevel::default(),
            asker: std::sync::OnceLock::new(),
            #[cfg(feature = "mcp-http")]
            sessions: None,
            #[cfg(feature = "mcp-http")]
            clients: None,
        }
    }

    /// The same server with `tools/list` pages of at most `size` tools (`0` is taken as `1`).
    #[must_use]
    pub fn with_page_size(mut self, size: usize) -> Self {
        self.page_size = size.max(1);
        self
    }

    /// The same server with each call cut off after `timeout` ([`DEFAULT_SERVE_TIMEOUT`] by
    /// default), answered with an error result. A call waiting for a slot
    /// ([`McpServer::with_max_calls`]) waits at most this long too.
    #[must_use]
    pub fn with_call_timeout(mut self, timeout: Duration) -> Self {
        self.timeout = Some(timeout);
        self
    }

    /// The same server running at most `max` calls at once over all its sessions
    /// ([`DEFAULT_MAX_CALLS`] by default; `0` is taken as `1`).
    #[must_use]
    pub fn with_max_calls(mut self, max: usize) -> Self {
        self.max_calls = max.max(1);
        self.slots = Slots::new(self.max_calls, self.max_session_calls);
        self
    }

    /// The same server running at most `max` calls at once in one session
    /// ([`DEFAULT_MAX_CALLS_PER_SESSION`] by default; `0` is taken as `1`). Over stdio the one
    /// client is one session; stateless HTTP requests are each their own.
    #[must_use]
    pub fn with_max_calls_per_session(mut self, max: usize) -> Self {
        self.max_session_calls = max.max(1);
        self.slots = Slots::new(self.max_calls, self.max_session_calls);
        self
    }

    /// The same server refusing any request larger than `bytes` before parsing it
    /// ([`DEFAULT_MAX_REQUEST_BYTES`] by default): over stdio such a line is dropped unread
    /// (the connection stays), over HTTP the body is answered `413 Payload Too Large`. Either
    /// way a request of more than [`DEFAULT_MAX_REQUEST_VALUES`] JSON values is refused so too
    /// (over HTTP, [`HttpOptions::with_max_request_values`](crate::mcp::HttpOptions) sets it).
    #[must_use]
    pub fn with_max_request_bytes(mut self, bytes: usize) -> Self {
        self.max_request_bytes = bytes.max(1);
        self
    }

    /// The same server, named `name` at `version` in the handshake.
    #[must_use]
    pub fn with_name(mut self, name: impl Into<String>, version: impl Into<String>) -> Self {
        self.info = Arc::new(Implementation::new(name, version));
        self
    }

    /// The toolkit being served (for [`McpServer::live`], the latest one).
    #[must_use]
    pub fn toolkit(&self) -> Arc<Toolkit> {
        self.served.now().toolkit
    }

    /// Serves over this process's stdin and stdout until the client closes them.
    pub async fn serve_stdio(self) -> Result<(), McpError> {
        let (read, write) = rmcp::transport::stdio();
        self.serve_io(read, write).await
    }

    /// Serves over any byte streams (a pipe, a socket) until the client closes them.
    pub async fn serve_io<R, W>(self, read: R, write: W) -> Result<(), McpError>
    where
        R: tokio::io::AsyncRead + Send + Unpin + 'static,
        W: tokio::io::AsyncWrite + Send + Unpin + 'static,
    {
        // Each line is held to the byte and value bounds before the SDK parses it.
        let limits = McpLimits::default()
            .with_max_message_bytes(self.max_request_bytes)
            .with_max_message_values(DEFAULT_MAX_REQUEST_VALUES);
        let read = frame::bounded_requests(read, limits);
        let transport = AsyncRwTransport::<RoleServer, _, W>::new(read, write)
            .with_max_line_length(self.max_request_bytes);
        let running = self
            .for_session()
            .serve(transport)
            .await
            .map_err(|e| McpError::Serve {
                reason: e.to_string(),
            })?;
        running.waiting().await.map_err(|e| McpError::Serve {
            reason: e.to_string(),
        })?;
        Ok(())
    }

    /// This server for one new session: the server's call slots, fresh ones of the session.
    pub(crate) fn for_session(&self) -> Self {
        let mut server = self.clone();
        server.slots = self.slots.for_session();
        server.log_level = SessionLevel::default();
        server.asker = std::sync::OnceLock::new();
        server
    }

    /// This server for one stateless HTTP request: the server's call slots only.
    #[cfg(feature = "mcp-http")]
    pub(crate) fn for_request(&self) -> Self {
        let mut server = self.clone();
        server.slots = self.slots.for_request();
        server.log_level = SessionLevel::default();
        server.asker = std::sync::OnceLock::new();
        server
    }

    /// This server as a tower `Service` of streamable HTTP, served as `options` say (see
    /// [`McpHttpService`]). Each client gets a session of its own, unless
    /// [`HttpOptions::with_stateless`].
    #[cfg(feature = "mcp-http")]
    #[cfg_attr(docsrs, doc(cfg(feature = "mcp-http")))]
    #[must_use]
    pub fn http_service(self, options: HttpOptions) -> McpHttpService {
        McpHttpService::new(self, options)
    }

    /// Serves over streamable HTTP on `listener` (bound by the host, such as
    /// `TcpListener::bind("127.0.0.1:8000")`), at any path, with the default [`HttpOptions`]:
    /// `self.http_service(HttpOptions::new()).serve(listener)`. The future runs until it is
    /// dropped (abort its task to stop serving).
    ///
    /// Bind loopback unless the host puts authentication in front: anyone who reaches the
    /// port can call every tool (see the guide's section on deployment).
    ///
    /// ```no_run
    /// # async fn run(toolkit: toolnexus::Toolkit) -> Result<(), Box<dyn std::error::Error>> {
    /// let listener = tokio::net::TcpListener::bind("127.0.0.1:8000").await?;
    /// toolnexus::mcp::McpServer::new(toolkit).serve_http(listener).await;
    /// # Ok(()) }
    /// ```
    #[cfg(feature = "mcp-http")]
    #[cfg_attr(docsrs, doc(cfg(feature = "mcp-http")))]
    pub async fn serve_http(self, listener: tokio::net::TcpListener) {
        self.http_service(HttpOptions::new()).serve(listener).await;
    }
}
