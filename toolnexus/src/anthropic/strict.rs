//! Strict tools: `"strict": true` on a tool whose schema Anthropic's strict mode can hold.

use serde_json::Value;

use crate::tool::Tool;
use crate::wire::{sendable, strict_declaration};

/// The Anthropic Messages `tools` array with strict mode on wherever the tool allows it
/// ([`ToolsOptions::with_strict`](crate::ToolsOptions::with_strict)):
/// `{"name","description","input_schema","strict":true}`, the schema in the form
/// [`InputSchema::for_anthropic_strict`](crate::InputSchema::for_anthropic_strict) gives (the
/// subset structured outputs take, exactly as Anthropic's SDK writes it). The model's calls
/// then always match the schema's structure.
///
/// A tool whose schema cannot be strict (a map, a value of any type, a recursive type: see
/// [`InputSchema::for_anthropic_strict`](crate::InputSchema::for_anthropic_strict) for why) is
/// sent as [`to_anthropic`](crate::to_anthropic) sends it, without a `strict` key. Bounds the
/// subset moves into the description (`minimum`, `maxLength`, ...) are not enforced by the
/// model; the tool's own decoding still checks what its Rust types check. Optional arguments
/// stay optional: no `null`s to prune, unlike OpenAI strict mode. Anthropic documents limits
/// across the strict tools of one request (20 tools, 24 optional parameters, 16 parameters with
/// `anyOf` or type lists): send a [`Selection`](crate::Selection) of a larger toolkit.
///
/// ```
/// use serde_json::json;
/// use toolnexus::{Dialect, NativeTool, Toolkit, ToolsOptions};
///
/// let search = NativeTool::of("search", "Searches", json!({"type": "object",
///     "properties": {"q": {"type": "string", "maxLength": 100}}, "required": ["q"]}),
///     |_| async { "ok" })?;
/// let toolkit = Toolkit::new().with(search)?;
/// let strict = ToolsOptions::default().with_strict(true);
/// assert_eq!(toolkit.tools_for(Dialect::Anthropic, strict)[0], json!({
///     "name": "search", "description": "Searches",
///     "input_schema": {"type": "object", "properties": {"q": {"type": "string",
///         "description": "{maxLength: 100}"}}, "additionalProperties": false,
///         "required": ["q"]},
///     "strict": true}));
/// # Ok::<(), toolnexus::Error>(())
/// ```
pub(crate) fn to_anthropic_strict<T: Tool>(tools: &[T]) -> Vec<Value> {
    sendable(tools)
        .map(|t| Value::Object(strict_declaration(t, "input_schema", |schema| schema)))
        .collect()
}
