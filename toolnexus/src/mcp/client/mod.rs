//! The client side: [`McpSource`] and what connecting to a server is made of.

mod answers;
mod catalog;
mod connection;
mod entry;
mod generation;
#[cfg(feature = "mcp-http")]
mod http;
#[cfg(feature = "mcp-http")]
mod http_client;
mod live;
#[cfg(feature = "mcp-oauth")]
mod oauth;
mod source;
#[cfg(feature = "mcp-oauth")]
mod step_up;
mod tool;

use std::ffi::OsString;
use std::path::PathBuf;
use std::time::Duration;

use crate::mcp::McpError;

pub use connection::McpConnection;
pub use live::LiveToolkit;
#[cfg(feature = "mcp-oauth")]
pub use oauth::OAuth;
pub use source::{McpLimits, Skipped, DEFAULT_CALL_TIMEOUT, DEFAULT_CONNECT_TIMEOUT};
pub use tool::McpTool;

/// An MCP server whose tools join a [`Toolkit`](crate::Toolkit): how to start it, and which of
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
    /// How the client names itself in the handshake (`clientInfo`).
    pub(crate) client_name: (String, String),
    /// What this client answers when the server asks, and hears when it logs.
    pub(crate) answers: answers::Answers,
    /// How the client authorizes itself to an HTTP server that asks (feature `mcp-oauth`).
    #[cfg(feature = "mcp-oauth")]
    pub(crate) oauth: Option<OAuth>,
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
            client_name: ("toolnexus".to_owned(), env!("CARGO_PKG_VERSION").to_owned()),
            answers: answers::Answers::default(),
            #[cfg(feature = "mcp-oauth")]
            oauth: None,
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

    /// Authorizes the client with OAuth 2.1 when the HTTP server asks for it (a `401` with a
    /// challenge), as [`OAuth`] describes; for [`McpSource::http`] only.
    #[cfg(feature = "mcp-oauth")]
    #[cfg_attr(docsrs, doc(cfg(feature = "mcp-oauth")))]
    #[must_use]
    pub fn with_oauth(mut self, oauth: OAuth) -> Self {
        self.oauth = Some(oauth);
        self
    }

    /// The server's name.
    #[must_use]
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

    /// The client named `name` at `version` in the handshake's `clientInfo` (the host's own
    /// product, say); `toolnexus` and this crate's version by default.
    ///
    /// The handshake asks for the newest protocol version that has one (2025-11-25), and
    /// declares the capabilities of the handlers set ([`McpSource::on_elicit`],
    /// [`McpSource::on_sample`]), no other: without them this client answers no sampling,
    /// elicitation or roots request.
    #[must_use]
    pub fn with_client_name(mut self, name: impl Into<String>, version: impl Into<String>) -> Self {
        self.client_name = (name.into(), version.into());
        self
    }

    /// Answers the server's questions for its user (`elicitation/create`, form mode) with
    /// `handler`, given the server's name and the question; declares the `elicitation`
    /// capability. The form is checked as a tool's own question is
    /// ([`Elicitation`](crate::ask::Elicitation)): a form outside it, or a URL question, is an
    /// error to the server, never put to the handler. An accepted answer gets the form's
    /// defaults for the fields it leaves out, and must then fit the form; the question's
    /// timeout bounds the handler. Without a handler every question is declined.
    ///
    /// ```
    /// use toolnexus::ask::Elicited;
    /// use toolnexus::mcp::McpSource;
    ///
    /// // A host with no UI: take each form as its defaults give it.
    /// let source = McpSource::stdio("files", "mcp-server-files")
    ///     .on_elicit(|_server, _question| async { Elicited::Accept(serde_json::Map::new()) });
    /// # let _ = source;
    /// ```
    #[must_use]
    pub fn on_elicit<F, A>(mut self, handler: F) -> Self
    where
        F: Fn(&str, crate::ask::Elicitation) -> A + Send + Sync + 'static,
        A: std::future::Future<Output = crate::ask::Elicited> + Send + 'static,
    {
        self.answers.elicit = Some(crate::policy::on_elicit(handler));
        self
    }

    /// Answers the server's requests for a completion (`sampling/createMessage`, text
    /// messages) with `handler`, given the server's name and the request, which calls a model
    /// of the host's choosing; declares the `sampling` capability. A request with other
    /// content or with tools is an error to the server; the request's timeout bounds the
    /// handler. Without a handler, sampling is not offered.
    #[must_use]
    pub fn on_sample<F, A>(mut self, handler: F) -> Self
    where
        F: Fn(&str, crate::ask::Sampling) -> A + Send + Sync + 'static,
        A: std::future::Future<Output = Result<crate::ask::Sampled, crate::ask::AskError>>
            + Send
            + 'static,
    {
        self.answers.sample = Some(crate::policy::on_sample(handler));
        self
    }

    /// Hands each message the server logs (`notifications/message`) to `handler` with the
    /// server's name; without one they are dropped. It runs in the connection's task: hand the
    /// message on rather than wait in it.
    #[must_use]
    pub fn on_log(
        mut self,
        handler: impl Fn(&str, crate::tool::logging::LogMessage) + Send + Sync + 'static,
    ) -> Self {
        self.answers.log = Some(std::sync::Arc::new(handler));
        self
    }

    /// Put before each tool's name in the toolkit, as given (`"fs_"` makes `read` `fs_read`).
    #[must_use]
    pub fn with_prefix(mut self, prefix: impl Into<String>) -> Self {
        self.prefix = prefix.into();
        self
    }

    /// Take only these tools (by their names on the server); by default all are taken. A
    /// second call adds to the list, as [`McpSource::deny`] does.
    #[must_use]
    pub fn allow<I, S>(mut self, names: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.allow
            .get_or_insert_default()
            .extend(names.into_iter().map(Into::into));
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
