//! No schema generation on the execute path (issue 7): a `#[tool]`'s schema is generated at
//! most once per tool type, when it is first asked for (registering it in a toolkit asks),
//! and executing calls, however many and by whichever road, never generates it again.
//!
//! The proof counts: the tool's one parameter has a hand-written `JsonSchema` impl that counts
//! how often schemars asks it for its schema. The counter lives in this test only; the library
//! carries no counter.

use std::borrow::Cow;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::json;
use toolnexus::{tool, Arguments, Dialect, RunOptions, Tool, ToolCall, Toolkit};

static SCHEMAS: AtomicUsize = AtomicUsize::new(0);
static SCHEMAS_UNUSED: AtomicUsize = AtomicUsize::new(0);

/// A city name whose schema generation is counted in `SCHEMAS`.
#[derive(serde::Deserialize)]
struct City(String);

impl schemars::JsonSchema for City {
    fn schema_name() -> Cow<'static, str> {
        "City".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        SCHEMAS.fetch_add(1, Ordering::SeqCst);
        schemars::json_schema!({"type": "string"})
    }
}

/// The same, counted in `SCHEMAS_UNUSED`, for a tool that is executed but never registered.
#[derive(serde::Deserialize)]
struct Town(String);

impl schemars::JsonSchema for Town {
    fn schema_name() -> Cow<'static, str> {
        "Town".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        SCHEMAS_UNUSED.fetch_add(1, Ordering::SeqCst);
        schemars::json_schema!({"type": "string"})
    }
}

/// Weather for a city.
#[tool]
fn weather(city: City, days: Option<u8>) -> String {
    format!("sunny in {} for {}", city.0, days.unwrap_or(1))
}

/// Weather for a town.
#[tool]
fn town_weather(town: Town) -> String {
    format!("rainy in {}", town.0)
}

#[tokio::test]
async fn executing_a_tool_never_generates_its_schema() {
    // Straight through the tool, never registered: no schema is ever generated.
    for _ in 0..10 {
        assert_eq!(
            TownWeather
                .execute_json(r#"{"town":"Bergen"}"#)
                .await
                .output,
            "rainy in Bergen"
        );
        assert_eq!(
            TownWeather.execute(json!({"town": "Cork"})).await.output,
            "rainy in Cork"
        );
        let bad = TownWeather.execute_json(r#"{"town":1}"#).await;
        assert!(bad.is_error);
    }
    assert_eq!(SCHEMAS_UNUSED.load(Ordering::SeqCst), 0);
}

#[tokio::test]
async fn a_registered_tool_generates_its_schema_once() {
    let toolkit = Toolkit::new().with(Weather).unwrap();
    // Registering checks the schema, so it is generated here, once.
    assert_eq!(SCHEMAS.load(Ordering::SeqCst), 1);
    let schema = Weather.input_schema();

    let calls: Vec<ToolCall> = (0..8)
        .map(|i| {
            ToolCall::new(
                format!("call_{i}"),
                "weather",
                Arguments::Text(format!(r#"{{"city":"Oslo","days":{i}}}"#)),
            )
        })
        .collect();
    let response = json!({"candidates": [{"finishReason": "STOP", "content": {"role": "model",
        "parts": [{"functionCall": {"name": "weather", "args": {"city": "Lima"}}}]}}]});
    for _ in 0..10 {
        let text = toolkit
            .execute_json("weather", r#"{"city":"Chennai","days":2}"#)
            .await;
        assert_eq!(text.output, "sunny in Chennai for 2");
        let value = toolkit.execute("weather", json!({"city": "Oslo"})).await;
        assert_eq!(value.output, "sunny in Oslo for 1");
        let bad = toolkit
            .execute_json("weather", r#"{"city":"Oslo","x":1}"#)
            .await;
        assert!(bad.is_error);
        let results = toolkit.execute_calls(&calls, &RunOptions::default()).await;
        assert_eq!(results[7].output, "sunny in Oslo for 7");
        // Strict mode reads the (cached) schema to turn nulls back into absent arguments.
        let strict = RunOptions::default().with_openai_strict(true);
        let results = toolkit.execute_calls(&calls, &strict).await;
        assert_eq!(results[3].output, "sunny in Oslo for 3");
        let rendered = toolkit
            .respond(&response, Dialect::Gemini)
            .await
            .unwrap()
            .result_messages;
        assert_eq!(
            rendered[0]["parts"][0]["functionResponse"]["response"]["output"],
            "sunny in Lima for 1"
        );
    }
    // Rendering request bodies uses the schema prepared at registration too.
    assert_eq!(
        toolkit.to_gemini()[0]["functionDeclarations"][0]["name"],
        "weather"
    );
    assert!(toolkit
        .to_openai_json()
        .get()
        .contains(r#""name":"weather""#));

    assert_eq!(SCHEMAS.load(Ordering::SeqCst), 1);
    assert!(std::ptr::eq(schema, Weather.input_schema()));
}
