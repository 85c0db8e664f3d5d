//! [`McpError`]: what can go wrong connecting to an MCP server, adding its tools or serving a
//! toolkit; never while a model calls a tool (a failed call is an error `ToolResult`).

use std::fmt;
use std::time::Duration;

/// An error connecting to an MCP server, adding its tools to a toolkit, or serving one.
///
/// Every variant that concerns a server names it (the name given to
/// [`McpSource`](crate::mcp::McpSource)). A call that fails once connected is never an
/// `McpError`: it comes back as an error [`ToolResult`](crate::ToolResult) naming the server.
///
/// ```
/// use toolnexus::mcp::McpError;
///
/// let err = McpError::NameTaken {
///     server: "files".into(),
///     tool: "read".into(),
///     name: "read".into(),
/// };
/// assert_eq!(
///     err.to_string(),
///     "tool `read` of MCP server `files` cannot join the toolkit: it already has a tool \
///      named `read`; give the server a prefix (`McpSource::with_prefix`) or leave one of them out"
/// );
/// ```
#[derive(Debug)]
#[non_exhaustive]
pub enum McpError {
    /// The server's process could not be started.
    Spawn {
        /// The server's name.
        server: String,
        /// Why the process did not start.
        source: std::io::Error,
    },
    /// The server did not complete the MCP handshake (`initialize`).
    Initialize {
        /// The server's name.
        server: String,
        /// What went wrong, as the MCP SDK reports it.
        reason: String,
    },
    /// Listing the server's tools failed.
    List {
        /// The server's name.
        server: String,
        /// What went wrong, as the MCP SDK reports it.
        reason: String,
    },
    /// The server did not answer the handshake or a `tools/list` in time.
    Timeout {
        /// The server's name.
        server: String,
        /// What it did not answer: `initialize` or `tools/list`.
        what: &'static str,
        /// How long it was given.
        after: Duration,
    },
    /// A tool's name (after the server's prefix) is already taken in the toolkit.
    NameTaken {
        /// The server's name.
        server: String,
        /// The tool's name on the server.
        tool: String,
        /// The name it would have had in the toolkit.
        name: String,
    },
    /// Serving a toolkit failed (its transport could not start).
    Serve {
        /// What went wrong, as the MCP SDK reports it.
        reason: String,
    },
}

impl fmt::Display for McpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Spawn { server, source } => {
                write!(f, "MCP server `{server}` could not be started: {source}")
            }
            Self::Initialize { server, reason } => {
                write!(f, "MCP server `{server}` failed the handshake: {reason}")
            }
            Self::List { server, reason } => {
                write!(
                    f,
                    "MCP server `{server}` could not list its tools: {reason}"
                )
            }
            Self::Timeout {
                server,
                what,
                after,
            } => write!(
                f,
                "MCP server `{server}` did not answer `{what}` within {after:?}"
            ),
            Self::NameTaken { server, tool, name } => write!(
                f,
                "tool `{tool}` of MCP server `{server}` cannot join the toolkit: it already has \
                 a tool named `{name}`; give the server a prefix (`McpSource::with_prefix`) or leave \
                 one of them out"
            ),
            Self::Serve { reason } => {
                write!(f, "serving the toolkit over MCP failed: {reason}")
            }
        }
    }
}

impl std::error::Error for McpError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Spawn { source, .. } => Some(source),
            _ => None,
        }
    }
}
