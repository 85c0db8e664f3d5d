//! [`Toolkit`] and every public method it has, in the order its rustdoc page lists them (`new`
//! and `with` first): its tools added (checked once) and found by name, its tools arrays, its
//! round trip (a response in, a `Turn` out), the policy and hooks, a gated response and its
//! resumption. The one path every call takes is the crate-private engine beside it (`engine`).
//! What a method leans on that is no part of the type lives in the folder's other files: the
//! gate and the hooks on the call path (`gate`), the strict dialects (`strict`), `Selection`
//! (`selection`), a resumed turn's plans (`resume`).

use crate::tool::call_args::CallArgs;
use std::collections::HashMap;
use std::future::Future;
use std::sync::Arc;

use serde_json::value::RawValue;
use serde_json::Value;

use super::resume;
use super::selection::Selection;
use super::strict::StrictDialects;
use crate::approval::{Answer, Gated, PendingTurn};
use crate::dispatch::tools_array::{RenderCache, ToolsArray};
use crate::limits::Limits;
use crate::policy::{Controls, Hooks, Policy};
use crate::response::ResponseError;
use crate::tool::set::ToolSet;
use crate::tool::Tool;
use crate::turn::batch::RunOptions;
use crate::turn::Turn;
use crate::values::call::ToolCall;
use crate::values::dialect::Dialect;
use crate::values::error::Error;
use crate::values::result::ToolResult;
use crate::wire::options::ToolsOptions;

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
/// - **Build:** [`new`](Toolkit::new), [`with`](Toolkit::with) / [`add`](Toolkit::add) (one
///   tool or a [`ToolSet`](crate::ToolSet) of them), [`with_limits`](Toolkit::with_limits).
/// - **Look up:** [`tools`](Toolkit::tools), [`get`](Toolkit::get), [`names`](Toolkit::names),
///   [`len`](Toolkit::len).
/// - **Render a request's `tools`:** [`tools_for`](Toolkit::tools_for) (any dialect, any
///   [`ToolsOptions`](crate::ToolsOptions)) and its cached JSON text
///   [`tools_json_for`](Toolkit::tools_json_for); the shortcuts [`to_openai`](Toolkit::to_openai),
///   [`to_anthropic`](Toolkit::to_anthropic), [`to_gemini`](Toolkit::to_gemini) and
///   [`to_openai_json`](Toolkit::to_openai_json); a subset with [`select`](Toolkit::select),
///   checked with [`Dialect::check_tools`](crate::Dialect::check_tools).
/// - **Run:** [`respond`](Toolkit::respond) (a whole response), [`StreamTurn`](crate::stream::StreamTurn)
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
    // Build.

    /// An empty toolkit.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// The toolkit with `tools` added; see [`Toolkit::add`].
    ///
    /// ```
    /// use toolnexus::{tool, Toolkit};
    ///
    /// /// Adds two integers.
    /// #[tool]
    /// fn add(a: i64, b: i64) -> i64 { a + b }
    /// /// Subtracts `b` from `a`.
    /// #[tool]
    /// fn sub(a: i64, b: i64) -> i64 { a - b }
    ///
    /// let toolkit = Toolkit::new().with(Add)?.with((Sub,))?;
    /// assert_eq!(toolkit.names().collect::<Vec<_>>(), ["add", "sub"]);
    /// // A batch with a name taken twice is refused as a whole.
    /// let err = Toolkit::new().with((Add, Sub, Add)).unwrap_err();
    /// assert!(matches!(err, toolnexus::Error::DuplicateTool { ref name } if name == "add"));
    /// # Ok::<(), toolnexus::Error>(())
    /// ```
    pub fn with(mut self, tools: impl ToolSet) -> Result<Self, Error> {
        self.add(tools)?;
        Ok(self)
    }

    /// Adds one tool, or several at once ([`ToolSet`]: a tuple of tools of any types, or a
    /// `Vec` or array of `Arc<dyn Tool>`), in order, after the ones already there.
    ///
    /// Refused, leaving the toolkit as it was: a name already taken, or taken twice within
    /// `tools` ([`Error::DuplicateTool`]), a name that breaks the naming rule
    /// ([`Error::InvalidName`]), and a `#[tool]` whose generated schema could not be used
    /// ([`Error::Schema`]). All or nothing: the error names the first such tool and none is
    /// added.
    pub fn add(&mut self, tools: impl ToolSet) -> Result<&mut Self, Error> {
        // Generic only to here: each tool type costs its `into_tools`, not a copy of the checks.
        self.add_checked(tools.into_tools())?;
        Ok(self)
    }

    /// The toolkit with other [`Limits`] on the size and nesting of a call's arguments.
    #[must_use]
    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    // Look up.

    /// The tools, in registration order.
    pub fn tools(&self) -> &[Arc<dyn Tool>] {
        &self.tools
    }

    /// The tool called `name`, if there is one.
    pub fn get(&self, name: &str) -> Option<&Arc<dyn Tool>> {
        self.position(name).map(|i| &self.tools[i])
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

    // Render a request's `tools` (`strict` notes the dialects handed out strict tools).

    /// The tools as `dialect` declares them in a request, under `options` (strict mode, Gemini's
    /// JSON Schema form: [`ToolsOptions`]): the one way to any tools array, Amazon Bedrock's
    /// `toolConfig.tools` included.
    ///
    /// A [`ToolsArray`], not a `Vec<Value>`: it serializes to the same bytes from one tree of
    /// `Value`s the toolkit renders on first use per dialect and options (again only after a tool
    /// is added) and shares with every array it hands out, and reads like the `Vec<Value>`
    /// (indexing, `len`, equality with a `Vec<Value>`, `into()`).
    ///
    /// Strict tools travel with their reading: once this toolkit handed out OpenAI strict tools
    /// (Chat Completions or Responses), it reads that dialect's calls as strict calls in
    /// [`respond`](Toolkit::respond) and a [`StreamTurn`](crate::stream::StreamTurn): the `null` the
    /// model sends for an optional argument reaches the tool as "absent", as if
    /// [`RunOptions::with_openai_strict`](crate::RunOptions::with_openai_strict) had been given.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolnexus::{Dialect, NativeTool, Toolkit, ToolsOptions};
    ///
    /// let echo = NativeTool::of("echo", "Echoes its arguments", json!({"type": "object",
    ///     "properties": {"days": {"type": "integer"}}}), |args| async move { args.to_string() })?;
    /// let toolkit = Toolkit::new().with(echo)?;
    /// assert_eq!(toolkit.tools_for(Dialect::Anthropic, ToolsOptions::default()), toolkit.to_anthropic());
    /// assert_eq!(toolkit.tools_for(Dialect::Bedrock, ToolsOptions::default())[0]["toolSpec"]["name"], "echo");
    ///
    /// let strict = ToolsOptions::default().with_strict(true);
    /// let body = json!({"tools": toolkit.tools_for(Dialect::OpenAiChat, strict)});
    /// assert_eq!(body["tools"][0]["function"]["strict"], true);
    ///
    /// // Strict mode made the model send `null` for the optional `days`.
    /// let response = json!({"choices": [{"finish_reason": "tool_calls", "message": {
    ///     "role": "assistant", "tool_calls": [{"id": "call_1", "type": "function",
    ///     "function": {"name": "echo", "arguments": "{\"days\":null}"}}]}}]});
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// let turn = toolkit.respond(&response, Dialect::OpenAiChat).await?;
    /// assert_eq!(turn.results[0].output, "{}"); // absent, not null
    /// # Ok::<(), toolnexus::ResponseError>(()) }).unwrap();
    /// # Ok::<(), toolnexus::Error>(())
    /// ```
    pub fn tools_for(&self, dialect: Dialect, options: ToolsOptions) -> ToolsArray {
        self.strict.note(dialect, options);
        self.rendered.array(&self.tools, dialect, options)
    }

    /// [`tools_for`](Toolkit::tools_for) as JSON text, rendered once per toolkit, dialect and
    /// options, and reused (strict tools noted as there).
    ///
    /// The fast path for request bodies: a `&RawValue` field in a `#[derive(Serialize)]` body is
    /// written verbatim, so a request costs a copy of these bytes instead of building and
    /// serializing a `Value` tree per request. The bytes equal
    /// `serde_json::to_string(&tools_for(dialect, options))`.
    ///
    /// ```
    /// use serde::Serialize;
    /// use serde_json::{json, value::RawValue};
    /// use toolnexus::{Dialect, NativeTool, Toolkit, ToolsOptions};
    ///
    /// #[derive(Serialize)]
    /// struct Request<'a> { messages: Vec<serde_json::Value>, tools: &'a RawValue }
    ///
    /// let ping = NativeTool::of("ping", "Health check", json!({"type": "object", "properties": {}}),
    ///     |_| async { "pong" })?;
    /// let toolkit = Toolkit::new().with(ping)?;
    /// let tools = toolkit.tools_json_for(Dialect::Anthropic, ToolsOptions::default());
    /// assert_eq!(
    ///     serde_json::to_string(&Request { messages: vec![], tools })?,
    ///     r#"{"messages":[],"tools":[{"name":"ping","description":"Health check","input_schema":{"type":"object","properties":{}}}]}"#
    /// );
    /// // OpenAI Chat Completions' has its shortcut.
    /// assert_eq!(toolkit.to_openai_json().get(), serde_json::to_string(&toolkit.to_openai())?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn tools_json_for(&self, dialect: Dialect, options: ToolsOptions) -> &RawValue {
        self.strict.note(dialect, options);
        self.rendered.json(&self.tools, dialect, options)
    }

    /// The OpenAI Chat Completions `tools` array: [`tools_for`](Toolkit::tools_for) with
    /// [`Dialect::OpenAiChat`] and the default options; see [`to_openai`](crate::to_openai).
    pub fn to_openai(&self) -> ToolsArray {
        self.tools_for(Dialect::OpenAiChat, ToolsOptions::default())
    }

    /// The Anthropic Messages `tools` array: [`tools_for`](Toolkit::tools_for) with
    /// [`Dialect::Anthropic`] and the default options; see [`to_anthropic`](crate::to_anthropic).
    pub fn to_anthropic(&self) -> ToolsArray {
        self.tools_for(Dialect::Anthropic, ToolsOptions::default())
    }

    /// The Gemini `tools` array, one `functionDeclarations` wrapper:
    /// [`tools_for`](Toolkit::tools_for) with [`Dialect::Gemini`] and the default options; see
    /// [`to_gemini`](crate::to_gemini).
    pub fn to_gemini(&self) -> ToolsArray {
        self.tools_for(Dialect::Gemini, ToolsOptions::default())
    }

    /// [`to_openai`](Toolkit::to_openai) as JSON text, rendered once per toolkit and reused:
    /// [`tools_json_for`](Toolkit::tools_json_for) (whose example shows it in a request body)
    /// with [`Dialect::OpenAiChat`] and the default options.
    pub fn to_openai_json(&self) -> &RawValue {
        self.tools_json_for(Dialect::OpenAiChat, ToolsOptions::default())
    }

    /// The tools called `names`, to render for one request, in the toolkit's order (not the
    /// order of `names`; a name given twice counts once).
    ///
    /// A view of the toolkit: choosing costs a pass over its tools and shares them (no schema
    /// is copied), and rendering costs what rendering those tools alone costs. The toolkit still answers calls to every one of its
    /// tools ([`Toolkit::respond`]), offered this turn or not. A name the toolkit does not have
    /// is [`Error::UnknownTool`].
    ///
    /// ```
    /// use serde_json::json;
    /// use toolnexus::{Dialect, NativeTool, Toolkit, ToolsOptions};
    ///
    /// let tool = |name: &str| NativeTool::of(name, "A tool", json!({"type": "object", "properties": {}}),
    ///     |_| async { "ok" });
    /// let toolkit = Toolkit::new().with(tool("search")?)?.with(tool("fetch")?)?.with(tool("send")?)?;
    ///
    /// let offered = toolkit.select(["send", "search"])?;
    /// Dialect::OpenAiChat.check_tools(offered.tools())?;
    /// let tools = offered.tools_for(Dialect::OpenAiChat, ToolsOptions::default());
    /// let body = json!({"model": "gpt-4o", "messages": [], "tools": tools});
    /// assert_eq!(body["tools"][0]["function"]["name"], "search");
    /// assert_eq!(body["tools"][1]["function"]["name"], "send");
    /// # Ok::<(), toolnexus::Error>(())
    /// ```
    pub fn select<I, S>(&self, names: I) -> Result<Selection<'_>, Error>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        Selection::of(self, names)
    }

    // Run.

    /// Answers a model response in one call: reads its tool calls and the model's turn (one
    /// reading of the response), runs the calls ([`Toolkit::execute_calls`], default
    /// [`RunOptions`]) and returns the whole [`Turn`]: the calls, their results, and the
    /// messages the next request appends ([`Turn::into_messages`]: the model's turn, then the
    /// results).
    ///
    /// A turn without calls [`is_final`](Turn::is_final): the model has answered. A response
    /// that is not what the dialect says is a [`ResponseError`] and nothing runs.
    ///
    /// Results that carry images or files are held to the toolkit's [`Limits`](crate::Limits)
    /// and to the MIME types the dialect accepts before they are rendered
    /// ([`Dialect::admit_media`]); one past them is an error result that says so.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolnexus::{tool, Dialect, Toolkit};
    ///
    /// /// Weather for a city.
    /// #[tool]
    /// async fn get_weather(city: String) -> String {
    ///     format!("sunny in {city}")
    /// }
    ///
    /// let toolkit = Toolkit::new().with(GetWeather)?;
    ///
    /// let response = json!({"choices": [{"finish_reason": "tool_calls", "message": {
    ///     "role": "assistant", "content": null, "tool_calls": [{"id": "call_abc123",
    ///     "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\":\"Paris\"}"}}]}}]});
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// let mut messages = vec![Dialect::OpenAiChat.user_message("Weather in Paris?")];
    /// let turn = toolkit.respond(&response, Dialect::OpenAiChat).await?;
    /// messages.extend(turn.into_messages()); // the assistant message, then one tool message per call
    /// assert_eq!(messages[1]["tool_calls"][0]["id"], "call_abc123");
    /// assert_eq!(messages[2], json!({"role": "tool", "tool_call_id": "call_abc123", "content": "sunny in Paris"}));
    ///
    /// let answered = json!({"choices": [{"finish_reason": "stop",
    ///     "message": {"role": "assistant", "content": "It is sunny."}}]});
    /// let turn = toolkit.respond(&answered, Dialect::OpenAiChat).await?;
    /// assert!(turn.is_final());
    /// assert_eq!(turn.text(), "It is sunny.");
    /// messages.extend(turn.into_messages()); // the answer too, so the conversation can go on
    /// assert_eq!(messages.len(), 4);
    /// # Ok::<(), toolnexus::ResponseError>(()) }).unwrap();
    /// # Ok::<(), toolnexus::Error>(())
    /// ```
    pub async fn respond(&self, response: &Value, dialect: Dialect) -> Result<Turn, ResponseError> {
        self.respond_with(response, dialect, &RunOptions::default())
            .await
    }

    /// [`Toolkit::respond`] with the given [`RunOptions`].
    pub async fn respond_with(
        &self,
        response: &Value,
        dialect: Dialect,
        options: &RunOptions,
    ) -> Result<Turn, ResponseError> {
        let (calls, turn) = dialect.read_calls(response)?;
        self.limits.check_calls(dialect, calls.len())?;
        Ok(self.run_read(calls, turn, dialect, options).await)
    }

    /// Runs a turn's calls and returns exactly one result per call, in call order.
    ///
    /// Up to [`RunOptions::concurrency`] calls run at once, each under the optional
    /// [`RunOptions::timeout`]; a call that fails, panics or times out does not affect the
    /// others. Calls are told apart by position, so the same tool may be called twice.
    ///
    /// Duplicate ids: when two calls carry the same id (a provider or proxy bug), the first runs
    /// and each later one is answered, without running, with ``duplicate call id `ID`: an earlier
    /// call in this turn has it; this call was not run``, so a replayed call never runs twice and
    /// every call still gets its result. Calls without an id (Gemini) are never duplicates.
    /// "First" is by position, not by the order calls arrive: a [`StreamTurn`](crate::stream::StreamTurn)
    /// judges a streamed response's calls the same way, whatever order they complete in.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolnexus::{tool, Arguments, RunOptions, ToolCall, Toolkit};
    ///
    /// /// Doubles n.
    /// #[tool]
    /// fn double(n: i64) -> i64 {
    ///     n * 2
    /// }
    ///
    /// let toolkit = Toolkit::new().with(Double)?;
    /// let calls = [
    ///     ToolCall::new("a", "double", Arguments::Text(r#"{"n":2}"#.into())),
    ///     ToolCall::new("b", "double", Arguments::Value(json!({"n": 5}))),
    ///     ToolCall::new("c", "triple", Arguments::Absent),
    /// ];
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// let results = toolkit.execute_calls(&calls, &RunOptions::default()).await;
    /// let outputs: Vec<_> = results.iter().map(|r| r.output.as_str()).collect();
    /// assert_eq!(outputs, ["4", "10", "Unknown tool: triple. Available tools: double"]);
    /// # });
    /// # Ok::<(), toolnexus::Error>(())
    /// ```
    pub async fn execute_calls(&self, calls: &[ToolCall], options: &RunOptions) -> Vec<ToolResult> {
        self.run_calls(calls, options, None).await
    }

    /// Runs one call: by its arguments' form, [`Tool::execute_json`](crate::Tool::execute_json)
    /// for JSON text and [`Tool::execute`](crate::Tool::execute) for a value; absent arguments
    /// are `{}`.
    ///
    /// Never fails and never panics: an unknown tool, bad arguments, a tool error, a panic and a
    /// timeout all give an error result, and so does a call of a type a toolkit does not run
    /// ([`CallKind::Unsupported`](crate::CallKind::Unsupported)), which is never run.
    ///
    /// One panic guard covers everything the tool's code does for the call: the call of
    /// [`Tool::execute`](crate::Tool::execute) itself (a closure or hand-written `execute` that
    /// panics before it returns its future), decoding into `#[tool]` parameter types, cloning
    /// `#[state]`, the future, its drop (also when the timeout cuts it off) and the drop of a
    /// panic's payload. A panic is answered ``tool `NAME` panicked; it could not complete this
    /// call``, or, while a timed-out call is dropped, with the timeout's error; the payload's
    /// text is in `metadata.panic`, never in the output the model reads.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolnexus::{Arguments, NativeTool, RunOptions, ToolCall, Toolkit};
    ///
    /// let echo = NativeTool::of("echo", "Echo", json!({"type": "object", "properties": {}}),
    ///     |args| async move { args.to_string() })?;
    /// let toolkit = Toolkit::new().with(echo)?;
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// let call = ToolCall::new("call_1", "echo", Arguments::Text(r#"{"a":1}"#.into()));
    /// assert_eq!(toolkit.execute_call(&call, &RunOptions::default()).await.output, r#"{"a":1}"#);
    ///
    /// let bad = ToolCall::new("call_2", "echo", Arguments::Text("[1]".into()));
    /// let result = toolkit.execute_call(&bad, &RunOptions::default()).await;
    /// assert_eq!(result.output, "invalid arguments for `echo`: expected a JSON object, got an array");
    /// # });
    /// # Ok::<(), toolnexus::Error>(())
    /// ```
    pub async fn execute_call(&self, call: &ToolCall, options: &RunOptions) -> ToolResult {
        self.execute_call_from(call, options, None).await
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
        self.call_by_name(name, CallArgs::Value(args))
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
        self.call_by_name(name, CallArgs::Text(args))
    }

    // Decide what runs (on the call path: `gate`; a resumed turn's plans: `resume`).

    /// The toolkit under `policy`: which calls run, ask or are refused, and which run alone; see
    /// [`Policy`]. Without one (the default) every call runs, as it always has.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolnexus::{Gate, NativeTool, Policy, ToolHints, Toolkit};
    ///
    /// let schema = json!({"type": "object", "properties": {"path": {"type": "string"}}});
    /// let rm = NativeTool::of("rm", "Deletes a file.", schema, |_| async { "deleted" })?
    ///     .with_hints(ToolHints::new().with_destructive(true));
    /// let toolkit = Toolkit::new().with(rm)?.with_policy(Policy::new());
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// // A destructive tool asks: outside `respond_gated`, its call is answered, not run.
    /// let result = toolkit.execute("rm", json!({"path": "/etc/hosts"})).await;
    /// assert!(result.is_error);
    /// assert_eq!(result.output, "`rm` was not run: it needs the host's approval, which was not asked for");
    /// # });
    /// # Ok::<(), toolnexus::Error>(())
    /// ```
    #[must_use]
    pub fn with_policy(mut self, policy: Policy) -> Self {
        Arc::make_mut(self.controls.get_or_insert_default()).policy = Some(policy);
        self
    }

    /// The toolkit with `hooks` run around every call (replacing any set before); see [`Hooks`].
    #[must_use]
    pub fn with_hooks(mut self, hooks: Hooks) -> Self {
        Arc::make_mut(self.controls.get_or_insert_default()).hooks = hooks;
        self
    }

    /// [`Toolkit::respond`] under the toolkit's [`Policy`](crate::Policy), asking where it asks:
    /// when no call asks, the calls run and the [`Turn`] comes back ([`Gated::Ran`]); when one
    /// does, nothing runs and the [`PendingTurn`] comes back ([`Gated::Pending`]) for the host to
    /// answer and [`resume`](Toolkit::resume).
    ///
    /// A toolkit without a policy never asks. A response that is not what the dialect says is a
    /// [`ResponseError`] and nothing runs. See the [approval guide](crate::guide::approval).
    pub async fn respond_gated(
        &self,
        response: &Value,
        dialect: Dialect,
    ) -> Result<Gated, ResponseError> {
        self.respond_gated_with(response, dialect, &RunOptions::default())
            .await
    }

    /// [`Toolkit::respond_gated`] with the given [`RunOptions`].
    pub async fn respond_gated_with(
        &self,
        response: &Value,
        dialect: Dialect,
        options: &RunOptions,
    ) -> Result<Gated, ResponseError> {
        let (calls, turn) = dialect.read_calls(response)?;
        self.limits.check_calls(dialect, calls.len())?;
        Ok(resume::gated(self, calls, turn, dialect, options).await)
    }

    /// Runs a [`PendingTurn`] with the host's `answers` (one per call that asks; a call that
    /// does not ask may be answered too): approved calls run through the toolkit's one call
    /// path (with the host's arguments for [`Answer::approve_with`]), denied ones are answered
    /// with the host's message as an error result, the others run or are refused as the policy
    /// says; all in call order. The same [`Turn`] as [`Toolkit::respond`] comes out.
    ///
    /// The policy deciding is this toolkit's: a call it asks about needs an answer, whatever the
    /// pending turn says about it, and one it refuses is refused even when approved. A call
    /// that already has its result ([`Status::Done`](crate::approval::Status::Done): it ran while a stream arrived) keeps it
    /// and never runs again.
    ///
    /// Refused with an [`Error::Approval`], before anything runs: an answer naming no call of
    /// the turn, a second answer to one call, an answer to a call that already has its result,
    /// an answer given for other arguments (its digest is not the call's), and a call that asks
    /// without an answer.
    ///
    /// See the [approval guide](crate::guide::approval) for a whole loop.
    pub async fn resume(&self, pending: PendingTurn, answers: &[Answer]) -> Result<Turn, Error> {
        self.resume_with(pending, answers, &RunOptions::default())
            .await
    }

    /// [`Toolkit::resume`] with the given [`RunOptions`].
    pub async fn resume_with(
        &self,
        pending: PendingTurn,
        answers: &[Answer],
        options: &RunOptions,
    ) -> Result<Turn, Error> {
        Ok(resume::resume(self, pending, answers, options).await?)
    }
}
