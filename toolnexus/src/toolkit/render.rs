//! The toolkit's request bodies: each provider's `tools` array, fresh or rendered once and reused.

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, OnceLock};

use serde_json::value::RawValue;

use super::Toolkit;
use crate::dispatch::tools_array::{Shape, SharedValues, ToolsArray};
use crate::tool::Tool;
use crate::values::dialect::Dialect;

/// Each provider's `tools` array as JSON text, rendered on first use and dropped when a tool is added.
#[derive(Clone, Default)]
pub(super) struct Rendered {
    /// The tools as one shared list, for the [`ToolsArray`]s handed out.
    tools: OnceLock<Arc<[Arc<dyn Tool>]>>,
    /// Each provider's array as `Value`s, built the first time one of its arrays is used.
    openai_values: SharedValues,
    anthropic_values: SharedValues,
    gemini_values: SharedValues,
    openai: OnceLock<Box<RawValue>>,
    anthropic: OnceLock<Box<RawValue>>,
    gemini: OnceLock<Box<RawValue>>,
}

impl Rendered {
    fn get(cell: &OnceLock<Box<RawValue>>, render: impl FnOnce() -> ToolsArray) -> &RawValue {
        cell.get_or_init(|| {
            // A tools array always serializes: its keys are strings and its numbers finite.
            serde_json::value::to_raw_value(&render()).unwrap_or_else(|_| RawValue::NULL.to_owned())
        })
    }
}

/// The dialects whose tools this toolkit has handed out in strict mode (`to_openai_strict`,
/// `to_openai_responses(true)`), one bit per dialect: their calls are then read as strict calls
/// (see [`RunOptions::openai_strict`](crate::RunOptions::openai_strict)) without the host saying
/// so again. Kept when a tool is added; a clone starts with the same bits.
#[derive(Default)]
pub(super) struct StrictDialects(AtomicU32);

impl StrictDialects {
    pub(super) fn mark(&self, dialect: Dialect) {
        self.0.fetch_or(1 << dialect as u32, Ordering::Relaxed);
    }

    pub(super) fn has(&self, dialect: Dialect) -> bool {
        self.0.load(Ordering::Relaxed) & (1 << dialect as u32) != 0
    }
}

impl Clone for StrictDialects {
    fn clone(&self) -> Self {
        Self(AtomicU32::new(self.0.load(Ordering::Relaxed)))
    }
}

impl Toolkit {
    /// The tools as one shared list (made once, until a tool is added).
    fn shared(&self) -> Arc<[Arc<dyn Tool>]> {
        Arc::clone(
            self.rendered
                .tools
                .get_or_init(|| self.tools.as_slice().into()),
        )
    }

    /// The OpenAI Chat Completions `tools` array; see [`to_openai`](crate::to_openai).
    ///
    /// A [`ToolsArray`], not a `Vec<Value>`: it serializes to the same bytes from one tree of
    /// `Value`s the toolkit builds on first use (again only after a tool is added) and shares
    /// with every array it hands out, and reads like the `Vec<Value>` (indexing, `len`,
    /// equality with a `Vec<Value>`, `into()`).
    pub fn to_openai(&self) -> ToolsArray {
        ToolsArray::openai(self.shared(), Some(&self.rendered.openai_values))
    }

    /// The OpenAI Chat Completions `tools` array with strict mode on where each tool allows it;
    /// see [`to_openai_strict`](crate::to_openai_strict).
    ///
    /// From then on the toolkit reads Chat Completions calls as strict calls: in
    /// [`respond`](Toolkit::respond) and a [`StreamTurn`](crate::StreamTurn) of
    /// [`Dialect::OpenAiChat`], the `null` the model sends for an optional argument reaches the
    /// tool as "absent", as if [`RunOptions::with_openai_strict`](crate::RunOptions::with_openai_strict)
    /// had been given. (With the free function [`to_openai_strict`](crate::to_openai_strict)
    /// there is no toolkit to remember it: pass that option.)
    ///
    /// ```
    /// use serde_json::json;
    /// use toolnexus::{Dialect, NativeTool, Toolkit};
    ///
    /// let echo = NativeTool::of("echo", "Echoes its arguments", json!({"type": "object",
    ///     "properties": {"days": {"type": "integer"}}}), |args| async move { args.to_string() })?;
    /// let toolkit = Toolkit::new().with(echo)?;
    /// let body = json!({"tools": toolkit.to_openai_strict()});
    /// assert_eq!(body["tools"][0]["function"]["strict"], true);
    ///
    /// // Strict mode made the model send `null` for the optional `days`.
    /// let response = json!({"choices": [{"finish_reason": "tool_calls", "message": {
    ///     "role": "assistant", "tool_calls": [{"id": "call_1", "type": "function",
    ///     "function": {"name": "echo", "arguments": "{\"days\":null}"}}]}}]});
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// let turn = toolkit.respond(&response, Dialect::OpenAiChat).await?;
    /// assert_eq!(turn.results[0].output, "{}"); // absent, not null
    /// # Ok::<(), toolnexus::ResponseError>(()) }).unwrap();
    /// # Ok::<(), toolnexus::Error>(())
    /// ```
    pub fn to_openai_strict(&self) -> ToolsArray {
        self.strict.mark(Dialect::OpenAiChat);
        ToolsArray::of(Shape::OpenAiStrict, self.shared())
    }

    /// The OpenAI Responses API `tools` array (flat shape, `strict` always sent); see
    /// [`to_openai_responses`](crate::to_openai_responses).
    ///
    /// With `strict` true the toolkit from then on reads Responses calls as strict calls, as
    /// [`to_openai_strict`](Toolkit::to_openai_strict) does for Chat Completions.
    pub fn to_openai_responses(&self, strict: bool) -> ToolsArray {
        if strict {
            self.strict.mark(Dialect::OpenAiResponses);
        }
        ToolsArray::of(Shape::Responses(strict), self.shared())
    }

    /// The Anthropic Messages `tools` array; see [`to_anthropic`](crate::to_anthropic) and,
    /// for the return type, [`to_openai`](Toolkit::to_openai).
    pub fn to_anthropic(&self) -> ToolsArray {
        ToolsArray::anthropic(self.shared(), Some(&self.rendered.anthropic_values))
    }

    /// The Anthropic Messages `tools` array with strict mode on where each tool allows it; see
    /// [`to_anthropic_strict`](crate::to_anthropic_strict).
    pub fn to_anthropic_strict(&self) -> ToolsArray {
        ToolsArray::of(Shape::AnthropicStrict, self.shared())
    }

    /// Bedrock Converse's `toolConfig.tools` with strict mode on where each tool allows it; see
    /// [`bedrock::to_bedrock_strict`](crate::bedrock::to_bedrock_strict).
    pub fn to_bedrock_strict(&self) -> ToolsArray {
        ToolsArray::of(Shape::BedrockStrict, self.shared())
    }

    /// The Gemini `tools` array: one `functionDeclarations` wrapper; see
    /// [`to_gemini`](crate::to_gemini) and, for the return type, [`to_openai`](Toolkit::to_openai).
    pub fn to_gemini(&self) -> ToolsArray {
        ToolsArray::gemini(self.shared(), Some(&self.rendered.gemini_values))
    }

    /// The Gemini `tools` array with each schema as JSON Schema (`parametersJsonSchema`); see
    /// [`to_gemini_json_schema`](crate::to_gemini_json_schema).
    pub fn to_gemini_json_schema(&self) -> ToolsArray {
        ToolsArray::of(Shape::GeminiJsonSchema, self.shared())
    }

    /// The tools as `dialect` declares them in a request: what `to_openai()`,
    /// `to_openai_responses(false)`, `to_anthropic()` and `to_gemini()` give for theirs, and the
    /// only way for a dialect without a method of its own (Amazon Bedrock's
    /// `toolConfig.tools`).
    ///
    /// ```
    /// use toolnexus::{tool, Dialect, Toolkit};
    ///
    /// /// Says hello.
    /// #[tool]
    /// async fn hello() -> String {
    ///     "hello".into()
    /// }
    ///
    /// let toolkit = Toolkit::new().with(Hello)?;
    /// assert_eq!(toolkit.tools_for(Dialect::Anthropic), toolkit.to_anthropic());
    /// # Ok::<(), toolnexus::Error>(())
    /// ```
    pub fn tools_for(&self, dialect: Dialect) -> ToolsArray {
        ToolsArray::of(Shape::Dialect(dialect), self.shared())
    }

    /// [`to_openai`](Toolkit::to_openai) as JSON text, rendered once per toolkit and reused.
    ///
    /// The fast path for request bodies: a `&RawValue` field in a `#[derive(Serialize)]` body is
    /// written verbatim, so a request costs a copy of these bytes instead of building and
    /// serializing a `Value` tree per request. The bytes equal `serde_json::to_string(&to_openai())`.
    ///
    /// ```
    /// use serde::Serialize;
    /// use serde_json::{json, value::RawValue};
    /// use toolnexus::{NativeTool, Toolkit};
    ///
    /// #[derive(Serialize)]
    /// struct ChatRequest<'a> { model: &'a str, messages: Vec<serde_json::Value>, tools: &'a RawValue }
    ///
    /// let ping = NativeTool::of("ping", "Health check", json!({"type": "object", "properties": {}}),
    ///     |_| async { "pong" })?;
    /// let toolkit = Toolkit::new().with(ping)?;
    /// let body = ChatRequest { model: "gpt-4o", messages: vec![], tools: toolkit.to_openai_json() };
    /// assert_eq!(
    ///     serde_json::to_string(&body)?,
    ///     r#"{"model":"gpt-4o","messages":[],"tools":[{"type":"function","function":{"name":"ping","description":"Health check","parameters":{"type":"object","properties":{}}}}]}"#
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn to_openai_json(&self) -> &RawValue {
        Rendered::get(&self.rendered.openai, || self.to_openai())
    }

    /// [`to_anthropic`](Toolkit::to_anthropic) as JSON text, rendered once per toolkit and reused
    /// (see [`to_openai_json`](Toolkit::to_openai_json)).
    pub fn to_anthropic_json(&self) -> &RawValue {
        Rendered::get(&self.rendered.anthropic, || self.to_anthropic())
    }

    /// [`to_gemini`](Toolkit::to_gemini) as JSON text, rendered once per toolkit and reused
    /// (see [`to_openai_json`](Toolkit::to_openai_json)).
    pub fn to_gemini_json(&self) -> &RawValue {
        Rendered::get(&self.rendered.gemini, || self.to_gemini())
    }
}
