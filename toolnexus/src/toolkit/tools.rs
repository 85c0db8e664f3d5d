//! [`Toolkit`] itself: its tools added (checked once), found by name, and each call run through
//! the one path every call takes.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::fmt;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use serde_json::{Map, Value};

use super::gate::Approved;
use super::render::StrictDialects;
use super::Input;
use crate::decode as args;
use crate::dispatch::tools_array::RenderCache;
use crate::limits::Limits;
use crate::policy::Controls;
use crate::tool::context::{run_armed, CallContext};
use crate::tool::set::ToolSet;
use crate::tool::{validate_name, Tool};
use crate::values::call::ToolCall;
use crate::values::error::Error;
use crate::values::result::ToolResult;

/// An ordered set of tools with unique names.
///
/// Tools keep their registration order, which is the order every adapter renders them in.
/// A second tool with a name already taken is refused; the first one stays.
///
/// ```
/// use serde_json::json;
/// use toolnexus::{tool, Dialect, Toolkit};
///
/// /// Current weather for a city.
/// #[tool]
/// async fn get_weather(city: String) -> String {
///     format!("sunny in {city}")
/// }
///
/// /// Adds two integers.
/// #[tool]
/// fn add(a: i64, b: i64) -> i64 {
///     a + b
/// }
///
/// // Build: `#[tool]` defines the tool types `GetWeather` and `Add`.
/// let toolkit = Toolkit::new().with(GetWeather)?.with(Add)?;
/// assert_eq!(toolkit.names().collect::<Vec<_>>(), ["get_weather", "add"]);
///
/// // Render: straight into a Gemini request body.
/// let body = json!({"contents": [], "tools": toolkit.to_gemini()});
/// assert_eq!(body["tools"][0]["functionDeclarations"][1]["name"], "add");
///
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// // Run: the model's calls in a response, or one call by name.
/// let response = json!({"candidates": [{"content": {"role": "model", "parts": [
///     {"functionCall": {"name": "add", "args": {"a": 2, "b": 3}}}]}}]});
/// let turn = toolkit.respond(&response, Dialect::Gemini).await?;
/// assert_eq!(turn.results[0].output, "5");
/// let unknown = toolkit.execute_json("sub", r#"{"a": 2, "b": 3}"#).await;
/// assert!(unknown.is_error);
/// assert_eq!(unknown.output, "Unknown tool: sub. Available tools: get_weather, add");
/// # Ok::<(), Box<dyn std::error::Error>>(()) }).unwrap();
/// # Ok::<(), toolnexus::Error>(())
/// ```
///
/// The methods, in the order you meet them (and this page lists them):
///
/// - **Build:** [`new`](Toolkit::new), [`with`](Toolkit::with) / [`add`](Toolkit::add),
///   [`with_all`](Toolkit::with_all) / [`add_all`](Toolkit::add_all),
///   [`add_shared`](Toolkit::add_shared), [`with_limits`](Toolkit::with_limits).
/// - **Look up:** [`tools`](Toolkit::tools), [`get`](Toolkit::get), [`names`](Toolkit::names),
///   [`len`](Toolkit::len).
/// - **Render a request's `tools`:** [`tools_for`](Toolkit::tools_for) (any dialect, any
///   [`ToolsOptions`](crate::ToolsOptions)) and its cached JSON text
///   [`tools_json_for`](Toolkit::tools_json_for); the shortcuts [`to_openai`](Toolkit::to_openai),
///   [`to_anthropic`](Toolkit::to_anthropic), [`to_gemini`](Toolkit::to_gemini) and
///   [`to_openai_json`](Toolkit::to_openai_json); a subset with [`select`](Toolkit::select),
///   checked with [`check_tool_count`](Toolkit::check_tool_count).
/// - **Run:** [`respond`](Toolkit::respond) (a whole response), [`StreamTurn`](crate::StreamTurn)
///   (a streamed one), [`execute_calls`](Toolkit::execute_calls) /
///   [`execute_call`](Toolkit::execute_call) (calls read with
///   [`Dialect::parse_calls`](crate::Dialect::parse_calls)), [`execute`](Toolkit::execute) /
///   [`execute_json`](Toolkit::execute_json) (one call by name).
/// - **Decide what runs:** [`with_policy`](Toolkit::with_policy),
///   [`with_hooks`](Toolkit::with_hooks), [`respond_gated`](Toolkit::respond_gated),
///   [`resume`](Toolkit::resume) (the [approval guide](crate::guide::approval)).
#[derive(Clone, Default)]
pub struct Toolkit {
    pub(super) tools: Vec<Arc<dyn Tool>>,
    /// The tools' names, in registration order: a small toolkit is searched through these.
    pub(super) names: Vec<Box<str>>,
    /// Past 8 tools, the index of each name. Hashed with foldhash (already built for
    /// serde_json's `preserve_order`), faster than SipHash on short keys (benches/dispatch.rs);
    /// the names are the application's, so their table cannot be grown by a model's input, and
    /// foldhash's per-process seed keeps them spread anyway.
    pub(super) by_name: HashMap<String, usize, foldhash::fast::RandomState>,
    pub(super) limits: Limits,
    pub(super) rendered: RenderCache,
    /// The dialects whose tools were handed out in strict mode: their calls are strict calls.
    pub(super) strict: StrictDialects,
    /// Some tool is a final-answer tool (`Tool::is_final_answer`): only then does a turn look
    /// for one among its calls.
    pub(super) answers: bool,
    /// The policy and hooks, when either is set (`gate`); `None` runs every call as is.
    pub(super) controls: Option<Arc<Controls>>,
}

impl Toolkit {
    /// An empty toolkit.
    pub fn new() -> Self {
        Self::default()
    }

    /// The toolkit with other [`Limits`] on the size and nesting of a call's arguments.
    #[must_use]
    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// The limits applied to every call's arguments.
    pub fn limits(&self) -> Limits {
        self.limits
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
        self.check(&*tool)?;
        self.push(tool);
        Ok(self)
    }

    /// The toolkit with every tool of `tools` added, in order; see [`Toolkit::add_all`].
    ///
    /// ```
    /// use toolnexus::{tool, Toolkit};
    ///
    /// /// Current weather for a city.
    /// #[tool]
    /// fn get_weather(city: String) -> String {
    ///     format!("sunny in {city}")
    /// }
    ///
    /// /// Adds two integers.
    /// #[tool]
    /// fn add(a: i64, b: i64) -> i64 {
    ///     a + b
    /// }
    ///
    /// let toolkit = Toolkit::new().with_all((GetWeather, Add))?;
    /// assert_eq!(toolkit.names().collect::<Vec<_>>(), ["get_weather", "add"]);
    ///
    /// // A batch with a name taken twice is refused as a whole.
    /// let err = Toolkit::new().with_all((Add, GetWeather, Add)).unwrap_err();
    /// assert!(matches!(err, toolnexus::Error::DuplicateTool { ref name } if name == "add"));
    /// # Ok::<(), toolnexus::Error>(())
    /// ```
    pub fn with_all(mut self, tools: impl ToolSet) -> Result<Self, Error> {
        self.add_all(tools)?;
        Ok(self)
    }

    /// Adds several tools at once, in order, after the ones already there: a tuple of tools of
    /// any types (`(GetWeather, Add, Search)`, up to 16), or a `Vec` or array of
    /// `Arc<dyn Tool>`.
    ///
    /// All or nothing: if one tool would be refused by [`Toolkit::add`], including a name that
    /// is taken twice within `tools`, none is added and the error names the first such tool.
    pub fn add_all(&mut self, tools: impl ToolSet) -> Result<&mut Self, Error> {
        let tools = tools.into_tools();
        let mut batch = HashSet::with_capacity(tools.len());
        for tool in &tools {
            self.check(&**tool)?;
            if !batch.insert(tool.name()) {
                return Err(Error::DuplicateTool {
                    name: tool.name().to_owned(),
                });
            }
        }
        drop(batch);
        for tool in tools {
            self.push(tool);
        }
        Ok(self)
    }

    /// Whether `tool` may join: a valid name not taken yet, and a usable schema.
    fn check(&self, tool: &dyn Tool) -> Result<(), Error> {
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
        Ok(())
    }

    /// Appends a checked tool.
    fn push(&mut self, tool: Arc<dyn Tool>) {
        let name = tool.name();
        self.by_name.insert(name.to_owned(), self.tools.len());
        self.names.push(name.into());
        self.answers |= tool.is_final_answer();
        self.tools.push(tool);
        self.rendered = RenderCache::default();
    }

    /// The tools, in registration order.
    pub fn tools(&self) -> &[Arc<dyn Tool>] {
        &self.tools
    }

    /// The tool called `name`, if there is one.
    pub fn get(&self, name: &str) -> Option<&Arc<dyn Tool>> {
        // Up to 8 names, comparing them (lengths first) beats hashing the one looked up.
        let index = if self.names.len() <= 8 {
            self.names.iter().position(|n| **n == *name)
        } else {
            self.by_name.get(name).copied()
        };
        index.map(|i| &self.tools[i])
    }

    /// The tools' names, in registration order.
    pub fn names(&self) -> impl ExactSizeIterator<Item = &str> + '_ {
        self.names.iter().map(|n| &**n)
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
    /// (`Unknown tool: NAME. Available tools: ...`), as do arguments that are not an object,
    /// arguments beyond the toolkit's [`Limits`], and a tool that panics anywhere in the call
    /// (see [`Toolkit::execute_call`] for what the guard covers).
    pub fn execute<'a>(
        &'a self,
        name: &'a str,
        args: Value,
    ) -> impl Future<Output = ToolResult> + Send + 'a {
        self.call_by_name(name, Input::Value(args))
    }

    /// Executes the tool called `name` on arguments given as JSON text, as OpenAI sends them.
    ///
    /// Empty text and `null` mean `{}`; text that is not a JSON object, or that is beyond the
    /// toolkit's [`Limits`], gives an error result and the tool does not run. A panic is an
    /// error result, as for [`Toolkit::execute`].
    pub fn execute_json<'a>(
        &'a self,
        name: &'a str,
        args: &'a str,
    ) -> impl Future<Output = ToolResult> + Send + 'a {
        self.call_by_name(name, Input::Text(Cow::Borrowed(args)))
    }

    /// The one path of every call (`execute`, `execute_json`, `execute_call(s)`, `respond`, the
    /// streaming turn, through `Toolkit::call`): finds the tool once, lets the policy and the
    /// before hooks see the call when there are any (`gate`), checks the arguments against the
    /// limits once (as sent), turns strict mode's nulls back into "absent", runs the tool
    /// inside the call's one panic guard, under `timeout`, with its `context` (whose signal
    /// fires when the call is dropped or cut off before it finished), and hands its result to
    /// the after hooks.
    pub(crate) async fn call_as(
        &self,
        name: &str,
        input: Input<'_>,
        timeout: Option<Duration>,
        strict: bool,
        approved: Approved,
        context: CallContext,
    ) -> ToolResult {
        // `**tool` is the `dyn Tool`: through the `Arc` forwarding impl the future would be
        // boxed twice.
        let tool = self.get(name).map(|t| &**t);
        let mut input = input;
        let controls = self.controls.as_deref();
        let result = 'call: {
            if let Some(controls) = controls {
                if let Some(answer) = self.before_call(controls, name, tool, &mut input, approved) {
                    break 'call answer;
                }
            }
            let Some(tool) = tool else {
                break 'call self.unknown(name);
            };
            // Text goes to `execute_json` as is; a value (or text read into one for strict
            // mode) goes to `execute`.
            let mut value = match input {
                Input::Absent => Value::Object(Map::new()),
                Input::Text(text) => {
                    if let Err(refused) = self.limits.check_text(name, &text) {
                        break 'call refused;
                    }
                    if !strict {
                        // Everything from here on is the tool's: the call of `execute_json`
                        // itself, the future and its drop run inside the guard.
                        let text = &*text;
                        break 'call run_armed!(name, timeout, context, |context| {
                            tool.execute_json_with(context, text)
                        });
                    }
                    // Read into a value so strict mode's nulls can be pruned (see `RunOptions`).
                    match args::parse_object(name, &text) {
                        Ok(value) => value,
                        Err(result) => break 'call result,
                    }
                }
                Input::Value(value) => {
                    if let Err(refused) = self.limits.check_value(name, &value) {
                        break 'call refused;
                    }
                    match args::object(name, value) {
                        Ok(value) => value,
                        Err(result) => break 'call result,
                    }
                }
            };
            if strict {
                // OpenAI strict mode makes the model send `null` for every optional argument it
                // leaves out; the tool's own schema turns those back into "absent".
                tool.input_schema().strict_nulls_to_absent(&mut value);
            }
            // As for text: the call of `execute`, the future and its drop run inside the guard.
            run_armed!(name, timeout, context, |context| tool
                .execute_with(context, value))
        };
        match controls {
            Some(controls) if controls.hooks.has_after() => {
                super::gate::after(controls, name, result)
            }
            _ => result,
        }
    }

    /// Whether one of `calls` was a final-answer tool's and succeeded (`results[i]` is the
    /// result of `calls[i]`): what makes a turn with calls final.
    pub(crate) fn answered(&self, calls: &[ToolCall], results: &[ToolResult]) -> bool {
        self.answers
            && calls.iter().zip(results).any(|(call, result)| {
                !result.is_error && self.get(&call.name).is_some_and(|t| t.is_final_answer())
            })
    }

    pub(crate) fn unknown(&self, name: &str) -> ToolResult {
        let shown = crate::values::text::echo_name(name);
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
}

impl fmt::Debug for Toolkit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Toolkit")
            .field("tools", &self.names().collect::<Vec<_>>())
            .finish()
    }
}
