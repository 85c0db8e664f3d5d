//! A server's tools as listed (following pagination), checked against the names, filters and
//! [`McpLimits`](super::McpLimits); refreshed when the server says its list changed.

use std::collections::HashSet;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use rmcp::model::{ClientRequest, CustomRequest, CustomResult, ServerResult, Tool as WireTool};
use rmcp::service::NotificationContext;
use rmcp::{ClientHandler, Peer, RoleClient};
use serde_json::Value;

use super::generation::Generation;
use super::source::{McpSource, Skipped};
use crate::schema::InputSchema;
use crate::tool::hints::ToolHints;
use crate::tool::{sanitize, MAX_NAME_LEN};

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
                let _ = self.refresh(&peer).await;
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

    /// Lists the server's tools again and, if that works, makes them the current ones.
    pub(crate) async fn refresh(&self, peer: &Peer<RoleClient>) -> Result<(), ListError> {
        let loaded = list(peer, &self.source).await?;
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

/// The MCP client's handler: it refreshes the catalog on `notifications/tools/list_changed`.
#[derive(Clone)]
pub(crate) struct Handler {
    pub(crate) catalog: Arc<Catalog>,
}

impl ClientHandler for Handler {
    async fn on_tool_list_changed(&self, context: NotificationContext<RoleClient>) {
        Arc::clone(&self.catalog).relist(context.peer);
    }
}

/// Every page of `tools/list`, each tool checked; at most `max_pages` pages, each within the
/// connect timeout.
pub(crate) async fn list(peer: &Peer<RoleClient>, source: &McpSource) -> Result<Loaded, ListError> {
    let limits = source.limits;
    let mut loaded = Loaded::default();
    let mut names = HashSet::new();
    let mut cursor = None;
    for page in 1.. {
        let (tools, next_cursor) = list_page(peer, cursor.take(), source).await?;
        for listed in tools {
            let tool = match listed {
                Listed::Tool(tool) => tool,
                Listed::Unreadable { name, reason } => {
                    if source.takes(&name) {
                        loaded.skipped.push(skipped(&source.name, &name, reason));
                    }
                    continue;
                }
            };
            let remote = tool.name.to_string();
            if !source.takes(&remote) {
                continue;
            }
            if loaded.entries.len() >= limits.max_tools {
                let reason = format!(
                    "the server offers more than {} tools (McpLimits::max_tools)",
                    limits.max_tools
                );
                loaded.skipped.push(skipped(&source.name, &remote, reason));
                continue;
            }
            match admit(tool, source, &names) {
                Ok(entry) => {
                    names.insert(entry.name.clone());
                    loaded.entries.push(Arc::new(entry));
                }
                Err(reason) => loaded.skipped.push(skipped(&source.name, &remote, reason)),
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
                loaded.skipped.push(skipped(&source.name, "*", reason));
                break;
            }
            None => break,
        }
    }
    Ok(loaded)
}

/// A tool as a `tools/list` page gave it: one the SDK reads, or an entry it cannot read (an
/// `inputSchema` that is not a JSON object, say) with its name where it has one.
enum Listed {
    Tool(WireTool),
    Unreadable { name: String, reason: String },
}

/// One page of `tools/list`, within the connect timeout.
///
/// Sent as a plain request rather than through the SDK's `list_tools`: the SDK refuses a whole
/// page when one entry is not an MCP tool, and then every tool of the server would be lost.
/// A page the SDK reads comes back typed; any other is read here entry by entry.
async fn list_page(
    peer: &Peer<RoleClient>,
    cursor: Option<String>,
    source: &McpSource,
) -> Result<(Vec<Listed>, Option<String>), ListError> {
    let params = cursor.map(|cursor| serde_json::json!({ "cursor": cursor }));
    let request = ClientRequest::CustomRequest(CustomRequest::new("tools/list", params));
    let answer = tokio::time::timeout(source.connect_timeout, peer.send_request(request));
    match answer.await {
        Ok(Ok(ServerResult::ListToolsResult(page))) => Ok((
            page.tools.into_iter().map(Listed::Tool).collect(),
            page.next_cursor,
        )),
        Ok(Ok(ServerResult::CustomResult(CustomResult(page)))) => read_page(page),
        Ok(Ok(_)) => Err(ListError::Failed(
            "its answer to tools/list is not a list of tools".to_owned(),
        )),
        Ok(Err(error)) => Err(ListError::Failed(error.to_string())),
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
            let schema_is_object = entry.get("inputSchema").is_some_and(Value::is_object);
            match serde_json::from_value::<WireTool>(entry) {
                Ok(tool) => Listed::Tool(tool),
                Err(error) => {
                    let reason = if schema_is_object {
                        format!("its entry in tools/list is not an MCP tool: {error}")
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

/// One listed tool, checked: its name under the source's rules, its description and schema
/// within the limits, its schema one the crate can send.
fn admit(tool: WireTool, source: &McpSource, taken: &HashSet<String>) -> Result<Entry, String> {
    let limits = source.limits;
    let remote = tool.name.to_string();
    let name = format!("{}{}", sanitize(&source.prefix), sanitize(&remote));
    if name.len() > MAX_NAME_LEN {
        return Err(format!(
            "its name `{}` has {} characters; the limit is {MAX_NAME_LEN} (a shorter prefix, or \
             leave it out with McpSource::deny)",
            shorten(&name),
            name.len()
        ));
    }
    if name.is_empty() {
        return Err("its name is empty".to_owned());
    }
    if taken.contains(&name) {
        return Err(format!(
            "its name `{name}` is taken by another tool of the same server"
        ));
    }
    let description = tool.description.map(|d| d.into_owned()).unwrap_or_default();
    if description.len() > limits.max_description_bytes {
        return Err(format!(
            "its description has {} bytes; the limit is {} (McpLimits::max_description_bytes)",
            description.len(),
            limits.max_description_bytes
        ));
    }
    let schema = Value::Object(Arc::unwrap_or_clone(tool.input_schema));
    let size = serde_json::to_string(&schema).map_or(usize::MAX, |s| s.len());
    if size > limits.max_schema_bytes {
        return Err(format!(
            "its input schema has {size} bytes; the limit is {} (McpLimits::max_schema_bytes)",
            limits.max_schema_bytes
        ));
    }
    let schema = InputSchema::new(schema).map_err(|e| e.for_tool(&name).to_string())?;
    let hints = tool
        .annotations
        .as_ref()
        .map_or_else(ToolHints::new, |a| ToolHints {
            read_only: a.read_only_hint,
            destructive: a.destructive_hint,
            idempotent: a.idempotent_hint,
            open_world: a.open_world_hint,
        });
    let title = tool
        .title
        .or_else(|| tool.annotations.and_then(|a| a.title));
    Ok(Entry {
        name,
        remote,
        description,
        title,
        schema,
        hints,
    })
}

fn skipped(server: &str, remote: &str, reason: String) -> Skipped {
    Skipped {
        server: server.to_owned(),
        tool: shorten(remote),
        reason,
    }
}

fn shorten(text: &str) -> String {
    text.chars().take(100).collect()
}

/// What `tools/list` said about one tool, read and checked once.
#[derive(Debug)]
pub(crate) struct Entry {
    pub(crate) name: String,
    pub(crate) remote: String,
    pub(crate) description: String,
    pub(crate) title: Option<String>,
    pub(crate) schema: InputSchema,
    pub(crate) hints: ToolHints,
}
