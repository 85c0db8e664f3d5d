//! The [`Tool`] trait, where a tool came from ([`ToolSource`]), and tool-name rules.

pub(crate) mod call_args;
pub(crate) mod context;
pub(crate) mod hints;
pub(crate) mod logging;
pub(crate) mod native;
pub(crate) mod set;

use std::fmt;
use std::sync::Arc;

use async_trait::async_trait;
use serde_json::Value;

use self::call_args::CallArgs;
use self::context::CallContext;
use crate::schema::InputSchema;
use crate::values::error::Error;
use crate::values::result::ToolResult;

/// The longest tool name every provider accepts.
pub const MAX_NAME_LEN: usize = 64;

/// Where a tool came from.
///
/// ```
/// assert_eq!(toolnexus::ToolSource::Native.as_str(), "native");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ToolSource {
    /// A Rust function or closure: `#[tool]` and [`NativeTool`](crate::NativeTool).
    Native,
    /// A hand-written `impl Tool`.
    Custom,
    /// A tool of an MCP server (feature `mcp`): `McpSource`'s tools.
    Mcp,
}

impl ToolSource {
    /// The family's wire name: `"native"`, `"custom"` or `"mcp"` (the names the Python
    /// package's `ToolSource` uses).
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Native => "native",
            Self::Custom => "custom",
            Self::Mcp => "mcp",
        }
    }
}

impl ToolSource {
    /// OpenTelemetry's `gen_ai.tool.type`: `extension` for an MCP server's tool (it runs
    /// elsewhere), `function` for one that runs in this process.
    pub(crate) fn gen_ai_type(self) -> &'static str {
        match self {
            Self::Mcp => "extension",
            Self::Native | Self::Custom => "function",
        }
    }
}

impl fmt::Display for ToolSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Something a model can call.
///
/// Object safe, `Send + Sync`, and usable as `Arc<dyn Tool>`. Most tools come from
/// [`#[tool]`](macro@crate::tool) on an ordinary function, which generates the implementation:
///
/// ```
/// use toolnexus::{tool, Tool};
///
/// /// Adds two integers.
/// #[tool]
/// fn add(a: i64, b: i64) -> i64 {
///     a + b
/// }
///
/// assert_eq!(Add.name(), "add");
/// assert_eq!(Add.description(), "Adds two integers.");
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// assert_eq!(Add.execute(serde_json::json!({"a": 2, "b": 3})).await.output, "5");
/// # });
/// ```
///
/// For anything else, [`NativeTool`](crate::NativeTool) takes a closure and a hand-written
/// schema, or you implement the trait yourself with [`#[toolnexus::async_trait]`](macro@crate::async_trait)
/// and one ordinary `async fn call`, the one way in: every path (a response, a stream, a
/// resumed turn, MCP, strict mode, rules, hooks) calls it, with the call's [`CallContext`] and
/// the arguments in the form they came ([`CallArgs`]):
///
/// ```
/// use serde_json::json;
/// use toolnexus::{async_trait, CallArgs, CallContext, InputSchema, Tool, ToolResult};
///
/// struct Clock {
///     schema: InputSchema,
/// }
///
/// #[async_trait]
/// impl Tool for Clock {
///     fn name(&self) -> &str {
///         "clock"
///     }
///     fn description(&self) -> &str {
///         "The current time, as UTC seconds."
///     }
///     fn input_schema(&self) -> &InputSchema {
///         &self.schema
///     }
///     async fn call(&self, ctx: CallContext, args: CallArgs<'_>) -> ToolResult {
///         // The argument object, from text or a value; a bad one is the model's to fix.
///         let _args = match args.into_object(self.name()) {
///             Ok(args) => args, // `{}` when the model sent none
///             Err(refused) => return refused,
///         };
///         ToolResult::ok(format!("1700000000 (call {})", ctx.id().unwrap_or("-")))
///     }
/// }
///
/// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
/// let clock = Clock { schema: InputSchema::new(json!({"type": "object", "properties": {}}))? };
/// // Called directly: `execute` and `execute_json` are `call` with an empty context.
/// assert_eq!(clock.execute(json!({})).await.output, "1700000000 (call -)");
/// // Through a toolkit, text or value, the same method gets the call's id.
/// let toolkit = toolnexus::Toolkit::new().with(clock)?;
/// let call = toolnexus::ToolCall::new("call_7", "clock", toolnexus::Arguments::Text("{}".into()));
/// let result = toolkit.execute_call(&call, &toolnexus::RunOptions::default()).await;
/// assert_eq!(result.output, "1700000000 (call call_7)");
/// # Ok::<(), toolnexus::Error>(()) }).unwrap();
/// ```
///
/// **What rustdoc shows below is async-trait's expansion**, not what you write: each
/// `async fn` of the trait appears as a plain `fn` with lifetimes such as `'life0` that returns
/// `Pin<Box<dyn Future<Output = ToolResult> + Send + 'async_trait>>`. Write `async fn` inside
/// an impl marked `#[async_trait]`, as above.
///
/// `call` must not panic or fail for anything the model caused: a mistake becomes
/// [`ToolResult::error`] with a message that says what to fix.
///
/// Panics: a [`Toolkit`](crate::Toolkit) runs each call, from the call of `call` itself
/// (work done before the future exists) through the future to its drop, inside one panic
/// guard, and answers a panic with ``tool `NAME` panicked; it could not complete this call``.
/// Calling a tool directly, outside a toolkit, catches nothing: a panic unwinds into the
/// caller, as any function's would.
#[async_trait]
// Passing a `#[tool] fn` itself is the usual way to get here: the message names the rule that
// gives its tool type (the fn item's own type cannot be named, so no impl can point at it).
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a tool: it does not implement `toolnexus::Tool`",
    label = "not a tool; for a `#[tool] fn`, pass the tool type generated next to it",
    note = "`#[tool]` keeps the fn an ordinary fn and generates the tool type, named after the fn \
            in UpperCamelCase: `#[tool] fn get_weather` generates `GetWeather` (with `#[state]` \
            parameters, a struct of them: `GetWeather {{ db }}`)",
    note = "anything else becomes a tool through `NativeTool::of` or its own `impl Tool`"
)]
pub trait Tool: Send + Sync {
    /// The name the model calls: 1 to 64 characters from `[A-Za-z0-9_-]`.
    fn name(&self) -> &str;

    /// What the model reads to decide when to call the tool.
    fn description(&self) -> &str;

    /// The JSON Schema of the argument object.
    fn input_schema(&self) -> &InputSchema;

    /// Where the tool came from. Hand-written tools are [`ToolSource::Custom`].
    fn source(&self) -> ToolSource {
        ToolSource::Custom
    }

    /// A human-readable name, for people rather than the model (MCP's `title`); none by
    /// default.
    fn title(&self) -> Option<&str> {
        None
    }

    /// What the tool says about its effects (MCP's annotations); none by default. Hints only:
    /// see [`ToolHints`](crate::ToolHints).
    fn hints(&self) -> hints::ToolHints {
        hints::ToolHints::new()
    }

    /// Whether a call of this tool that succeeds is the model's final answer, which ends the
    /// loop: [`Turn::is_final`](crate::Turn::is_final) is then `true` although the turn has a
    /// call. `true` for the output tool of a typed answer in tool mode
    /// ([`Output::tool`](crate::Output::tool)); `false` by default.
    fn is_final_answer(&self) -> bool {
        false
    }

    /// The JSON Schema of the tool's structured output (MCP's `outputSchema`), for tools whose
    /// results carry a structured value as `metadata.structuredContent` (an object, valid
    /// against this schema) next to its JSON text as the output; none by default.
    ///
    /// A `#[tool]` returning [`Json<T>`](crate::Json) (or a `Result` of one) whose `T` derives
    /// `JsonSchema` and has an object schema (a struct, a map) gets it from `T`, and its results
    /// carry the value; [`NativeTool::with_output_schema`](crate::NativeTool::with_output_schema)
    /// sets one by hand; an MCP server's tools keep the `outputSchema` it listed.
    /// `mcp::McpServer` (feature `mcp`) lists it and answers `structuredContent` from the
    /// result's metadata.
    ///
    /// ```
    /// use toolnexus::{tool, Json, Tool};
    ///
    /// #[derive(serde::Serialize, schemars::JsonSchema)]
    /// struct Forecast {
    ///     city: String,
    ///     celsius: f64,
    /// }
    ///
    /// /// Current weather for a city.
    /// #[tool]
    /// fn weather(city: String) -> Json<Forecast> {
    ///     Json(Forecast { city, celsius: 31.5 })
    /// }
    ///
    /// let schema = Weather.output_schema().expect("an output schema");
    /// assert_eq!(schema["properties"]["celsius"]["type"], "number");
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// let result = Weather.execute(serde_json::json!({"city": "Chennai"})).await;
    /// assert_eq!(result.output, r#"{"city":"Chennai","celsius":31.5}"#);
    /// assert_eq!(result.metadata.unwrap()["structuredContent"]["celsius"], 31.5);
    /// # });
    /// ```
    fn output_schema(&self) -> Option<&Value> {
        None
    }

    /// Runs one call: the one method a tool implements, and the one every path calls (a
    /// whole response, a stream, a resumed turn, a call served over MCP, strict mode, policy
    /// rules and hooks alike), so what a tool receives never depends on configuration.
    ///
    /// `context` is the call's [`CallContext`] (its id and dialect, the cancellation signal,
    /// the progress sink); `args` the argument object as text or as a value
    /// ([`CallArgs::into_object`] reads either).
    async fn call(&self, context: CallContext, args: CallArgs<'_>) -> ToolResult;

    /// Runs the tool on an argument object, outside a toolkit: [`Tool::call`] with a context
    /// that has nothing in it. (For a tool behind `dyn Tool`, the same method of `dyn Tool`.)
    ///
    /// Only for sized tools, so that it is not in `dyn Tool`'s vtable: every tool type would
    /// otherwise compile a future of its own for it (the inherent method of `dyn Tool` is one
    /// for all).
    async fn execute(&self, args: Value) -> ToolResult
    where
        Self: Sized,
    {
        self.call(CallContext::detached(), CallArgs::Value(args))
            .await
    }

    /// Runs the tool on arguments given as JSON text, as OpenAI sends them, outside a toolkit:
    /// [`Tool::call`] with a context that has nothing in it. Empty or whitespace-only text, and
    /// `null`, mean `{}`; text that is not a JSON object is an error result. (For a tool behind
    /// `dyn Tool`, the same method of `dyn Tool`; sized tools only, as [`Tool::execute`].)
    async fn execute_json(&self, args: &str) -> ToolResult
    where
        Self: Sized,
    {
        self.call(CallContext::detached(), CallArgs::Text(args))
            .await
    }
}

/// [`Tool::execute`] and [`Tool::execute_json`] for a tool behind `dyn Tool` (an `Arc<dyn Tool>`
/// from [`Toolkit::get`](crate::Toolkit::get), say): one code for every tool type.
impl<'t> dyn Tool + 't {
    /// [`Tool::execute`]: [`Tool::call`] on an argument object, with a context that has
    /// nothing in it.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use toolnexus::{tool, Tool};
    ///
    /// /// Adds two numbers.
    /// #[tool]
    /// fn add(a: i64, b: i64) -> i64 {
    ///     a + b
    /// }
    ///
    /// let tool: Arc<dyn Tool> = Arc::new(Add);
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// assert_eq!(tool.execute(serde_json::json!({"a": 2, "b": 3})).await.output, "5");
    /// assert_eq!(tool.execute_json(r#"{"a": 2, "b": 3}"#).await.output, "5");
    /// # });
    /// ```
    pub async fn execute(&self, args: Value) -> ToolResult {
        self.call(CallContext::detached(), CallArgs::Value(args))
            .await
    }

    /// [`Tool::execute_json`]: [`Tool::call`] on arguments given as JSON text, with a context
    /// that has nothing in it.
    pub async fn execute_json(&self, args: &str) -> ToolResult {
        self.call(CallContext::detached(), CallArgs::Text(args))
            .await
    }
}

macro_rules! forward_tool {
    ($($ty:ty),*) => {$(
        #[async_trait]
        impl<T: Tool + ?Sized> Tool for $ty {
            fn name(&self) -> &str { (**self).name() }
            fn description(&self) -> &str { (**self).description() }
            fn input_schema(&self) -> &InputSchema { (**self).input_schema() }
            fn source(&self) -> ToolSource { (**self).source() }
            fn title(&self) -> Option<&str> { (**self).title() }
            fn hints(&self) -> hints::ToolHints { (**self).hints() }
            fn is_final_answer(&self) -> bool { (**self).is_final_answer() }
            fn output_schema(&self) -> Option<&Value> { (**self).output_schema() }
            async fn call(&self, context: CallContext, args: CallArgs<'_>) -> ToolResult {
                (**self).call(context, args).await
            }
        }
    )*};
}
forward_tool!(&T, Box<T>, Arc<T>);

/// Replaces every character outside `[a-zA-Z0-9_-]` with `_`, as the C# and Python packages do,
/// to turn an arbitrary label into a tool name. It does not shorten; see [`validate_name`] for
/// the length.
///
/// ```
/// assert_eq!(toolnexus::name::sanitize("weather.get v2"), "weather_get_v2");
/// assert_eq!(toolnexus::name::sanitize("météo"), "m_t_o");
/// ```
#[must_use]
pub fn sanitize(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// Checks a tool name: 1 to 64 characters from `[A-Za-z0-9_-]`.
///
/// ```
/// assert!(toolnexus::name::validate("get_weather").is_ok());
/// let err = toolnexus::name::validate("get.weather").unwrap_err();
/// assert_eq!(
///     err.to_string(),
///     "invalid tool name `get.weather`: `.` is not allowed; use only A-Z, a-z, 0-9, `_` and `-` (see `toolnexus::name::sanitize`)"
/// );
/// ```
pub fn validate_name(name: &str) -> Result<(), Error> {
    let invalid = |reason: String| {
        Err(Error::InvalidName {
            name: name.to_owned(),
            reason,
        })
    };
    if name.is_empty() {
        return invalid("a tool name must not be empty".to_owned());
    }
    if let Some(c) = name
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || *c == '_' || *c == '-'))
    {
        return invalid(format!(
            "`{c}` is not allowed; use only A-Z, a-z, 0-9, `_` and `-` (see `toolnexus::name::sanitize`)"
        ));
    }
    if name.len() > MAX_NAME_LEN {
        return invalid(format!(
            "it has {} characters; the limit is {MAX_NAME_LEN}",
            name.len()
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::ToolSource;

    #[test]
    fn an_mcp_servers_tool_is_an_extension_and_the_others_functions() {
        assert_eq!(ToolSource::Mcp.gen_ai_type(), "extension");
        assert_eq!(ToolSource::Native.gen_ai_type(), "function");
        assert_eq!(ToolSource::Custom.gen_ai_type(), "function");
    }
}
