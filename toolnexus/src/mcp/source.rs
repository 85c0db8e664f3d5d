//! [`McpSource`]: how to reach an MCP server and which of its tools to take; [`McpLimits`]:
//! what a server may send before its tools are left out; [`Skipped`]: a tool left out, and why.

use std::ffi::OsString;
use std::path::PathBuf;
use std::time::Duration;

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
/// already took, is left out ([`McpConnection::skipped`](super::McpConnection::skipped) says why); a name the toolkit already
/// has is an [`McpError::NameTaken`](super::McpError::NameTaken) naming the server and the tool, from
/// [`McpConnection::add_to`](super::McpConnection::add_to).
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

/// How long a call of an MCP tool may take by default: a minute.
pub const DEFAULT_CALL_TIMEOUT: Duration = Duration::from_secs(60);

/// How long connecting may take by default (the handshake and every page of the first
/// `tools/list` together): 30 seconds.
pub const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(30);

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
    /// [`McpError::Timeout`](super::McpError::Timeout). Each later listing (after
    /// `list_changed`, or [`McpConnection::refresh`](super::McpConnection::refresh)) gets the
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
}

/// Bounds on everything an MCP server can make the client hold: its tool list, and each message
/// it sends.
///
/// **The tool list.** Past `max_tools`, `max_description_bytes`, `max_schema_bytes` and
/// `max_list_bytes` a tool is left out (with the reason in
/// [`McpConnection::skipped`](super::McpConnection::skipped)), never loaded half-way; past
/// `max_pages` the rest is not read. The reasons kept are at most `max_skipped`, then one entry
/// (tool `*`) counts the rest.
///
/// **Each message** (over stdio) is measured while it arrives, before anything parses it: one
/// longer than `max_message_bytes` or with more than `max_message_values` JSON values is never
/// parsed (its bytes are not even kept past the limit). An answer past them fails its request
/// at once: a call's result is an error naming the server and the limit, a `tools/list` an
/// [`McpError::List`](super::McpError::List). So a result of 500,000 empty content blocks or
/// 15 MiB of zeros costs the client a few MiB, not the hundreds the SDK's parse would take.
/// Over streamable HTTP the MCP SDK holds each response body and event to `max_message_bytes`
/// before parsing it; `max_message_values` is checked over stdio only.
///
/// ```
/// let limits = toolnexus::mcp::McpLimits::default();
/// assert_eq!(limits.max_tools, 1000);
/// assert_eq!(limits.max_description_bytes, 64 * 1024);
/// assert_eq!(limits.max_schema_bytes, 256 * 1024);
/// assert_eq!(limits.max_list_bytes, 24 << 20);
/// assert_eq!(limits.max_pages, 100);
/// assert_eq!(limits.max_skipped, 100);
/// assert_eq!(limits.max_message_bytes, 16 << 20);
/// assert_eq!(limits.max_message_values, 100_000);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct McpLimits {
    /// The most tools taken from one server; the rest are left out. Default 1000.
    pub max_tools: usize,
    /// The longest description (in bytes) a tool may have. Default 64 KiB.
    pub max_description_bytes: usize,
    /// The largest input schema (as compact JSON, in bytes) a tool may have. Default 256 KiB.
    pub max_schema_bytes: usize,
    /// The most `tools/list` pages read; a server that keeps sending cursors stops there.
    /// Default 100.
    pub max_pages: usize,
    /// What all the tools of one server may cost together, in bytes: each tool counts its name,
    /// description and schema (as compact JSON) six times, as read and in each of the five
    /// providers' forms and tools arrays. A tool that would pass it is left out. Default 24 MiB
    /// (about 4 MiB of tool text).
    pub max_list_bytes: usize,
    /// The most left-out tools whose reasons [`McpConnection::skipped`](super::McpConnection::skipped)
    /// keeps; past them one entry counts the rest. Default 100.
    pub max_skipped: usize,
    /// The longest message (one line over stdio, in bytes) read from the server. Default
    /// 16 MiB, the MCP SDK's own bound.
    pub max_message_bytes: usize,
    /// The most JSON values in one message from the server, counted as `{`, `[` and `,` outside
    /// strings while it arrives (what parsing a message costs grows with them, not only with
    /// its bytes). Default 100,000.
    pub max_message_values: usize,
}

impl Default for McpLimits {
    fn default() -> Self {
        Self {
            max_tools: 1000,
            max_description_bytes: 64 * 1024,
            max_schema_bytes: 256 * 1024,
            max_pages: 100,
            max_list_bytes: 24 << 20,
            max_skipped: 100,
            max_message_bytes: 16 << 20,
            max_message_values: 100_000,
        }
    }
}

impl McpLimits {
    /// The same limits with at most `max` tools from one server.
    #[must_use]
    pub fn with_max_tools(mut self, max: usize) -> Self {
        self.max_tools = max;
        self
    }

    /// The same limits with descriptions of at most `max` bytes.
    #[must_use]
    pub fn with_max_description_bytes(mut self, max: usize) -> Self {
        self.max_description_bytes = max;
        self
    }

    /// The same limits with input schemas of at most `max` bytes.
    #[must_use]
    pub fn with_max_schema_bytes(mut self, max: usize) -> Self {
        self.max_schema_bytes = max;
        self
    }

    /// The same limits with at most `max` pages of `tools/list`.
    #[must_use]
    pub fn with_max_pages(mut self, max: usize) -> Self {
        self.max_pages = max;
        self
    }

    /// The same limits with all tools of a server costing at most `max` bytes together.
    #[must_use]
    pub fn with_max_list_bytes(mut self, max: usize) -> Self {
        self.max_list_bytes = max;
        self
    }

    /// The same limits keeping at most `max` reasons for left-out tools.
    #[must_use]
    pub fn with_max_skipped(mut self, max: usize) -> Self {
        self.max_skipped = max;
        self
    }

    /// The same limits with messages of at most `max` bytes.
    #[must_use]
    pub fn with_max_message_bytes(mut self, max: usize) -> Self {
        self.max_message_bytes = max;
        self
    }

    /// The same limits with at most `max` JSON values a message.
    #[must_use]
    pub fn with_max_message_values(mut self, max: usize) -> Self {
        self.max_message_values = max;
        self
    }
}

/// A tool of an MCP server that was left out, and why (for the host, in plain words).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Skipped {
    /// The server's name.
    pub server: String,
    /// Its name on the server (at most 100 characters of it, control characters escaped); `*`
    /// for tools that were never read (pages past [`McpLimits::max_pages`]) and for the entry
    /// that counts the reasons past [`McpLimits::max_skipped`].
    pub tool: String,
    /// Why it was left out.
    pub reason: String,
}
