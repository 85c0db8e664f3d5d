//! [`Error`]: what can go wrong while building tools and toolkits (never while a model calls them).

use std::fmt;

/// An error building a tool, a schema or a toolkit.
///
/// These are the host's mistakes, found at start-up. Mistakes a model makes while calling a tool
/// never produce an `Error`: they come back as an error [`ToolResult`](crate::ToolResult) the
/// model can read.
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
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::InvalidName { name, reason } => {
                write!(f, "invalid tool name `{name}`: {reason}")
            }
            Error::Schema(e) => e.fmt(f),
            Error::DuplicateTool { name } => write!(
                f,
                "duplicate tool name `{name}`: this toolkit already has a tool with that name; \
                 give one of them another name"
            ),
        }
    }
}

impl std::error::Error for Error {}

impl From<SchemaError> for Error {
    fn from(e: SchemaError) -> Self {
        Error::Schema(e)
    }
}

/// A schema that is invalid, or that a provider cannot accept and that cannot be lowered for it.
///
/// `path` is a JSON Pointer into the schema as written (`""` is the root).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaError {
    /// The tool the schema belongs to, when known.
    pub tool: Option<String>,
    /// The provider that cannot take it (`"openai"`, `"anthropic"`, `"gemini"`), or `None` when
    /// the schema is invalid for every provider.
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
