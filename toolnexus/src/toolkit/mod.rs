//! [`Toolkit`]: the tools an application offers, found by name and executed (`tools`; declared
//! first, so rustdoc lists `new` and `with` first), rendered per provider (`render`), its round
//! trip (`respond`) and subsets (`selection`).

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

use serde_json::Value;

use crate::limits::Limits;
use crate::tool::Tool;

// First, and apart (rustfmt sorts a group of `mod`s): rustdoc lists `Toolkit`'s methods part by
// part in this order, and its page should open with `new` and `with`.
mod tools;

mod render;
mod respond;
pub(crate) mod selection;
use render::Rendered;

/// A call's arguments as they reach [`Toolkit::call`].
pub(crate) enum Input<'a> {
    /// None were sent: `{}`.
    Absent,
    /// JSON text, as OpenAI sends it.
    Text(Cow<'a, str>),
    /// A JSON value, as Anthropic and Gemini send it.
    Value(Value),
}

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
/// - **Render a request's `tools`:** [`to_openai`](Toolkit::to_openai),
///   [`to_openai_responses`](Toolkit::to_openai_responses),
///   [`to_openai_strict`](Toolkit::to_openai_strict), [`to_anthropic`](Toolkit::to_anthropic),
///   [`to_gemini`](Toolkit::to_gemini), [`to_gemini_json_schema`](Toolkit::to_gemini_json_schema),
///   the cached [`to_openai_json`](Toolkit::to_openai_json) and its twins; a subset with
///   [`select`](Toolkit::select), checked with [`check_tool_count`](Toolkit::check_tool_count).
/// - **Run:** [`respond`](Toolkit::respond) (a whole response), [`StreamTurn`](crate::StreamTurn)
///   (a streamed one), [`execute_calls`](Toolkit::execute_calls) /
///   [`execute_call`](Toolkit::execute_call) (calls read with
///   [`Dialect::parse_calls`](crate::Dialect::parse_calls)), [`execute`](Toolkit::execute) /
///   [`execute_json`](Toolkit::execute_json) (one call by name).
#[derive(Clone, Default)]
pub struct Toolkit {
    tools: Vec<Arc<dyn Tool>>,
    /// The tools' names, in registration order: a small toolkit is searched through these.
    names: Vec<Box<str>>,
    /// Past 8 tools, the index of each name. Hashed with foldhash (already built for
    /// serde_json's `preserve_order`), faster than SipHash on short keys (benches/dispatch.rs);
    /// the names are the application's, so their table cannot be grown by a model's input, and
    /// foldhash's per-process seed keeps them spread anyway.
    by_name: HashMap<String, usize, foldhash::fast::RandomState>,
    limits: Limits,
    rendered: Rendered,
}

impl fmt::Debug for Toolkit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Toolkit")
            .field("tools", &self.names().collect::<Vec<_>>())
            .finish()
    }
}
