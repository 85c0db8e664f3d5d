//! Many tools: each provider's documented limit on the functions of one request, and
//! [`Selection`], a chosen subset of a toolkit's tools for any adapter.

use std::collections::HashSet;
use std::sync::Arc;

use serde_json::value::RawValue;

use crate::dispatch::tools_array::RenderCache;
use crate::{Dialect, Error, Tool, Toolkit, ToolsArray, ToolsOptions, Warning};

impl Toolkit {
    /// `Ok` when this toolkit's tools fit in one request of `dialect`
    /// ([`Dialect::max_tools`]), with what the provider may still refuse that other servers of
    /// its API take ([`Warning`]: a description over OpenAI's 1024 characters); otherwise
    /// [`Error::TooManyTools`]. Send a subset with [`Toolkit::select`].
    pub fn check_tool_count(&self, dialect: Dialect) -> Result<Vec<Warning>, Error> {
        dialect.check_tool_count(self.len())?;
        Ok(dialect.warnings(&self.tools))
    }

    /// The tools called `names`, to render for one request, in the toolkit's order (not the
    /// order of `names`; a name given twice counts once).
    ///
    /// A view of the toolkit: choosing costs a pass over its tools and shares them (no schema
    /// is copied), and rendering costs what rendering those tools alone costs. The toolkit still answers calls to every one of its
    /// tools ([`Toolkit::respond`]), offered this turn or not. A name the toolkit does not have
    /// is [`Error::UnknownTool`].
    ///
    /// ```
    /// use serde_json::json;
    /// use toolnexus::{Dialect, NativeTool, Toolkit, ToolsOptions};
    ///
    /// let tool = |name: &str| NativeTool::of(name, "A tool", json!({"type": "object", "properties": {}}),
    ///     |_| async { "ok" });
    /// let toolkit = Toolkit::new().with(tool("search")?)?.with(tool("fetch")?)?.with(tool("send")?)?;
    ///
    /// let offered = toolkit.select(["send", "search"])?;
    /// offered.check_tool_count(Dialect::OpenAiChat)?;
    /// let tools = offered.tools_for(Dialect::OpenAiChat, ToolsOptions::default());
    /// let body = json!({"model": "gpt-4o", "messages": [], "tools": tools});
    /// assert_eq!(body["tools"][0]["function"]["name"], "search");
    /// assert_eq!(body["tools"][1]["function"]["name"], "send");
    /// # Ok::<(), toolnexus::Error>(())
    /// ```
    pub fn select<I, S>(&self, names: I) -> Result<Selection<'_>, Error>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let mut wanted: HashSet<String> = HashSet::new();
        for name in names {
            let name = name.as_ref();
            if self.get(name).is_none() {
                return Err(Error::UnknownTool {
                    name: crate::values::text::shorten(name, 100),
                    available: self.names().map(str::to_owned).collect(),
                });
            }
            wanted.insert(name.to_owned());
        }
        let tools = self
            .tools()
            .iter()
            .filter(|t| wanted.contains(t.name()))
            .cloned()
            .collect();
        Ok(Selection {
            toolkit: self,
            tools,
            rendered: RenderCache::default(),
        })
    }
}

/// Some of a [`Toolkit`]'s tools, in its order, made by [`Toolkit::select`]: the toolkit's
/// [`tools_for`](Toolkit::tools_for) and [`tools_json_for`](Toolkit::tools_json_for) over these
/// tools only.
#[derive(Clone)]
pub struct Selection<'a> {
    toolkit: &'a Toolkit,
    /// Shared with the toolkit: choosing copies pointers, never schemas.
    tools: Arc<[Arc<dyn Tool>]>,
    /// Its tools arrays, rendered on first use.
    rendered: RenderCache,
}

impl<'a> Selection<'a> {
    /// The toolkit the tools were chosen from; it answers calls to any of its tools.
    pub fn toolkit(&self) -> &'a Toolkit {
        self.toolkit
    }

    /// The chosen tools, in the toolkit's order.
    pub fn tools(&self) -> &[Arc<dyn Tool>] {
        &self.tools
    }

    /// The chosen tools' names, in the toolkit's order.
    pub fn names(&self) -> impl ExactSizeIterator<Item = &str> + '_ {
        self.tools.iter().map(|t| t.name())
    }

    /// How many tools were chosen.
    pub fn len(&self) -> usize {
        self.tools.len()
    }

    /// `true` when none were.
    pub fn is_empty(&self) -> bool {
        self.tools.is_empty()
    }

    /// `Ok` when the chosen tools fit in one request of `dialect`, with their [`Warning`]s;
    /// see [`Toolkit::check_tool_count`].
    pub fn check_tool_count(&self, dialect: Dialect) -> Result<Vec<Warning>, Error> {
        dialect.check_tool_count(self.len())?;
        Ok(dialect.warnings(&self.tools))
    }

    /// The chosen tools as `dialect` declares them under `options`; see
    /// [`Toolkit::tools_for`] (strict tools noted by the toolkit as there). Rendered once per
    /// selection, dialect and options.
    pub fn tools_for(&self, dialect: Dialect, options: ToolsOptions) -> ToolsArray {
        self.toolkit.strict.note(dialect, options);
        self.rendered.array(&self.tools, dialect, options)
    }

    /// [`Selection::tools_for`] as JSON text, rendered once per selection, dialect and options;
    /// see [`Toolkit::tools_json_for`].
    pub fn tools_json_for(&self, dialect: Dialect, options: ToolsOptions) -> &RawValue {
        self.toolkit.strict.note(dialect, options);
        self.rendered.json(&self.tools, dialect, options)
    }
}

impl std::fmt::Debug for Selection<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Selection")
            .field("tools", &self.names().collect::<Vec<_>>())
            .finish()
    }
}
