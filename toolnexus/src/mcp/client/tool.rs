//! [`McpTool`]: one tool of an MCP server as a [`Tool`].

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use rmcp::model::{
    CallToolRequest, CallToolRequestParams, ClientRequest, RequestParamsMeta, ServerResult,
};
use rmcp::service::{PeerRequestOptions, RunningService, ServiceError};
use rmcp::{Peer, RoleClient};
use serde_json::Value;

use super::catalog::Handler;
use super::entry::Entry;
use crate::guard::trace;
use crate::mcp::content;
use crate::mcp::progress::Routes;
use crate::schema::InputSchema;
use crate::tool::call_args::CallArgs;
use crate::tool::context::CallContext;
use crate::tool::hints::ToolHints;
use crate::tool::{Tool, ToolSource};
use crate::values::result::{Failure, ToolResult};
use crate::values::text::echo;

/// The connection every tool of one server shares: the server's name, the way to send it
/// requests, and (keeping it running) the MCP client service itself.
pub(crate) struct Link {
    pub(crate) server: String,
    /// `pipe` (a child's stdio) or `tcp` (HTTP), for the call's span.
    pub(crate) transport: &'static str,
    pub(crate) peer: Peer<RoleClient>,
    pub(crate) call_timeout: Duration,
    /// The calls in flight, for the server's progress reports.
    pub(crate) routes: Arc<Routes>,
    /// Dropped with the last tool and connection: that closes the transport and ends the child.
    pub(crate) service: tokio::sync::Mutex<Option<RunningService<RoleClient, Handler>>>,
    /// A stdio server's process, killed when the link is dropped or the connection closed.
    pub(crate) child: std::sync::Mutex<Option<tokio::process::Child>>,
}

impl Link {
    /// Ends a stdio server's process now (dropping it kills it; tokio reaps it).
    pub(crate) fn end_child(&self) {
        let child = self
            .child
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .take();
        drop(child);
    }
}

/// One tool of an MCP server, usable in a [`Toolkit`](crate::Toolkit) like any other.
///
/// Its schema is the server's `inputSchema`, read by the same rules as a hand-written schema
/// ([`InputSchema::new`]), so each provider gets it lowered as for a
/// [`NativeTool`](crate::NativeTool). A call passes the toolkit's limits, guard and timeout,
/// then goes to the server as `tools/call`; its answer becomes the [`ToolResult`] (text,
/// images and files as [`Media`](crate::Media), `structuredContent` in `metadata`, `isError`
/// as an error result); the tool keeps the server's `outputSchema` ([`Tool::output_schema`]).
/// A server that
/// fails, exits, hangs past [`McpSource::with_call_timeout`](crate::mcp::McpSource::with_call_timeout)
/// or answers nonsense gives an error result that names it.
#[derive(Clone)]
pub struct McpTool {
    pub(crate) entry: Arc<Entry>,
    pub(crate) link: Arc<Link>,
}

impl McpTool {
    /// The server's name.
    #[must_use]
    pub fn server(&self) -> &str {
        &self.link.server
    }

    /// The tool's name on the server (its [`Tool::name`] may differ: see
    /// [`McpSource`](crate::mcp::McpSource)).
    ///
    /// As the server gave it when it is at most 100 characters without control characters;
    /// otherwise cut, and control characters written as escapes (`\u{1b}`), since a server can
    /// send anything. Calls go out under the name exactly as the server gave it.
    #[must_use]
    pub fn remote_name(&self) -> &str {
        &self.entry.shown
    }
}

impl fmt::Debug for McpTool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("McpTool")
            .field("server", &self.link.server)
            .field("name", &self.entry.name)
            .field("remote_name", &self.entry.shown)
            .finish_non_exhaustive()
    }
}

#[async_trait]
impl Tool for McpTool {
    fn name(&self) -> &str {
        &self.entry.name
    }

    fn description(&self) -> &str {
        &self.entry.description
    }

    fn input_schema(&self) -> &InputSchema {
        &self.entry.schema
    }

    /// [`ToolSource::Mcp`]: the tool runs on an MCP server.
    fn source(&self) -> ToolSource {
        ToolSource::Mcp
    }

    /// The title the server gave the tool, if any.
    fn title(&self) -> Option<&str> {
        self.entry.title.as_deref()
    }

    /// The server's `annotations` (hints only: a server can say anything).
    fn hints(&self) -> ToolHints {
        self.entry.hints
    }

    /// The `outputSchema` the server listed; a result's `structuredContent` is then in its
    /// `metadata.structuredContent`.
    fn output_schema(&self) -> Option<&Value> {
        self.entry.output_schema.as_ref()
    }

    /// The call as `tools/call`, with a progress token: what the server reports under it
    /// reaches `context` ([`CallContext::progress`]); dropped before the server answered (or
    /// past [`McpSource::with_call_timeout`](crate::mcp::McpSource::with_call_timeout)), the
    /// call sends the server `notifications/cancelled` for it.
    async fn call(&self, context: CallContext, args: CallArgs<'_>) -> ToolResult {
        let remote = &*self.entry.remote;
        let request = trace::McpRequest {
            id: None,
            parent: None,
            session: None,
            transport: self.link.transport,
        };
        let call = self.remote_call(context, args);
        trace::mcp(trace::Side::Client, remote, request, call).await
    }
}

impl McpTool {
    /// The call itself: `tools/call`, its answer, its timeout.
    async fn remote_call(&self, context: CallContext, args: CallArgs<'_>) -> ToolResult {
        let server = &self.link.server;
        let remote = &self.entry.shown;
        let arguments = match args.into_object(&self.entry.name) {
            Ok(Value::Object(map)) => map,
            Ok(_) => serde_json::Map::new(),
            Err(refused) => return refused,
        };
        let mut params =
            CallToolRequestParams::new(self.entry.remote.clone()).with_arguments(arguments);
        // Inside this call's span: the server continues its trace (feature `otel`).
        if let Some(traceparent) = trace::traceparent() {
            params.set_traceparent(&traceparent);
        }
        let request = ClientRequest::CallToolRequest(CallToolRequest::new(params));
        let peer = &self.link.peer;
        let answer = async {
            let handle = peer
                .send_request_with_option(request, PeerRequestOptions::no_options())
                .await?;
            // Routed before the answer is awaited; a report the server sends before this line
            // runs (it would have to read the request and report within these few steps) is
            // dropped, as one for a token nobody knows.
            let outgoing = self.link.routes.route(
                handle.progress_token.clone(),
                context,
                peer.clone(),
                handle.id.clone(),
            );
            Ok::<_, ServiceError>((outgoing, handle))
        };
        let started = tokio::time::Instant::now();
        let (mut outgoing, handle) =
            match tokio::time::timeout(self.link.call_timeout, answer).await {
                Ok(Ok(sent)) => sent,
                Ok(Err(error)) => return self.failed(&error),
                Err(_) => return self.late(),
            };
        let left = self.link.call_timeout.saturating_sub(started.elapsed());
        let answer = tokio::time::timeout(left, handle.await_response()).await;
        // rmcp hands each notification to the handler in a task of its own, spawned before the
        // answer (read after it) was delivered: one turn of the scheduler lets the reports the
        // server sent before its answer reach the context before the route goes.
        tokio::task::yield_now().await;
        match answer {
            Ok(Ok(ServerResult::CallToolResult(result))) => {
                outgoing.answered();
                content::to_tool_result(result, server)
            }
            Ok(Ok(_)) => {
                outgoing.answered();
                ToolResult::error(format!(
                    "MCP server `{server}` answered `{remote}` with something that is not a tool result"
                ))
            }
            Ok(Err(error)) => {
                outgoing.answered();
                self.failed(&error)
            }
            Err(_) => {
                outgoing.cancel("the call timed out");
                self.late()
            }
        }
    }
}

impl McpTool {
    /// The answer to a call the server could not run: its error text, cut and escaped (a
    /// server can send megabytes of anything).
    fn failed(&self, error: &ServiceError) -> ToolResult {
        ToolResult::error(format!(
            "MCP server `{}` could not run `{}`: {}",
            self.link.server,
            self.entry.shown,
            echo(&error.to_string())
        ))
    }

    fn late(&self) -> ToolResult {
        ToolResult::failed(
            format!(
                "MCP server `{}` did not answer `{}` within {:?}",
                self.link.server, self.entry.shown, self.link.call_timeout
            ),
            Failure::Timeout,
        )
    }
}
