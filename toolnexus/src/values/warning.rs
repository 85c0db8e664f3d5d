//! [`Warning`]: what a provider may refuse in a request that the crate still renders, because
//! other servers of the same API take it.

use std::fmt;

/// Something in a request a provider may refuse, reported by
/// [`Dialect::check_tools`](crate::Dialect::check_tools) rather than refused: other
/// servers that speak the same API (OpenAI-compatible ones, say) accept it.
///
/// ```
/// use serde_json::json;
/// use toolnexus::{Dialect, NativeTool, Toolkit, Warning};
///
/// let long = "Thinks step by step. ".repeat(60); // 1260 characters
/// let think = NativeTool::of("think", long, json!({"type": "object", "properties": {}}),
///     |_| async { "ok" })?;
/// let toolkit = Toolkit::new().with(think)?;
/// let warnings = Dialect::OpenAiChat.check_tools(toolkit.tools())?;
/// assert!(matches!(&warnings[..],
///     [Warning::LongDescription { tool, chars: 1260, max: 1024, .. }] if tool == "think"));
/// assert!(Dialect::Anthropic.check_tools(toolkit.tools())?.is_empty());
/// # Ok::<(), toolnexus::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Warning {
    /// A tool's description is longer than the API documents for a function description:
    /// OpenAI's `string_above_max_length` for more than 1024 characters, which some
    /// deployments enforce. Shorten it, or keep it where the server takes it.
    LongDescription {
        /// The API, as error messages name it.
        api: &'static str,
        /// The tool.
        tool: String,
        /// The description's length, in characters.
        chars: usize,
        /// The API's documented most.
        max: usize,
    },
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::LongDescription {
                api,
                tool,
                chars,
                max,
            } => write!(
                f,
                "the description of tool `{tool}` has {chars} characters; {api} documents at \
                 most {max} and some deployments refuse more (`string_above_max_length`)"
            ),
        }
    }
}
