//! The toolkit's request bodies: any dialect's `tools` array under any options, rendered once
//! and reused (`tools_for`, `tools_json_for`), and the three named shortcuts.

use std::sync::atomic::{AtomicU32, Ordering};

use serde_json::value::RawValue;

use super::Toolkit;
use crate::dispatch::tools_array::ToolsArray;
use crate::values::dialect::Dialect;
use crate::wire::options::ToolsOptions;

/// The dialects whose tools this toolkit (or one of its selections) has handed out in strict
/// mode where strict mode makes the model send `null` for an optional argument, one bit per
/// dialect: their calls are then read as strict calls (see
/// [`RunOptions::openai_strict`](crate::RunOptions::openai_strict)) without the host saying so
/// again. Kept when a tool is added; a clone starts with the same bits.
#[derive(Default)]
pub(super) struct StrictDialects(AtomicU32);

impl StrictDialects {
    /// Notes that tools for `dialect` under `options` were handed out.
    pub(crate) fn note(&self, dialect: Dialect, options: ToolsOptions) {
        if options.strict() && dialect.facts().strict_nulls {
            self.0.fetch_or(1 << dialect as u32, Ordering::Relaxed);
        }
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
    /// The tools as `dialect` declares them in a request, under `options` (strict mode, Gemini's
    /// JSON Schema form: [`ToolsOptions`]): the one way to any tools array, Amazon Bedrock's
    /// `toolConfig.tools` included.
    ///
    /// A [`ToolsArray`], not a `Vec<Value>`: it serializes to the same bytes from one tree of
    /// `Value`s the toolkit renders on first use per dialect and options (again only after a tool
    /// is added) and shares with every array it hands out, and reads like the `Vec<Value>`
    /// (indexing, `len`, equality with a `Vec<Value>`, `into()`).
    ///
    /// Strict tools travel with their reading: once this toolkit handed out OpenAI strict tools
    /// (Chat Completions or Responses), it reads that dialect's calls as strict calls in
    /// [`respond`](Toolkit::respond) and a [`StreamTurn`](crate::StreamTurn): the `null` the
    /// model sends for an optional argument reaches the tool as "absent", as if
    /// [`RunOptions::with_openai_strict`](crate::RunOptions::with_openai_strict) had been given.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolnexus::{Dialect, NativeTool, Toolkit, ToolsOptions};
    ///
    /// let echo = NativeTool::of("echo", "Echoes its arguments", json!({"type": "object",
    ///     "properties": {"days": {"type": "integer"}}}), |args| async move { args.to_string() })?;
    /// let toolkit = Toolkit::new().with(echo)?;
    /// assert_eq!(toolkit.tools_for(Dialect::Anthropic, ToolsOptions::default()), toolkit.to_anthropic());
    /// assert_eq!(toolkit.tools_for(Dialect::Bedrock, ToolsOptions::default())[0]["toolSpec"]["name"], "echo");
    ///
    /// let strict = ToolsOptions::default().with_strict(true);
    /// let body = json!({"tools": toolkit.tools_for(Dialect::OpenAiChat, strict)});
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
    pub fn tools_for(&self, dialect: Dialect, options: ToolsOptions) -> ToolsArray {
        self.strict.note(dialect, options);
        self.rendered.array(&self.tools, dialect, options)
    }

    /// [`tools_for`](Toolkit::tools_for) as JSON text, rendered once per toolkit, dialect and
    /// options, and reused (strict tools noted as there).
    ///
    /// The fast path for request bodies: a `&RawValue` field in a `#[derive(Serialize)]` body is
    /// written verbatim, so a request costs a copy of these bytes instead of building and
    /// serializing a `Value` tree per request. The bytes equal
    /// `serde_json::to_string(&tools_for(dialect, options))`.
    ///
    /// ```
    /// use serde::Serialize;
    /// use serde_json::{json, value::RawValue};
    /// use toolnexus::{Dialect, NativeTool, Toolkit, ToolsOptions};
    ///
    /// #[derive(Serialize)]
    /// struct Request<'a> { messages: Vec<serde_json::Value>, tools: &'a RawValue }
    ///
    /// let ping = NativeTool::of("ping", "Health check", json!({"type": "object", "properties": {}}),
    ///     |_| async { "pong" })?;
    /// let toolkit = Toolkit::new().with(ping)?;
    /// let tools = toolkit.tools_json_for(Dialect::Anthropic, ToolsOptions::default());
    /// assert_eq!(
    ///     serde_json::to_string(&Request { messages: vec![], tools })?,
    ///     r#"{"messages":[],"tools":[{"name":"ping","description":"Health check","input_schema":{"type":"object","properties":{}}}]}"#
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn tools_json_for(&self, dialect: Dialect, options: ToolsOptions) -> &RawValue {
        self.strict.note(dialect, options);
        self.rendered.json(&self.tools, dialect, options)
    }

    /// The OpenAI Chat Completions `tools` array: [`tools_for`](Toolkit::tools_for) with
    /// [`Dialect::OpenAiChat`] and the default options; see [`to_openai`](crate::to_openai).
    pub fn to_openai(&self) -> ToolsArray {
        self.tools_for(Dialect::OpenAiChat, ToolsOptions::default())
    }

    /// The Anthropic Messages `tools` array: [`tools_for`](Toolkit::tools_for) with
    /// [`Dialect::Anthropic`] and the default options; see [`to_anthropic`](crate::to_anthropic).
    pub fn to_anthropic(&self) -> ToolsArray {
        self.tools_for(Dialect::Anthropic, ToolsOptions::default())
    }

    /// The Gemini `tools` array, one `functionDeclarations` wrapper:
    /// [`tools_for`](Toolkit::tools_for) with [`Dialect::Gemini`] and the default options; see
    /// [`to_gemini`](crate::to_gemini).
    pub fn to_gemini(&self) -> ToolsArray {
        self.tools_for(Dialect::Gemini, ToolsOptions::default())
    }

    /// [`to_openai`](Toolkit::to_openai) as JSON text, rendered once per toolkit and reused:
    /// [`tools_json_for`](Toolkit::tools_json_for) with [`Dialect::OpenAiChat`] and the default
    /// options.
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
        self.tools_json_for(Dialect::OpenAiChat, ToolsOptions::default())
    }
}
