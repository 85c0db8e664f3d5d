//! [`McpConfig`]: the MCP configuration file every host already has (`mcp.json`), read into
//! [`McpSource`]s and connected all at once.

use std::fmt;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use serde_json::{Map, Value};

use super::client::McpSource;
use crate::toolkit::Toolkit;

/// How variables in the file are resolved: `${NAME}` and `${env:NAME}` ask for `NAME`,
/// VS Code's `${input:ID}` for `input:ID`; `None` means unset.
type Resolver = Arc<dyn Fn(&str) -> Option<String> + Send + Sync>;

/// The MCP servers of a configuration file, in the shapes hosts write them:
///
/// - Claude Desktop and Cursor: `{"mcpServers": {NAME: {"command", "args", "env"}}}`;
/// - Claude Code's `.mcp.json`: the same, with `"type"` (`stdio`, `http`, `sse`), `"url"` and
///   `"headers"`, and `${VAR}` or `${VAR:-default}` in any string;
/// - VS Code: `{"servers": {…}, "inputs": […]}` with `${env:VAR}` and `${input:ID}`;
/// - the toolnexus family's own: `{"mcp": {…}}` or the bare map, `"command"` as a list,
///   `"environment"`, and per server `"timeout"` (milliseconds; 30 s by default), `"enabled":
///   false` or `"disabled": true`, `"tools": {NAME: bool}` (any `true`: only those; else the
///   `false` ones left out) and `"prefix"`.
///
/// Variables are read in the command, the arguments, the environment's values, the working
/// directory, the URL and the headers' values, through the environment unless
/// [`McpConfig::with_resolver`] says otherwise. One that is unset, without a default, is an
/// [`McpConfigError`] naming the file, the server and the key, never an empty string.
///
/// ```
/// use toolnexus::mcp::McpConfig;
///
/// let config = McpConfig::from_json("claude_desktop_config.json", r#"{"mcpServers": {
///     "time": {"command": "uvx", "args": ["mcp-server-time"]},
///     "search": {"type": "http", "url": "https://search.example/mcp",
///                "headers": {"Authorization": "Bearer ${SEARCH_TOKEN}"}, "disabled": true}
/// }}"#)?
/// .with_resolver(|name| (name == "SEARCH_TOKEN").then(|| "secret".to_owned()));
/// assert_eq!(config.names(), ["time", "search"]);
/// let sources = config.sources()?;
/// assert_eq!(sources[0].1.as_ref().map(|s| s.name()), Some("time"));
/// assert!(sources[1].1.is_none()); // disabled
/// # Ok::<(), toolnexus::mcp::McpConfigError>(())
/// ```
#[derive(Clone)]
pub struct McpConfig {
    file: String,
    servers: Vec<(String, Map<String, Value>)>,
    resolver: Resolver,
}

/// What a configuration could not say: the file is no JSON or not of a known shape, a
/// server's entry is not what the keys allow, or a variable it uses is unset.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum McpConfigError {
    /// The file could not be read, or is not JSON.
    Unreadable {
        /// The file, as given.
        file: String,
        /// Why.
        reason: String,
    },
    /// An entry is not what its keys allow.
    Invalid {
        /// The file.
        file: String,
        /// The server, if the fault is in one.
        server: Option<String>,
        /// What is wrong, naming the key.
        reason: String,
    },
    /// A variable the entry uses is unset, and has no default.
    Unset {
        /// The file.
        file: String,
        /// The server.
        server: String,
        /// The key the variable is in (`args`, `headers.Authorization`, …).
        key: String,
        /// The variable, as written between the braces.
        variable: String,
    },
}

impl fmt::Display for McpConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Unreadable { file, reason } => write!(f, "{file}: {reason}"),
            Self::Invalid {
                file,
                server: Some(server),
                reason,
            } => write!(f, "{file}: server `{server}`: {reason}"),
            Self::Invalid { file, reason, .. } => write!(f, "{file}: {reason}"),
            Self::Unset {
                file,
                server,
                key,
                variable,
            } => write!(
                f,
                "{file}: server `{server}`: `{key}` uses `${{{variable}}}`, which is not set; \
                 set it, or give a default (`${{{variable}:-value}}`)"
            ),
        }
    }
}

impl std::error::Error for McpConfigError {}

/// Where one server of a configuration stands after [`McpConfig::connect`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum McpStatus {
    /// Connected; its tools joined the toolkit.
    Connected {
        /// How many tools it brought.
        tools: usize,
    },
    /// Turned off in the file (`"disabled": true` or `"enabled": false`).
    Disabled,
    /// It could not be started, reached, listed or added: why. The other servers are not
    /// affected.
    Failed {
        /// Why, as the error said it.
        reason: String,
    },
}

/// What [`McpConfig::connect`] made: a toolkit of every connected server's tools, and each
/// server's [`McpStatus`] in the file's order.
#[derive(Debug)]
#[non_exhaustive]
pub struct McpLoaded {
    /// The tools of every server that connected.
    pub toolkit: Toolkit,
    /// Each server and where it stands, in the file's order.
    pub status: Vec<(String, McpStatus)>,
}

/// How long a server has to connect and each call to answer, unless its `"timeout"` says.
const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);

impl McpConfig {
    /// The configuration in `text`, named `file` in every error (a path, or a label).
    pub fn from_json(file: impl Into<String>, text: &str) -> Result<Self, McpConfigError> {
        let file = file.into();
        let root: Value = serde_json::from_str(text).map_err(|e| McpConfigError::Unreadable {
            file: file.clone(),
            reason: format!("not JSON: {e}"),
        })?;
        let invalid = |reason: &str| McpConfigError::Invalid {
            file: file.clone(),
            server: None,
            reason: reason.to_owned(),
        };
        let Value::Object(mut root) = root else {
            return Err(invalid("the file is a JSON object of servers"));
        };
        let servers = match ["mcpServers", "servers", "mcp"]
            .into_iter()
            .find_map(|key| root.remove(key))
        {
            Some(Value::Object(servers)) => servers,
            Some(_) => return Err(invalid("its servers are a JSON object, by name")),
            None => {
                for key in [
                    "inputs",
                    "builtins",
                    "agents",
                    "a2a",
                    "mcpServer",
                    "$schema",
                ] {
                    root.remove(key);
                }
                root
            }
        };
        let mut list = Vec::with_capacity(servers.len());
        for (name, entry) in servers {
            let Value::Object(entry) = entry else {
                return Err(McpConfigError::Invalid {
                    file,
                    server: Some(name),
                    reason: "its entry is a JSON object".into(),
                });
            };
            list.push((name, entry));
        }
        Ok(Self {
            file,
            servers: list,
            resolver: Arc::new(|name: &str| {
                (!name.starts_with("input:"))
                    .then(|| std::env::var(name).ok())
                    .flatten()
            }),
        })
    }

    /// The configuration in the file at `path`.
    pub fn from_file(path: impl AsRef<Path>) -> Result<Self, McpConfigError> {
        let path = path.as_ref();
        let file = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|e| McpConfigError::Unreadable {
            file: file.clone(),
            reason: e.to_string(),
        })?;
        Self::from_json(file, &text)
    }

    /// The same configuration, its variables resolved by `resolver` instead of the
    /// environment: given `NAME` for `${NAME}` and `${env:NAME}`, `input:ID` for VS Code's
    /// `${input:ID}`; `None` when unset.
    #[must_use]
    pub fn with_resolver(
        mut self,
        resolver: impl Fn(&str) -> Option<String> + Send + Sync + 'static,
    ) -> Self {
        self.resolver = Arc::new(resolver);
        self
    }

    /// The servers' names, in the file's order.
    #[must_use]
    pub fn names(&self) -> Vec<&str> {
        self.servers.iter().map(|(name, _)| name.as_str()).collect()
    }

    /// Each server as an [`McpSource`] (`None` when it is disabled), in the file's order, its
    /// variables resolved; the first entry that cannot be read is the error.
    pub fn sources(&self) -> Result<Vec<(String, Option<McpSource>)>, McpConfigError> {
        self.servers
            .iter()
            .map(|(name, entry)| Ok((name.clone(), self.source(name, entry)?)))
            .collect()
    }

    /// Connects every enabled server at once, each within its timeout, and adds the tools of
    /// those that connect to one toolkit. A server that fails (it does not start, answer or
    /// list, or a tool's name is taken) is reported in its [`McpStatus`], and the others are
    /// not affected. The error is for a file whose entries cannot be read at all.
    pub async fn connect(&self) -> Result<McpLoaded, McpConfigError> {
        let mut toolkit = Toolkit::new();
        let status = self
            .connect_each(|connection| connection.add_to(&mut toolkit))
            .await?;
        Ok(McpLoaded { toolkit, status })
    }

    /// [`McpConfig::connect`], each connected server attached to `live` instead: its tools join
    /// `live`'s, beside the host's own, and follow the server's `list_changed` from then on (see
    /// [`LiveToolkit`](super::LiveToolkit)). The status of each server, in the file's order.
    ///
    /// # Errors
    /// As [`McpConfig::connect`]: a file whose entries cannot be read at all.
    pub async fn connect_live(
        &self,
        live: &super::LiveToolkit,
    ) -> Result<Vec<(String, McpStatus)>, McpConfigError> {
        self.connect_each(|connection| live.attach(connection))
            .await
    }

    /// Every enabled server connected at once, each connection handed to `add`; the status of
    /// each.
    async fn connect_each(
        &self,
        mut add: impl FnMut(&super::McpConnection) -> Result<(), super::McpError>,
    ) -> Result<Vec<(String, McpStatus)>, McpConfigError> {
        let sources = self.sources()?;
        let connecting = sources.into_iter().map(|(name, source)| async move {
            let Some(source) = source else {
                return (name, Err(None));
            };
            match source.connect().await {
                Ok(connection) => (name, Ok(connection)),
                Err(e) => (name, Err(Some(e.to_string()))),
            }
        });
        let connected = futures::future::join_all(connecting).await;
        let mut status = Vec::with_capacity(connected.len());
        for (name, connection) in connected {
            let state = match connection {
                Err(None) => McpStatus::Disabled,
                Err(Some(reason)) => McpStatus::Failed { reason },
                Ok(connection) => match add(&connection) {
                    Ok(()) => McpStatus::Connected {
                        tools: connection.tools().len(),
                    },
                    Err(e) => McpStatus::Failed {
                        reason: e.to_string(),
                    },
                },
            };
            status.push((name, state));
        }
        Ok(status)
    }

    /// One server's entry as a source, or `None` when it is disabled.
    fn source(
        &self,
        name: &str,
        entry: &Map<String, Value>,
    ) -> Result<Option<McpSource>, McpConfigError> {
        let invalid = |reason: String| McpConfigError::Invalid {
            file: self.file.clone(),
            server: Some(name.to_owned()),
            reason,
        };
        if entry.get("disabled") == Some(&Value::Bool(true))
            || entry.get("enabled") == Some(&Value::Bool(false))
        {
            return Ok(None);
        }
        let text = |key: &str, value: &Value| -> Result<String, McpConfigError> {
            let Value::String(value) = value else {
                return Err(invalid(format!("`{key}` is a string")));
            };
            self.expand(name, key, value)
        };
        let kind = entry.get("type").and_then(Value::as_str).unwrap_or("");
        let url = entry.get("url");
        let remote = matches!(
            kind,
            "http" | "streamable-http" | "streamableHttp" | "sse" | "remote"
        ) || (kind.is_empty() && url.is_some());
        let mut source = if remote {
            if kind == "sse" {
                return Err(invalid(
                    "`type` `sse` (the old HTTP+SSE transport) is not supported; use the \
                     server's streamable HTTP endpoint with `\"type\": \"http\"`"
                        .into(),
                ));
            }
            let Some(url) = url else {
                return Err(invalid("a remote server needs `url`".into()));
            };
            let url = text("url", url)?;
            let mut headers = Vec::new();
            if let Some(given) = entry.get("headers") {
                let Value::Object(given) = given else {
                    return Err(invalid("`headers` is an object of strings".into()));
                };
                for (header, value) in given {
                    headers.push((header.clone(), text(&format!("headers.{header}"), value)?));
                }
            }
            remote_source(name, url, headers).map_err(invalid)?
        } else {
            let (program, mut args) =
                match entry.get("command") {
                    Some(Value::Array(parts)) if !parts.is_empty() => {
                        let mut parts = parts.iter();
                        let program = text("command", parts.next().unwrap_or(&Value::Null))?;
                        let args = parts
                            .map(|part| text("command", part))
                            .collect::<Result<Vec<_>, _>>()?;
                        (program, args)
                    }
                    Some(command @ Value::String(_)) => (text("command", command)?, Vec::new()),
                    Some(_) => {
                        return Err(invalid(
                            "`command` is a program (a string) or a list of the program and its \
                         arguments"
                                .into(),
                        ))
                    }
                    None => return Err(invalid(
                        "a server needs `command` (a program, or a list of the program and its \
                         arguments) or `url`"
                            .into(),
                    )),
                };
            match entry.get("args") {
                None => {}
                Some(Value::Array(more)) => {
                    for arg in more {
                        args.push(text("args", arg)?);
                    }
                }
                Some(_) => return Err(invalid("`args` is a list of strings".into())),
            }
            let mut source = McpSource::stdio(name, program).args(args);
            for key in ["env", "environment"] {
                match entry.get(key) {
                    None => {}
                    Some(Value::Object(vars)) => {
                        for (var, value) in vars {
                            source = source.env(var, text(&format!("{key}.{var}"), value)?);
                        }
                    }
                    Some(_) => return Err(invalid(format!("`{key}` is an object of strings"))),
                }
            }
            if let Some(cwd) = entry.get("cwd") {
                source = source.current_dir(text("cwd", cwd)?);
            }
            source
        };
        let timeout = match entry.get("timeout") {
            None => DEFAULT_TIMEOUT,
            Some(ms) => match ms.as_u64() {
                Some(ms) if ms > 0 => Duration::from_millis(ms),
                _ => {
                    return Err(invalid(
                        "`timeout` is a positive number of milliseconds".into(),
                    ))
                }
            },
        };
        source = source
            .with_connect_timeout(timeout)
            .with_call_timeout(timeout);
        if let Some(prefix) = entry.get("prefix") {
            source = source.with_prefix(text("prefix", prefix)?);
        }
        match entry.get("tools") {
            None => {}
            Some(Value::Object(filter)) => {
                let mut allowed = Vec::new();
                let mut denied = Vec::new();
                for (tool, keep) in filter {
                    match keep {
                        Value::Bool(true) => allowed.push(tool.clone()),
                        Value::Bool(false) => denied.push(tool.clone()),
                        _ => return Err(invalid(format!("`tools.{tool}` is true or false"))),
                    }
                }
                if !allowed.is_empty() {
                    source = source.allow(allowed);
                } else if !denied.is_empty() {
                    source = source.deny(denied);
                }
            }
            Some(_) => {
                return Err(invalid(
                    "`tools` is an object of tool names to true or false".into(),
                ))
            }
        }
        Ok(Some(source))
    }

    /// `value` with its variables resolved (`${NAME}`, `${NAME:-default}`, `${env:NAME}`,
    /// `${input:ID}`); text without `${` is returned as it is.
    fn expand(&self, server: &str, key: &str, value: &str) -> Result<String, McpConfigError> {
        let mut out = String::with_capacity(value.len());
        let mut rest = value;
        while let Some(start) = rest.find("${") {
            out.push_str(&rest[..start]);
            let after = &rest[start + 2..];
            let Some(end) = after.find('}') else {
                out.push_str(&rest[start..]);
                return Ok(out);
            };
            let inside = &after[..end];
            let (variable, default) = match inside.split_once(":-") {
                Some((variable, default)) => (variable, Some(default)),
                None => (inside, None),
            };
            let asked = variable.strip_prefix("env:").unwrap_or(variable);
            match (self.resolver)(asked).or_else(|| default.map(str::to_owned)) {
                Some(resolved) => out.push_str(&resolved),
                None => {
                    return Err(McpConfigError::Unset {
                        file: self.file.clone(),
                        server: server.to_owned(),
                        key: key.to_owned(),
                        variable: inside.to_owned(),
                    })
                }
            }
            rest = &after[end + 1..];
        }
        out.push_str(rest);
        Ok(out)
    }
}

impl fmt::Debug for McpConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Names only: the entries may hold tokens.
        f.debug_struct("McpConfig")
            .field("file", &self.file)
            .field("servers", &self.names())
            .finish_non_exhaustive()
    }
}

/// A streamable HTTP server's source.
#[cfg(feature = "mcp-http")]
fn remote_source(
    name: &str,
    url: String,
    headers: Vec<(String, String)>,
) -> Result<McpSource, String> {
    Ok(headers
        .into_iter()
        .fold(McpSource::http(name, url), |source, (header, value)| {
            source.header(header, value)
        }))
}

/// Without `mcp-http`, a remote server cannot be reached.
#[cfg(not(feature = "mcp-http"))]
fn remote_source(
    _name: &str,
    _url: String,
    _headers: Vec<(String, String)>,
) -> Result<McpSource, String> {
    Err("a remote server needs toolnexus's `mcp-http` feature".into())
}

#[cfg(test)]
mod tests;
