//! MCP, both ways (feature `mcp`, on [rmcp](https://docs.rs/rmcp), the official Rust MCP SDK).
//!
//! **Tools from MCP servers.** [`McpSource`] says how to start a server (a child process
//! spoken to over stdio) and which of its tools to take; [`McpSource::connect`] gives an
//! [`McpConnection`] whose tools ([`McpTool`]) join a [`Toolkit`] like any
//! other: the same schema rules as a hand-written schema, the same call path (limits, panic
//! guard, timeout), then `tools/call`.
//!
//! **Serving a toolkit.** [`McpServer`] answers `tools/list` and `tools/call` for any
//! [`Toolkit`] (or the latest toolkit of a [`LiveToolkit`], sending
//! `list_changed` when it changes: [`McpServer::live`]), over stdio
//! ([`McpServer::serve_stdio`]) or any byte streams; with `mcp-http`, over streamable HTTP as a
//! tower `Service` a host mounts behind its own layers (`McpServer::http_service`,
//! `McpHttpService`), secure by default and bounded in everything a client can make it hold
//! (the guide's section on security and deployment).
//!
//! ```no_run
//! use toolnexus::mcp::McpSource;
//! use toolnexus::{Dialect, Toolkit};
//!
//! # async fn run(response: serde_json::Value) -> Result<(), Box<dyn std::error::Error>> {
//! let time = McpSource::stdio("time", "uvx").arg("mcp-server-time").connect().await?;
//! // Tools that could not be used, and why (for the host's own log).
//! let left_out: Vec<String> = time.skipped().iter().map(|s| format!("{}: {}", s.tool, s.reason)).collect();
//! let mut toolkit = Toolkit::new();
//! time.add_to(&mut toolkit)?;
//! let body = serde_json::json!({"tools": toolkit.to_anthropic()});
//! // ... send `body`, then answer the model's response:
//! let turn = toolkit.respond(&response, Dialect::Anthropic).await?;
//! # Ok(()) }
//! ```
//!
//! # Faults and limits
//!
//! | what the server does | what the host or the model gets |
//! |---|---|
//! | does not start, fails or stalls the handshake or the listing | [`McpError`] from `connect` (after [`McpSource::with_connect_timeout`], one deadline for the handshake and all pages) |
//! | a tool whose schema cannot be sent, name too long or taken twice, description or schema past [`McpLimits`], tools past its byte budget | that tool left out, the reason in [`McpConnection::skipped`]; the others load |
//! | a `tools/list` entry that is not an MCP tool, or one no JSON reader can read (a lone surrogate, nesting past 127 levels) | that tool left out, the reason in `skipped` naming it; the others load |
//! | a `tools/list` answer that is not a list of tools at all | [`McpError::List`] from `connect` |
//! | more tools than [`McpLimits::max_tools`], more pages than [`McpLimits::max_pages`] | the rest left out, said in `skipped` (at most [`McpLimits::max_skipped`] reasons, then a count) |
//! | a tool name the toolkit already has | [`McpError::NameTaken`] from [`McpConnection::add_to`], naming server and tool |
//! | exits, closes the pipe, answers a call with a JSON-RPC error | that call's result is an error naming the server, at once (the server's message cut to 300 characters, control characters escaped) |
//! | a message past [`McpLimits::max_message_bytes`] or [`McpLimits::max_message_values`] (a stdio line, an HTTP body or event) | never parsed; the request it answers fails at once naming the limit (a `tools/list` page past the value count loses its largest entries, said in `skipped`, until it fits) |
//! | an answer no reader can decode (a lone surrogate, nesting past 127 levels) | the request it answers fails at once, saying why |
//! | hangs, or answers malformed JSON-RPC | that call's result is an error naming the server after [`McpSource::with_call_timeout`] (60 s by default) |
//! | `isError: true` | an error result with its text |
//! | `notifications/tools/list_changed` | the tools are listed again ([`McpConnection::changed`]); a [`LiveToolkit`] swaps them in, calls in flight finish |
//! | a flood of `list_changed` | one listing at a time, and one more for all that came meanwhile |
//!
//! A server's text that reaches an error, [`McpTool::remote_name`] or [`Skipped::tool`] has its
//! control characters escaped. Over streamable HTTP the SDK holds each message to
//! [`McpLimits::max_message_bytes`] before parsing it (the JSON-value count is stdio's only).
//!
//! # Logs
//!
//! This module logs nothing. rmcp does: at DEBUG level (targets under `rmcp`) it records each
//! request and response it handles, arguments and outputs included. If your logs must not hold
//! them, keep `rmcp` at INFO or above (`RUST_LOG=info,rmcp=info`, or your subscriber's filter).

#[cfg(feature = "mcp-http")]
mod bounded;
mod catalog;
mod connection;
mod content;
mod entry;
mod error;
mod frame;
#[cfg(feature = "mcp-http")]
mod gate;
mod generation;
#[cfg(feature = "mcp-http")]
mod http;
#[cfg(feature = "mcp-http")]
mod http_client;
#[cfg(feature = "mcp-http")]
mod http_options;
#[cfg(feature = "mcp-http")]
mod http_service;
mod listing;
mod live;
mod progress;
mod scan;
mod serve;
#[cfg(feature = "mcp-http")]
mod sessions;
#[cfg_attr(not(feature = "mcp-http"), allow(dead_code))]
mod shares;
mod slots;
mod source;
mod tool;

use std::ffi::OsString;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use rmcp::model::Implementation;
use rmcp::transport::async_rw::AsyncRwTransport;
use rmcp::{RoleServer, ServiceExt};

use crate::toolkit::Toolkit;
use listing::Served;
use slots::Slots;

#[cfg(feature = "mcp-http")]
pub use bounded::{serve_bounded, PeerAddr};
pub use connection::McpConnection;
pub use error::McpError;
#[cfg(feature = "mcp-http")]
pub use http_options::{
    ClientKey, HttpOptions, DEFAULT_MAX_CONNECTIONS, DEFAULT_MAX_SESSIONS, DEFAULT_READ_TIMEOUT,
    DEFAULT_SESSION_IDLE_TIMEOUT,
};
#[cfg(feature = "mcp-http")]
pub use http_service::{McpHttpBody, McpHttpService};
pub use live::LiveToolkit;
pub use serve::{
    DEFAULT_MAX_CALLS, DEFAULT_MAX_CALLS_PER_SESSION, DEFAULT_MAX_REQUEST_BYTES,
    DEFAULT_MAX_REQUEST_VALUES, DEFAULT_PAGE_SIZE, DEFAULT_SERVE_TIMEOUT,
};
pub use source::{McpLimits, Skipped, DEFAULT_CALL_TIMEOUT, DEFAULT_CONNECT_TIMEOUT};
pub use tool::McpTool;

/// An MCP server whose tools join a [`Toolkit`]: how to start it, and which of
/// its tools to take under which names.
///
/// A stdio server is a child process (program, arguments, environment, working directory)
/// spoken to over its stdin/stdout. [`McpSource::connect`] starts it, completes the MCP
/// handshake and lists its tools (following pagination).
///
/// **Names.** A tool keeps its server's name, with every character outside `[A-Za-z0-9_-]`
/// (MCP also allows `.` and `/`) replaced by `_`, after the optional [`McpSource::with_prefix`].
/// A name that is then longer than 64 characters, or that another tool of the same server
/// already took, is left out ([`McpConnection::skipped`] says why); a name the toolkit already
/// has is an [`McpError::NameTaken`] naming the server and the tool, from
/// [`McpConnection::add_to`].
///
/// ```no_run
/// use std::time::Duration;
/// use toolnexus::mcp::McpSource;
/// use toolnexus::Toolkit;
///
/// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
/// let files = McpSource::stdio("files", "npx")
///     .args(["-y", "@modelcontextprotocol/server-filesystem", "/tmp"])
///     .with_prefix("fs_")
///     .deny(["write_file"])
///     .with_call_timeout(Duration::from_secs(20))
///     .connect()
///     .await?;
/// let mut toolkit = Toolkit::new();
/// files.add_to(&mut toolkit)?;
/// assert!(toolkit.get("fs_read_text_file").is_some());
/// # Ok(()) }
/// ```
#[derive(Debug, Clone)]
pub struct McpSource {
    pub(crate) name: String,
    pub(crate) program: OsString,
    pub(crate) args: Vec<OsString>,
    pub(crate) env: Vec<(OsString, OsString)>,
    pub(crate) current_dir: Option<PathBuf>,
    pub(crate) inherit_stderr: bool,
    pub(crate) prefix: String,
    pub(crate) allow: Option<Vec<String>>,
    pub(crate) deny: Vec<String>,
    pub(crate) call_timeout: Duration,
    pub(crate) connect_timeout: Duration,
    pub(crate) limits: McpLimits,
    /// The server's URL, for a streamable HTTP server (feature `mcp-http`).
    #[cfg_attr(not(feature = "mcp-http"), allow(dead_code))]
    pub(crate) url: Option<String>,
    #[cfg_attr(not(feature = "mcp-http"), allow(dead_code))]
    pub(crate) headers: Vec<(String, String)>,
}

impl McpSource {
    /// A server started as `program`, spoken to over its stdin and stdout. `name` is how every
    /// message about it names it (`MCP server `files` did not answer ...`).
    pub fn stdio(name: impl Into<String>, program: impl Into<OsString>) -> Self {
        Self {
            name: name.into(),
            program: program.into(),
            args: Vec::new(),
            env: Vec::new(),
            current_dir: None,
            inherit_stderr: false,
            prefix: String::new(),
            allow: None,
            deny: Vec::new(),
            call_timeout: DEFAULT_CALL_TIMEOUT,
            connect_timeout: DEFAULT_CONNECT_TIMEOUT,
            limits: McpLimits::default(),
            url: None,
            headers: Vec::new(),
        }
    }

    /// A server reached over streamable HTTP at `url` (such as `http://127.0.0.1:8000/mcp`);
    /// the settings for a child process (`arg`, `env`, ...) do not apply to it. `https` URLs
    /// need rmcp's `reqwest` feature (rustls) turned on by the application.
    #[cfg(feature = "mcp-http")]
    #[cfg_attr(docsrs, doc(cfg(feature = "mcp-http")))]
    pub fn http(name: impl Into<String>, url: impl Into<String>) -> Self {
        let mut source = Self::stdio(name, "");
        source.url = Some(url.into());
        source
    }

    /// A header sent with every HTTP request to the server (`Authorization`, say); for
    /// [`McpSource::http`] only.
    #[cfg(feature = "mcp-http")]
    #[cfg_attr(docsrs, doc(cfg(feature = "mcp-http")))]
    #[must_use]
    pub fn header(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        self.headers.push((name.into(), value.into()));
        self
    }

    /// The server's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// One more argument for the program.
    #[must_use]
    pub fn arg(mut self, arg: impl Into<OsString>) -> Self {
        self.args.push(arg.into());
        self
    }

    /// More arguments for the program.
    #[must_use]
    pub fn args<I, S>(mut self, args: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<OsString>,
    {
        self.args.extend(args.into_iter().map(Into::into));
        self
    }

    /// An environment variable for the program (it inherits the others from this process).
    #[must_use]
    pub fn env(mut self, key: impl Into<OsString>, value: impl Into<OsString>) -> Self {
        self.env.push((key.into(), value.into()));
        self
    }

    /// The program's working directory.
    #[must_use]
    pub fn current_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.current_dir = Some(dir.into());
        self
    }

    /// Whether the program's stderr goes to this process's stderr; by default it is discarded.
    #[must_use]
    pub fn with_inherit_stderr(mut self, inherit: bool) -> Self {
        self.inherit_stderr = inherit;
        self
    }

    /// Put before each tool's name in the toolkit, as given (`"fs_"` makes `read` `fs_read`).
    #[must_use]
    pub fn with_prefix(mut self, prefix: impl Into<String>) -> Self {
        self.prefix = prefix.into();
        self
    }

    /// Take only these tools (by their names on the server); by default all are taken.
    #[must_use]
    pub fn allow<I, S>(mut self, names: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.allow = Some(names.into_iter().map(Into::into).collect());
        self
    }

    /// Leave these tools out (by their names on the server).
    #[must_use]
    pub fn deny<I, S>(mut self, names: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.deny.extend(names.into_iter().map(Into::into));
        self
    }

    /// The longest a call may wait for the server's answer ([`DEFAULT_CALL_TIMEOUT`] by
    /// default); then the call is an error result naming the server. A toolkit's own timeout
    /// ([`RunOptions::timeout`](crate::RunOptions::timeout)) applies as well.
    #[must_use]
    pub fn with_call_timeout(mut self, timeout: Duration) -> Self {
        self.call_timeout = timeout;
        self
    }

    /// The longest connecting may take: one deadline for the handshake and every page of the
    /// first `tools/list` together ([`DEFAULT_CONNECT_TIMEOUT`] by default), then an
    /// [`McpError::Timeout`]. Each later listing (after
    /// `list_changed`, or [`McpConnection::refresh`]) gets the
    /// same time for all its pages.
    #[must_use]
    pub fn with_connect_timeout(mut self, timeout: Duration) -> Self {
        self.connect_timeout = timeout;
        self
    }

    /// Other bounds on what the server may send (see [`McpLimits`]).
    #[must_use]
    pub fn with_limits(mut self, limits: McpLimits) -> Self {
        self.limits = limits;
        self
    }

    /// Whether the filters take the tool called `remote` on the server.
    pub(crate) fn takes(&self, remote: &str) -> bool {
        self.allow
            .as_ref()
            .is_none_or(|allow| allow.iter().any(|a| a == remote))
            && !self.deny.iter().any(|d| d == remote)
    }

    /// Starts the server (or, for [`McpSource::http`], reaches it), completes the MCP handshake
    /// and lists its tools.
    ///
    /// Fails when the program does not start, the handshake or the listing fails or takes
    /// longer than the connect timeout. Tools that cannot be used are left out, not errors:
    /// see [`McpConnection::skipped`].
    pub async fn connect(self) -> Result<McpConnection, McpError> {
        #[cfg(feature = "mcp-http")]
        if self.url.is_some() {
            return http::connect(self).await;
        }
        connection::connect(self).await
    }
}

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
        server
    }

    /// This server for one stateless HTTP request: the server's call slots only.
    #[cfg(feature = "mcp-http")]
    pub(crate) fn for_request(&self) -> Self {
        let mut server = self.clone();
        server.slots = self.slots.for_request();
        server
    }

    /// This server as a tower `Service` of streamable HTTP, served as `options` say (see
    /// [`McpHttpService`]). Each client gets a session of its own, unless
    /// [`HttpOptions::with_stateless`].
    #[cfg(feature = "mcp-http")]
    #[cfg_attr(docsrs, doc(cfg(feature = "mcp-http")))]
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
