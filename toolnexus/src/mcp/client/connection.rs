//! [`McpConnection`]: a running MCP server whose tools a toolkit can take.

use std::process::Stdio;
use std::sync::Arc;

use rmcp::transport::IntoTransport;
use rmcp::{RoleClient, ServiceExt};

use super::catalog::{Catalog, Handler, ListError};
use super::source::Skipped;
use super::tool::{Link, McpTool};
use super::McpSource;
use crate::mcp::error::McpError;
use crate::mcp::frame;
use crate::mcp::progress::Routes;
use crate::tool::Tool;
use crate::toolkit::Toolkit;
use crate::values::error::Error;
use crate::values::text::echo;

/// A connected MCP server: its tools (as [`McpTool`]s), those left out, and the way to add
/// them to a [`Toolkit`].
///
/// The server runs as long as this connection or any of its tools (in any toolkit) lives;
/// when the last one is dropped the connection closes and a stdio server's process is ended.
/// When the server sends `notifications/tools/list_changed`, the connection lists its tools
/// again: [`McpConnection::tools`] then gives the new ones and [`McpConnection::changed`]
/// returns. A [`LiveToolkit`](super::LiveToolkit) the connection is attached to takes the new
/// tools by itself; a plain [`Toolkit`] keeps the tools [`McpConnection::add_to`] gave it.
pub struct McpConnection {
    pub(super) catalog: Arc<Catalog>,
    pub(super) link: Arc<Link>,
}

pub(crate) async fn connect(source: McpSource) -> Result<McpConnection, McpError> {
    let mut command = tokio::process::Command::new(&source.program);
    command.args(&source.args);
    command.envs(source.env.iter().map(|(k, v)| (k, v)));
    if let Some(dir) = &source.current_dir {
        command.current_dir(dir);
    }
    let stderr = if source.inherit_stderr {
        Stdio::inherit()
    } else {
        Stdio::null()
    };
    command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(stderr)
        .kill_on_drop(true);
    let mut child = command.spawn().map_err(|error| McpError::Spawn {
        server: source.name.clone(),
        source: error,
    })?;
    let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
        return Err(McpError::Spawn {
            server: source.name.clone(),
            source: std::io::Error::other("the child's stdin or stdout was not piped"),
        });
    };
    // The SDK reads the server's stdout only through the bounds of `frame`.
    let stdout = frame::bounded(stdout, source.limits);
    start(source, (stdout, stdin), Some(child)).await
}

/// The handshake over `transport`, then the first listing of the tools.
pub(crate) async fn start<T, E, A>(
    source: McpSource,
    transport: T,
    child: Option<tokio::process::Child>,
) -> Result<McpConnection, McpError>
where
    T: IntoTransport<RoleClient, E, A>,
    E: std::error::Error + Send + Sync + 'static,
{
    let server = source.name.clone();
    let connect_timeout = source.connect_timeout;
    // One deadline for the whole connect: the handshake and every page of the first listing.
    let deadline = tokio::time::Instant::now() + connect_timeout;
    let call_timeout = source.call_timeout;
    let catalog = Arc::new(Catalog::new(source));
    let routes = Arc::new(Routes::default());
    let handler = Handler {
        catalog: Arc::clone(&catalog),
        routes: Arc::clone(&routes),
    };
    let service = match tokio::time::timeout_at(deadline, handler.serve(transport)).await {
        Ok(Ok(service)) => service,
        Ok(Err(error)) => {
            return Err(McpError::Initialize {
                server,
                reason: echo(&error.to_string()),
            })
        }
        Err(_) => {
            return Err(McpError::Timeout {
                server,
                what: "initialize",
                after: connect_timeout,
            })
        }
    };
    let link = Arc::new(Link {
        server,
        // OpenTelemetry's `network.transport`: a child's stdio is a pipe, HTTP runs on TCP.
        transport: if child.is_some() { "pipe" } else { "tcp" },
        peer: service.peer().clone(),
        call_timeout,
        routes,
        service: tokio::sync::Mutex::new(Some(service)),
        child: std::sync::Mutex::new(child),
    });
    let connection = McpConnection { catalog, link };
    connection.list_until(deadline).await?;
    Ok(connection)
}

impl McpConnection {
    /// The server's name.
    #[must_use]
    pub fn server(&self) -> &str {
        &self.link.server
    }

    /// The server's tools as they were last listed, in its order.
    #[must_use]
    pub fn tools(&self) -> Vec<McpTool> {
        self.catalog
            .current()
            .entries
            .iter()
            .map(|entry| McpTool {
                entry: Arc::clone(entry),
                link: Arc::clone(&self.link),
            })
            .collect()
    }

    /// The tools that were left out when the server's tools were last listed, and why: a
    /// schema the crate cannot send, a name too long or taken twice, a description or schema
    /// past [`McpLimits`](crate::mcp::McpLimits), more tools or pages than they allow.
    #[must_use]
    pub fn skipped(&self) -> Vec<Skipped> {
        self.catalog.current().skipped.clone()
    }

    /// Adds every tool of [`McpConnection::tools`] to `toolkit`, all or nothing.
    ///
    /// A name the toolkit already has is an [`McpError::NameTaken`] naming the server and the
    /// tool; the toolkit is then left as it was.
    pub fn add_to(&self, toolkit: &mut Toolkit) -> Result<(), McpError> {
        let tools = self.tools();
        for tool in &tools {
            if toolkit.get(tool.name()).is_some() {
                return Err(self.taken(tool));
            }
        }
        let shared: Vec<Arc<dyn Tool>> = tools
            .iter()
            .map(|t| Arc::new(t.clone()) as Arc<dyn Tool>)
            .collect();
        toolkit.add(shared).map_err(|error| match error {
            Error::DuplicateTool { name } => match tools.iter().find(|t| t.name() == name) {
                Some(tool) => self.taken(tool),
                None => self.list_error(name),
            },
            other => self.list_error(other.to_string()),
        })?;
        Ok(())
    }

    fn taken(&self, tool: &McpTool) -> McpError {
        McpError::NameTaken {
            server: self.link.server.clone(),
            tool: tool.remote_name().to_owned(),
            name: tool.name().to_owned(),
        }
    }

    fn list_error(&self, reason: String) -> McpError {
        McpError::List {
            server: self.link.server.clone(),
            reason,
        }
    }

    /// Lists the server's tools again (as a `notifications/tools/list_changed` does), every
    /// page within one [`McpSource::with_connect_timeout`](crate::mcp::McpSource::with_connect_timeout).
    pub async fn refresh(&self) -> Result<(), McpError> {
        let deadline = tokio::time::Instant::now() + self.catalog.source.connect_timeout;
        self.list_until(deadline).await
    }

    async fn list_until(&self, deadline: tokio::time::Instant) -> Result<(), McpError> {
        let server = self.link.server.clone();
        self.catalog
            .refresh(&self.link.peer, deadline)
            .await
            .map_err(|error| match error {
                ListError::Failed(reason) => McpError::List { server, reason },
                ListError::Timeout(after) => McpError::Timeout {
                    server,
                    what: "tools/list",
                    after,
                },
            })
    }

    /// How many times the tools were listed; [`McpConnection::changed`] waits for it to grow.
    #[must_use]
    pub fn generation(&self) -> u64 {
        self.catalog.generation.get()
    }

    /// Waits until the tools have been listed again after `generation` (see
    /// [`McpConnection::generation`]), and returns the new generation.
    pub async fn changed(&self, generation: u64) -> u64 {
        self.catalog.generation.after(generation).await
    }

    /// Whether the connection to the server has closed (the server exited, say).
    #[must_use]
    pub fn is_closed(&self) -> bool {
        self.link.peer.is_transport_closed()
    }

    /// Closes the connection now, ending a stdio server's process; the tools then answer every
    /// call with an error result.
    pub async fn close(self) {
        if let Some(mut service) = self.link.service.lock().await.take() {
            let _ = service.close().await;
        }
        self.link.end_child();
    }
}

impl std::fmt::Debug for McpConnection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let loaded = self.catalog.current();
        f.debug_struct("McpConnection")
            .field("server", &self.link.server)
            .field("tools", &loaded.entries.len())
            .field("skipped", &loaded.skipped.len())
            .finish()
    }
}
