//! Typed answers (issue 27), judged by the providers' official SDK types: every request body
//! that asks for a typed answer (`Output::add_to`, structured output) or for the output tool
//! (`Output::tool` with `ToolChoice::required`), in every dialect, for a strict type, a type
//! strict mode cannot take, and Gemini's JSON Schema variant (`tests/sdk/validate_answers.py`,
//! Bedrock through `validate_bedrock.py`); and control cases the validators must refuse.

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::{json, Map, Value};
use toolnexus::{Dialect, Output, ToolChoice, Toolkit, ToolsOptions};

use crate::common::dialects::{self, Fixture};

/// A weather report.
#[derive(Deserialize, schemars::JsonSchema)]
#[allow(dead_code)]
struct Report {
    /// The city.
    city: String,
    celsius: i32,
    sky: Sky,
    hourly: Vec<Hour>,
    note: Option<String>,
}

#[derive(Deserialize, schemars::JsonSchema)]
#[allow(dead_code)]
enum Sky {
    Clear,
    Cloudy,
    Rain,
}

#[derive(Deserialize, schemars::JsonSchema)]
#[allow(dead_code)]
struct Hour {
    hour: u8,
    celsius: f64,
}

/// Free-form labels: a map, which strict mode cannot take.
#[derive(Deserialize, schemars::JsonSchema)]
#[allow(dead_code)]
struct Labels {
    labels: BTreeMap<String, String>,
}

/// The request bodies of `output` in `fixture`'s dialect: structured output, and tool mode.
fn bodies<T: serde::de::DeserializeOwned + 'static>(
    output: &Output<T>,
    fixture: &dyn Fixture,
) -> [Value; 2] {
    let dialect = fixture.dialect();
    let user = dialect.user_message("Weather in Oslo?");
    let mut structured = fixture.request(vec![user.clone()], None);
    output.add_to(dialect, &mut structured);

    let tools = Toolkit::new()
        .with(output.tool())
        .unwrap()
        .tools_for(dialect, ToolsOptions::default());
    let tools = serde_json::to_value(tools).unwrap();
    let mut tool_mode = fixture.request(vec![user], Some(tools));
    ToolChoice::required()
        .add_to(dialect, &mut tool_mode)
        .unwrap();
    [structured, tool_mode]
}

/// Every typed-answer body of `fixture`: a strict type and one strict mode cannot take, each
/// in both modes, and Gemini's JSON Schema variant (an option of Gemini alone).
fn all_bodies(fixture: &dyn Fixture) -> Vec<Value> {
    let report = Output::<Report>::new().unwrap();
    let labels = Output::<Labels>::new()
        .unwrap()
        .with_name("labels")
        .unwrap();
    assert!(report.strict_error().is_none());
    assert!(labels.strict_error().is_some());
    let mut list: Vec<Value> = Vec::new();
    list.extend(bodies(&report, fixture));
    list.extend(bodies(&labels, fixture));
    if fixture.dialect() == Dialect::Gemini {
        let json_schema = Output::<Report>::new().unwrap().with_gemini_json_schema();
        list.extend(bodies(&json_schema, fixture));
    }
    list
}

#[test]
fn typed_answer_requests_are_accepted_by_every_official_sdk() {
    let all: Map<String, Value> = crate::venv::keyed()
        .map(|f| (f.sdk().key.to_owned(), Value::Array(all_bodies(f))))
        .collect();
    let count: usize = all.values().map(|l| l.as_array().unwrap().len()).sum();
    assert_eq!(
        count,
        4 * all.len() + 2,
        "four bodies a dialect, two more for Gemini"
    );
    let Some((ok, report)) = crate::venv::verdict(
        "tests/sdk/validate_answers.py",
        &Value::Object(all),
        "typed_answers.json",
    ) else {
        return;
    };
    assert!(
        ok,
        "the SDK types refused a typed-answer request:\n{report}"
    );
    assert!(
        report.contains(&format!("{count} typed-answer request bodies accepted")),
        "{report}"
    );
}

#[test]
fn typed_answer_requests_are_accepted_by_the_dialects_own_validators() {
    for (fixture, script) in crate::venv::validated_alone() {
        let requests = all_bodies(fixture);
        let file = format!("typed_{}.json", fixture.sdk().key);
        let Some((ok, report)) =
            crate::venv::validate_alone(fixture, script, &requests, None, &file)
        else {
            return;
        };
        assert!(ok, "{script} refused a typed-answer request:\n{report}");
        assert!(
            report.contains(&format!("{} requests", requests.len())),
            "{report}"
        );
    }
}

/// The validators refuse what the providers would: a format type that does not exist, a
/// member in the wrong place, a Gemini schema key the OpenAPI subset lacks, Bedrock's schema as
/// an object instead of its JSON text.
#[test]
fn the_typed_answer_validators_refuse_what_the_providers_would() {
    let wrong = json!({
        "openai_chat": [{"model": "m", "messages": [], "response_format": {"type": "json_schema",
            "schema": {"type": "object"}}}],
        "openai_responses": [{"model": "m", "input": [], "text": {"format": {"type": "json",
            "name": "x", "schema": {}}}}],
        "anthropic": [{"model": "m", "max_tokens": 1, "messages": [], "output_format": {"type":
            "json"}}],
        "gemini": [{"contents": [], "generationConfig": {"responseMimeType": "application/json",
            "responseSchema": {"type": "object", "properties": {"a": {"const": 1}}}}}],
        "cohere": [{"messages": [], "response_format": {"type": "json_schema",
            "json_schema": {"type": "object"}}}],
    });
    if let Some((ok, report)) = crate::venv::verdict(
        "tests/sdk/validate_answers.py",
        &wrong,
        "typed_answers_wrong.json",
    ) {
        assert!(!ok, "{report}");
        for dialect in [
            "openai_chat[0]",
            "openai_responses[0]",
            "anthropic[0]",
            "gemini[0]",
            "cohere[0]",
        ] {
            assert!(report.contains(dialect), "{dialect} not refused:\n{report}");
        }
    }
    // Bedrock's schema is JSON text.
    let bedrock = dialects::of(Dialect::Bedrock);
    let wrong = json!({"messages": [], "outputConfig": {"textFormat": {"type": "json_schema",
        "structure": {"jsonSchema": {"schema": {"type": "object"}}}}}});
    let script = crate::venv::bodies(bedrock);
    if let Some((ok, report)) =
        crate::venv::validate_alone(bedrock, script, &[wrong], None, "typed_bedrock_wrong.json")
    {
        assert!(!ok, "{report}");
        assert!(report.contains("requests[0]"), "{report}");
    }
}
