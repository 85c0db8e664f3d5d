//! Amazon Bedrock's Converse API (`Converse` and `ConverseStream` of `bedrock-runtime`): the
//! tools array, calls in, results out, the conversation and the stream, as one [`Wire`](crate)
//! implementation. Every other part of the crate reaches it through [`Dialect::Bedrock`].
//!
//! | part | shape |
//! |---|---|
//! | tools (`toolConfig.tools`) | `{"toolSpec": {"name", "description", "inputSchema": {"json": schema}}}` ([`Toolkit::tools_for`]); strict mode (`"strict": true` in `toolSpec`) with [`ToolsOptions::with_strict`] |
//! | calls in | `output.message.content[].toolUse` `{toolUseId, name, input}` |
//! | stop rule | `stopReason`: `tool_use`, `end_turn`, `stop_sequence` run the calls; `max_tokens`, `model_context_window_exceeded` are [`ResponseError::Truncated`]; `malformed_model_output`, `malformed_tool_use` [`ResponseError::Incomplete`]; `guardrail_intervened`, `content_filtered` and any other [`ResponseError::Stopped`] |
//! | results out | ONE `user` message of `toolResult {toolUseId, content: [{text} \| {image} \| {document}], status}` |
//! | stream | `ConverseStream`'s events as JSON (`messageStart`, `contentBlockStart`, `contentBlockDelta`, `contentBlockStop`, `messageStop`, `metadata`), fed with [`StreamTurn::feed_event`] |
//!
//! The schema sent is the one Anthropic gets (JSON Schema 2020-12, a plain object root), which
//! botocore's `ToolInputSchema.json` takes as a JSON document. Binary content (`bytes`) is
//! base64 in the JSON body, as the service's REST protocol writes blobs.
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
//!     "messages": [Dialect::Bedrock.user_message("Weather in Paris?")],
//!     "toolConfig": {"tools": toolkit.tools_for(Dialect::Bedrock, ToolsOptions::default())},
//! });
//! assert_eq!(body["toolConfig"]["tools"][0]["toolSpec"]["name"], "get_weather");
//!
//! let response = json!({"stopReason": "tool_use", "output": {"message": {"role": "assistant",
//!     "content": [{"toolUse": {"toolUseId": "tooluse_1", "name": "get_weather",
//!                              "input": {"city": "Paris"}}}]}}});
//! # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
//! let turn = toolkit.respond(&response, Dialect::Bedrock).await?;
//! assert_eq!(turn.result_messages, [json!({"role": "user", "content": [{"toolResult": {
//!     "toolUseId": "tooluse_1", "content": [{"text": "sunny in Paris"}]}}]})]);
//! # Ok::<(), toolnexus::ResponseError>(()) }).unwrap();
//! # Ok::<(), toolnexus::Error>(())
//! ```
//!
//! [`Toolkit::tools_for`]: crate::Toolkit::tools_for
//! [`ToolsOptions::with_strict`]: crate::ToolsOptions::with_strict
//! [`Dialect::Bedrock`]: crate::Dialect::Bedrock
//! [`ResponseError::Truncated`]: crate::ResponseError::Truncated
//! [`ResponseError::Incomplete`]: crate::ResponseError::Incomplete
//! [`ResponseError::Stopped`]: crate::ResponseError::Stopped
//! [`StreamTurn::feed_event`]: crate::stream::StreamTurn::feed_event

mod calls;
mod choice;
mod content;
mod history;
mod stream;
mod tools;
mod wire;

pub(crate) use wire::BedrockWire;
