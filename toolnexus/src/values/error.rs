//! [`Error`]: what can go wrong while building tools and toolkits (never while a model calls them).

use std::fmt;

use crate::values::approval::ApprovalError;

/// An error building a tool, a schema or a toolkit.
///
/// These are the host's mistakes, found at start-up (or, for [`Error::Approval`], in the
/// answers to a pending turn). Mistakes a model makes while calling a tool
/// never produce an `Error`: they come back as an error [`ToolResult`](crate::ToolResult) the
/// model can read.
///
/// ```
/// use serde_json::json;
/// use toolnexus::{tool, Error, NativeTool, Toolkit};
///
/// /// Adds two integers.
/// #[tool]
/// fn add(a: i64, b: i64) -> i64 {
///     a + b
/// }
///
/// // A name taken twice: the first tool stays.
/// let err = Toolkit::new().with(Add)?.with(Add).unwrap_err();
/// assert!(matches!(err, Error::DuplicateTool { ref name } if name == "add"));
/// assert_eq!(
///     err.to_string(),
///     "duplicate tool name `add`: this toolkit already has a tool with that name; \
///      give one of them another name"
/// );
///
/// // An invalid name, refused when the tool is built.
/// let schema = json!({"type": "object", "properties": {}});
/// let err = NativeTool::of("get weather", "Weather", schema, |_| async { "sunny" }).unwrap_err();
/// assert!(matches!(err, Error::InvalidName { .. }));
///
/// // A subset naming a tool the toolkit does not have.
/// let toolkit = Toolkit::new().with(Add)?;
/// assert!(matches!(toolkit.select(["sub"]), Err(Error::UnknownTool { .. })));
/// # Ok::<(), Error>(())
/// ```
///
/// The [errors guide](crate::guide::errors) says whose mistake each kind of error is.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// A tool name breaks the naming rule (1 to 64 characters from `[A-Za-z0-9_-]`).
    InvalidName {
        /// The name as given.
        name: String,
        /// What is wrong with it and how to fix it.
        reason: String,
    },
    /// An input schema is not usable (the root is not an object, say), or cannot be expressed
    /// for a provider.
    Schema(SchemaError),
    /// A toolkit already holds a tool with this name; the first one stays.
    DuplicateTool {
        /// The name taken twice.
        name: String,
    },
    /// [`Toolkit::select`](crate::Toolkit::select) was given a name the toolkit does not have,
    /// or [`ToolChoice::within`](crate::ToolChoice::within) found a name the request does not send.
    UnknownTool {
        /// The name asked for (at most 100 characters of it).
        name: String,
        /// The toolkit's tools, in order.
        available: Vec<String>,
    },
    /// More tools than the provider documents for one request
    /// ([`Dialect::max_tools`](crate::Dialect::max_tools)); send a subset with
    /// [`Toolkit::select`](crate::Toolkit::select).
    TooManyTools {
        /// The API, as [`Dialect::api_name`](crate::Dialect::api_name) names it.
        api: &'static str,
        /// How many tools there are.
        count: usize,
        /// The most the API documents.
        max: usize,
    },
    /// A [`ToolChoice`](crate::ToolChoice) the provider's API has no way to say (an allowed
    /// subset on Anthropic, say); nothing was rendered.
    UnsupportedChoice {
        /// The API, as [`Dialect::api_name`](crate::Dialect::api_name) names it.
        api: &'static str,
        /// What the choice asked for (`an allowed subset of tools`, `one call at a time`).
        choice: &'static str,
        /// What to do instead.
        instead: &'static str,
    },
    /// A pending turn, or the host's answers to it, could not be resumed; nothing ran.
    Approval(ApprovalError),
}

/// How many names an [`Error::UnknownTool`] message lists.
const LISTED: usize = 20;

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::InvalidName { name, reason } => {
                write!(f, "invalid tool name `{name}`: {reason}")
            }
            Self::Schema(e) => e.fmt(f),
            Self::DuplicateTool { name } => write!(
                f,
                "duplicate tool name `{name}`: this toolkit already has a tool with that name; \
                 give one of them another name"
            ),
            Self::UnknownTool { name, available } => {
                write!(f, "no tool named `{name}` in this toolkit; ")?;
                if available.is_empty() {
                    return f.write_str("it has no tools");
                }
                write!(
                    f,
                    "its tools are: {}",
                    available[..available.len().min(LISTED)].join(", ")
                )?;
                if available.len() > LISTED {
                    write!(f, ", … ({} in all)", available.len())?;
                }
                Ok(())
            }
            Self::TooManyTools { api, count, max } => write!(
                f,
                "{count} tools are too many for {api}, which documents at most {max} per request; \
                 send a subset with `Toolkit::select`"
            ),
            Self::UnsupportedChoice {
                api,
                choice,
                instead,
            } => write!(f, "{api} has no tool choice for {choice}; {instead}"),
            Self::Approval(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for Error {}

impl From<ApprovalError> for Error {
    fn from(e: ApprovalError) -> Self {
        Self::Approval(e)
    }
}

impl From<SchemaError> for Error {
    fn from(e: SchemaError) -> Self {
        Self::Schema(e)
    }
}

/// A schema that is invalid, or that a provider cannot accept and that cannot be lowered for it.
///
/// `path` is a JSON Pointer into the schema as written (`""` is the root).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaError {
    /// The tool the schema belongs to, when known.
    pub tool: Option<String>,
    /// The provider that cannot take it (`"openai"`, `"openai strict mode"`, `"anthropic"`,
    /// `"gemini"`), `"any provider"` when none can although the schema is valid JSON Schema (a
    /// reference to another document, say), or `None` when the schema is invalid.
    pub provider: Option<&'static str>,
    /// Where in the schema, as a JSON Pointer.
    pub path: String,
    /// What is wrong and how to fix it.
    pub reason: String,
}

impl SchemaError {
    /// An error at `path` in a schema, for every provider.
    pub fn new(path: impl Into<String>, reason: impl Into<String>) -> Self {
        Self {
            tool: None,
            provider: None,
            path: path.into(),
            reason: reason.into(),
        }
    }

    /// The same error, naming the tool.
    #[must_use]
    pub fn for_tool(mut self, tool: &str) -> Self {
        self.tool = Some(tool.to_owned());
        self
    }
}

impl fmt::Display for SchemaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the input schema")?;
        if let Some(tool) = &self.tool {
            write!(f, " of `{tool}`")?;
        }
        match self.provider {
            Some(p) => write!(f, " cannot be sent to {p}")?,
            None => f.write_str(" is invalid")?,
        }
        let path = if self.path.is_empty() {
            "the root"
        } else {
            &self.path
        };
        write!(f, " (at {path}): {}", self.reason)
    }
}

impl std::error::Error for SchemaError {}
