//! [`McpServer`]: a [`Toolkit`] (or a [`LiveToolkit`]) served as an MCP server (`tools/list`,
//! `tools/call`).

use std::sync::Arc;
use std::time::Duration;

use futures::future::Either;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, Implementation, ListToolsResult,
    PaginatedRequestParams, ProgressToken, RequestId, ServerCapabilities, ServerConfig,
    Tool as WireTool,
};
use rmcp::service::{NotificationContext, RequestContext};
use rmcp::transport::async_rw::AsyncRwTransport;
use rmcp::{ErrorData, Peer, RoleServer, ServerHandler, ServiceExt};
use serde_json::Value;

use super::content;
use super::error::McpError;
use super::listing::{page, Served};
use super::live::LiveToolkit;
use super::progress;
use super::slots::Slots;
use crate::guard::trace;
use crate::tool::context::CallContext;
use crate::toolkit::{Input, Toolkit};
use crate::values::result::ToolResult;

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
    /// Set when served over HTTP: the sessions, whose close ends their calls.
    #[cfg(feature = "mcp-http")]
    pub(crate) sessions: Option<Arc<super::sessions::Sessions>>,
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

/// How many tools a `tools/list` page holds by default.
pub const DEFAULT_PAGE_SIZE: usize = 100;

/// How long a served call may take by default: a minute.
pub const DEFAULT_SERVE_TIMEOUT: Duration = Duration::from_secs(60);

/// The largest request a server reads by default (a stdio line, an HTTP body): 1 MiB of
/// arguments (the toolkit's own limit) and 64 KiB for the rest of the message.
pub const DEFAULT_MAX_REQUEST_BYTES: usize = 1024 * 1024 + 64 * 1024;

/// How many calls a server runs at once by default, over all its sessions.
pub const DEFAULT_MAX_CALLS: usize = 256;

/// How many calls one session runs at once by default.
pub const DEFAULT_MAX_CALLS_PER_SESSION: usize = 32;

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
            #[cfg(feature = "mcp-http")]
            sessions: None,
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
    /// (the connection stays), over HTTP the body is answered `413 Payload Too Large`.
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
        let transport = AsyncRwTransport::<RoleServer, R, W>::new(read, write)
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
        server
    }

    /// This server for one stateless HTTP request: the server's call slots only.
    #[cfg(feature = "mcp-http")]
    pub(crate) fn for_request(&self) -> Self {
        let mut server = self.clone();
        server.slots = self.slots.for_request();
        server
    }

    async fn call(
        &self,
        request: CallToolRequestParams,
        request_id: &RequestId,
        progress: Option<ProgressToken>,
        peer: &Peer<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let toolkit = self.served.now().toolkit;
        let name = &*request.name;
        if toolkit.get(name).is_none() {
            // The MCP spec's answer to an unknown tool: a protocol error, not a tool result.
            return Err(ErrorData::invalid_params(
                toolkit.unknown(name).output,
                None,
            ));
        }
        let Some(_held) = self.slots.take(self.timeout).await else {
            let busy = ToolResult::error(format!(
                "the server is busy: no call slot came free in time (at most {} calls at once, \
                 {} in one session); try again later",
                self.max_calls, self.max_session_calls
            ));
            return Ok(content::to_call_result(busy).into());
        };
        // The arguments go to the toolkit's one call path as they came, without a copy.
        let input = request
            .arguments
            .map_or(Input::Absent, |args| Input::Value(Value::Object(args)));
        // The call's context: its id is the request's; a client that sent a progress token
        // gets what the tool reports as `notifications/progress`.
        let id = request_id.to_string();
        let Some(token) = progress else {
            let context = CallContext::for_call(Some(&id), None, None);
            let running = toolkit.call(name, input, self.timeout, false, context);
            let result = trace::call(name, None, None, running).await;
            return Ok(content::to_call_result(result).into());
        };
        let (listener, reports) = progress::listener();
        let context = CallContext::for_call(Some(&id), None, Some(listener));
        let running = toolkit.call(name, input, self.timeout, false, context);
        let running = trace::call(name, None, None, running);
        let result = progress::forwarded(running, reports, peer, token).await;
        Ok(content::to_call_result(result).into())
    }

    /// The token that ends a call of this request's HTTP session when the session closes.
    #[cfg(feature = "mcp-http")]
    fn session_token(
        &self,
        context: &RequestContext<RoleServer>,
    ) -> Option<tokio_util::sync::CancellationToken> {
        let sessions = self.sessions.as_ref()?;
        let parts = context.extensions.get::<http::request::Parts>()?;
        let id = parts.headers.get("mcp-session-id")?.to_str().ok()?;
        Some(sessions.call_token(id))
    }

    #[cfg(not(feature = "mcp-http"))]
    #[allow(clippy::unused_self)]
    fn session_token(
        &self,
        _context: &RequestContext<RoleServer>,
    ) -> Option<tokio_util::sync::CancellationToken> {
        None
    }
}

impl ServerHandler for McpServer {
    fn get_info(&self) -> ServerConfig {
        let tools = ServerCapabilities::builder().enable_tools();
        let capabilities = if self.served.live_toolkit().is_some() {
            tools.enable_tool_list_changed().build()
        } else {
            tools.build()
        };
        ServerConfig::new(capabilities).with_server_info(Implementation::clone(&self.info))
    }

    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let cursor = request.as_ref().and_then(|r| r.cursor.as_deref());
        page(&self.served.now().tools, cursor, self.page_size)
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        // A `notifications/cancelled` for this request, or the end of its session, drops
        // its call.
        let session = self.session_token(&context);
        let request_cancelled = std::pin::pin!(context.ct.cancelled());
        let session_ended = std::pin::pin!(async {
            match &session {
                Some(token) => token.cancelled().await,
                None => std::future::pending().await,
            }
        });
        let cancelled = futures::future::select(request_cancelled, session_ended);
        let progress = context.meta.get_progress_token();
        let call = std::pin::pin!(self.call(request, &context.id, progress, &context.peer));
        // The cancellation first: a call woken with a slot as its session ends never starts.
        match futures::future::select(cancelled, call).await {
            Either::Left(_) => Err(ErrorData::internal_error("the call was cancelled", None)),
            Either::Right((answer, _)) => answer,
        }
    }

    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        let (Some(live), Some(ended)) = (self.served.live_toolkit().cloned(), self.slots.ended())
        else {
            return;
        };
        // Until the session ends: each change of the live toolkit, told to this client.
        let peer = context.peer;
        tokio::spawn(async move {
            let mut seen = live.generation();
            loop {
                let next = std::pin::pin!(live.changed(seen));
                match futures::future::select(next, std::pin::pin!(ended.cancelled())).await {
                    Either::Left((generation, _)) => seen = generation,
                    Either::Right(_) => return,
                }
                if peer.notify_tool_list_changed().await.is_err() {
                    return;
                }
            }
        });
    }

    fn get_tool(&self, name: &str) -> Option<WireTool> {
        self.served
            .now()
            .tools
            .iter()
            .find(|t| t.name == name)
            .cloned()
    }
}
