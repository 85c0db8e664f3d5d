//! What an [`McpServer`] answers, as rmcp's `ServerHandler`: the handshake, `tools/list` and
//! `tools/call` (a call within its slots and timeout, its progress forwarded, ended with its
//! HTTP session), and the server's defaults.

use std::time::Duration;

use futures::future::Either;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, Implementation, ListToolsResult,
    PaginatedRequestParams, ProgressToken, RequestId, ServerCapabilities, ServerConfig,
    Tool as WireTool,
};
// rmcp marks logging deprecated (after protocol 2025-11-25); see `mcp::logging` for why it is
// served.
#[allow(deprecated)]
use rmcp::model::SetLevelRequestParams;
use rmcp::service::{NotificationContext, RequestContext};
use rmcp::{ErrorData, Peer, RoleServer, ServerHandler};
use serde_json::Value;

use super::ask;
use super::listing::page;
use super::slots::Client;
use super::McpServer;
use crate::guard::trace;
use crate::mcp::content;
use crate::mcp::logging;
use crate::mcp::progress;
use crate::tool::context::CallContext;
use crate::toolkit::Input;
use crate::values::result::ToolResult;

/// How many tools a `tools/list` page holds by default.
pub const DEFAULT_PAGE_SIZE: usize = 100;

/// How long a served call may take by default: a minute.
pub const DEFAULT_SERVE_TIMEOUT: Duration = Duration::from_secs(60);

/// The largest request a server reads by default (a stdio line, an HTTP body): 1 MiB of
/// arguments (the toolkit's own limit) and 64 KiB for the rest of the message.
pub const DEFAULT_MAX_REQUEST_BYTES: usize = 1024 * 1024 + 64 * 1024;

/// How many JSON values (numbers, strings, arrays, ... at any depth) one request may hold by
/// default, a stdio line or an HTTP body. It is counted before it is parsed: parsed, a small
/// value costs about a hundred times its bytes, so this keeps a request of `[0,0,...]` near
/// 30 MiB.
pub const DEFAULT_MAX_REQUEST_VALUES: usize = 100_000;

/// How many calls a server runs at once by default, over all its sessions.
pub const DEFAULT_MAX_CALLS: usize = 256;

/// How many calls one session runs at once by default.
pub const DEFAULT_MAX_CALLS_PER_SESSION: usize = 32;

impl ServerHandler for McpServer {
    #[allow(deprecated)] // `enable_logging`: see `mcp::logging`
    fn get_info(&self) -> ServerConfig {
        let tools = ServerCapabilities::builder()
            .enable_logging()
            .enable_tools();
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
        let session = session_token(self, &context);
        let request_cancelled = std::pin::pin!(context.ct.cancelled());
        let session_ended = std::pin::pin!(async {
            match &session {
                Some(token) => token.cancelled().await,
                None => std::future::pending().await,
            }
        });
        let cancelled = futures::future::select(request_cancelled, session_ended);
        let progress = context.meta.get_progress_token();
        // The trace the client's call is part of (`params._meta.traceparent`, feature `otel`),
        // and what its span says of the session and the transport.
        let parent = context.meta.get_traceparent();
        let (session, transport) = session_of(&context);
        let client = client(self, &context);
        let call = std::pin::pin!(call(
            self,
            request,
            (&context.id, parent, session, transport),
            progress,
            &context.peer,
            client
        ));
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

    /// `logging/setLevel`: this session's calls send the messages their tools log at `level`
    /// and above from now on.
    #[allow(deprecated)] // see `mcp::logging`
    async fn set_level(
        &self,
        request: SetLevelRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.log_level.set(logging::from_rmcp(request.level));
        Ok(())
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

async fn call(
    server: &McpServer,
    request: CallToolRequestParams,
    (request_id, parent, session, transport): (
        &RequestId,
        Option<&str>,
        Option<&str>,
        &'static str,
    ),
    progress: Option<ProgressToken>,
    peer: &Peer<RoleServer>,
    client: Option<Client>,
) -> Result<CallToolResponse, ErrorData> {
    let toolkit = server.served.now().toolkit;
    let name = &*request.name;
    if toolkit.get(name).is_none() {
        // The MCP spec's answer to an unknown tool: a protocol error, not a tool result.
        return Err(ErrorData::invalid_params(
            toolkit.unknown(name).output,
            None,
        ));
    }
    let Some(_held) = server.slots.take(server.timeout, client.as_ref()).await else {
        let one_client = match &client {
            Some((shares, _)) => format!(", {} for one client", shares.per_client()),
            None => String::new(),
        };
        let busy = ToolResult::error(format!(
            "the server is busy: no call slot came free in time (at most {} calls at once, \
             {} in one session{one_client}); try again later",
            server.max_calls, server.max_session_calls
        ));
        return Ok(content::to_call_result(busy).into());
    };
    // The arguments go to the toolkit's one call path as they came, without a copy.
    let input = request
        .arguments
        .map_or(Input::Absent, |args| Input::Value(Value::Object(args)));
    // The call's context: its id is the request's; a client that sent a progress token gets
    // what the tool reports as `notifications/progress`, and every client what it logs at the
    // session's level as `notifications/message`, both sent beside the call.
    let id = request_id.to_string();
    let outbox = progress::Outbox::to_peer(peer, progress.clone());
    let listener = progress.map(|_| outbox.progress());
    let log = outbox.log(server.log_level.clone());
    let asker = server.asker.get_or_init(|| ask::asker(peer));
    let context = CallContext::for_call(Some(&id), None, listener, Some(log))
        .with_asker(std::sync::Arc::clone(asker));
    let running = toolkit.call(name, input, server.timeout, false, context);
    let abandon = progress::Abandon(&outbox);
    let describe = || toolkit.described(name);
    let executed = trace::call(name, None, None, describe, running);
    let about = trace::McpRequest {
        id: Some(&id),
        parent,
        session,
        transport,
    };
    let result = trace::mcp(trace::Side::Server, name, about, executed).await;
    outbox.finish().await;
    drop(abandon);
    Ok(content::to_call_result(result).into())
}

/// Which client's share of the call slots a call of this request takes: `None` over stdio,
/// or when the host's key names no client.
#[cfg(feature = "mcp-http")]
fn client(server: &McpServer, context: &RequestContext<RoleServer>) -> Option<Client> {
    let clients = server.clients.as_ref()?;
    let parts = context.extensions.get::<http::request::Parts>()?;
    Some((
        std::sync::Arc::clone(&clients.shares),
        (clients.key)(parts)?,
    ))
}

#[cfg(not(feature = "mcp-http"))]
fn client(_server: &McpServer, _context: &RequestContext<RoleServer>) -> Option<Client> {
    None
}

/// The token that ends a call of this request's HTTP session when the session closes.
#[cfg(feature = "mcp-http")]
fn session_token(
    server: &McpServer,
    context: &RequestContext<RoleServer>,
) -> Option<tokio_util::sync::CancellationToken> {
    let sessions = server.sessions.as_ref()?;
    let parts = context.extensions.get::<http::request::Parts>()?;
    let id = parts.headers.get("mcp-session-id")?.to_str().ok()?;
    sessions.call_token(id)
}

/// A request's session id (`Mcp-Session-Id`, over HTTP) and OpenTelemetry's
/// `network.transport` for it (`tcp` over HTTP, `pipe` over stdio).
#[cfg(feature = "mcp-http")]
fn session_of(context: &RequestContext<RoleServer>) -> (Option<&str>, &'static str) {
    match context.extensions.get::<http::request::Parts>() {
        Some(parts) => (
            parts
                .headers
                .get("mcp-session-id")
                .and_then(|id| id.to_str().ok()),
            "tcp",
        ),
        None => (None, "pipe"),
    }
}

#[cfg(not(feature = "mcp-http"))]
fn session_of(_context: &RequestContext<RoleServer>) -> (Option<&str>, &'static str) {
    (None, "pipe")
}

#[cfg(not(feature = "mcp-http"))]
fn session_token(
    _server: &McpServer,
    _context: &RequestContext<RoleServer>,
) -> Option<tokio_util::sync::CancellationToken> {
    None
}
