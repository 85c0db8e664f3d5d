//! [`NativeTool`]: a tool from a name, a description, a hand-written schema and an async closure.

use std::fmt;
use std::future::Future;
use std::sync::Arc;

use async_trait::async_trait;
use futures::future::BoxFuture;
use serde_json::Value;

use crate::schema::InputSchema;
use crate::tool::call_args::CallArgs;
use crate::tool::context::CallContext;
use crate::tool::hints::ToolHints;
use crate::tool::{validate_name, Tool, ToolSource};
use crate::values::error::Error;
use crate::values::result::{IntoToolResult, ToolResult};

type Handler = dyn Fn(Value) -> BoxFuture<'static, ToolResult> + Send + Sync;

/// A tool built at run time from a closure: the twin of C# `NativeTool.Of` and Python
/// `define_tool(..., input_schema=...)`.
///
/// The closure receives the argument object (`{}` when the model sent none) and may capture
/// state, such as a database handle or an HTTP client. Where the schema says `integer`
/// (`"type": "integer"`, `["integer", "null"]`, through `properties`, `items`, `$ref` or a
/// choice with an integer branch), a whole-number float such as Gemini's `2.0` arrives as that
/// integer, so `args["n"].as_i64()` reads it; `2.5`, and a float where the schema says `number`
/// or nothing, arrive as sent. It may return a `String`, a
/// [`ToolResult`], a [`Json`](crate::Json) value, or a `Result` of those whose `Err` (any
/// `Display`) becomes an error result. Run through a [`Toolkit`](crate::Toolkit), a panic in the
/// closure (also one before it returns its future) or in its future becomes an error result
/// too: the toolkit's guard covers the whole call.
///
/// ```
/// use std::sync::{Arc, atomic::{AtomicUsize, Ordering}};
/// use serde_json::json;
/// use toolnexus::{NativeTool, Tool};
///
/// let calls = Arc::new(AtomicUsize::new(0));
/// let counter = Arc::clone(&calls);
/// let weather = NativeTool::of(
///     "get_weather",
///     "Current weather for a city",
///     json!({"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}),
///     move |args| {
///         let counter = Arc::clone(&counter);
///         async move {
///             counter.fetch_add(1, Ordering::SeqCst);
///             format!("sunny in {}", args["city"].as_str().unwrap_or("?"))
///         }
///     },
/// )?;
///
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let result = weather.execute(json!({"city": "Chennai"})).await;
/// assert_eq!(result.output, "sunny in Chennai");
/// assert_eq!(calls.load(Ordering::SeqCst), 1);
/// # });
/// # Ok::<(), toolnexus::Error>(())
/// ```
#[derive(Clone)]
pub struct NativeTool {
    name: String,
    description: String,
    schema: InputSchema,
    handler: Arc<Handler>,
    title: Option<String>,
    hints: ToolHints,
    output_schema: Option<Value>,
}

impl NativeTool {
    /// Builds a tool. Refused with an [`Error`] (never a panic): a name that is not 1 to 64
    /// characters from `[A-Za-z0-9_-]`, and a schema whose root is not an object.
    pub fn of<F, Fut, R>(
        name: impl Into<String>,
        description: impl Into<String>,
        input_schema: Value,
        f: F,
    ) -> Result<Self, Error>
    where
        F: Fn(Value) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = R> + Send + 'static,
        R: IntoToolResult,
    {
        let name = name.into();
        validate_name(&name)?;
        let schema = InputSchema::new(input_schema).map_err(|e| e.for_tool(&name))?;
        let handler: Arc<Handler> = Arc::new(move |args| {
            let fut = f(args);
            Box::pin(async move { fut.await.into_tool_result() })
        });
        Ok(Self {
            name,
            description: description.into(),
            schema,
            handler,
            title: None,
            hints: ToolHints::new(),
            output_schema: None,
        })
    }

    /// The same tool with a human-readable title ([`Tool::title`]).
    #[must_use]
    pub fn with_title(mut self, title: impl Into<String>) -> Self {
        self.title = Some(title.into());
        self
    }

    /// The same tool with hints about its effects ([`Tool::hints`]).
    #[must_use]
    pub fn with_hints(mut self, hints: ToolHints) -> Self {
        self.hints = hints;
        self
    }

    /// The same tool with an output schema ([`Tool::output_schema`]): the closure's results
    /// should then carry their structured value as `metadata.structuredContent`.
    #[must_use]
    pub fn with_output_schema(mut self, schema: Value) -> Self {
        self.output_schema = Some(schema);
        self
    }
}

impl fmt::Debug for NativeTool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("NativeTool")
            .field("name", &self.name)
            .field("description", &self.description)
            .field("input_schema", &self.schema)
            .finish_non_exhaustive()
    }
}

#[async_trait]
impl Tool for NativeTool {
    fn name(&self) -> &str {
        &self.name
    }

    fn description(&self) -> &str {
        &self.description
    }

    fn input_schema(&self) -> &InputSchema {
        &self.schema
    }

    fn source(&self) -> ToolSource {
        ToolSource::Native
    }

    fn title(&self) -> Option<&str> {
        self.title.as_deref()
    }

    fn hints(&self) -> ToolHints {
        self.hints
    }

    fn output_schema(&self) -> Option<&Value> {
        self.output_schema.as_ref()
    }

    async fn call(&self, _context: CallContext, args: CallArgs<'_>) -> ToolResult {
        match args.into_object(&self.name) {
            Ok(mut args) => {
                self.schema.whole_floats_to_integers(&mut args);
                (self.handler)(args).await
            }
            Err(result) => result,
        }
    }
}
