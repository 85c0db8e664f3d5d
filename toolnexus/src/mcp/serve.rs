//! [`McpServer`]: a [`Toolkit`] served as an MCP server (`tools/list`, `tools/call`).

use std::sync::Arc;
use std::time::Duration;

use futures::future::Either;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, Implementation, ListToolsResult,
    PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool as WireTool, ToolAnnotations,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};
use serde_json::{Map, Value};

use super::content;
use super::error::McpError;
use crate::guard::trace;
use crate::tool::Tool;
use crate::toolkit::{Input, Toolkit};

/// A [`Toolkit`] served over MCP: `tools/list` gives each tool's name, description and JSON
/// Schema (`inputSchema`), paginated; `tools/call` runs through the toolkit's one call path
/// (limits, panic guard, timeout), so a tool's text becomes a text part, its images image
/// parts, its files embedded resources, and an error result `isError: true`.
///
/// What the MCP spec asks for each mistake: an unknown tool is a JSON-RPC error (`-32602`,
/// invalid params); arguments the tool refuses, a tool that panics, and one that takes longer
/// than [`McpServer::call_timeout`] are results with `isError: true` the model can read. The
/// server keeps answering after each of them; a cancelled request drops its call.
///
/// ```no_run
/// use toolnexus::{mcp::McpServer, tool, Toolkit};
///
/// /// Current weather for a city.
/// #[tool]
/// async fn get_weather(city: String) -> String {
///     format!("sunny in {city}")
/// }
///
/// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
/// // Until the client closes stdin.
/// McpServer::new(Toolkit::new().with(GetWeather)?).serve_stdio().await?;
/// # Ok(()) }
/// ```
#[derive(Clone)]
pub struct McpServer {
    toolkit: Arc<Toolkit>,
    listed: Arc<[WireTool]>,
    page_size: usize,
    timeout: Option<Duration>,
    info: Implementation,
}

/// How many tools a `tools/list` page holds by default.
pub const DEFAULT_PAGE_SIZE: usize = 100;

/// How long a served call may take by default: a minute.
pub const DEFAULT_SERVE_TIMEOUT: Duration = Duration::from_secs(60);

impl McpServer {
    /// Serves `toolkit`, named `toolnexus` in the handshake.
    pub fn new(toolkit: Toolkit) -> Self {
        let listed = toolkit.tools().iter().map(|tool| listed(&**tool)).collect();
        Self {
            toolkit: Arc::new(toolkit),
            listed,
            page_size: DEFAULT_PAGE_SIZE,
            timeout: Some(DEFAULT_SERVE_TIMEOUT),
            info: Implementation::new("toolnexus", env!("CARGO_PKG_VERSION")),
        }
    }

    /// The same server with `tools/list` pages of at most `size` tools (`0` is taken as `1`).
    #[must_use]
    pub fn page_size(mut self, size: usize) -> Self {
        self.page_size = size.max(1);
        self
    }

    /// The same server with each call cut off after `timeout` ([`DEFAULT_SERVE_TIMEOUT`] by
    /// default), answered with an error result.
    #[must_use]
    pub fn call_timeout(mut self, timeout: Duration) -> Self {
        self.timeout = Some(timeout);
        self
    }

    /// The same server, named `name` at `version` in the handshake.
    #[must_use]
    pub fn named(mut self, name: impl Into<String>, version: impl Into<String>) -> Self {
        self.info = Implementation::new(name, version);
        self
    }

    /// The toolkit being served.
    pub fn toolkit(&self) -> &Toolkit {
        &self.toolkit
    }

    /// Serves over this process's stdin and stdout until the client closes them.
    pub async fn serve_stdio(self) -> Result<(), McpError> {
        let (read, write) = rmcp::transport::stdio();
        self.serve_io(read, write).await
    }

    /// Serves over any byte streams (a pipe, a socket) until the client closes them.
    pub async fn serve_io<R, W>(self, read: R, write: W) -> Result<(), McpError>
    where
        R: tokio::io::AsyncRead + Send + Unpin + 'static,
        W: tokio::io::AsyncWrite + Send + Unpin + 'static,
    {
        let running = self
            .serve((read, write))
            .await
            .map_err(|e| McpError::Serve {
                reason: e.to_string(),
            })?;
        running.waiting().await.map_err(|e| McpError::Serve {
            reason: e.to_string(),
        })?;
        Ok(())
    }

    fn page(&self, cursor: Option<&str>) -> Result<ListToolsResult, ErrorData> {
        let start = match cursor {
            None => 0,
            Some(c) => c
                .parse::<usize>()
                .ok()
                .filter(|start| *start <= self.listed.len())
                .ok_or_else(|| ErrorData::invalid_params("invalid cursor", None))?,
        };
        let end = start.saturating_add(self.page_size).min(self.listed.len());
        let mut page = ListToolsResult::with_all_items(self.listed[start..end].to_vec());
        page.next_cursor = (end < self.listed.len()).then(|| end.to_string());
        Ok(page)
    }

    async fn call(&self, request: CallToolRequestParams) -> Result<CallToolResponse, ErrorData> {
        let name = &*request.name;
        if self.toolkit.get(name).is_none() {
            // The MCP spec's answer to an unknown tool: a protocol error, not a tool result.
            return Err(ErrorData::invalid_params(
                self.toolkit.unknown(name).output,
                None,
            ));
        }
        // The arguments go to the toolkit's one call path as they came, without a copy.
        let input = request
            .arguments
            .map_or(Input::Absent, |args| Input::Value(Value::Object(args)));
        let running = self.toolkit.call(name, input, self.timeout, false);
        let result = trace::call(name, None, None, running).await;
        Ok(content::to_call_result(result).into())
    }
}

/// A tool as `tools/list` gives it: name, description, schema, and its title and hints where it
/// has them.
fn listed(tool: &dyn Tool) -> WireTool {
    let schema = match tool.input_schema().as_value() {
        Value::Object(map) => map.clone(),
        _ => Map::new(),
    };
    let mut listed = WireTool::new(
        tool.name().to_owned(),
        tool.description().to_owned(),
        Arc::new(schema),
    );
    listed.title = tool.title().map(str::to_owned);
    listed.output_schema = tool
        .output_schema()
        .and_then(Value::as_object)
        .cloned()
        .map(Arc::new);
    let hints = tool.hints();
    if !hints.is_empty() {
        listed.annotations = Some(ToolAnnotations::from_raw(
            None,
            hints.read_only,
            hints.destructive,
            hints.idempotent,
            hints.open_world,
        ));
    }
    listed
}

impl ServerHandler for McpServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(self.info.clone())
    }

    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        self.page(request.as_ref().and_then(|r| r.cursor.as_deref()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        // A `notifications/cancelled` for this request drops its call.
        let call = std::pin::pin!(self.call(request));
        let cancelled = std::pin::pin!(context.ct.cancelled());
        match futures::future::select(call, cancelled).await {
            Either::Left((answer, _)) => answer,
            Either::Right(((), _)) => {
                Err(ErrorData::internal_error("the call was cancelled", None))
            }
        }
    }

    fn get_tool(&self, name: &str) -> Option<WireTool> {
        self.listed.iter().find(|t| t.name == name).cloned()
    }
}
