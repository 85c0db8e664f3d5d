//! `#[tool]` schemas, as exact JSON: what each kind of signature puts in front of the model.
//! Properties and `required` follow declaration order; `"additionalProperties": false` agrees
//! with the generated decoder, which refuses unknown fields.

use schemars::JsonSchema;
use serde::Deserialize;
use toolnexus::{tool, Tool, ToolArgs, ToolSource};

fn schema(tool: &dyn Tool) -> String {
    serde_json::to_string(tool.input_schema().as_value()).unwrap()
}

/// Greet someone.
#[tool]
fn greet(name: String) -> String {
    format!("hi {name}")
}

#[test]
fn one_string() {
    assert_eq!(
        schema(&Greet),
        r#"{"type":"object","properties":{"name":{"type":"string"}},"required":["name"],"additionalProperties":false}"#
    );
}

/// Add two numbers.
#[tool]
fn add(a: i64, b: f64) -> f64 {
    a as f64 + b
}

#[test]
fn integers_are_integer_and_floats_number() {
    assert_eq!(
        schema(&Add),
        r#"{"type":"object","properties":{"a":{"type":"integer","format":"int64"},"b":{"type":"number","format":"double"}},"required":["a","b"],"additionalProperties":false}"#
    );
}

/// Current weather for a city.
///
/// Uses the   nearest station.
#[tool]
async fn get_weather(
    /// The city,
    /// in English.
    city: String,
    /// How many days ahead (default 1).
    days: Option<u8>,
) -> String {
    format!("{city} {days:?}")
}

#[test]
fn docs_and_optional_parameters() {
    assert_eq!(
        GetWeather.description(),
        "Current weather for a city.\n\nUses the   nearest station."
    );
    assert_eq!(
        schema(&GetWeather),
        r#"{"type":"object","properties":{"city":{"type":"string","description":"The city, in English."},"days":{"type":["integer","null"],"format":"uint8","minimum":0,"maximum":255,"description":"How many days ahead (default 1)."}},"required":["city"],"additionalProperties":false}"#
    );
}

/// Does nothing but answer.
#[tool]
fn ping() -> &'static str {
    "pong"
}

#[test]
fn zero_parameters() {
    assert_eq!(
        schema(&Ping),
        r#"{"type":"object","properties":{},"additionalProperties":false}"#
    );
}

/// Sum a list.
#[tool]
fn sum(values: Vec<i32>, labels: Vec<String>) -> i64 {
    let _ = labels;
    values.iter().map(|v| i64::from(*v)).sum()
}

#[test]
fn vectors() {
    assert_eq!(
        schema(&Sum),
        r#"{"type":"object","properties":{"values":{"type":"array","items":{"type":"integer","format":"int32"}},"labels":{"type":"array","items":{"type":"string"}}},"required":["values","labels"],"additionalProperties":false}"#
    );
}

/// A place on Earth.
#[derive(Deserialize, JsonSchema)]
struct Place {
    /// Degrees north.
    lat: f64,
    /// Degrees east.
    lon: f64,
}

/// A temperature unit.
#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Unit {
    Celsius,
    Fahrenheit,
}

/// Weather at a place.
#[tool]
fn weather_at(place: Place, unit: Unit) -> String {
    let u = match unit {
        Unit::Celsius => "C",
        Unit::Fahrenheit => "F",
    };
    format!("{} {} {u}", place.lat, place.lon)
}

#[test]
fn nested_struct_and_unit_enum() {
    assert_eq!(
        schema(&WeatherAt),
        r#"{"type":"object","properties":{"place":{"type":"object","properties":{"lat":{"type":"number","format":"double","description":"Degrees north."},"lon":{"type":"number","format":"double","description":"Degrees east."}},"required":["lat","lon"],"description":"A place on Earth."},"unit":{"type":"string","enum":["celsius","fahrenheit"],"description":"A temperature unit."}},"required":["place","unit"],"additionalProperties":false}"#
    );
}

/// A search request.
#[derive(Deserialize, JsonSchema, ToolArgs)]
#[serde(deny_unknown_fields)]
struct SearchRequest {
    /// What to look for.
    query: String,
    /// At most this many hits.
    #[serde(default)]
    limit: u32,
}

/// Search the docs.
#[tool]
fn search(#[args] request: SearchRequest) -> String {
    format!("{} {}", request.query, request.limit)
}

#[test]
fn whole_argument_object() {
    // The struct is the schema: its own docs (the root description), serde attributes
    // (`default`, `deny_unknown_fields`) and field docs all come through schemars.
    assert_eq!(
        schema(&Search),
        r#"{"type":"object","properties":{"query":{"type":"string","description":"What to look for."},"limit":{"type":"integer","format":"uint32","minimum":0,"description":"At most this many hits.","default":0}},"required":["query"],"description":"A search request.","additionalProperties":false}"#
    );
}

/// Ignored: the attribute wins.
#[tool(name = "lookup-user", description = "Find a user by id.")]
fn find_user(#[state] prefix: &String, id: u64) -> String {
    format!("{prefix}{id}")
}

#[test]
fn overrides_and_state_outside_the_schema() {
    let tool = FindUser {
        prefix: "user-".into(),
    };
    assert_eq!(tool.name(), "lookup-user");
    assert_eq!(tool.description(), "Find a user by id.");
    assert_eq!(tool.source(), ToolSource::Native);
    assert_eq!(
        schema(&tool),
        r#"{"type":"object","properties":{"id":{"type":"integer","format":"uint64","minimum":0}},"required":["id"],"additionalProperties":false}"#
    );
}

/// A raw identifier keeps its plain name.
#[tool]
fn r#match(r#type: String, tuple: (i32, bool)) -> String {
    format!("{type} {tuple:?}", type = r#type)
}

#[test]
fn raw_identifiers_and_tuples() {
    assert_eq!(Match.name(), "match");
    assert_eq!(
        schema(&Match),
        r#"{"type":"object","properties":{"type":{"type":"string"},"tuple":{"type":"array","prefixItems":[{"type":"integer","format":"int32"},{"type":"boolean"}],"minItems":2,"maxItems":2}},"required":["type","tuple"],"additionalProperties":false}"#
    );
}

/// Toggle a flag.
#[tool]
fn toggle(on: bool, note: Option<Option<String>>) -> bool {
    let _ = note;
    !on
}

#[test]
fn booleans_and_nested_options() {
    assert_eq!(
        schema(&Toggle),
        r#"{"type":"object","properties":{"on":{"type":"boolean"},"note":{"type":["string","null"]}},"required":["on"],"additionalProperties":false}"#
    );
}

#[test]
fn schema_is_computed_once_per_tool() {
    // `input_schema()` hands out the same value every time: it is built on first use (a
    // `static OnceLock` in the generated impl) and never again.
    assert!(std::ptr::eq(
        GetWeather.input_schema(),
        GetWeather.input_schema()
    ));
    let a = FindUser { prefix: "a".into() };
    let b = FindUser { prefix: "b".into() };
    assert!(std::ptr::eq(a.input_schema(), b.input_schema()));
}

#[test]
fn adapters_carry_the_generated_schema() {
    let toolkit = toolnexus::Toolkit::new()
        .with(Ping)
        .unwrap()
        .with(Greet)
        .unwrap();
    assert_eq!(
        serde_json::to_string(&toolkit.to_anthropic()).unwrap(),
        r#"[{"name":"ping","description":"Does nothing but answer.","input_schema":{"type":"object","properties":{},"additionalProperties":false}},{"name":"greet","description":"Greet someone.","input_schema":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"],"additionalProperties":false}}]"#
    );
}
