//! One listed tool checked into an [`Entry`] (its name under the source's rules, its
//! description and schema within the limits, its schema one the crate can send), and the
//! left-out tools kept, at most [`McpLimits::max_skipped`](super::McpLimits) of them.

use std::collections::HashSet;
use std::sync::Arc;

use rmcp::model::Tool as WireTool;
use serde_json::Value;

use super::source::Skipped;
use super::McpSource;
use crate::schema::InputSchema;
use crate::tool::hints::ToolHints;
use crate::tool::{sanitize, MAX_NAME_LEN};
use crate::values::text::{echo, echo_name};

/// The tools left out, at most `max` of them with their reasons, then one line for the rest.
pub(crate) struct Skips<'a> {
    server: &'a str,
    list: Vec<Skipped>,
    max: usize,
    more: usize,
}

impl<'a> Skips<'a> {
    pub(crate) fn new(server: &'a str, max: usize) -> Self {
        Self {
            server,
            list: Vec::new(),
            max,
            more: 0,
        }
    }

    pub(crate) fn push(&mut self, remote: &str, reason: String) {
        if self.list.len() < self.max {
            self.list.push(skipped(self.server, remote, reason));
        } else {
            self.more += 1;
        }
    }

    pub(crate) fn finish(mut self) -> Vec<Skipped> {
        if self.more > 0 {
            let reason = format!(
                "{} more tools were left out; only the first {} reasons are kept \
                 (McpLimits::max_skipped)",
                self.more, self.max
            );
            self.list.push(skipped(self.server, "*", reason));
        }
        self.list
    }
}

/// One listed tool, checked: its name under the source's rules, its description and schema
/// within the limits, its schema one the crate can send.
pub(crate) fn admit(
    tool: WireTool,
    source: &McpSource,
    taken: &HashSet<String>,
) -> Result<Entry, String> {
    let limits = source.limits;
    let remote = tool.name.to_string();
    let name = format!("{}{}", sanitize(&source.prefix), sanitize(&remote));
    if name.len() > MAX_NAME_LEN {
        return Err(format!(
            "its name `{}` has {} characters; the limit is {MAX_NAME_LEN} (a shorter prefix, or \
             leave it out with McpSource::deny)",
            echo_name(&name),
            name.len()
        ));
    }
    if name.is_empty() {
        return Err("its name is empty".to_owned());
    }
    if taken.contains(&name) {
        return Err(format!(
            "its name `{name}` is taken by another tool of the same server"
        ));
    }
    let description = tool.description.map(|d| d.into_owned()).unwrap_or_default();
    if description.len() > limits.max_description_bytes {
        return Err(format!(
            "its description has {} bytes; the limit is {} (McpLimits::max_description_bytes)",
            description.len(),
            limits.max_description_bytes
        ));
    }
    let schema = Value::Object(Arc::unwrap_or_clone(tool.input_schema));
    let size = serde_json::to_string(&schema).map_or(usize::MAX, |s| s.len());
    if size > limits.max_schema_bytes {
        return Err(format!(
            "its input schema has {size} bytes; the limit is {} (McpLimits::max_schema_bytes)",
            limits.max_schema_bytes
        ));
    }
    let schema = InputSchema::new(schema).map_err(|e| echo(&e.for_tool(&name).to_string()))?;
    let hints = tool
        .annotations
        .as_ref()
        .map_or_else(ToolHints::new, |a| ToolHints {
            read_only: a.read_only_hint,
            destructive: a.destructive_hint,
            idempotent: a.idempotent_hint,
            open_world: a.open_world_hint,
        });
    // The output schema counts against the schema limit with the input schema.
    let output_schema = tool
        .output_schema
        .map(|o| Value::Object(Arc::unwrap_or_clone(o)));
    let output_bytes = output_schema.as_ref().map_or(0, |o| {
        serde_json::to_string(o).map_or(usize::MAX, |s| s.len())
    });
    if output_bytes > limits.max_schema_bytes {
        return Err(format!(
            "its output schema has {output_bytes} bytes; the limit is {} \
             (McpLimits::max_schema_bytes)",
            limits.max_schema_bytes
        ));
    }
    let title = tool
        .title
        .or_else(|| tool.annotations.and_then(|a| a.title));
    Ok(Entry {
        name,
        shown: echo_name(&remote),
        remote,
        description,
        title,
        schema,
        schema_bytes: size + output_bytes,
        output_schema,
        hints,
    })
}

fn skipped(server: &str, remote: &str, reason: String) -> Skipped {
    Skipped {
        server: server.to_owned(),
        tool: echo_name(remote),
        reason,
    }
}

/// What `tools/list` said about one tool, read and checked once.
#[derive(Debug)]
pub(crate) struct Entry {
    pub(crate) name: String,
    /// The name on the server, as `tools/call` sends it.
    pub(crate) remote: String,
    /// The same, cut and with control characters escaped, for messages and `remote_name`.
    pub(crate) shown: String,
    pub(crate) description: String,
    pub(crate) title: Option<String>,
    pub(crate) schema: InputSchema,
    /// The input and output schemas' size as compact JSON.
    pub(crate) schema_bytes: usize,
    /// The `outputSchema` the server listed, if any.
    pub(crate) output_schema: Option<Value>,
    pub(crate) hints: ToolHints,
}

impl Entry {
    /// What the tool costs the host, counted against `McpLimits::max_list_bytes`: its name,
    /// description and schema as read, and again in each provider's form and tools array.
    pub(crate) fn cost(&self) -> usize {
        let text = self.name.len() + self.description.len() + self.schema_bytes;
        text.saturating_mul(1 + crate::Dialect::ALL.len())
    }
}
