//! What the reliability tests share: a typed tool written the way `#[tool]` expands, and the
//! whole round trip of a response body through a toolkit, read back with the dialect's fixture
//! (`tests/common/dialects`, which builds realistic provider responses around any arguments,
//! including text that is not JSON, and reads rendered results back as answers).

#![allow(dead_code)] // each test binary uses its own part

use std::marker::PhantomData;

use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use toolnexus::{async_trait, Dialect, InputSchema, RunOptions, Tool, ToolResult, Toolkit};

pub use crate::common::dialects::{self, Answer, Fixture, Stop, WireCall};

/// The typed weather tool's unit, as a `#[tool]` parameter type would declare it.
#[derive(serde::Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Unit {
    Celsius,
    Fahrenheit,
}

/// The typed weather tool's arguments (`deny_unknown_fields`, as `#[tool]` generates them).
#[derive(serde::Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WeatherArgs {
    pub city: String,
    pub days: u8,
    #[serde(default)]
    pub unit: Option<Unit>,
}

/// The typed weather tool's answer: `CITY: N days` and the unit, when one was sent.
pub fn weather(args: WeatherArgs) -> ToolResult {
    let unit = match args.unit {
        None => "",
        Some(Unit::Celsius) => " in celsius",
        Some(Unit::Fahrenheit) => " in fahrenheit",
    };
    ToolResult::ok(format!("{}: {} days{unit}", args.city, args.days))
}

/// A tool over an argument type `A`, shaped like `#[tool]`'s expansion: JSON text is decoded
/// straight into `A` with `decode_str`, a value with `decode_value`; `run` makes the result.
pub struct Typed<A> {
    name: &'static str,
    schema: InputSchema,
    run: fn(A) -> ToolResult,
    _args: PhantomData<fn() -> A>,
}

impl<A: JsonSchema + DeserializeOwned> Typed<A> {
    /// A typed tool whose schema is `A`'s, as `InputSchema::of` builds it.
    pub fn new(name: &'static str, run: fn(A) -> ToolResult) -> Self {
        Self {
            name,
            schema: InputSchema::of::<A>().expect("the argument type has an object schema"),
            run,
            _args: PhantomData,
        }
    }
}

#[async_trait]
impl<A: DeserializeOwned + 'static> Tool for Typed<A> {
    fn name(&self) -> &str {
        self.name
    }
    fn description(&self) -> &str {
        "A typed test tool"
    }
    fn input_schema(&self) -> &InputSchema {
        &self.schema
    }
    async fn call(&self, _: toolnexus::CallContext, args: toolnexus::CallArgs<'_>) -> ToolResult {
        let decoded = match args {
            toolnexus::CallArgs::Value(args) => {
                toolnexus::__private::decode_value::<A>(self.name, args)
            }
            toolnexus::CallArgs::Text(args) => {
                toolnexus::__private::decode_str::<A>(self.name, args)
            }
        };
        match decoded {
            Ok(args) => (self.run)(args),
            Err(refused) => refused,
        }
    }
}

/// The whole round trip from a body's text: parse, read the calls, run them, render, read the
/// answers back with `fixture`; also checks that the model's turn can be repeated. `Err` is the
/// [`toolnexus::ResponseError`] text.
pub async fn round_trip(
    toolkit: &Toolkit,
    fixture: &dyn Fixture,
    body: &str,
    options: &RunOptions,
) -> Result<Vec<Answer>, String> {
    let dialect = fixture.dialect();
    let response = dialect.parse_body(body).map_err(|e| e.to_string())?;
    let calls = dialect.parse_calls(&response).map_err(|e| e.to_string())?;
    let whole = toolkit
        .respond_with(&response, dialect, options)
        .await
        .map_err(|e| e.to_string())?;
    let turn = dialect.model_turn(&response).map_err(|e| e.to_string())?;
    // One reading of the response gives what the separate readers give.
    assert_eq!(whole.model_turn, turn);
    assert_eq!(whole.calls.len(), calls.len());
    assert_eq!(whole.results.len(), calls.len());
    let rendered = whole.result_messages;
    assert!(!turn.is_empty() || dialect == Dialect::OpenAiResponses);
    let answers = fixture.answers(&rendered);
    assert_eq!(answers.len(), calls.len(), "one answer per call");
    for (call, answer) in calls.iter().zip(&answers) {
        assert_eq!(
            answer.id.as_deref().or(Some("")),
            call.id.as_deref().or(Some("")),
            "answers keep call order"
        );
    }
    Ok(answers)
}
