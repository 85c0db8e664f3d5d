//! Typed answers (issue 27), judged by the providers' official SDK types: every request body
//! that asks for a typed answer (`Output::add_to`, structured output) or for the output tool
//! (`Output::tool` with `Output::require_tool`), in every dialect, for a strict type, a type
//! strict mode cannot take, and Gemini's JSON Schema variant (`tests/sdk/validate_answers.py`,
//! Bedrock through `validate_bedrock.py`); and control cases the validators must refuse.

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::{json, Map, Value};
use toolnexus::{Dialect, Output, Toolkit, ToolsOptions};

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

/// `members` (an object) added to `body`.
fn extend(body: &mut Value, members: Value) {
    let Value::Object(members) = members else {
        unreachable!("members are an object")
    };
    body.as_object_mut().unwrap().extend(members);
}

/// The request bodies of `output` in `dialect`: structured output, and tool mode.
fn bodies<T: serde::de::DeserializeOwned + 'static>(
    output: &Output<T>,
    dialect: Dialect,
) -> [Value; 2] {
    let user = dialect.user_message("Weather in Oslo?");
    let conversation = match dialect {
        Dialect::OpenAiChat | Dialect::Anthropic | Dialect::Bedrock | Dialect::Cohere => {
            json!({"messages": [user]})
        }
        Dialect::OpenAiResponses => json!({"input": [user]}),
        _ => json!({"contents": [user]}),
    };
    let model = match dialect {
        Dialect::OpenAiChat | Dialect::OpenAiResponses => json!({"model": "gpt-4.1"}),
        Dialect::Anthropic => json!({"model": "claude-sonnet-4-5", "max_tokens": 1024}),
        _ => json!({}),
    };
    let mut body = model;
    extend(&mut body, conversation);
    let mut structured = body.clone();
    output.add_to(dialect, &mut structured);

    let tools = Toolkit::new()
        .with(output.tool())
        .unwrap()
        .tools_for(dialect, ToolsOptions::default());
    let mut tool_mode = body;
    let tools = serde_json::to_value(tools).unwrap();
    let member = match dialect {
        Dialect::Bedrock => json!({"toolConfig": {"tools": tools}}),
        _ => json!({"tools": tools}),
    };
    extend(&mut tool_mode, member);
    output.require_tool_in(dialect, &mut tool_mode);
    [structured, tool_mode]
}

fn all_bodies() -> (Map<String, Value>, Vec<Value>) {
    let report = Output::<Report>::new().unwrap();
    let labels = Output::<Labels>::new()
        .unwrap()
        .with_name("labels")
        .unwrap();
    assert!(report.strict_error().is_none());
    assert!(labels.strict_error().is_some());
    let json_schema = Output::<Report>::new().unwrap().with_gemini_json_schema();
    let mut all = Map::new();
    let mut bedrock = Vec::new();
    for (key, dialect) in crate::venv::DIALECTS {
        let mut list: Vec<Value> = Vec::new();
        list.extend(bodies(&report, dialect));
        list.extend(bodies(&labels, dialect));
        if dialect == Dialect::Gemini {
            list.extend(bodies(&json_schema, dialect));
        }
        all.insert(key.to_owned(), Value::Array(list));
    }
    bedrock.extend(bodies(&report, Dialect::Bedrock));
    bedrock.extend(bodies(&labels, Dialect::Bedrock));
    (all, bedrock)
}

#[test]
fn typed_answer_requests_are_accepted_by_every_official_sdk() {
    let (all, _) = all_bodies();
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
        report.contains("22 typed-answer request bodies accepted"),
        "{report}"
    );
}

#[test]
fn typed_answer_requests_are_accepted_by_botocores_model() {
    let (_, requests) = all_bodies();
    let text = r#"{"city":"Oslo","celsius":4,"sky":"Clear","hourly":[],"note":null}"#;
    let cases = json!({
        "requests": requests,
        "responses": [{"stopReason": "end_turn", "output": {"message": {"role": "assistant",
            "content": [{"text": text}]}}, "usage": {"inputTokens": 1, "outputTokens": 1,
            "totalTokens": 2}, "metrics": {"latencyMs": 1}}],
        "stream_events": [{"contentBlockDelta": {"contentBlockIndex": 0, "delta": {"text": text}}}],
    });
    let Some((ok, report)) = crate::venv::verdict(
        "tests/sdk/validate_bedrock.py",
        &cases,
        "typed_bedrock.json",
    ) else {
        return;
    };
    assert!(ok, "botocore refused a typed-answer request:\n{report}");
    assert!(report.contains("4 requests"), "{report}");
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
    let bedrock = json!({
        "requests": [{"messages": [], "outputConfig": {"textFormat": {"type": "json_schema",
            "structure": {"jsonSchema": {"schema": {"type": "object"}}}}}}],
        "responses": [{"stopReason": "end_turn", "output": {"message": {"role": "assistant",
            "content": [{"text": "{}"}]}}, "usage": {"inputTokens": 1, "outputTokens": 1,
            "totalTokens": 2}, "metrics": {"latencyMs": 1}}],
        "stream_events": [{"messageStop": {"stopReason": "end_turn"}}],
    });
    if let Some((ok, report)) = crate::venv::verdict(
        "tests/sdk/validate_bedrock.py",
        &bedrock,
        "typed_bedrock_wrong.json",
    ) {
        assert!(!ok, "{report}");
        assert!(report.contains("requests[0]"), "{report}");
    }
}
