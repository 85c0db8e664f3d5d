//! Tools and provider responses shared by the call benches (`dispatch`, `turn`, `respond`),
//! each with the hand-written code that is its floor: what an application that wrote its own
//! dispatcher would have to run anyway.
#![allow(dead_code)] // each bench binary uses part of this module

use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};
use toolnexus::{tool, Toolkit};

/// Unit system of a forecast.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Units {
    /// Celsius, km/h.
    Metric,
    /// Fahrenheit, mph.
    Imperial,
}

/// What `get_weather` returns; a tool encodes it as JSON text.
#[derive(Debug, Serialize)]
pub struct Forecast {
    pub city: String,
    pub days: u8,
    pub units: Units,
    pub high: f64,
    pub summary: &'static str,
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
) -> Forecast {
    let units = units.unwrap_or(Units::Metric);
    let high = match units {
        Units::Metric => 21.5 + f64::from(days),
        Units::Imperial => 70.7 + f64::from(days),
    };
    Forecast {
        city,
        days,
        units,
        high,
        summary: "sunny",
    }
}

/// The argument struct a hand-written dispatcher would declare for `get_weather`: the same
/// fields, and unknown fields refused as `#[tool]` does.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WeatherArgs {
    pub city: String,
    pub days: u8,
    pub units: Option<Units>,
}

/// Arguments as OpenAI sends them (JSON text).
pub const WEATHER_ARGS: &str = r#"{"city":"Chennai","days":3,"units":"metric"}"#;

/// Floor of one dispatch from text: decode, call, encode the output.
pub async fn floor_from_str(text: &str) -> String {
    match serde_json::from_str::<WeatherArgs>(text) {
        Ok(a) => encode(&get_weather(a.city, a.days, a.units).await),
        Err(e) => e.to_string(),
    }
}

/// Floor of one dispatch from a value (Anthropic, Gemini): decode, call, encode the output.
pub async fn floor_from_value(value: Value) -> String {
    match serde_json::from_value::<WeatherArgs>(value) {
        Ok(a) => encode(&get_weather(a.city, a.days, a.units).await),
        Err(e) => e.to_string(),
    }
}

fn encode(forecast: &Forecast) -> String {
    serde_json::to_string(forecast).unwrap_or_default()
}

/// Yields to the runtime once, then echoes `n`.
#[tool]
pub async fn yielding(
    /// Any number.
    n: u32,
) -> String {
    tokio::task::yield_now().await;
    n.to_string()
}

/// Adds two numbers.
#[tool]
pub fn add(
    /// The first term.
    a: i64,
    /// The second term.
    b: i64,
) -> i64 {
    a + b
}

/// The toolkit every call bench dispatches into.
pub fn toolkit() -> Toolkit {
    Toolkit::new()
        .with(GetWeather)
        .and_then(|t| t.with(Yielding))
        .and_then(|t| t.with(Add))
        .expect("valid, unique tools")
}

/// The cities of the 8 calls of one response.
const CITIES: [&str; 8] = [
    "Chennai", "Oslo", "Lima", "Nairobi", "Kyoto", "Québec", "Perth", "Tromsø",
];

/// An OpenAI Chat Completions response with 8 `get_weather` calls.
pub fn openai_chat_response() -> Value {
    let calls: Vec<Value> = CITIES
        .iter()
        .enumerate()
        .map(|(i, city)| {
            json!({"id": format!("call_{i:024}"), "type": "function", "function": {
                "name": "get_weather",
                "arguments": json!({"city": city, "days": i + 1, "units": "metric"}).to_string()}})
        })
        .collect();
    json!({"id": "chatcmpl-123", "object": "chat.completion", "model": "gpt-4o", "choices": [{
        "index": 0, "finish_reason": "tool_calls", "logprobs": null,
        "message": {"role": "assistant", "content": null, "refusal": null, "tool_calls": calls}}],
        "usage": {"prompt_tokens": 120, "completion_tokens": 160, "total_tokens": 280}})
}

/// A Gemini generateContent response with 8 `get_weather` calls.
pub fn gemini_response() -> Value {
    let parts: Vec<Value> = CITIES
        .iter()
        .enumerate()
        .map(|(i, city)| {
            json!({"functionCall": {"name": "get_weather",
                "args": {"city": city, "days": i + 1, "units": "metric"}}})
        })
        .collect();
    json!({"candidates": [{"content": {"role": "model", "parts": parts}, "finishReason": "STOP",
        "index": 0}], "usageMetadata": {"promptTokenCount": 120, "candidatesTokenCount": 160},
        "modelVersion": "gemini-2.5-flash"})
}

/// The floor of answering an OpenAI Chat response: walk the value to the calls, decode each
/// call's text, call the fn, and build one tool message per call.
pub async fn floor_openai_chat(response: &Value) -> Vec<Value> {
    let calls = response["choices"][0]["message"]["tool_calls"]
        .as_array()
        .map_or(&[][..], Vec::as_slice);
    let mut messages = Vec::with_capacity(calls.len());
    for call in calls {
        let function = &call["function"];
        let content = match function["name"].as_str() {
            Some("get_weather") => {
                floor_from_str(function["arguments"].as_str().unwrap_or("{}")).await
            }
            _ => "Unknown tool".to_owned(),
        };
        let mut message = Map::with_capacity(3);
        message.insert("role".into(), "tool".into());
        message.insert(
            "tool_call_id".into(),
            call["id"].as_str().unwrap_or_default().into(),
        );
        message.insert("content".into(), content.into());
        messages.push(Value::Object(message));
    }
    messages
}

/// The floor of answering a Gemini response: walk the value to the calls, decode each call's
/// `args` from a clone, call the fn, and build one user content of `functionResponse` parts.
pub async fn floor_gemini(response: &Value) -> Vec<Value> {
    let parts_in = response["candidates"][0]["content"]["parts"]
        .as_array()
        .map_or(&[][..], Vec::as_slice);
    let mut parts = Vec::with_capacity(parts_in.len());
    for part in parts_in {
        let Some(call) = part.get("functionCall") else {
            continue;
        };
        let name = call["name"].as_str().unwrap_or_default();
        let output = match name {
            "get_weather" => floor_from_value(call["args"].clone()).await,
            _ => "Unknown tool".to_owned(),
        };
        let mut response = Map::with_capacity(1);
        response.insert("output".into(), output.into());
        let mut function_response = Map::with_capacity(2);
        function_response.insert("name".into(), name.into());
        function_response.insert("response".into(), Value::Object(response));
        let mut part = Map::with_capacity(1);
        part.insert("functionResponse".into(), Value::Object(function_response));
        parts.push(Value::Object(part));
    }
    let mut content = Map::with_capacity(2);
    content.insert("role".into(), "user".into());
    content.insert("parts".into(), Value::Array(parts));
    vec![Value::Object(content)]
}

/// A current-thread Tokio runtime with the timer on: every async bench and its floor run on it.
pub fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .expect("a Tokio runtime")
}
