//! [`LogLevel`] and [`LogMessage`]: what a tool logs through its
//! [`CallContext`](crate::CallContext), and how severe it is (MCP's levels, which are
//! syslog's).

use std::fmt;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// How severe a [`LogMessage`] is: MCP's eight levels (those of syslog, RFC 5424), least
/// severe first, so `LogLevel::Warning > LogLevel::Info`.
///
/// ```
/// use toolnexus::logging::LogLevel;
///
/// assert!(LogLevel::Error > LogLevel::Notice);
/// assert_eq!(serde_json::to_value(LogLevel::Warning)?, "warning");
/// assert_eq!(LogLevel::Critical.to_string(), "critical");
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LogLevel {
    /// Detail for whoever debugs the tool.
    Debug,
    /// What the tool is doing.
    Info,
    /// Normal, but worth noticing.
    Notice,
    /// Something may be wrong.
    Warning,
    /// Something failed.
    Error,
    /// A part of the system failed.
    Critical,
    /// Someone must act now.
    Alert,
    /// The system is unusable.
    Emergency,
}

impl LogLevel {
    /// Every level, least severe first.
    pub const ALL: [Self; 8] = [
        Self::Debug,
        Self::Info,
        Self::Notice,
        Self::Warning,
        Self::Error,
        Self::Critical,
        Self::Alert,
        Self::Emergency,
    ];

    /// The level's name as MCP spells it (`"warning"`).
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Debug => "debug",
            Self::Info => "info",
            Self::Notice => "notice",
            Self::Warning => "warning",
            Self::Error => "error",
            Self::Critical => "critical",
            Self::Alert => "alert",
            Self::Emergency => "emergency",
        }
    }
}

impl fmt::Display for LogLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One message a tool logged ([`CallContext::log`](crate::CallContext::log)): MCP's
/// `notifications/message` (`level`, `logger`, `data`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct LogMessage {
    /// How severe it is.
    pub level: LogLevel,
    /// The name of the part of the tool that logged it, when the tool gave one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub logger: Option<String>,
    /// What was logged: a text, or any JSON the tool chose.
    pub data: Value,
}

impl LogMessage {
    /// A message of `level` holding `data` (a `&str` becomes a JSON string), with no logger.
    pub fn new(level: LogLevel, data: impl Into<Value>) -> Self {
        Self {
            level,
            logger: None,
            data: data.into(),
        }
    }

    /// The same message, from the logger `logger`.
    #[must_use]
    pub fn with_logger(mut self, logger: impl Into<String>) -> Self {
        self.logger = Some(logger.into());
        self
    }
}

/// Whoever receives a call's log messages.
pub(crate) type LogListener = Arc<dyn Fn(LogMessage) + Send + Sync>;
