//! Tools -> provider bytes, for 1, 10, 100 and 1000 hand-written tools and for a realistic
//! toolkit of 8 `#[tool]`-declared tools. Each path is measured against the floor that does the
//! same work without the crate:
//! - `render[_declared]/<provider>`, `to_value`: `to_<provider>()` or `tools_for` (a `ToolsArray`) serialized
//!   with `serde_json::to_vec`, against the floor `serde_json::to_vec` of an equal `Value` built
//!   beforehand.
//! - `render_cached[_declared]/<provider>`, `to_json`: the toolkit's cached JSON text
//!   (`tools_json_for(dialect, ToolsOptions::default()) -> &RawValue`) written out with `serde_json::to_vec`, against the
//!   floor `<[u8]>::to_vec` of the same bytes: a copy of bytes against a copy of bytes.
//!
//! Run `scripts/bench.sh` for the ratio table.
//!
//! `RENDER_BENCH_ONLY=setup|floor|to_openai|bytes|to_openai_json:TOOLS:ROUNDS` renders the
//! `TOOLS`-tool OpenAI array (`bytes`, `to_openai_json`: writes its cached text) `ROUNDS` times
//! on one side alone and exits: `scripts/instructions.sh` counts its
//! instructions under callgrind (the work, without the memory layout that wall time also sees).

use criterion::measurement::WallTime;
use criterion::{criterion_group, BenchmarkGroup, BenchmarkId, Criterion};
use serde_json::value::RawValue;
use serde_json::{json, Value};
use std::hint::black_box;
use toolnexus::{Dialect, NativeTool, Toolkit, ToolsArray, ToolsOptions};

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

type Render = fn(&Toolkit) -> ToolsArray;
type RenderJson = fn(&Toolkit) -> &RawValue;

fn anthropic_json(toolkit: &Toolkit) -> &RawValue {
    toolkit.tools_json_for(Dialect::Anthropic, ToolsOptions::default())
}

fn gemini_json(toolkit: &Toolkit) -> &RawValue {
    toolkit.tools_json_for(Dialect::Gemini, ToolsOptions::default())
}

fn bedrock(toolkit: &Toolkit) -> ToolsArray {
    toolkit.tools_for(Dialect::Bedrock, ToolsOptions::default())
}

fn bedrock_json(toolkit: &Toolkit) -> &RawValue {
    toolkit.tools_json_for(Dialect::Bedrock, ToolsOptions::default())
}

/// `to_value` against serializing an equal, already-built `Value`.
fn value_group(
    group: &mut BenchmarkGroup<'_, WallTime>,
    n: usize,
    toolkit: &Toolkit,
    render: Render,
) {
    let built: Vec<Value> = render(toolkit).into();
    assert_eq!(
        serde_json::to_vec(&built).expect("serializes"),
        serde_json::to_vec(&render(toolkit)).expect("serializes")
    );
    group.bench_with_input(BenchmarkId::new("floor", n), &built, |b, built| {
        b.iter(|| serde_json::to_vec(black_box(built)).expect("serializes"))
    });
    group.bench_with_input(BenchmarkId::new("to_value", n), toolkit, |b, toolkit| {
        b.iter(|| serde_json::to_vec(&render(black_box(toolkit))).expect("serializes"))
    });
}

/// `to_json` (the cached text, written verbatim) against a copy of the same bytes.
fn cached_group(
    group: &mut BenchmarkGroup<'_, WallTime>,
    n: usize,
    toolkit: &Toolkit,
    render_json: RenderJson,
) {
    let bytes = render_json(toolkit).get().as_bytes().to_vec();
    assert_eq!(
        serde_json::to_vec(render_json(toolkit)).expect("serializes"),
        bytes
    );
    group.bench_with_input(BenchmarkId::new("floor", n), &bytes[..], |b, bytes| {
        b.iter(|| <[u8]>::to_vec(black_box(bytes)))
    });
    group.bench_with_input(BenchmarkId::new("to_json", n), toolkit, |b, toolkit| {
        b.iter(|| serde_json::to_vec(render_json(black_box(toolkit))).expect("serializes"))
    });
}

/// Both groups of one provider.
fn both_groups(
    c: &mut Criterion,
    prefix: &str,
    provider: &str,
    n: usize,
    toolkit: &Toolkit,
    (render, render_json): (Render, RenderJson),
) {
    let mut group = c.benchmark_group(format!("{prefix}/{provider}"));
    if n >= 1000 {
        // About a millisecond per iteration: fewer samples keep the run short.
        group.sample_size(30);
    }
    value_group(&mut group, n, toolkit, render);
    group.finish();
    let mut group = c.benchmark_group(format!("{prefix}_cached/{provider}"));
    cached_group(&mut group, n, toolkit, render_json);
    group.finish();
}

fn render(c: &mut Criterion) {
    let providers: [(&str, Render, RenderJson); 4] = [
        ("openai", Toolkit::to_openai, Toolkit::to_openai_json),
        ("anthropic", Toolkit::to_anthropic, anthropic_json),
        ("gemini", Toolkit::to_gemini, gemini_json),
        ("bedrock", bedrock, bedrock_json),
    ];
    for n in [1, 10, 100, 1000] {
        let toolkit = toolkit(n);
        // The cached path must write the same bytes as the Value path.
        assert_eq!(
            serde_json::to_vec(toolkit.tools_json_for(Dialect::Gemini, ToolsOptions::default()))
                .expect("serializes"),
            serde_json::to_vec(&toolkit.to_gemini()).expect("serializes")
        );
        for (provider, render, render_json) in providers {
            both_groups(c, "render", provider, n, &toolkit, (render, render_json));
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
    let providers: [(&str, Render, RenderJson); 4] = [
        ("openai", Toolkit::to_openai, Toolkit::to_openai_json),
        ("anthropic", Toolkit::to_anthropic, anthropic_json),
        ("gemini", Toolkit::to_gemini, gemini_json),
        ("bedrock", bedrock, bedrock_json),
    ];
    let toolkit = declared::toolkit();
    for (provider, render, render_json) in providers {
        assert_eq!(
            serde_json::to_vec(render_json(&toolkit)).expect("serializes"),
            serde_json::to_vec(&render(&toolkit)).expect("serializes")
        );
        let n = toolkit.len();
        both_groups(
            c,
            "render_declared",
            provider,
            n,
            &toolkit,
            (render, render_json),
        );
    }
}

/// `RENDER_BENCH_ONLY=SIDE:TOOLS:ROUNDS`: one side alone (see the module docs).
fn only(spec: &str) {
    let mut parts = spec.split(':');
    let side = parts.next().unwrap_or_default();
    let mut number = || -> usize {
        parts
            .next()
            .and_then(|n| n.parse().ok())
            .expect("RENDER_BENCH_ONLY=SIDE:TOOLS:ROUNDS")
    };
    let (tools, rounds) = (number(), number());
    let toolkit = toolkit(tools);
    let built: Value = serde_json::to_value(toolkit.to_openai()).expect("a tools array");
    let bytes = toolkit.to_openai_json().get().as_bytes().to_vec();
    for _ in 0..rounds {
        match side {
            "setup" => {}
            "floor" => drop(black_box(serde_json::to_vec(black_box(&built)))),
            "to_openai" => drop(black_box(serde_json::to_vec(&toolkit.to_openai()))),
            "bytes" => drop(black_box(<[u8]>::to_vec(black_box(&bytes)))),
            "to_openai_json" => drop(black_box(serde_json::to_vec(toolkit.to_openai_json()))),
            _ => panic!("RENDER_BENCH_ONLY: unknown side in {spec:?}"),
        }
    }
}

criterion_group!(benches, render, render_declared);

fn main() {
    if let Ok(spec) = std::env::var("RENDER_BENCH_ONLY") {
        return only(&spec);
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
