//! Tools -> provider bytes, next to its floor: `serde_json::to_vec` of an equal, already-built
//! `Value`, for 1, 10, 100 and 1000 hand-written tools (`render/<provider>`) and for a realistic
//! toolkit of 8 `#[tool]`-declared tools (`render_declared/<provider>`).
//!
//! Two paths are measured:
//! - `to_json`: the request-body path. The toolkit renders each provider's `tools` array to
//!   JSON text once (`Toolkit::to_<provider>_json() -> &RawValue`); a request copies those bytes.
//! - `to_value`: `to_<provider>() -> Vec<Value>` and then serialization. Every call builds a
//!   fresh `Value` tree, cloning each tool's prepared schema (`Value::clone`: an allocation per
//!   key, string and map), which is why it costs a multiple of the floor, which serializes a
//!   tree built beforehand.
//!
//! Run `scripts/bench.sh` for the ratio table.

use criterion::measurement::WallTime;
use criterion::{criterion_group, criterion_main, BenchmarkGroup, BenchmarkId, Criterion};
use serde_json::value::RawValue;
use serde_json::{json, Value};
use std::hint::black_box;
use toolnexus::{NativeTool, Toolkit};

/// A realistic tool: a few typed, documented properties, one nested object, one array.
fn tool(i: usize) -> NativeTool {
    NativeTool::of(
        format!("tool_{i}"),
        format!("Tool number {i}: looks something up and returns a short answer"),
        json!({
            "type": "object",
            "properties": {
                "query": {"type": "string", "description": "What to look up"},
                "limit": {"type": "integer", "minimum": 1, "maximum": 100},
                "filters": {
                    "type": "object",
                    "properties": {"lang": {"type": "string", "enum": ["en", "fr", "de"]}, "since": {"type": "string"}},
                },
                "tags": {"type": "array", "items": {"type": "string"}},
            },
            "required": ["query"],
        }),
        |_| async { "" },
    )
    .expect("valid tool")
}

fn toolkit(n: usize) -> Toolkit {
    let mut toolkit = Toolkit::new();
    for i in 0..n {
        toolkit.add(tool(i)).expect("unique names");
    }
    toolkit
}

type Render = fn(&Toolkit) -> Vec<Value>;
type RenderJson = fn(&Toolkit) -> &RawValue;

/// The three functions of a render group: the floor (serializing the built `Value`), `to_value`
/// and `to_json` (the toolkit's cached JSON, written into the body verbatim).
fn floor_value_json(
    group: &mut BenchmarkGroup<'_, WallTime>,
    n: usize,
    toolkit: &Toolkit,
    render: Render,
    render_json: RenderJson,
) {
    let built = render(toolkit);
    group.bench_with_input(BenchmarkId::new("floor", n), &built, |b, built| {
        b.iter(|| serde_json::to_vec(black_box(built)).expect("serializes"))
    });
    group.bench_with_input(BenchmarkId::new("to_value", n), toolkit, |b, toolkit| {
        b.iter(|| serde_json::to_vec(&render(black_box(toolkit))).expect("serializes"))
    });
    group.bench_with_input(BenchmarkId::new("to_json", n), toolkit, |b, toolkit| {
        b.iter(|| serde_json::to_vec(render_json(black_box(toolkit))).expect("serializes"))
    });
}

fn render(c: &mut Criterion) {
    let providers: [(&str, Render, RenderJson); 3] = [
        ("openai", Toolkit::to_openai, Toolkit::to_openai_json),
        (
            "anthropic",
            Toolkit::to_anthropic,
            Toolkit::to_anthropic_json,
        ),
        ("gemini", Toolkit::to_gemini, Toolkit::to_gemini_json),
    ];
    for n in [1, 10, 100, 1000] {
        let toolkit = toolkit(n);
        // The cached path must write the same bytes as the Value path.
        assert_eq!(
            serde_json::to_vec(toolkit.to_gemini_json()).expect("serializes"),
            serde_json::to_vec(&toolkit.to_gemini()).expect("serializes")
        );
        for (provider, render, render_json) in providers {
            let mut group = c.benchmark_group(format!("render/{provider}"));
            if n >= 1000 {
                // About a millisecond per iteration: fewer samples keep the run short.
                group.sample_size(30);
            }
            floor_value_json(&mut group, n, &toolkit, render, render_json);
            group.finish();
        }
    }
}

/// A realistic set of `#[tool]`-declared tools: schemas as schemars generates them (nested
/// structs, enums, options, arrays, integer formats and bounds, descriptions).
mod declared {
    use serde::Deserialize;
    use toolnexus::{tool, Toolkit};

    /// Unit system.
    #[derive(Deserialize, schemars::JsonSchema)]
    #[serde(rename_all = "lowercase")]
    pub enum Units {
        /// Celsius, km/h.
        Metric,
        /// Fahrenheit, mph.
        Imperial,
    }

    /// A postal address.
    #[derive(Deserialize, schemars::JsonSchema)]
    pub struct Address {
        /// Street and number.
        pub street: String,
        /// City name.
        pub city: String,
        /// ISO 3166-1 alpha-2 country code.
        pub country: Option<String>,
    }

    /// Sort order.
    #[derive(Deserialize, schemars::JsonSchema)]
    pub enum Order {
        /// Oldest first.
        Ascending,
        /// Newest first.
        Descending,
    }

    /// Weather forecast for a city.
    #[tool]
    pub async fn get_weather(
        /// The city, in English.
        city: String,
        /// Days ahead, 1 to 14.
        days: u8,
        /// Unit system; metric when absent.
        units: Option<Units>,
    ) -> String {
        format!("{city} {days} {}", units.is_some())
    }

    /// Search the documentation and return the best matching pages.
    #[tool]
    pub async fn search_docs(
        /// What to look for.
        query: String,
        /// At most this many hits.
        limit: Option<u32>,
        /// Only pages with all of these tags.
        tags: Vec<String>,
    ) -> String {
        format!("{query} {limit:?} {}", tags.len())
    }

    /// Ship a parcel to an address.
    #[tool]
    pub fn ship_parcel(
        /// Where to.
        to: Address,
        /// Weight in grams.
        grams: u32,
        /// Insured value in cents, if any.
        insured_cents: Option<u64>,
    ) -> String {
        format!(
            "{}, {} {:?}: {grams} g, {insured_cents:?}",
            to.street, to.city, to.country
        )
    }

    /// List the user's recent orders.
    #[tool]
    pub fn list_orders(
        /// Sort order; newest first when absent.
        order: Option<Order>,
        /// Page number, from 1.
        page: Option<u16>,
    ) -> String {
        format!("{} {page:?}", order.is_some())
    }

    /// Convert an amount between currencies at today's rate.
    #[tool]
    pub fn convert_currency(
        /// The amount.
        amount: f64,
        /// ISO 4217 code to convert from.
        from: String,
        /// ISO 4217 code to convert to.
        to: String,
    ) -> String {
        format!("{amount} {from} {to}")
    }

    /// Create a calendar event.
    #[tool]
    pub async fn create_event(
        /// Event title.
        title: String,
        /// Start, RFC 3339.
        start: String,
        /// Duration in minutes.
        minutes: u32,
        /// Email addresses of the attendees.
        attendees: Option<Vec<String>>,
    ) -> String {
        format!("{title} {start} {minutes} {attendees:?}")
    }

    /// The current time in a time zone.
    #[tool]
    pub fn current_time(
        /// IANA time zone name, e.g. `Europe/Paris`; UTC when absent.
        zone: Option<String>,
    ) -> String {
        format!("{zone:?}")
    }

    /// Health check.
    #[tool]
    pub fn ping() -> &'static str {
        "pong"
    }

    /// The toolkit of all of them.
    pub fn toolkit() -> Toolkit {
        Toolkit::new()
            .with(GetWeather)
            .and_then(|t| t.with(SearchDocs))
            .and_then(|t| t.with(ShipParcel))
            .and_then(|t| t.with(ListOrders))
            .and_then(|t| t.with(ConvertCurrency))
            .and_then(|t| t.with(CreateEvent))
            .and_then(|t| t.with(CurrentTime))
            .and_then(|t| t.with(Ping))
            .expect("valid, unique tools")
    }
}

/// The same three paths for the `#[tool]`-declared toolkit (8 tools).
fn render_declared(c: &mut Criterion) {
    let providers: [(&str, Render, RenderJson); 3] = [
        ("openai", Toolkit::to_openai, Toolkit::to_openai_json),
        (
            "anthropic",
            Toolkit::to_anthropic,
            Toolkit::to_anthropic_json,
        ),
        ("gemini", Toolkit::to_gemini, Toolkit::to_gemini_json),
    ];
    let toolkit = declared::toolkit();
    for (provider, render, render_json) in providers {
        assert_eq!(
            serde_json::to_vec(render_json(&toolkit)).expect("serializes"),
            serde_json::to_vec(&render(&toolkit)).expect("serializes")
        );
        let mut group = c.benchmark_group(format!("render_declared/{provider}"));
        let n = toolkit.len();
        floor_value_json(&mut group, n, &toolkit, render, render_json);
        group.finish();
    }
}

criterion_group!(benches, render, render_declared);
criterion_main!(benches);
