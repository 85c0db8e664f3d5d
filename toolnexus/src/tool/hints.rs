//! [`ToolHints`]: what a tool says about its effects (MCP's tool annotations).

/// What a tool says about its effects: MCP's tool annotations (`readOnlyHint`,
/// `destructiveHint`, `idempotentHint`, `openWorldHint`). Each is `None` until set: with the
/// builder methods below, [`NativeTool::with_hints`](crate::NativeTool::with_hints), or the
/// keys of [`#[tool]`](macro@crate::tool) (`#[tool(read_only, open_world = false)]`).
///
/// Hints only. A tool from an MCP server carries what the server said
/// (`mcp::McpTool`, feature `mcp`), and a server can say anything: never rely
/// on them to decide what is safe to run. A toolkit served over MCP
/// (`mcp::McpServer`) lists each tool's hints as its `annotations`; the
/// providers' tools arrays have no place for them.
///
/// ```
/// use serde_json::json;
/// use toolnexus::{NativeTool, Tool, ToolHints};
///
/// let hints = ToolHints::new().with_read_only(true).with_open_world(false);
/// let lookup = NativeTool::of("lookup", "Looks a word up.", json!({"type": "object"}), |_| async {
///     "a word"
/// })?
/// .with_hints(hints)
/// .with_title("Dictionary lookup");
/// assert_eq!(lookup.hints().read_only, Some(true));
/// assert_eq!(lookup.hints().destructive, None);
/// assert_eq!(lookup.title(), Some("Dictionary lookup"));
/// # Ok::<(), toolnexus::Error>(())
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct ToolHints {
    /// `readOnlyHint`: the tool does not change its environment.
    pub read_only: Option<bool>,
    /// `destructiveHint`: the tool may destroy (not only add).
    pub destructive: Option<bool>,
    /// `idempotentHint`: calling it again with the same arguments changes nothing more.
    pub idempotent: Option<bool>,
    /// `openWorldHint`: the tool reaches outside entities (the web, say).
    pub open_world: Option<bool>,
}

impl ToolHints {
    /// No hint given.
    #[must_use]
    pub const fn new() -> Self {
        Self {
            read_only: None,
            destructive: None,
            idempotent: None,
            open_world: None,
        }
    }

    /// The same hints, saying whether the tool only reads.
    #[must_use]
    pub const fn with_read_only(mut self, yes: bool) -> Self {
        self.read_only = Some(yes);
        self
    }

    /// The same hints, saying whether the tool may destroy.
    #[must_use]
    pub const fn with_destructive(mut self, yes: bool) -> Self {
        self.destructive = Some(yes);
        self
    }

    /// The same hints, saying whether a repeated call changes nothing more.
    #[must_use]
    pub const fn with_idempotent(mut self, yes: bool) -> Self {
        self.idempotent = Some(yes);
        self
    }

    /// The same hints, saying whether the tool reaches outside entities.
    #[must_use]
    pub const fn with_open_world(mut self, yes: bool) -> Self {
        self.open_world = Some(yes);
        self
    }

    /// `true` when no hint is given.
    #[must_use]
    pub const fn is_empty(&self) -> bool {
        self.read_only.is_none()
            && self.destructive.is_none()
            && self.idempotent.is_none()
            && self.open_world.is_none()
    }
}
