//! Output schemas: a `#[tool]` returning `Json<T>` (or a `Result` of one, through an alias too)
//! with `T: Serialize + JsonSchema` gets `Tool::output_schema()` from `T`, and its results carry
//! the value as `metadata.structuredContent` next to the same JSON text; every other return
//! type keeps no output schema and converts as before.

use std::collections::BTreeMap;

use serde_json::json;
use toolnexus::{tool, Json, Tool};

#[derive(serde::Serialize, schemars::JsonSchema)]
struct Weather {
    /// The city.
    city: String,
    celsius: f64,
    warning: Option<String>,
}

/// The weather.
#[tool]
async fn forecast(city: String) -> Json<Weather> {
    Json(Weather {
        city,
        celsius: 21.0,
        warning: None,
    })
}

type Answer = Result<Json<Weather>, std::io::Error>;

/// The weather, or why not.
#[tool]
fn maybe_forecast(city: String) -> Answer {
    if city.is_empty() {
        return Err(std::io::Error::other("no city"));
    }
    Ok(Json(Weather {
        city,
        celsius: 5.5,
        warning: Some("ice".into()),
    }))
}

/// Counts by key: a map is an object too.
#[tool]
fn counts() -> Json<BTreeMap<String, u32>> {
    Json(BTreeMap::from([("a".to_owned(), 1)]))
}

/// A list has no object schema: no output schema, plain JSON text.
#[tool]
fn numbers() -> Json<Vec<u8>> {
    Json(vec![1, 2])
}

#[derive(serde::Serialize)]
struct NoSchema {
    n: u8,
}

/// Serializable without a schema.
#[tool]
fn plain() -> Json<NoSchema> {
    Json(NoSchema { n: 1 })
}

/// Text.
#[tool]
fn text() -> String {
    "hi".into()
}

#[tokio::test]
async fn json_of_a_schema_type_gives_the_output_schema_and_a_structured_result() {
    let schema = Forecast.output_schema().unwrap();
    assert_eq!(
        schema,
        &json!({
            "type": "object",
            "properties": {
                "city": {"description": "The city.", "type": "string"},
                "celsius": {"type": "number", "format": "double"},
                "warning": {"type": ["string", "null"]},
            },
            "required": ["city", "celsius"],
        })
    );
    let result = Forecast.execute(json!({"city": "Oslo"})).await;
    assert_eq!(
        result.output,
        r#"{"city":"Oslo","celsius":21.0,"warning":null}"#
    );
    assert_eq!(
        *result.metadata.unwrap(),
        json!({"structuredContent": {"city": "Oslo", "celsius": 21.0, "warning": null}})
    );
}

#[tokio::test]
async fn a_result_of_json_through_an_alias_has_it_too_and_its_error_carries_none() {
    assert_eq!(MaybeForecast.output_schema(), Forecast.output_schema());
    let ok = MaybeForecast.execute(json!({"city": "Riga"})).await;
    assert_eq!(ok.metadata.unwrap()["structuredContent"]["warning"], "ice");
    let failed = MaybeForecast.execute(json!({"city": ""})).await;
    assert!(failed.is_error);
    assert_eq!(failed.output, "no city");
    assert_eq!(failed.metadata, None);
}

#[tokio::test]
async fn other_return_types_have_no_output_schema_and_convert_as_before() {
    assert_eq!(
        Counts.output_schema().unwrap()["additionalProperties"]["type"],
        "integer"
    );
    for tool in [&Numbers as &dyn Tool, &Plain, &Text] {
        assert_eq!(tool.output_schema(), None, "{}", tool.name());
    }
    let numbers = Numbers.execute(json!({})).await;
    assert_eq!((numbers.output.as_str(), numbers.metadata), ("[1,2]", None));
    let plain = Plain.execute(json!({})).await;
    assert_eq!(
        (plain.output.as_str(), plain.metadata),
        (r#"{"n":1}"#, None)
    );
}
