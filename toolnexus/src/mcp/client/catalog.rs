//! A server's tools as listed (following pagination), checked against the names, filters and
//! [`McpLimits`](super::McpLimits); refreshed when the server says its list changed.

use std::collections::HashSet;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use tokio::time::Instant;

#[allow(deprecated)] // rmcp deprecates sampling and logging (SEP-2577); 2025-11-25 has both.
use rmcp::model::{
    ClientConfig, ClientRequest, CreateMessageRequestParams, CreateMessageResult, CustomRequest,
    CustomResult, ElicitRequestParams, ElicitResult, ErrorData, Implementation,
    LoggingMessageNotificationParam, ProgressNotificationParam, ProtocolVersion, ServerResult,
    Tool as WireTool,
};
use rmcp::service::{NotificationContext, RequestContext};
use rmcp::{ClientHandler, Peer, RoleClient};
use serde_json::Value;

use super::entry::{admit, Entry, Skips};
use super::generation::Generation;
use super::source::Skipped;
use super::McpSource;
use crate::mcp::frame::UNREADABLE;
use crate::mcp::progress::Routes;
use crate::values::text::{cut_pieces, echo};

/// The tools a server offers now, and those left out.
#[derive(Debug, Default)]
pub(crate) struct Loaded {
    pub(crate) entries: Vec<Arc<Entry>>,
    pub(crate) skipped: Vec<Skipped>,
}

/// What a connection and its client handler share: the settings, the current tools, and a
/// counter of refreshes that waiters watch.
pub(crate) struct Catalog {
    pub(crate) source: McpSource,
    pub(crate) loaded: Mutex<Arc<Loaded>>,
    pub(crate) generation: Generation,
    /// Called after each listing; a listener that returns `false` is dropped.
    listeners: Mutex<Vec<Listener>>,
    /// Whether a listing for `list_changed` runs, and whether another notification came since
    /// it began.
    relisting: Mutex<Relisting>,
}

#[derive(Default)]
struct Relisting {
    running: bool,
    again: bool,
}

/// Told that the tools were listed again; `false` once it no longer listens.
pub(crate) type Listener = Box<dyn Fn() -> bool + Send + Sync>;

impl Catalog {
    pub(crate) fn new(source: McpSource) -> Self {
        Self {
            source,
            loaded: Mutex::new(Arc::default()),
            generation: Generation::new(),
            listeners: Mutex::new(Vec::new()),
            relisting: Mutex::default(),
        }
    }

    /// Answers `notifications/tools/list_changed`: lists the tools again in a task of its own
    /// (the listing's answers arrive through the service loop that runs the notification). At
    /// most one such listing runs at a time; any number of notifications that arrive meanwhile
    /// make one more after it, so a server that floods them gets a listing or two, not one each.
    /// A failed listing keeps the tools as they were.
    fn relist(self: Arc<Self>, peer: Peer<RoleClient>) {
        {
            let mut state = self
                .relisting
                .lock()
                .unwrap_or_else(PoisonError::into_inner);
            if state.running {
                state.again = true;
                return;
            }
            state.running = true;
        }
        tokio::spawn(async move {
            loop {
                let deadline = tokio::time::Instant::now() + self.source.connect_timeout;
                let _ = self.refresh(&peer, deadline).await;
                let mut state = self
                    .relisting
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner);
                if !state.again {
                    state.running = false;
                    break;
                }
                state.again = false;
            }
        });
    }

    /// Calls `listener` after each listing from now on, until it returns `false`.
    pub(crate) fn listen(&self, listener: Listener) {
        self.listeners
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(listener);
    }

    pub(crate) fn current(&self) -> Arc<Loaded> {
        Arc::clone(&self.loaded.lock().unwrap_or_else(PoisonError::into_inner))
    }

    /// Lists the server's tools again, every page before `deadline`, and, if that works, makes
    /// them the current ones.
    pub(crate) async fn refresh(
        &self,
        peer: &Peer<RoleClient>,
        deadline: Instant,
    ) -> Result<(), ListError> {
        let loaded = list(peer, &self.source, deadline).await?;
        *self.loaded.lock().unwrap_or_else(PoisonError::into_inner) = Arc::new(loaded);
        self.generation.bump();
        self.listeners
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .retain(|listener| listener());
        Ok(())
    }
}

/// Why listing failed: the SDK's error, or a page that took too long.
pub(crate) enum ListError {
    Failed(String),
    Timeout(Duration),
}

/// The MCP client's handler: it refreshes the catalog on `notifications/tools/list_changed`,
/// and hands `notifications/progress` to the context of the call it is about.
#[derive(Clone)]
pub(crate) struct Handler {
    pub(crate) catalog: Arc<Catalog>,
    pub(crate) routes: Arc<Routes>,
}

impl ClientHandler for Handler {
    /// The handshake: the newest protocol version that has an `initialize` (rmcp's default is
    /// the newest of all, which has none), the capabilities of the handlers the host set (no
    /// other), and the host's name for the client.
    fn get_info(&self) -> ClientConfig {
        let (name, version) = &self.catalog.source.client_name;
        let mut config = ClientConfig::new(
            self.catalog.source.answers.capabilities(),
            Implementation::new(name.as_str(), version.as_str()),
        );
        config.protocol_version = ProtocolVersion::LATEST_WITH_INITIALIZE;
        config
    }

    async fn on_tool_list_changed(&self, context: NotificationContext<RoleClient>) {
        Arc::clone(&self.catalog).relist(context.peer);
    }

    async fn on_progress(
        &self,
        params: ProgressNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        self.routes.report(params);
    }

    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        let source = &self.catalog.source;
        source.answers.elicit(&source.name, request).await
    }

    #[allow(deprecated)] // rmcp deprecates sampling (SEP-2577); 2025-11-25 has it.
    async fn create_message(
        &self,
        params: CreateMessageRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<CreateMessageResult, ErrorData> {
        let source = &self.catalog.source;
        source.answers.sample(&source.name, params).await
    }

    #[allow(deprecated)] // rmcp deprecates logging (SEP-2577); 2025-11-25 has it.
    async fn on_logging_message(
        &self,
        params: LoggingMessageNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        let source = &self.catalog.source;
        source.answers.log(&source.name, params);
    }
}

/// Every page of `tools/list`, each tool checked; at most `max_pages` pages, all before
/// `deadline`, and tools within `max_list_bytes` together.
pub(crate) async fn list(
    peer: &Peer<RoleClient>,
    source: &McpSource,
    deadline: Instant,
) -> Result<Loaded, ListError> {
    let limits = source.limits;
    let mut entries = Vec::new();
    let mut skips = Skips::new(&source.name, limits.max_skipped);
    let mut names = HashSet::new();
    let mut spent = 0usize;
    let mut cursor = None;
    for page in 1.. {
        let (tools, next_cursor) = list_page(peer, cursor.take(), source, deadline).await?;
        for listed in tools {
            let tool = match listed {
                Listed::Tool(tool) => tool,
                Listed::Unreadable { name, reason } => {
                    if source.takes(&name) {
                        skips.push(&name, reason);
                    }
                    continue;
                }
            };
            let remote = tool.name.to_string();
            if !source.takes(&remote) {
                continue;
            }
            if entries.len() >= limits.max_tools {
                let reason = format!(
                    "the server offers more than {} tools (McpLimits::max_tools)",
                    limits.max_tools
                );
                skips.push(&remote, reason);
                continue;
            }
            match admit(tool, source, &names) {
                Ok(entry) => {
                    let cost = entry.cost();
                    if spent.saturating_add(cost) > limits.max_list_bytes {
                        let reason = format!(
                            "its tools past {} bytes (McpLimits::max_list_bytes; this one counts \
                             {cost}: its name, description and schema, as read and in each \
                             provider's form)",
                            limits.max_list_bytes
                        );
                        skips.push(&remote, reason);
                        continue;
                    }
                    spent += cost;
                    names.insert(entry.name.clone());
                    entries.push(Arc::new(entry));
                }
                Err(reason) => skips.push(&remote, reason),
            }
        }
        match next_cursor {
            Some(next) if page < limits.max_pages => cursor = Some(next),
            Some(_) => {
                let reason = format!(
                    "the server has more than {} pages of tools (McpLimits::max_pages); the rest \
                     were not read",
                    limits.max_pages
                );
                skips.push("*", reason);
                break;
            }
            None => break,
        }
    }
    Ok(Loaded {
        entries,
        skipped: skips.finish(),
    })
}

/// A tool as a `tools/list` page gave it: one the SDK reads, or an entry it cannot read (an
/// `inputSchema` that is not a JSON object, say) with its name where it has one.
enum Listed {
    Tool(WireTool),
    Unreadable { name: String, reason: String },
}

/// One page of `tools/list`, before the deadline.
///
/// Sent as a plain request rather than through the SDK's `list_tools`: the SDK refuses a whole
/// page when one entry is not an MCP tool, and then every tool of the server would be lost.
/// A page the SDK reads comes back typed; any other is read here entry by entry.
async fn list_page(
    peer: &Peer<RoleClient>,
    cursor: Option<String>,
    source: &McpSource,
    deadline: Instant,
) -> Result<(Vec<Listed>, Option<String>), ListError> {
    let params = cursor.map(|cursor| serde_json::json!({ "cursor": cursor }));
    let request = ClientRequest::CustomRequest(CustomRequest::new("tools/list", params));
    let answer = tokio::time::timeout_at(deadline, peer.send_request(request));
    match answer.await {
        Ok(Ok(ServerResult::ListToolsResult(page))) => Ok((
            page.tools.into_iter().map(Listed::Tool).collect(),
            page.next_cursor,
        )),
        Ok(Ok(ServerResult::CustomResult(CustomResult(page)))) => read_page(page),
        Ok(Ok(_)) => Err(ListError::Failed(
            "its answer to tools/list is not a list of tools".to_owned(),
        )),
        Ok(Err(error)) => Err(ListError::Failed(echo(&error.to_string()))),
        Err(_) => Err(ListError::Timeout(source.connect_timeout)),
    }
}

/// A page the SDK could not read as a whole: each entry on its own.
fn read_page(mut page: Value) -> Result<(Vec<Listed>, Option<String>), ListError> {
    let Some(Value::Array(entries)) = page.get_mut("tools").map(Value::take) else {
        return Err(ListError::Failed(
            "its answer to tools/list has no `tools` array".to_owned(),
        ));
    };
    let next_cursor = page
        .get("nextCursor")
        .and_then(Value::as_str)
        .map(str::to_owned);
    let listed = entries
        .into_iter()
        .map(|entry| {
            let name = entry
                .get("name")
                .and_then(Value::as_str)
                .unwrap_or("?")
                .to_owned();
            if let Some(reason) = entry.get(UNREADABLE).and_then(Value::as_str) {
                // An entry `frame` found no one can read, in its place.
                return Listed::Unreadable {
                    name,
                    reason: reason.to_owned(),
                };
            }
            let schema_is_object = entry.get("inputSchema").is_some_and(Value::is_object);
            match serde_json::from_value::<WireTool>(entry) {
                Ok(tool) => Listed::Tool(tool),
                Err(error) => {
                    let reason = if schema_is_object {
                        format!(
                            "its entry in tools/list is not an MCP tool: {}",
                            cut_pieces(&error.to_string())
                        )
                    } else {
                        "its `inputSchema` is not a JSON object (MCP requires one)".to_owned()
                    };
                    Listed::Unreadable { name, reason }
                }
            }
        })
        .collect();
    Ok((listed, next_cursor))
}
