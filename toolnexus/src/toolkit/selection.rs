//! [`Selection`], a chosen subset of a toolkit's tools for any adapter (made by
//! `Toolkit::select`), held to each provider's documented limit on the functions of one request.

use std::collections::HashSet;
use std::sync::Arc;

use serde_json::value::RawValue;

use super::Toolkit;
use crate::dispatch::tools_array::RenderCache;
use crate::{Dialect, Error, Tool, ToolsArray, ToolsOptions};

/// Some of a [`Toolkit`]'s tools, in its order, made by [`Toolkit::select`]: the toolkit's
/// [`tools_for`](Toolkit::tools_for) and [`tools_json_for`](Toolkit::tools_json_for) over these
/// tools only.
#[derive(Clone)]
pub struct Selection<'a> {
    pub(super) toolkit: &'a Toolkit,
    /// Shared with the toolkit: choosing copies pointers, never schemas.
    pub(super) tools: Arc<[Arc<dyn Tool>]>,
    /// Its tools arrays, rendered on first use.
    pub(super) rendered: RenderCache,
}

impl<'a> Selection<'a> {
    /// The tools of `toolkit` called `names`, in its order ([`Toolkit::select`]).
    pub(super) fn of<I, S>(toolkit: &'a Toolkit, names: I) -> Result<Self, Error>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let mut wanted: HashSet<String> = HashSet::new();
        for name in names {
            let name = name.as_ref();
            if toolkit.get(name).is_none() {
                return Err(Error::UnknownTool {
                    name: crate::values::text::shorten(name, 100),
                    available: toolkit.names().map(str::to_owned).collect(),
                });
            }
            wanted.insert(name.to_owned());
        }
        let tools = toolkit
            .tools()
            .iter()
            .filter(|t| wanted.contains(t.name()))
            .cloned()
            .collect();
        Ok(Selection {
            toolkit,
            tools,
            rendered: RenderCache::default(),
        })
    }

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
