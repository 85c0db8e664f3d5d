//! [`RegexSearch`]: tools whose name, description or parameters a regular expression matches.

use std::fmt;
use std::sync::Arc;

use super::bm25::{parameters, NAME, PARAMETER};
use super::{Found, ToolSearch};
use crate::tool::Tool;

/// The longest pattern searched, in characters (Anthropic's regex tool search takes as many).
pub const MAX_PATTERN: usize = 200;

/// The most memory one compiled pattern may take: a pattern past it is refused, not built.
const SIZE_LIMIT: usize = 1 << 20;

/// One tool's searchable text, by weight.
struct Doc {
    name: Box<str>,
    /// The parameters' names, one per line.
    parameters: String,
    /// The description and the parameters' descriptions, one per line.
    text: String,
}

/// A search by regular expression, as Anthropic's `tool_search_tool_regex` searches: the
/// model writes a pattern in Python `re.search` syntax (`weather`, `get_.*_data`,
/// `(?i)slack`), and the tools whose name, parameters' names, description or parameters'
/// descriptions it matches anywhere are found, those it matches by name first, then by
/// parameter, then by text, each in the order the tools were added.
///
/// The pattern runs on Rust's `regex` crate, in time linear in the text whatever the pattern
/// (a model's pattern is untrusted input: no backtracking blow-up). It has no look-around and
/// no backreferences; a pattern that uses them, that does not compile, or that is longer than
/// [`MAX_PATTERN`] is refused with the reason ([`ToolSearch::check`]), which the model reads
/// and can fix.
///
/// ```
/// use serde_json::json;
/// use toolnexus::search::{RegexSearch, ToolSearch};
/// use toolnexus::{NativeTool, Toolkit};
///
/// let tool = |name: &str, description: &str| {
///     NativeTool::of(name, description, json!({"type": "object", "properties": {}}), |_| async { "ok" })
/// };
/// let toolkit = Toolkit::new()
///     .with(tool("get_weather_data", "The current weather in a city.")?)?
///     .with(tool("post_to_slack", "Posts a message to a Slack channel.")?)?;
///
/// let search = RegexSearch::index(toolkit.tools());
/// assert_eq!(search.search("get_.*_data", 5)[0].name, "get_weather_data");
/// assert_eq!(search.search("(?i)SLACK", 5)[0].name, "post_to_slack");
/// assert!(search.check("(?<=x)y").is_err());
/// # Ok::<(), toolnexus::Error>(())
/// ```
#[derive(Clone)]
pub struct RegexSearch {
    docs: Arc<[Doc]>,
}

impl RegexSearch {
    /// A search over `tools` (a [`Toolkit`](crate::Toolkit)'s `tools()`, say).
    pub fn index(tools: &[Arc<dyn Tool>]) -> Self {
        let docs = tools
            .iter()
            .map(|tool| {
                let mut doc = Doc {
                    name: Box::from(tool.name()),
                    parameters: String::new(),
                    text: tool.description().to_owned(),
                };
                parameters(tool.input_schema().as_value(), 0, &mut |text, weight| {
                    let into = if weight == PARAMETER {
                        &mut doc.parameters
                    } else {
                        &mut doc.text
                    };
                    into.push('\n');
                    into.push_str(text);
                });
                doc
            })
            .collect();
        Self { docs }
    }

    /// `pattern` compiled, or why it cannot be searched.
    fn compile(pattern: &str) -> Result<regex::Regex, String> {
        if pattern.chars().count() > MAX_PATTERN {
            return Err(format!(
                "the pattern is longer than {MAX_PATTERN} characters: write a shorter one"
            ));
        }
        regex::RegexBuilder::new(pattern)
            .size_limit(SIZE_LIMIT)
            .dfa_size_limit(SIZE_LIMIT)
            .build()
            .map_err(|e| format!("the pattern is not a regular expression this search takes: {e}"))
    }
}

impl ToolSearch for RegexSearch {
    fn search(&self, query: &str, limit: usize) -> Vec<Found> {
        let Ok(pattern) = Self::compile(query) else {
            return Vec::new();
        };
        let mut found: Vec<(f32, usize)> = self
            .docs
            .iter()
            .enumerate()
            .filter_map(|(at, doc)| {
                let score = if pattern.is_match(&doc.name) {
                    NAME
                } else if pattern.is_match(&doc.parameters) {
                    PARAMETER
                } else if pattern.is_match(&doc.text) {
                    1.0
                } else {
                    return None;
                };
                Some((score, at))
            })
            .collect();
        // Best first; of equal scores, the tool added first.
        found.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        found
            .into_iter()
            .take(limit)
            .map(|(score, at)| Found::new(&*self.docs[at].name, score))
            .collect()
    }

    fn query_description(&self) -> &str {
        "A regular expression (Python `re.search` syntax, at most 200 characters, no look-around \
         or backreferences) matched against tool names, descriptions and parameters, such as \
         `weather`, `get_.*_data` or `(?i)slack`"
    }

    fn check(&self, query: &str) -> Result<(), String> {
        Self::compile(query).map(drop)
    }
}

impl fmt::Debug for RegexSearch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RegexSearch")
            .field("tools", &self.docs.len())
            .finish()
    }
}
