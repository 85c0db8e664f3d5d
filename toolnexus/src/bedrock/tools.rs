//! Converse's `toolConfig.tools`, strict or not (botocore's `ToolSpecification.strict`: "Flag to
//! enable structured output enforcement on a tool usage response").

use serde_json::Value;

use crate::tool::Tool;
use crate::wire::{declaration, member, sendable, strict_declaration};

/// Bedrock Converse's `toolConfig.tools`: `{"toolSpec": {"name", "description", "inputSchema":
/// {"json": schema}}}` per tool that can be sent, with the schema Anthropic gets. With `strict`
/// ([`ToolsOptions::with_strict`](crate::ToolsOptions::with_strict)), strict mode is on wherever
/// the tool allows it: `"strict": true` and the schema in Anthropic's strict form
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
pub(crate) fn to_bedrock<T: Tool>(tools: &[T], strict: bool) -> Vec<Value> {
    let json = |schema| Value::Object(member("json", schema));
    sendable(tools)
        .map(|t| {
            let spec = if strict {
                strict_declaration(t, "inputSchema", json)
            } else {
                declaration(
                    t,
                    "inputSchema",
                    json(t.input_schema().for_anthropic().clone()),
                )
            };
            Value::Object(member("toolSpec", Value::Object(spec)))
        })
        .collect()
}
