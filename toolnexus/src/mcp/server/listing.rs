//! What an [`McpServer`](super::McpServer) lists: a fixed toolkit, or the latest toolkit of a
//! [`LiveToolkit`], each tool as `tools/list` gives it.

use std::sync::{Arc, Mutex, PoisonError};

use rmcp::model::{ListToolsResult, Tool as WireTool, ToolAnnotations};
use rmcp::ErrorData;
use serde_json::{Map, Value};

use crate::mcp::LiveToolkit;
use crate::tool::Tool;
use crate::toolkit::Toolkit;

/// The toolkit being served, with its tools as listed.
#[derive(Clone)]
pub(crate) enum Served {
    Fixed(Listed),
    /// The latest toolkit of `live`, and its tools as listed the last time they were asked for.
    Live(LiveToolkit, Arc<Mutex<Listed>>),
}

/// A toolkit and its tools as `tools/list` gives them.
#[derive(Clone)]
pub(crate) struct Listed {
    pub(crate) toolkit: Arc<Toolkit>,
    pub(crate) tools: Arc<[WireTool]>,
}

impl Listed {
    fn of(toolkit: Arc<Toolkit>) -> Self {
        let tools = toolkit.tools().iter().map(|tool| listed(&**tool)).collect();
        Self { toolkit, tools }
    }
}

impl Served {
    pub(crate) fn fixed(toolkit: Toolkit) -> Self {
        Self::Fixed(Listed::of(Arc::new(toolkit)))
    }

    pub(crate) fn live(live: LiveToolkit) -> Self {
        let listed = Listed::of(live.current());
        Self::Live(live, Arc::new(Mutex::new(listed)))
    }

    /// The toolkit as it is now, and its tools as listed (made again only after a change).
    pub(crate) fn now(&self) -> Listed {
        match self {
            Self::Fixed(listed) => listed.clone(),
            Self::Live(live, cache) => {
                let current = live.current();
                let mut cache = cache.lock().unwrap_or_else(PoisonError::into_inner);
                if !Arc::ptr_eq(&cache.toolkit, &current) {
                    *cache = Listed::of(current);
                }
                cache.clone()
            }
        }
    }

    /// The live toolkit served, if it is one.
    pub(crate) fn live_toolkit(&self) -> Option<&LiveToolkit> {
        match self {
            Self::Fixed(_) => None,
            Self::Live(live, _) => Some(live),
        }
    }
}

/// One `tools/list` page of at most `size` tools, from `cursor` (an index this server gave).
pub(crate) fn page(
    tools: &[WireTool],
    cursor: Option<&str>,
    size: usize,
) -> Result<ListToolsResult, ErrorData> {
    let start = match cursor {
        None => 0,
        Some(c) => c
            .parse::<usize>()
            .ok()
            .filter(|start| *start <= tools.len())
            .ok_or_else(|| ErrorData::invalid_params("invalid cursor", None))?,
    };
    let end = start.saturating_add(size).min(tools.len());
    let mut page = ListToolsResult::with_all_items(tools[start..end].to_vec());
    page.next_cursor = (end < tools.len()).then(|| end.to_string());
    Ok(page)
}

/// A tool as `tools/list` gives it: name, description, schema, and its title and hints where it
/// has them. The title goes in `title` and in `annotations.title` too, where clients of
/// protocol 2025-03-26 (before `Tool.title`) read it.
fn listed(tool: &dyn Tool) -> WireTool {
    let schema = match tool.input_schema().as_value() {
        Value::Object(map) => map.clone(),
        _ => Map::new(),
    };
    let mut listed = WireTool::new(
        tool.name().to_owned(),
        tool.description().to_owned(),
        Arc::new(schema),
    );
    let title = tool.title().map(str::to_owned);
    let hints = tool.hints();
    if !hints.is_empty() || title.is_some() {
        listed.annotations = Some(ToolAnnotations::from_raw(
            title.clone(),
            hints.read_only,
            hints.destructive,
            hints.idempotent,
            hints.open_world,
        ));
    }
    listed.title = title;
    listed.output_schema = tool
        .output_schema()
        .and_then(Value::as_object)
        .cloned()
        .map(Arc::new);
    listed
}
