//! What the round-trip tests share: the fixtures under `tests/fixtures/roundtrip/` (provider
//! responses shaped as the real APIs return them) and one toolkit whose tools cover every
//! outcome: a typed tool, a plain one, one that fails, one that panics and one that is slow.

#![allow(dead_code)] // each test binary uses its own part

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use serde::Deserialize;
use serde_json::{json, Value};
use toolnexus::{async_trait, InputSchema, NativeTool, Tool, ToolResult, Toolkit};

/// A provider response from `tests/fixtures/roundtrip/NAME.json`.
pub fn fixture(name: &str) -> Value {
    let path = super::root()
        .join("tests/fixtures/roundtrip")
        .join(format!("{name}.json"));
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{} is not JSON: {e}", path.display()))
}

/// How often `get_weather` was entered through each `Tool` method.
#[derive(Debug, Default)]
pub struct Paths {
    /// `execute_json`: arguments as JSON text (OpenAI).
    pub text: AtomicUsize,
    /// `execute`: arguments as a value (Anthropic, Gemini).
    pub value: AtomicUsize,
}

impl Paths {
    pub fn counts(&self) -> (usize, usize) {
        (
            self.text.load(Ordering::SeqCst),
            self.value.load(Ordering::SeqCst),
        )
    }
}

/// A typed tool written by hand the way `#[tool]` expands: it decodes JSON text straight into
/// its argument struct (`execute_json`) and a value through `execute`.
struct Weather {
    schema: InputSchema,
    paths: Arc<Paths>,
}

#[derive(Deserialize)]
struct WeatherArgs {
    city: String,
}

fn report(args: WeatherArgs) -> ToolResult {
    let city = args.city;
    match city.as_str() {
        "Paris" => ToolResult::ok(format!("{city}: 18°C, sunny")),
        "Oslo" => ToolResult::ok(format!("{city}: 4°C, rain")),
        _ => ToolResult::ok(format!("{city}: 21°C, clear")),
    }
}

#[async_trait]
impl Tool for Weather {
    fn name(&self) -> &str {
        "get_weather"
    }
    fn description(&self) -> &str {
        "Current weather for a city"
    }
    fn input_schema(&self) -> &InputSchema {
        &self.schema
    }
    async fn call(&self, _: toolnexus::CallContext, args: toolnexus::CallArgs<'_>) -> ToolResult {
        let decoded = match args {
            toolnexus::CallArgs::Value(args) => {
                self.paths.value.fetch_add(1, Ordering::SeqCst);
                toolnexus::__private::decode_value::<WeatherArgs>("get_weather", args)
            }
            toolnexus::CallArgs::Text(args) => {
                self.paths.text.fetch_add(1, Ordering::SeqCst);
                toolnexus::__private::decode_str::<WeatherArgs>("get_weather", args)
            }
        };
        match decoded {
            Ok(args) => report(args),
            Err(error) => error,
        }
    }
}

fn explode_now() -> String {
    panic!("secret internals: the password is hunter2")
}

/// `get_weather`, `add`, `lookup_order` (always fails), `explode` (panics) and `slow_search`
/// (takes 10 s), and the counter of `get_weather`'s entry points.
pub fn toolkit() -> (Toolkit, Arc<Paths>) {
    let paths = Arc::new(Paths::default());
    let weather = Weather {
        schema: InputSchema::new(json!({
            "type": "object",
            "properties": {"city": {"type": "string"}},
            "required": ["city"]
        }))
        .unwrap(),
        paths: Arc::clone(&paths),
    };
    let add = NativeTool::of(
        "add",
        "Adds two integers",
        json!({"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}}}),
        |args| async move {
            let a = args["a"].as_i64().unwrap_or(0);
            let b = args["b"].as_i64().unwrap_or(0);
            (a + b).to_string()
        },
    )
    .unwrap();
    let lookup_order = NativeTool::of(
        "lookup_order",
        "Finds an order by id",
        json!({"type": "object", "properties": {"order_id": {"type": "string"}}}),
        |args| async move {
            Err::<String, String>(format!(
                "order {} not found",
                args["order_id"].as_str().unwrap_or("?")
            ))
        },
    )
    .unwrap();
    let explode = NativeTool::of(
        "explode",
        "Always panics",
        json!({"type": "object", "properties": {}}),
        |_| async move { explode_now() },
    )
    .unwrap();
    let slow_search = NativeTool::of(
        "slow_search",
        "Searches slowly",
        json!({"type": "object", "properties": {"query": {"type": "string"}}}),
        |_| async move {
            tokio::time::sleep(Duration::from_secs(10)).await;
            "no results"
        },
    )
    .unwrap();
    let toolkit = Toolkit::new()
        .with(weather)
        .unwrap()
        .with(add)
        .unwrap()
        .with(lookup_order)
        .unwrap()
        .with(explode)
        .unwrap()
        .with(slow_search)
        .unwrap();
    (toolkit, paths)
}

/// The `Unknown tool` message for this toolkit.
pub const UNKNOWN_STOCK: &str = "Unknown tool: get_stock_price. Available tools: get_weather, add, lookup_order, explode, slow_search";
/// What the model reads when `explode` panics (the payload is not in it).
pub const PANICKED: &str = "tool `explode` panicked; it could not complete this call";
/// `get_weather` called with `{"city": 42}`.
pub const CITY_42: &str =
    "invalid arguments for `get_weather`: `city`: invalid type: integer `42`, expected a string";
/// `lookup_order`'s error.
pub const ORDER_MISSING: &str = "order A-1001 not found";

/// The answer to arguments sent as the JSON text of an object instead of the object.
pub const DOUBLE_ENCODED: &str = "invalid arguments for `get_weather`: expected a JSON object, got a string that holds the JSON text of one; send the object itself, not a string";
