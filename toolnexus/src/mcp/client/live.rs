//! [`LiveToolkit`]: a toolkit that follows its MCP servers' `notifications/tools/list_changed`.

use std::collections::HashSet;
use std::sync::{Arc, Mutex, PoisonError, Weak};

use super::catalog::Catalog;
use super::connection::McpConnection;
use super::generation::Generation;
use super::source::Skipped;
use super::tool::{Link, McpTool};
use crate::mcp::error::McpError;
use crate::tool::Tool;
use crate::toolkit::Toolkit;

/// A [`Toolkit`] that keeps up with its MCP servers: when a server attached with
/// [`LiveToolkit::attach`] says its tools changed (`notifications/tools/list_changed`), its
/// tools in the toolkit are replaced by the new list, where the old ones were.
///
/// The toolkit itself never changes under a reader: each change makes a new one, and
/// [`LiveToolkit::current`] hands out the latest. Take it once per model turn: render the
/// request's `tools` from it and answer the response with the same one. A call already running
/// finishes on the toolkit it started on; the new toolkit renders its tools arrays afresh
/// (the cached ones of the old toolkit are not reused).
///
/// ```no_run
/// use toolnexus::mcp::{LiveToolkit, McpSource};
/// use toolnexus::{tool, Dialect, Toolkit};
///
/// /// Current weather for a city.
/// #[tool]
/// async fn get_weather(city: String) -> String {
///     format!("sunny in {city}")
/// }
///
/// # async fn run(response: serde_json::Value) -> Result<(), Box<dyn std::error::Error>> {
/// let files = McpSource::stdio("files", "npx")
///     .args(["-y", "@modelcontextprotocol/server-filesystem", "/tmp"])
///     .connect()
///     .await?;
/// let live = LiveToolkit::new(Toolkit::new().with(GetWeather)?);
/// live.attach(&files)?;
///
/// // Each turn: one toolkit for the request and for the answer.
/// let toolkit = live.current();
/// let body = serde_json::json!({"tools": toolkit.to_anthropic()});
/// // ... send `body`, then:
/// let turn = toolkit.respond(&response, Dialect::Anthropic).await?;
/// # Ok(()) }
/// ```
///
/// A tool of the new list whose name another tool of the toolkit already has is left out,
/// with the reason in [`LiveToolkit::skipped`] (at [`LiveToolkit::attach`] the same clash is
/// an [`McpError::NameTaken`] instead, as for [`McpConnection::add_to`]).
#[derive(Clone)]
pub struct LiveToolkit {
    inner: Arc<Inner>,
}

struct Inner {
    state: Mutex<State>,
    /// Counts the toolkits made; [`LiveToolkit::changed`] waits on it.
    generation: Generation,
}

struct State {
    toolkit: Arc<Toolkit>,
    /// Each attached server, the names its tools have in the toolkit now, and the tools of its
    /// latest list that were left out.
    attached: Vec<Attached>,
}

struct Attached {
    catalog: Weak<Catalog>,
    names: Vec<String>,
    skipped: Vec<Skipped>,
}

impl LiveToolkit {
    /// A live toolkit starting with `toolkit`'s tools (the application's own, say).
    pub fn new(toolkit: Toolkit) -> Self {
        Self {
            inner: Arc::new(Inner {
                state: Mutex::new(State {
                    toolkit: Arc::new(toolkit),
                    attached: Vec::new(),
                }),
                generation: Generation::new(),
            }),
        }
    }

    /// The toolkit as it is now. It does not change; a later change makes a new one.
    #[must_use]
    pub fn current(&self) -> Arc<Toolkit> {
        Arc::clone(&self.inner.lock().toolkit)
    }

    /// Adds the server's tools, and from now on replaces them whenever the server lists
    /// different ones.
    ///
    /// All or nothing, as [`McpConnection::add_to`]: a name the toolkit already has is an
    /// [`McpError::NameTaken`] naming the server and the tool, and nothing changes. Attaching
    /// the same connection twice is that error too.
    pub fn attach(&self, connection: &McpConnection) -> Result<(), McpError> {
        let mut state = self.inner.lock();
        let mut toolkit = Toolkit::clone(&state.toolkit);
        let seen = connection.generation();
        let before = toolkit.len();
        connection.add_to(&mut toolkit)?;
        // The names `add_to` appended: the server's tools as it read them, even if they were
        // listed again meanwhile.
        let names = toolkit.names().skip(before).map(str::to_owned).collect();
        state.attached.push(Attached {
            catalog: Arc::downgrade(&connection.catalog),
            names,
            skipped: Vec::new(),
        });
        state.toolkit = Arc::new(toolkit);
        drop(state);
        self.inner.generation.bump();

        let live = Arc::downgrade(&self.inner);
        let link = Arc::downgrade(&connection.link);
        let catalog = Arc::downgrade(&connection.catalog);
        connection.catalog.listen(Box::new(move || {
            // Gone when the live toolkit, or the server's connection and all its tools, are.
            let (Some(live), Some(link), Some(catalog)) =
                (live.upgrade(), link.upgrade(), catalog.upgrade())
            else {
                return false;
            };
            live.replace(&catalog, &link);
            true
        }));
        if connection.generation() != seen {
            // Listed again while this was attaching: take the newer list.
            self.inner.replace(&connection.catalog, &connection.link);
        }
        Ok(())
    }

    /// The tools of attached servers left out when their lists changed, because another tool
    /// of the toolkit has the name (for each server, as of its latest list).
    #[must_use]
    pub fn skipped(&self) -> Vec<Skipped> {
        let state = self.inner.lock();
        state
            .attached
            .iter()
            .flat_map(|a| a.skipped.iter().cloned())
            .collect()
    }

    /// How many times the toolkit was made: 0 for the one given to [`LiveToolkit::new`], one
    /// more for each [`LiveToolkit::attach`] and each change of a server's list.
    #[must_use]
    pub fn generation(&self) -> u64 {
        self.inner.generation.get()
    }

    /// Waits until the toolkit has changed after `generation` (see
    /// [`LiveToolkit::generation`]) and returns the new generation.
    pub async fn changed(&self, generation: u64) -> u64 {
        self.inner.generation.after(generation).await
    }
}

impl Inner {
    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A new toolkit with the server's tools as `catalog` lists them now, where its old ones
    /// were (or at the end, if it had none).
    fn replace(&self, catalog: &Arc<Catalog>, link: &Arc<Link>) {
        let mut state = self.lock();
        let State { toolkit, attached } = &mut *state;
        let Some(slot) = attached
            .iter_mut()
            .find(|a| std::ptr::eq(a.catalog.as_ptr(), Arc::as_ptr(catalog)))
        else {
            return;
        };
        let old: HashSet<&str> = slot.names.iter().map(String::as_str).collect();
        let others: HashSet<&str> = toolkit.names().filter(|name| !old.contains(name)).collect();
        let mut fresh = Vec::new();
        let mut skipped = Vec::new();
        for entry in &catalog.current().entries {
            if others.contains(entry.name.as_str()) {
                skipped.push(Skipped {
                    tool: entry.shown.clone(),
                    reason: format!(
                        "its name `{}` is taken by another tool of the toolkit",
                        entry.name
                    ),
                    server: link.server.clone(),
                });
                continue;
            }
            fresh.push(Arc::new(McpTool {
                entry: Arc::clone(entry),
                link: Arc::clone(link),
            }) as Arc<dyn Tool>);
        }

        let mut next = Toolkit::new().with_limits(toolkit.limits());
        let mut placed = false;
        for tool in toolkit.tools() {
            if old.contains(tool.name()) {
                if !placed {
                    place(&mut next, &fresh);
                    placed = true;
                }
                continue;
            }
            let _ = next.add([Arc::clone(tool)]);
        }
        if !placed {
            place(&mut next, &fresh);
        }
        slot.names = fresh.iter().map(|t| t.name().to_owned()).collect();
        slot.skipped = skipped;
        *toolkit = Arc::new(next);
        drop(state);
        self.generation.bump();
    }
}

/// Adds `tools` to `toolkit`, after the ones there; each was checked by the caller (a valid
/// name, a usable schema, not taken).
fn place(toolkit: &mut Toolkit, tools: &[Arc<dyn Tool>]) {
    for tool in tools {
        let _ = toolkit.add([Arc::clone(tool)]);
    }
}

impl std::fmt::Debug for LiveToolkit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let state = self.inner.lock();
        f.debug_struct("LiveToolkit")
            .field("tools", &state.toolkit.names().collect::<Vec<_>>())
            .field("servers", &state.attached.len())
            .finish()
    }
}
