//! Cohere's v2 Chat API (`POST /v2/chat`, streamed with `"stream": true`): the tools array,
//! calls in, results out, the conversation and the stream, as one [`Wire`](crate)
//! implementation. Every other part of the crate reaches it through [`Dialect::Cohere`]; the
//! cohere SDK's pydantic types (`cohere.v2`) are the authority on its shapes.
//!
//! | part | shape |
//! |---|---|
//! | tools (`tools`) | `{"type": "function", "function": {"name", "description", "parameters"}}` ([`Toolkit::tools_for`]), the JSON Schema OpenAI gets |
//! | calls in | `message.tool_calls[]` `{id, type: "function", function: {name, arguments}}`, the arguments JSON text |
//! | stop rule | `finish_reason`: `COMPLETE`, `TOOL_CALL`, `STOP_SEQUENCE` run the calls; `MAX_TOKENS` is [`ResponseError::Truncated`], `TIMEOUT` [`ResponseError::Incomplete`], `ERROR` a passing [`ResponseError::Provider`], any other [`ResponseError::Stopped`] |
//! | model turn | `{"role": "assistant", "tool_plan", "tool_calls", "content"}` (the plan kept with its calls) |
//! | results out | one `{"role": "tool", "tool_call_id", "content": [{"type": "document", "document": {"data": {"output": text}}}]}` per call (`{"error": text}` for a failure); no media (a result with media is the error result that says so) |
//! | typed answers | `response_format` `{"type": "json_object", "json_schema": schema}` |
//! | tool choice | left out (auto), `"REQUIRED"`, `"NONE"`; a named tool, a subset or one call at a time is [`Error::UnsupportedChoice`] |
//! | stream | SSE events `message-start`, `content-start`/`-delta`/`-end`, `tool-plan-delta`, `tool-call-start`/`-delta`/`-end` (a call starts at its end), `citation-start`/`-end`, `message-end` (`delta.finish_reason`) |
//!
//! ```
//! use serde_json::json;
//! use toolnexus::{tool, Dialect, Toolkit, ToolsOptions};
//!
//! /// Current weather for a city.
//! #[tool]
//! async fn get_weather(
//!     /// City name
//!     city: String,
//! ) -> String {
//!     format!("sunny in {city}")
//! }
//!
//! let toolkit = Toolkit::new().with(GetWeather)?;
//! let body = json!({
//!     "model": "command-a-03-2025",
//!     "messages": [Dialect::Cohere.user_message("Weather in Paris?")],
//!     "tools": toolkit.tools_for(Dialect::Cohere, ToolsOptions::default()),
//! });
//! assert_eq!(body["tools"][0]["function"]["name"], "get_weather");
//!
//! let response = json!({"id": "r1", "finish_reason": "TOOL_CALL", "message": {
//!     "role": "assistant", "tool_plan": "I will look up the weather.",
//!     "tool_calls": [{"id": "get_weather_1", "type": "function", "function": {
//!         "name": "get_weather", "arguments": "{\"city\":\"Paris\"}"}}]}});
//! # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
//! let turn = toolkit.respond(&response, Dialect::Cohere).await?;
//! assert_eq!(turn.model_turn[0]["tool_plan"], "I will look up the weather.");
//! assert_eq!(turn.result_messages, [json!({"role": "tool", "tool_call_id": "get_weather_1",
//!     "content": [{"type": "document", "document": {"data": {"output": "sunny in Paris"}}}]})]);
//! # Ok::<(), toolnexus::ResponseError>(()) }).unwrap();
//! # Ok::<(), toolnexus::Error>(())
//! ```
//!
//! [`Toolkit::tools_for`]: crate::Toolkit::tools_for
//! [`Dialect::Cohere`]: crate::Dialect::Cohere
//! [`ResponseError::Truncated`]: crate::ResponseError::Truncated
//! [`ResponseError::Incomplete`]: crate::ResponseError::Incomplete
//! [`ResponseError::Provider`]: crate::ResponseError::Provider
//! [`ResponseError::Stopped`]: crate::ResponseError::Stopped
//! [`Error::UnsupportedChoice`]: crate::Error::UnsupportedChoice

mod calls;
mod choice;
mod content;
mod history;
mod stream;
#[cfg(test)]
mod tests;
mod wire;

pub(crate) use wire::CohereWire;
