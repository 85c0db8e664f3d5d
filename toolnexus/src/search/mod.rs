//! Tool search: finding, among many tools, the few a request should send.
//!
//! A toolkit over several MCP servers easily holds hundreds of tools; sending them all costs
//! tokens on every request and makes models pick the wrong one. [`Bm25`] indexes tools by the
//! fields a model reads (the name, the description, and each parameter's name and description)
//! and ranks them for a query with Okapi BM25, the ranking Anthropic's own tool search uses;
//! [`RegexSearch`] matches a regular expression the model writes, as Anthropic's regex variant
//! does. A host with a search of its own (embeddings, say) implements [`ToolSearch`].
//!
//! ```
//! use serde_json::json;
//! use toolnexus::search::{Bm25, ToolSearch};
//! use toolnexus::{NativeTool, Toolkit};
//!
//! let tool = |name: &str, description: &str| {
//!     NativeTool::of(name, description, json!({"type": "object", "properties": {}}), |_| async { "ok" })
//! };
//! let toolkit = Toolkit::new()
//!     .with(tool("get_weather", "The current weather in a city.")?)?
//!     .with(tool("send_email", "Sends an email to one recipient.")?)?
//!     .with(tool("read_file", "Reads a text file from disk.")?)?;
//!
//! let index = Bm25::index(toolkit.tools());
//! let found = index.search("what's the weather like in Paris", 2);
//! assert_eq!(found[0].name, "get_weather");
//! assert!(index.search("quantum chromodynamics", 5).is_empty());
//! # Ok::<(), toolnexus::Error>(())
//! ```

mod bm25;
mod regex;
mod terms;

pub use bm25::Bm25;
pub use regex::{RegexSearch, MAX_PATTERN};

/// One tool a search found: its name, and how well it matched (higher is better; comparable
/// within one search only).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Found {
    /// The tool's name.
    pub name: String,
    /// The tool's score for the query.
    pub score: f32,
}

impl Found {
    /// A tool found with `score`.
    pub fn new(name: impl Into<String>, score: f32) -> Self {
        Self {
            name: name.into(),
            score,
        }
    }
}

/// A search over a set of tools: the tools that best match a query, best first.
///
/// [`Bm25`] is the one this crate ships; a host implements this for a search of its own
/// (embeddings, a remote index), over the same tools.
pub trait ToolSearch: Send + Sync {
    /// At most `limit` tools matching `query`, best first; none when nothing matches.
    fn search(&self, query: &str, limit: usize) -> Vec<Found>;

    /// What the model is told to write as the query (the search tool's `query` parameter).
    fn query_description(&self) -> &str {
        "What the tool should do, in a few words"
    }

    /// Why `query` cannot be searched (a pattern that does not compile, say), for the model to
    /// read and fix; by default every query can.
    ///
    /// # Errors
    /// The reason, in words the model can act on.
    fn check(&self, query: &str) -> Result<(), String> {
        let _ = query;
        Ok(())
    }
}
