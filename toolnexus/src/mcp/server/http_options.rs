//! [`HttpOptions`]: how [`McpServer::http_service`](super::McpServer::http_service) serves over
//! streamable HTTP (who may call, how much it holds, rmcp's own settings).

use std::sync::Arc;
use std::time::Duration;

use rmcp::transport::streamable_http_server::StreamableHttpServerConfig;

/// How many sessions a server holds by default; past them a new client gets `503`.
#[cfg_attr(docsrs, doc(cfg(feature = "mcp-http")))]
pub const DEFAULT_MAX_SESSIONS: usize = 1000;

/// How long a session may stay idle by default before it is closed: 5 minutes.
#[cfg_attr(docsrs, doc(cfg(feature = "mcp-http")))]
pub const DEFAULT_SESSION_IDLE_TIMEOUT: Duration = Duration::from_secs(300);

/// How many connections [`McpHttpService::serve`](super::McpHttpService::serve) holds open
/// by default; past them a new connection gets `503` and is closed.
#[cfg_attr(docsrs, doc(cfg(feature = "mcp-http")))]
pub const DEFAULT_MAX_CONNECTIONS: usize = 512;

/// How long a request's head and body may take to arrive by default: 30 seconds.
#[cfg_attr(docsrs, doc(cfg(feature = "mcp-http")))]
pub const DEFAULT_READ_TIMEOUT: Duration = Duration::from_secs(30);

use super::serve::DEFAULT_MAX_REQUEST_VALUES;

/// What the `Retry-After` header of a `503` says, in seconds.
pub(crate) const RETRY_AFTER_SECONDS: u64 = 5;

/// How [`McpServer::http_service`](super::McpServer::http_service) serves: who may call it and
/// how much one client can make it hold. Secure by default: only loopback `Host`s and
/// loopback (or absent) `Origin`s are let in; everything else is refused with `403` before the
/// body is read.
///
/// ```
/// use std::time::Duration;
/// use toolnexus::mcp::HttpOptions;
///
/// let options = HttpOptions::new()
///     .with_allowed_hosts(["mcp.example.com"])          // behind your proxy, with your auth
///     .with_allowed_origins(["https://app.example.com"])
///     .with_max_sessions(200)
///     .with_session_idle_timeout(Duration::from_secs(60));
/// ```
#[cfg_attr(docsrs, doc(cfg(feature = "mcp-http")))]
#[derive(Clone)]
pub struct HttpOptions {
    pub(crate) hosts: Vec<String>,
    pub(crate) any_host: bool,
    pub(crate) origins: Vec<String>,
    pub(crate) any_origin: bool,
    pub(crate) max_sessions: usize,
    pub(crate) idle: Option<Duration>,
    pub(crate) max_connections: usize,
    /// `None`: half of `max_connections`.
    pub(crate) max_client_connections: Option<usize>,
    /// `None`: half of `max_sessions`.
    pub(crate) max_client_sessions: Option<usize>,
    /// `None`: half of the server's `max_calls`.
    pub(crate) max_client_calls: Option<usize>,
    pub(crate) client_key: Arc<ClientKey>,
    pub(crate) read_timeout: Duration,
    pub(crate) max_values: usize,
    pub(crate) stateless: bool,
    pub(crate) json_response: bool,
    pub(crate) keep_alive: Option<Duration>,
    pub(crate) sse_retry: Option<Duration>,
    pub(crate) rmcp: Option<Arc<RmcpConfig>>,
    pub(crate) resource: Option<super::resource::ResourceServer>,
}

/// What names the client a request comes from, for the shares each client gets: see
/// [`HttpOptions::with_client_key`].
#[cfg_attr(docsrs, doc(cfg(feature = "mcp-http")))]
pub type ClientKey = dyn Fn(&http::request::Parts) -> Option<String> + Send + Sync;

/// The default [`ClientKey`]: the peer's IP address, when the request came through
/// [`serve_bounded`](super::serve_bounded) (which puts a [`PeerAddr`](super::PeerAddr) in
/// each request's extensions).
fn peer_ip(parts: &http::request::Parts) -> Option<String> {
    parts
        .extensions
        .get::<super::PeerAddr>()
        .map(|peer| peer.0.ip().to_string())
}

type RmcpConfig = dyn Fn(StreamableHttpServerConfig) -> StreamableHttpServerConfig + Send + Sync;

impl Default for HttpOptions {
    fn default() -> Self {
        Self::new()
    }
}

impl HttpOptions {
    /// The defaults: loopback only, and the bounds in the guide's table.
    pub fn new() -> Self {
        Self {
            hosts: Vec::new(),
            any_host: false,
            origins: Vec::new(),
            any_origin: false,
            max_sessions: DEFAULT_MAX_SESSIONS,
            idle: Some(DEFAULT_SESSION_IDLE_TIMEOUT),
            max_connections: DEFAULT_MAX_CONNECTIONS,
            max_client_connections: None,
            max_client_sessions: None,
            max_client_calls: None,
            client_key: Arc::new(peer_ip),
            read_timeout: DEFAULT_READ_TIMEOUT,
            max_values: DEFAULT_MAX_REQUEST_VALUES,
            stateless: false,
            json_response: false,
            keep_alive: Some(Duration::from_secs(15)),
            sse_retry: Some(Duration::from_secs(3)),
            rmcp: None,
            resource: None,
        }
    }

    /// Also lets in requests whose `Host` is one of `hosts`: a name (`mcp.example.com`, any
    /// port) or a name and port (`mcp.example.com:8443`). Loopback names (`localhost`,
    /// `127.0.0.1`, `[::1]`) always pass. Any other `Host` is refused with `403`: a web page
    /// cannot reach a local server through a name of its own (DNS rebinding).
    #[must_use]
    pub fn with_allowed_hosts(
        mut self,
        hosts: impl IntoIterator<Item = impl Into<String>>,
    ) -> Self {
        self.hosts
            .extend(hosts.into_iter().map(|h| h.into().to_ascii_lowercase()));
        self
    }

    /// Lets in any `Host`, for a server behind a proxy that checks the name itself.
    #[must_use]
    pub fn allow_any_host(mut self) -> Self {
        self.any_host = true;
        self
    }

    /// Also lets in browser requests whose `Origin` is one of `origins`, each
    /// `scheme://host` or `scheme://host:port` (`https://app.example.com`), or `null`. A
    /// request without `Origin` (any client that is not a browser) and one from a loopback
    /// origin (`http://localhost:5173`, any scheme and port) always pass; any other `Origin`,
    /// `null` included, is refused with `403`, as the MCP spec asks.
    #[must_use]
    pub fn with_allowed_origins(
        mut self,
        origins: impl IntoIterator<Item = impl Into<String>>,
    ) -> Self {
        self.origins
            .extend(origins.into_iter().map(|o| o.into().to_ascii_lowercase()));
        self
    }

    /// Lets in any `Origin`, for a host whose own CORS layer decides.
    #[must_use]
    pub fn allow_any_origin(mut self) -> Self {
        self.any_origin = true;
        self
    }

    /// At most `max` sessions at once ([`DEFAULT_MAX_SESSIONS`]); a client starting one more
    /// gets `503 Service Unavailable` with `Retry-After`, until one ends.
    #[must_use]
    pub fn with_max_sessions(mut self, max: usize) -> Self {
        self.max_sessions = max;
        self
    }

    /// Closes a session idle for `idle` ([`DEFAULT_SESSION_IDLE_TIMEOUT`]), its memory and its
    /// slot given back; `None` keeps idle sessions until the client deletes them.
    #[must_use]
    pub fn with_session_idle_timeout(mut self, idle: impl Into<Option<Duration>>) -> Self {
        self.idle = idle.into();
        self
    }

    /// At most `max` connections open at once in
    /// [`McpHttpService::serve`](super::McpHttpService::serve) ([`DEFAULT_MAX_CONNECTIONS`]);
    /// one more gets `503` with `Retry-After` and is closed. An open event stream holds its
    /// connection. (Mounted in your own server, its connection limits apply instead.)
    #[must_use]
    pub fn with_max_connections(mut self, max: usize) -> Self {
        self.max_connections = max.max(1);
        self
    }

    /// At most `max` of those connections from one client (one peer IP address) at once: by
    /// default half of [`HttpOptions::with_max_connections`], so one client cannot take every
    /// connection and room stays for the others; one more from it gets `503` and is closed.
    /// Behind a reverse proxy every connection comes from the proxy's address: set this to
    /// the whole cap there, and cap clients at the proxy.
    #[must_use]
    pub fn with_max_connections_per_client(mut self, max: usize) -> Self {
        self.max_client_connections = Some(max.max(1));
        self
    }

    /// How many connections one client may hold at once.
    pub(crate) fn client_connections(&self) -> usize {
        self.max_client_connections
            .unwrap_or(self.max_connections / 2)
            .clamp(1, self.max_connections)
    }

    /// At most `max` sessions of one client at once: by default half of
    /// [`HttpOptions::with_max_sessions`], so one client cannot take every session. One more
    /// from it gets `503` with `Retry-After`. Which requests are one client's is
    /// [`HttpOptions::with_client_key`]'s to say.
    #[must_use]
    pub fn with_max_sessions_per_client(mut self, max: usize) -> Self {
        self.max_client_sessions = Some(max.max(1));
        self
    }

    /// How many sessions one client may hold at once.
    pub(crate) fn client_sessions(&self) -> usize {
        self.max_client_sessions
            .unwrap_or(self.max_sessions / 2)
            .clamp(1, self.max_sessions.max(1))
    }

    /// At most `max` calls of one client running at once, over all its sessions: by default
    /// half of [`McpServer::with_max_calls`](super::McpServer::with_max_calls), so one client
    /// cannot take every call slot. One more waits for one of the client's own calls to end,
    /// at most the call timeout, then is answered with an error result saying the server is
    /// busy.
    #[must_use]
    pub fn with_max_calls_per_client(mut self, max: usize) -> Self {
        self.max_client_calls = Some(max.max(1));
        self
    }

    /// How many calls one client may run at once, of a server running `max_calls`.
    pub(crate) fn client_calls(&self, max_calls: usize) -> usize {
        self.max_client_calls
            .unwrap_or(max_calls / 2)
            .clamp(1, max_calls.max(1))
    }

    /// Says which client a request comes from, for the shares of sessions and calls each
    /// client gets ([`HttpOptions::with_max_sessions_per_client`],
    /// [`HttpOptions::with_max_calls_per_client`]); a request it names no client for is held
    /// to the server's caps alone. By default the client is the peer's IP address, known when
    /// the service is served by [`McpHttpService::serve`](super::McpHttpService::serve) or
    /// [`serve_bounded`](super::serve_bounded) (a [`PeerAddr`](super::PeerAddr) in the
    /// request's extensions); mounted in another server, name it yourself. Behind
    /// authentication, the principal your auth layer found is the better key: a client then
    /// cannot dodge its share by coming from other addresses, and users behind one proxy keep
    /// theirs.
    ///
    /// ```
    /// use toolnexus::mcp::HttpOptions;
    ///
    /// /// What a host's auth layer puts in each request's extensions.
    /// #[derive(Clone)]
    /// struct Principal(String);
    ///
    /// let options = HttpOptions::new()
    ///     .with_client_key(|parts| parts.extensions.get::<Principal>().map(|p| p.0.clone()));
    /// ```
    #[must_use]
    pub fn with_client_key(
        mut self,
        key: impl Fn(&http::request::Parts) -> Option<String> + Send + Sync + 'static,
    ) -> Self {
        self.client_key = Arc::new(key);
        self
    }

    /// A request's body must arrive within `timeout` ([`DEFAULT_READ_TIMEOUT`]), else `408
    /// Request Timeout`; in [`McpHttpService::serve`](super::McpHttpService::serve) its head
    /// too, else the connection is closed.
    #[must_use]
    pub fn with_read_timeout(mut self, timeout: Duration) -> Self {
        self.read_timeout = timeout;
        self
    }

    /// At most `max` JSON values in one request body ([`DEFAULT_MAX_REQUEST_VALUES`]), counted
    /// before parsing; more is `413 Payload Too Large`. (The byte bound is
    /// [`McpServer::with_max_request_bytes`](super::McpServer::with_max_request_bytes).)
    #[must_use]
    pub fn with_max_request_values(mut self, max: usize) -> Self {
        self.max_values = max;
        self
    }

    /// Serves without sessions (rmcp's `legacy_session_mode` off): each request stands alone,
    /// so instances behind a load balancer need no shared state. Protocol `2026-07-28`
    /// requests are always served so; this switch is for the versions before it. No session
    /// means no stream for `list_changed` or for requests from the server.
    #[must_use]
    pub fn with_stateless(mut self, stateless: bool) -> Self {
        self.stateless = stateless;
        self
    }

    /// Serves as an OAuth 2.1 resource server ([`ResourceServer`](super::ResourceServer)): the
    /// protected-resource metadata, and every other request's bearer token checked by the
    /// host's verifier for this resource and its scopes (a `401` or `403` challenge otherwise).
    /// The [`Grant`](super::Grant) of an accepted token rides on the request, for
    /// [`HttpOptions::with_client_key`] to key shares by principal.
    #[must_use]
    pub fn with_resource_server(mut self, resource: super::ResourceServer) -> Self {
        self.resource = Some(resource);
        self
    }

    /// In stateless mode, answers a request with `application/json` rather than an event
    /// stream when the answer is a single message (rmcp's `json_response`).
    #[must_use]
    pub fn with_json_response(mut self, json: bool) -> Self {
        self.json_response = json;
        self
    }

    /// A keep-alive comment on event streams every `every` (15 s by default; `None`: never).
    #[must_use]
    pub fn with_keep_alive(mut self, every: Option<Duration>) -> Self {
        self.keep_alive = every;
        self
    }

    /// The reconnection delay event streams tell their client (3 s by default; `None`: none).
    #[must_use]
    pub fn with_sse_retry(mut self, retry: Option<Duration>) -> Self {
        self.sse_retry = retry;
        self
    }

    /// Any other setting of rmcp's [`StreamableHttpServerConfig`] (a session store for
    /// restoring sessions across instances, per-request protocol metadata, a cancellation
    /// token), applied after the ones above. The `Host`, `Origin` and size checks of these
    /// options run before rmcp's own.
    #[must_use]
    pub fn with_rmcp_config(
        mut self,
        configure: impl Fn(StreamableHttpServerConfig) -> StreamableHttpServerConfig
            + Send
            + Sync
            + 'static,
    ) -> Self {
        self.rmcp = Some(Arc::new(configure));
        self
    }

    /// rmcp's configuration from these options; `max_bytes` is the server's request bound.
    pub(crate) fn rmcp_config(&self, max_bytes: usize) -> StreamableHttpServerConfig {
        // Host and Origin are checked before rmcp sees the request (`gate`), by these rules.
        let config = StreamableHttpServerConfig::default()
            .disable_allowed_hosts()
            .disable_allowed_origins()
            .with_legacy_session_mode(!self.stateless)
            .with_json_response(self.json_response)
            .with_sse_keep_alive(self.keep_alive)
            .with_sse_retry(self.sse_retry)
            .with_max_request_body_bytes(max_bytes);
        match &self.rmcp {
            Some(configure) => configure(config),
            None => config,
        }
    }
}

impl std::fmt::Debug for HttpOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HttpOptions")
            .field("allowed_hosts", &self.hosts)
            .field("any_host", &self.any_host)
            .field("allowed_origins", &self.origins)
            .field("any_origin", &self.any_origin)
            .field("max_sessions", &self.max_sessions)
            .field("session_idle_timeout", &self.idle)
            .field("max_connections", &self.max_connections)
            .field("max_connections_per_client", &self.client_connections())
            .field("max_sessions_per_client", &self.client_sessions())
            .field("read_timeout", &self.read_timeout)
            .field("max_request_values", &self.max_values)
            .field("stateless", &self.stateless)
            .field("json_response", &self.json_response)
            .field("resource_server", &self.resource)
            .finish_non_exhaustive()
    }
}
