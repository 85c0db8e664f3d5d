//! What the reliability tests share: a typed tool written the way `#[tool]` expands, realistic
//! provider responses built around any arguments (including text that is not JSON), and a reader
//! that turns each dialect's rendered results back into `(id, text, is_error)` answers.

#![allow(dead_code)] // each test binary uses its own part

use std::marker::PhantomData;

use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde_json::Value;
use toolnexus::{async_trait, Dialect, InputSchema, RunOptions, Tool, ToolResult, Toolkit};

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

/// The six dialects, in the order the tests report them.
pub const DIALECTS: [Dialect; 6] = [
    Dialect::OpenAiChat,
    Dialect::OpenAiResponses,
    Dialect::Anthropic,
    Dialect::Gemini,
    Dialect::Bedrock,
    Dialect::Cohere,
];

/// Whether a dialect sends arguments as JSON text (OpenAI, Cohere) rather than as an object.
pub fn sends_text(dialect: Dialect) -> bool {
    matches!(
        dialect,
        Dialect::OpenAiChat | Dialect::OpenAiResponses | Dialect::Cohere
    )
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
    async fn execute(&self, args: Value) -> ToolResult {
        match toolnexus::__private::decode_value::<A>(self.name, args) {
            Ok(args) => (self.run)(args),
            Err(refused) => refused,
        }
    }
    async fn execute_json(&self, args: &str) -> ToolResult {
        match toolnexus::__private::decode_str::<A>(self.name, args) {
            Ok(args) => (self.run)(args),
            Err(refused) => refused,
        }
    }
}

/// One call as it goes on the wire.
#[derive(Debug, Clone)]
pub struct WireCall {
    /// The call id (Gemini may leave it out; the other dialects always send one here).
    pub id: Option<String>,
    /// The tool name the model chose.
    pub name: String,
    /// OpenAI's `arguments`: the JSON string's content, or `None` to leave the field out.
    pub text: Option<String>,
    /// Anthropic's `input` / Gemini's `args`: raw JSON spliced into the body as is (so it may
    /// be anything, even nesting no parser accepts), or `None` to leave the field out.
    pub object: Option<String>,
}

impl WireCall {
    /// A call whose arguments are the same JSON in every dialect.
    pub fn json(id: &str, name: &str, args: &Value) -> Self {
        let text = args.to_string();
        Self {
            id: Some(id.to_owned()),
            name: name.to_owned(),
            text: Some(text.clone()),
            object: Some(text),
        }
    }
}

fn quoted(s: &str) -> String {
    serde_json::to_string(s).expect("a string serializes")
}

/// A response body of `dialect` carrying `calls`, shaped like the real API's, as text.
pub fn response_body(dialect: Dialect, calls: &[WireCall]) -> String {
    let items: Vec<String> = calls
        .iter()
        .enumerate()
        .map(|(i, call)| {
            let id = call.id.as_deref().map(quoted);
            let name = quoted(&call.name);
            let text = call
                .text
                .as_deref()
                .map(|t| format!(",\"arguments\":{}", quoted(t)))
                .unwrap_or_default();
            match dialect {
                Dialect::OpenAiChat | Dialect::Cohere => format!(
                    "{{\"id\":{},\"type\":\"function\",\"function\":{{\"name\":{name}{text}}}}}",
                    id.unwrap_or_else(|| "null".into())
                ),
                Dialect::OpenAiResponses => format!(
                    "{{\"type\":\"function_call\",\"id\":\"fc_{i}\",\"call_id\":{},\"name\":{name}{text},\"status\":\"completed\"}}",
                    id.unwrap_or_else(|| "null".into())
                ),
                Dialect::Anthropic => format!(
                    "{{\"type\":\"tool_use\",\"id\":{},\"name\":{name}{}}}",
                    id.unwrap_or_else(|| "null".into()),
                    call.object.as_deref().map(|o| format!(",\"input\":{o}")).unwrap_or_default()
                ),
                Dialect::Gemini => format!(
                    "{{\"functionCall\":{{{}\"name\":{name}{}}}}}",
                    id.map(|id| format!("\"id\":{id},")).unwrap_or_default(),
                    call.object.as_deref().map(|o| format!(",\"args\":{o}")).unwrap_or_default()
                ),
                Dialect::Bedrock => format!(
                    "{{\"toolUse\":{{\"toolUseId\":{},\"name\":{name}{}}}}}",
                    id.unwrap_or_else(|| "null".into()),
                    call.object.as_deref().map(|o| format!(",\"input\":{o}")).unwrap_or_default()
                ),
                _ => unreachable!("a dialect this test does not know"),
            }
        })
        .collect();
    let items = items.join(",");
    match dialect {
        Dialect::OpenAiChat => format!(
            "{{\"id\":\"chatcmpl-rel\",\"object\":\"chat.completion\",\"model\":\"gpt-4o-2024-08-06\",\
             \"choices\":[{{\"index\":0,\"finish_reason\":\"tool_calls\",\"message\":{{\"role\":\"assistant\",\
             \"content\":null,\"tool_calls\":[{items}],\"refusal\":null}}}}],\
             \"usage\":{{\"prompt_tokens\":80,\"completion_tokens\":20,\"total_tokens\":100}}}}"
        ),
        Dialect::OpenAiResponses => format!(
            "{{\"id\":\"resp_rel\",\"object\":\"response\",\"status\":\"completed\",\"model\":\"gpt-4.1\",\
             \"output\":[{{\"type\":\"reasoning\",\"id\":\"rs_1\",\"summary\":[]}}{}{items}]}}",
            if calls.is_empty() { "" } else { "," }
        ),
        Dialect::Anthropic => format!(
            "{{\"id\":\"msg_rel\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"claude-sonnet-4-5\",\
             \"stop_reason\":\"tool_use\",\"content\":[{{\"type\":\"text\",\"text\":\"Let me check.\"}}{}{items}],\
             \"usage\":{{\"input_tokens\":80,\"output_tokens\":20}}}}",
            if calls.is_empty() { "" } else { "," }
        ),
        Dialect::Gemini => format!(
            "{{\"candidates\":[{{\"content\":{{\"role\":\"model\",\"parts\":[{items}]}},\"finishReason\":\"STOP\",\"index\":0}}],\
             \"modelVersion\":\"gemini-2.5-flash\"}}"
        ),
        Dialect::Bedrock => format!(
            "{{\"output\":{{\"message\":{{\"role\":\"assistant\",\"content\":[{{\"text\":\"Let me check.\"}}{}{items}]}}}},\
             \"stopReason\":\"tool_use\",\"usage\":{{\"inputTokens\":80,\"outputTokens\":20,\"totalTokens\":100}},\
             \"metrics\":{{\"latencyMs\":100}}}}",
            if calls.is_empty() { "" } else { "," }
        ),
        Dialect::Cohere => format!(
            "{{\"id\":\"rel\",\"finish_reason\":\"TOOL_CALL\",\"message\":{{\"role\":\"assistant\",\
             \"tool_plan\":\"Let me check.\",\"tool_calls\":[{items}]}},\
             \"usage\":{{\"billed_units\":{{\"input_tokens\":80,\"output_tokens\":20}}}}}}"
        ),
        _ => unreachable!("a dialect this test does not know"),
    }
}

/// One rendered result, read back from a dialect's next-request message(s).
#[derive(Debug, Clone, PartialEq)]
pub struct Answer {
    /// `tool_call_id`, `call_id`, `tool_use_id` or `functionResponse.id`.
    pub id: Option<String>,
    /// The text the model reads.
    pub text: String,
    /// The error flag: Anthropic's `is_error`, Gemini's `error` key, OpenAI's `Error: ` mark
    /// (the text is given without the mark).
    pub error: Option<bool>,
}

/// An OpenAI result text read back: without its `Error: ` mark, and whether it had one.
fn openai_text(text: String) -> (String, Option<bool>) {
    match text.strip_prefix("Error: ") {
        Some(rest) => (rest.to_owned(), Some(true)),
        None => (text, Some(false)),
    }
}

fn str_at(v: &Value, key: &str) -> String {
    v[key]
        .as_str()
        .unwrap_or_else(|| panic!("`{key}` is a string in {v}"))
        .to_owned()
}

/// Reads rendered results back, checking the dialect's envelope on the way.
pub fn answers(dialect: Dialect, rendered: &[Value]) -> Vec<Answer> {
    match dialect {
        Dialect::OpenAiChat => rendered
            .iter()
            .map(|m| {
                assert_eq!(m["role"], "tool", "{m}");
                assert_eq!(m.as_object().map(|o| o.len()), Some(3), "{m}");
                let (text, error) = openai_text(str_at(m, "content"));
                Answer {
                    id: Some(str_at(m, "tool_call_id")),
                    text,
                    error,
                }
            })
            .collect(),
        Dialect::OpenAiResponses => rendered
            .iter()
            .map(|m| {
                assert_eq!(m["type"], "function_call_output", "{m}");
                let (text, error) = openai_text(str_at(m, "output"));
                Answer {
                    id: Some(str_at(m, "call_id")),
                    text,
                    error,
                }
            })
            .collect(),
        Dialect::Anthropic => {
            if rendered.is_empty() {
                return Vec::new();
            }
            assert_eq!(rendered.len(), 1, "one user message");
            assert_eq!(rendered[0]["role"], "user");
            let blocks = rendered[0]["content"].as_array().expect("content blocks");
            assert!(!blocks.is_empty(), "never an empty message");
            blocks
                .iter()
                .map(|b| {
                    assert_eq!(b["type"], "tool_result", "{b}");
                    let error = b.get("is_error").map(|e| e == &Value::Bool(true));
                    assert_ne!(error, Some(false), "is_error is only ever `true`: {b}");
                    let text = str_at(b, "content");
                    if error.is_some() {
                        assert!(!text.trim().is_empty(), "error content is never empty");
                    }
                    Answer {
                        id: Some(str_at(b, "tool_use_id")),
                        text,
                        error: Some(error.is_some()),
                    }
                })
                .collect()
        }
        Dialect::Gemini => {
            if rendered.is_empty() {
                return Vec::new();
            }
            assert_eq!(rendered.len(), 1, "one user content");
            assert_eq!(rendered[0]["role"], "user");
            let parts = rendered[0]["parts"].as_array().expect("parts");
            assert!(!parts.is_empty(), "never an empty content");
            parts
                .iter()
                .map(|p| {
                    let fr = &p["functionResponse"];
                    assert!(fr["name"].is_string(), "{p}");
                    let response = fr["response"].as_object().expect("response object");
                    assert_eq!(response.len(), 1, "{p}");
                    let (key, text) = response.iter().next().expect("one key");
                    Answer {
                        id: fr
                            .get("id")
                            .map(|id| id.as_str().expect("string id").to_owned()),
                        text: text.as_str().expect("text").to_owned(),
                        error: Some(key == "error"),
                    }
                })
                .collect()
        }
        Dialect::Bedrock => {
            if rendered.is_empty() {
                return Vec::new();
            }
            assert_eq!(rendered.len(), 1, "one user message");
            assert_eq!(rendered[0]["role"], "user");
            let blocks = rendered[0]["content"].as_array().expect("content blocks");
            assert!(!blocks.is_empty(), "never an empty message");
            blocks
                .iter()
                .map(|b| {
                    let result = &b["toolResult"];
                    let error = result.get("status").map(|s| s == "error");
                    assert_ne!(error, Some(false), "status is only ever `error`: {b}");
                    let content = result["content"].as_array().expect("result content");
                    let text = str_at(&content[0], "text");
                    assert!(!text.trim().is_empty(), "a text is never blank: {b}");
                    Answer {
                        id: Some(str_at(result, "toolUseId")),
                        text,
                        error: Some(error.is_some()),
                    }
                })
                .collect()
        }
        Dialect::Cohere => rendered
            .iter()
            .map(|m| {
                assert_eq!(m["role"], "tool", "{m}");
                assert_eq!(m.as_object().map(|o| o.len()), Some(3), "{m}");
                let content = m["content"].as_array().expect("content blocks");
                assert_eq!(content.len(), 1, "one document: {m}");
                assert_eq!(content[0]["type"], "document", "{m}");
                let data = content[0]["document"]["data"]
                    .as_object()
                    .expect("data object");
                assert_eq!(data.len(), 1, "{m}");
                let (key, text) = data.iter().next().expect("one key");
                let text = text.as_str().expect("text").to_owned();
                if key == "error" {
                    assert!(!text.trim().is_empty(), "error text is never empty");
                }
                Answer {
                    id: Some(str_at(m, "tool_call_id")),
                    text,
                    error: Some(key == "error"),
                }
            })
            .collect(),
        _ => unreachable!("a dialect this test does not know"),
    }
}

/// The whole round trip from a body's text: parse, read the calls, run them, render, read the
/// answers back; also checks that the model's turn can be repeated. `Err` is the
/// [`toolnexus::ResponseError`] text.
pub async fn round_trip(
    toolkit: &Toolkit,
    dialect: Dialect,
    body: &str,
    options: &RunOptions,
) -> Result<Vec<Answer>, String> {
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
    let answers = answers(dialect, &rendered);
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
