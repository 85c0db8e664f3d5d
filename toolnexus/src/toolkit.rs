//! [`Toolkit`]: the tools an application offers, found by name, executed, and rendered per provider.

use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

use serde_json::Value;

use crate::{anthropic, args, gemini, guard, openai, validate_name, Error, Tool, ToolResult};

/// The longest tool name echoed back in an `Unknown tool` message; a model may send anything.
const MAX_ECHOED_NAME: usize = 100;

/// An ordered set of tools with unique names.
///
/// Tools keep their registration order, which is the order every adapter renders them in.
/// A second tool with a name already taken is refused; the first one stays.
///
/// ```
/// use serde_json::json;
/// use toolnexus::{NativeTool, Toolkit};
///
/// let schema = json!({"type": "object", "properties": {"q": {"type": "string"}}});
/// let search = NativeTool::of("search", "Search the docs", schema.clone(), |a| async move {
///     format!("results for {}", a["q"])
/// })?;
/// let ping = NativeTool::of("ping", "Health check", json!({"type": "object", "properties": {}}),
///     |_| async { "pong" })?;
///
/// let toolkit = Toolkit::new().with(search)?.with(ping)?;
/// assert_eq!(toolkit.names().collect::<Vec<_>>(), ["search", "ping"]);
///
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// assert_eq!(toolkit.execute("ping", json!({})).await.output, "pong");
/// let unknown = toolkit.execute("pong", json!({})).await;
/// assert!(unknown.is_error);
/// assert_eq!(unknown.output, "Unknown tool: pong. Available tools: search, ping");
/// # });
///
/// // Straight into a Gemini request body.
/// let body = json!({"contents": [], "tools": toolkit.to_gemini()});
/// assert_eq!(body["tools"][0]["functionDeclarations"][1]["name"], "ping");
/// # Ok::<(), toolnexus::Error>(())
/// ```
#[derive(Clone, Default)]
pub struct Toolkit {
    tools: Vec<Arc<dyn Tool>>,
    by_name: HashMap<String, usize>,
}

impl Toolkit {
    /// An empty toolkit.
    pub fn new() -> Self {
        Self::default()
    }

    /// The toolkit with `tool` added; see [`Toolkit::add`].
    pub fn with<T: Tool + 'static>(mut self, tool: T) -> Result<Self, Error> {
        self.add(tool)?;
        Ok(self)
    }

    /// Adds a tool after the ones already there.
    ///
    /// Refused, leaving the toolkit as it was: a name already taken ([`Error::DuplicateTool`]),
    /// a name that breaks the naming rule ([`Error::InvalidName`]), and a `#[tool]` whose
    /// generated schema could not be used ([`Error::Schema`]).
    pub fn add<T: Tool + 'static>(&mut self, tool: T) -> Result<&mut Self, Error> {
        self.add_shared(Arc::new(tool))
    }

    /// Adds a tool that is shared with other owners.
    pub fn add_shared(&mut self, tool: Arc<dyn Tool>) -> Result<&mut Self, Error> {
        let name = tool.name();
        validate_name(name)?;
        if let Some(error) = tool.input_schema().error() {
            return Err(Error::Schema(error.clone()));
        }
        if self.by_name.contains_key(name) {
            return Err(Error::DuplicateTool {
                name: name.to_owned(),
            });
        }
        self.by_name.insert(name.to_owned(), self.tools.len());
        self.tools.push(tool);
        Ok(self)
    }

    /// The tools, in registration order.
    pub fn tools(&self) -> &[Arc<dyn Tool>] {
        &self.tools
    }

    /// The tool called `name`, if there is one.
    pub fn get(&self, name: &str) -> Option<&Arc<dyn Tool>> {
        self.by_name.get(name).map(|&i| &self.tools[i])
    }

    /// The tools' names, in registration order.
    pub fn names(&self) -> impl ExactSizeIterator<Item = &str> + '_ {
        self.tools.iter().map(|t| t.name())
    }

    /// How many tools there are.
    pub fn len(&self) -> usize {
        self.tools.len()
    }

    /// `true` when there are no tools.
    pub fn is_empty(&self) -> bool {
        self.tools.is_empty()
    }

    /// Executes the tool called `name` on an argument object (`null` means `{}`).
    ///
    /// Never fails and never panics: an unknown name gives an error result
    /// (`Unknown tool: NAME. Available tools: ...`), as do arguments that are not an object and
    /// a tool that panics.
    pub async fn execute(&self, name: &str, args: Value) -> ToolResult {
        let Some(tool) = self.get(name) else {
            return self.unknown(name);
        };
        match args::object(name, args) {
            Ok(args) => guard::run(name, tool.execute(args)).await,
            Err(result) => result,
        }
    }

    /// Executes the tool called `name` on arguments given as JSON text, as OpenAI sends them.
    ///
    /// Empty text and `null` mean `{}`; text that is not a JSON object gives an error result
    /// and the tool does not run.
    pub async fn execute_json(&self, name: &str, args: &str) -> ToolResult {
        let Some(tool) = self.get(name) else {
            return self.unknown(name);
        };
        guard::run(name, tool.execute_json(args)).await
    }

    fn unknown(&self, name: &str) -> ToolResult {
        let shown: String = if name.chars().count() > MAX_ECHOED_NAME {
            name.chars().take(MAX_ECHOED_NAME).chain(['…']).collect()
        } else {
            name.to_owned()
        };
        let available = if self.tools.is_empty() {
            "No tools are available.".to_owned()
        } else {
            format!(
                "Available tools: {}",
                self.names().collect::<Vec<_>>().join(", ")
            )
        };
        ToolResult::error(format!("Unknown tool: {shown}. {available}"))
    }

    /// The OpenAI Chat Completions `tools` array; see [`to_openai`](crate::to_openai).
    pub fn to_openai(&self) -> Vec<Value> {
        openai::to_openai(&self.tools)
    }

    /// The Anthropic Messages `tools` array; see [`to_anthropic`](crate::to_anthropic).
    pub fn to_anthropic(&self) -> Vec<Value> {
        anthropic::to_anthropic(&self.tools)
    }

    /// The Gemini `tools` array: one `functionDeclarations` wrapper; see [`to_gemini`](crate::to_gemini).
    pub fn to_gemini(&self) -> Vec<Value> {
        gemini::to_gemini(&self.tools)
    }
}

impl fmt::Debug for Toolkit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Toolkit")
            .field("tools", &self.names().collect::<Vec<_>>())
            .finish()
    }
}
