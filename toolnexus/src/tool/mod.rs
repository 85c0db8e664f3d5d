//! The [`Tool`] trait, where a tool came from ([`ToolSource`]), and tool-name rules.

pub(crate) mod context;
pub(crate) mod hints;
pub(crate) mod native;
pub(crate) mod set;

use std::fmt;
use std::future::{ready, Future};
use std::pin::Pin;
use std::sync::Arc;

use async_trait::async_trait;
use serde_json::Value;

use self::context::CallContext;
use crate::decode;
use crate::schema::InputSchema;
use crate::values::error::Error;
use crate::values::result::ToolResult;

/// The future of one call, as [`Tool::execute_with`] returns it (what `async_trait` makes of an
/// `async fn` of the trait).
type CallFuture<'a> = Pin<Box<dyn Future<Output = ToolResult> + Send + 'a>>;

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
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Native => "native",
            Self::Custom => "custom",
            Self::Mcp => "mcp",
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
/// and an ordinary `async fn execute`:
///
/// ```
/// use serde_json::{json, Value};
/// use toolnexus::{async_trait, InputSchema, Tool, ToolResult};
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
///     async fn execute(&self, arguments: Value) -> ToolResult {
///         let _ = arguments; // `{}` when the model sent none
///         ToolResult::ok("1700000000")
///     }
/// }
///
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let clock = Clock { schema: InputSchema::new(json!({"type": "object", "properties": {}}))? };
/// assert_eq!(clock.execute(json!({})).await.output, "1700000000");
/// # Ok::<(), toolnexus::Error>(()) }).unwrap();
/// ```
///
/// **What rustdoc shows below is async-trait's expansion**, not what you write: each
/// `async fn` of the trait appears as a plain `fn` with lifetimes such as `'life0` that returns
/// `Pin<Box<dyn Future<Output = ToolResult> + Send + 'async_trait>>`. Write `async fn` inside
/// an impl marked `#[async_trait]`, as above.
///
/// `execute` receives the argument object (`{}` when the model sent none) and must not panic
/// or fail for anything the model caused: a mistake becomes [`ToolResult::error`] with a
/// message that says what to fix.
///
/// Panics: a [`Toolkit`](crate::Toolkit) runs each call, from the call of `execute` itself
/// (work done before the future exists) through the future to its drop, inside one panic
/// guard, and answers a panic with ``tool `NAME` panicked; it could not complete this call``.
/// Calling `execute` directly, outside a toolkit, catches nothing: a panic unwinds into the
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

    /// Runs the tool on an argument object.
    async fn execute(&self, args: Value) -> ToolResult;

    /// Runs the tool on an argument object, with the call's [`CallContext`] (its id and
    /// dialect, the cancellation signal, the progress sink): what a
    /// [`Toolkit`](crate::Toolkit) calls. By default it ignores the context and calls
    /// [`Tool::execute`], so a tool that has no use for the context implements `execute` only.
    ///
    /// A hand-written tool that reads the context overrides this and
    /// [`Tool::execute_json_with`] (for text arguments, which go there). Written as a plain fn returning the boxed future,
    /// as `async_trait` would generate it, so that the default adds no second box:
    ///
    /// ```
    /// use std::future::Future;
    /// use std::pin::Pin;
    /// use serde_json::{json, Value};
    /// use toolnexus::{async_trait, CallContext, InputSchema, Tool, ToolResult};
    ///
    /// struct WhoAmI(InputSchema);
    ///
    /// #[async_trait]
    /// impl Tool for WhoAmI {
    ///     fn name(&self) -> &str { "who_am_i" }
    ///     fn description(&self) -> &str { "The id of this call." }
    ///     fn input_schema(&self) -> &InputSchema { &self.0 }
    ///     async fn execute(&self, args: Value) -> ToolResult {
    ///         self.execute_with(CallContext::new(), args).await
    ///     }
    ///     fn execute_with<'a>(
    ///         &'a self,
    ///         ctx: CallContext,
    ///         _args: Value,
    ///     ) -> Pin<Box<dyn Future<Output = ToolResult> + Send + 'a>> {
    ///         Box::pin(async move { ToolResult::ok(ctx.id().unwrap_or("none")) })
    ///     }
    ///     // Text arguments (OpenAI's) too: read, then `execute_with`.
    ///     fn execute_json_with<'a>(
    ///         &'a self,
    ///         ctx: CallContext,
    ///         args: &'a str,
    ///     ) -> Pin<Box<dyn Future<Output = ToolResult> + Send + 'a>> {
    ///         self.context_json(ctx, args)
    ///     }
    /// }
    ///
    /// let tool = WhoAmI(InputSchema::new(json!({"type": "object", "properties": {}}))?);
    /// let toolkit = toolnexus::Toolkit::new().with(tool)?;
    /// let call = toolnexus::ToolCall::new("call_7", "who_am_i", toolnexus::Arguments::Text("{}".into()));
    /// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
    /// let result = toolkit.execute_call(&call, &toolnexus::RunOptions::default()).await;
    /// assert_eq!(result.output, "call_7");
    /// # });
    /// # Ok::<(), toolnexus::Error>(())
    /// ```
    fn execute_with<'a>(&'a self, context: CallContext, args: Value) -> CallFuture<'a> {
        drop(context);
        self.execute(args)
    }

    /// Runs the tool on arguments given as JSON text, as OpenAI sends them.
    ///
    /// Empty or whitespace-only text, and `null`, mean `{}`. Text that is not JSON, or JSON that
    /// is not an object, gives an error result and the tool does not run. Tools that decode into
    /// a Rust type override this to skip the intermediate [`Value`].
    async fn execute_json(&self, args: &str) -> ToolResult {
        match decode::parse_object(self.name(), args) {
            Ok(value) => self.execute(value).await,
            Err(result) => result,
        }
    }

    /// Runs the tool on arguments given as JSON text, with the call's [`CallContext`]: what a
    /// [`Toolkit`](crate::Toolkit) calls for text arguments.
    ///
    /// By default it ignores the context and calls [`Tool::execute_json`], so a tool that
    /// decodes text itself keeps that path in a toolkit. A tool that reads the context
    /// overrides this as well as [`Tool::execute_with`] (the default `execute_json` knows no
    /// context): [`Tool::context_json`] reads the text as `execute_json` does and hands it on.
    fn execute_json_with<'a>(&'a self, context: CallContext, args: &'a str) -> CallFuture<'a> {
        drop(context);
        self.execute_json(args)
    }

    /// The text read as [`Tool::execute_json`] reads it (empty or `null` is `{}`; anything but
    /// an object is an error result), then [`Tool::execute_with`] with `context`: the body of
    /// an [`execute_json_with`](Tool::execute_json_with) for a tool that reads its context.
    fn context_json<'a>(&'a self, context: CallContext, args: &'a str) -> CallFuture<'a> {
        match decode::parse_object(self.name(), args) {
            Ok(value) => self.execute_with(context, value),
            Err(result) => Box::pin(ready(result)),
        }
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
            async fn execute(&self, args: Value) -> ToolResult { (**self).execute(args).await }
            async fn execute_json(&self, args: &str) -> ToolResult { (**self).execute_json(args).await }
            fn execute_with<'a>(&'a self, context: CallContext, args: Value) -> CallFuture<'a> {
                (**self).execute_with(context, args)
            }
            fn execute_json_with<'a>(&'a self, context: CallContext, args: &'a str) -> CallFuture<'a> {
                (**self).execute_json_with(context, args)
            }
            fn context_json<'a>(&'a self, context: CallContext, args: &'a str) -> CallFuture<'a> {
                (**self).context_json(context, args)
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
/// assert_eq!(toolnexus::sanitize("weather.get v2"), "weather_get_v2");
/// assert_eq!(toolnexus::sanitize("météo"), "m_t_o");
/// ```
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
/// assert!(toolnexus::validate_name("get_weather").is_ok());
/// let err = toolnexus::validate_name("get.weather").unwrap_err();
/// assert_eq!(
///     err.to_string(),
///     "invalid tool name `get.weather`: `.` is not allowed; use only A-Z, a-z, 0-9, `_` and `-` (see `toolnexus::sanitize`)"
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
            "`{c}` is not allowed; use only A-Z, a-z, 0-9, `_` and `-` (see `toolnexus::sanitize`)"
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
