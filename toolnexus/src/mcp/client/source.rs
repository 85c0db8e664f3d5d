//! What an [`McpSource`](super::McpSource) is made of besides its own fields: its default
//! timeouts; [`McpLimits`]: what a server may send before its tools are left out;
//! [`Skipped`]: a tool left out, and why.

use std::time::Duration;

/// How long a call of an MCP tool may take by default: a minute.
pub const DEFAULT_CALL_TIMEOUT: Duration = Duration::from_secs(60);

/// How long connecting may take by default (the handshake and every page of the first
/// `tools/list` together): 30 seconds.
pub const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(30);

/// Bounds on everything an MCP server can make the client hold: its tool list, and each message
/// it sends.
///
/// **The tool list.** Past `max_tools`, `max_description_bytes`, `max_schema_bytes` and
/// `max_list_bytes` a tool is left out (with the reason in
/// [`McpConnection::skipped`](super::McpConnection::skipped)), never loaded half-way; past
/// `max_pages` the rest is not read. The reasons kept are at most `max_skipped`, then one entry
/// (tool `*`) counts the rest.
///
/// **Each message** (a stdio line; over streamable HTTP a JSON body or an event of a stream) is
/// measured before anything parses it: one longer than `max_message_bytes` or with more than
/// `max_message_values` JSON values is never parsed (over stdio its bytes are not even kept
/// past the limit). An answer past them fails its request
/// at once: a call's result is an error naming the server and the limit, a `tools/list` an
/// [`McpError::List`](super::McpError::List), except a `tools/list` page that only its
/// values take past the limit: its largest entries are left out (said in `skipped`) until it
/// fits, and the others load. So a result of 500,000 empty content blocks or
/// 15 MiB of zeros costs the client a few MiB over stdio and under 32 MiB over HTTP (the body
/// is held whole), not the gigabyte the SDK's parse would take.
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
    /// The longest message (a line over stdio, a body or an event over HTTP, in bytes) read
    /// from the server. Default
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
