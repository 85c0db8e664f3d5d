//! Strict tools on Converse: botocore's `ToolSpecification.strict` ("Flag to enable structured
//! output enforcement on a tool usage response").

use serde_json::{Map, Value};

use crate::tool::Tool;
use crate::wire::{sendable, strict_declaration};

/// Bedrock Converse's `toolConfig.tools` with strict mode on wherever the tool allows it
/// ([`ToolsOptions::with_strict`](crate::ToolsOptions::with_strict)):
/// `{"toolSpec": {"name", "description", "inputSchema": {"json": schema}, "strict": true}}`,
/// the schema in Anthropic's strict form
/// ([`InputSchema::for_anthropic_strict`](crate::InputSchema::for_anthropic_strict)), as
/// Anthropic's strict tools have it. A tool whose schema cannot be strict is sent as without
/// the option, without `strict`.
///
/// ```
/// use serde_json::json;
/// use toolnexus::{Dialect, NativeTool, Toolkit, ToolsOptions};
///
/// let ping = NativeTool::of("ping", "Health check", json!({"type": "object", "properties": {}}),
///     |_| async { "pong" })?;
/// let toolkit = Toolkit::new().with(ping)?;
/// let strict = ToolsOptions::default().with_strict(true);
/// assert_eq!(toolkit.tools_for(Dialect::Bedrock, strict)[..], [json!({"toolSpec": {"name": "ping",
///     "description": "Health check", "inputSchema": {"json": {"type": "object",
///     "properties": {}, "additionalProperties": false}}, "strict": true}})]);
/// # Ok::<(), toolnexus::Error>(())
/// ```
pub(crate) fn to_bedrock_strict<T: Tool>(tools: &[T]) -> Vec<Value> {
    sendable(tools)
        .map(|t| {
            let spec = strict_declaration(t, "inputSchema", |schema| {
                let mut json = Map::with_capacity(1);
                json.insert("json".into(), schema);
                Value::Object(json)
            });
            let mut entry = Map::with_capacity(1);
            entry.insert("toolSpec".into(), Value::Object(spec));
            Value::Object(entry)
        })
        .collect()
}
