//! `ConverseStream`'s events, each as the JSON of its one member (`{"contentBlockDelta":
//! {...}}`, as boto3 and the AWS SDKs hand them out after decoding the binary event stream),
//! added up into the response `Converse` returns: `messageStart` gives the role,
//! `contentBlockStart` a block (a `toolUse` with its id and name), `contentBlockDelta` its text,
//! reasoning or `toolUse.input` pieces (the input is the JSON those pieces spell),
//! `contentBlockStop` ends it, `messageStop` gives the `stopReason`, `metadata` the usage. An
//! exception event (`throttlingException`, `modelStreamErrorException`, ...) ends the stream with
//! the provider's error.
//!
//! A `toolUse` block's arguments are complete at its `contentBlockStop`, provided the pieces
//! spell one whole JSON object (a block cut off by `max_tokens` does not).

use serde_json::{Map, Value};

use crate::response::{At, Reader};
use crate::wire::assemble::{index, slot, Assembly, Events};
use crate::{Dialect, ResponseError};

const READ: Reader = Reader {
    dialect: Dialect::Bedrock,
};

/// The exception events of `ConverseStream`.
const EXCEPTIONS: [&str; 5] = [
    "internalServerException",
    "modelStreamErrorException",
    "validationException",
    "throttlingException",
    "serviceUnavailableException",
];

/// The event vocabulary of `ConverseStream`; a `toolUse` block's input pieces are in the
/// assembler's [`Assembly`], keyed by the block's index.
#[derive(Debug, Default)]
pub(crate) struct Converse {
    role: Option<Value>,
    blocks: Vec<Block>,
    /// `messageStop`'s and `metadata`'s fields (`stopReason`, `usage`, `metrics`, ...).
    root: Map<String, Value>,
}

#[derive(Debug, Default)]
struct Block {
    /// The block as it will be sent back (a `toolUse` without its `input` until its stop).
    value: Map<String, Value>,
    /// Text received by deltas.
    text: String,
    tool: bool,
}

impl Events for Converse {
    fn terminator(&self) -> &'static str {
        "`messageStop`"
    }

    fn apply(&mut self, event: Map<String, Value>, to: &mut Assembly) -> Result<(), ResponseError> {
        for (kind, body) in event {
            match kind.as_str() {
                "messageStart" => self.role = body.get("role").cloned(),
                "contentBlockStart" => {
                    let index = block_index(&body, "contentBlockStart")?;
                    let position = self.blocks[..index.min(self.blocks.len())]
                        .iter()
                        .filter(|b| b.tool)
                        .count();
                    let block = slot(&mut self.blocks, index);
                    if let Some(tool_use) =
                        body.pointer("/start/toolUse").and_then(Value::as_object)
                    {
                        if let Some(Value::String(id)) = tool_use.get("toolUseId") {
                            to.began(position, id);
                        }
                        block.tool = true;
                        block
                            .value
                            .insert("toolUse".into(), Value::Object(tool_use.clone()));
                    }
                }
                "contentBlockDelta" => {
                    let index = block_index(&body, "contentBlockDelta")?;
                    let block = slot(&mut self.blocks, index);
                    let Some(delta) = body.get("delta").and_then(Value::as_object) else {
                        continue;
                    };
                    if let Some(text) = delta.get("text").and_then(Value::as_str) {
                        block.text.push_str(text);
                        if !text.is_empty() {
                            to.text(text.to_owned());
                        }
                    } else if let Some(piece) = delta
                        .get("toolUse")
                        .and_then(|t| t.get("input"))
                        .and_then(Value::as_str)
                    {
                        block.tool = true;
                        to.push(index as u64, piece);
                    } else {
                        // Reasoning, citations, images: kept as the last delta gave them.
                        for (key, value) in delta {
                            block.value.insert(key.clone(), value.clone());
                        }
                    }
                }
                "contentBlockStop" => {
                    let index = block_index(&body, "contentBlockStop")?;
                    self.stop(index, to);
                }
                "messageStop" | "metadata" => {
                    if let Value::Object(fields) = body {
                        self.root.extend(fields);
                    }
                    if kind == "messageStop" {
                        to.end(None);
                    }
                }
                other if EXCEPTIONS.contains(&other) => {
                    let mut error = match body {
                        Value::Object(map) => map,
                        _ => Map::new(),
                    };
                    error.insert("code".into(), other.into());
                    to.end(Some(READ.provider(&Value::Object(error))));
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// The response `Converse` would have returned.
    fn into_response(self: Box<Self>, to: &mut Assembly) -> Value {
        let Self { role, blocks, root } = *self;
        let content: Vec<Value> = blocks
            .into_iter()
            .enumerate()
            .map(|(index, mut block)| {
                if !block.text.is_empty() {
                    block.value.insert("text".into(), Value::String(block.text));
                }
                let key = index as u64;
                if block.tool && !to.is_ready(key) {
                    // Never completed: its input as the pieces spell it, for the reader to judge.
                    if let Some(Value::Object(tool_use)) = block.value.get_mut("toolUse") {
                        let json = to.take_arguments(key).unwrap_or_default();
                        let input = serde_json::from_str(&json).unwrap_or(Value::String(json));
                        tool_use.insert("input".into(), input);
                    }
                }
                Value::Object(block.value)
            })
            .collect();
        let mut message = Map::new();
        message.insert("role".into(), role.unwrap_or_else(|| "assistant".into()));
        message.insert("content".into(), Value::Array(content));
        let mut response = Map::new();
        response.insert("output".into(), serde_json::json!({ "message": message }));
        response.extend(root);
        Value::Object(response)
    }
}

impl Converse {
    /// A block's stop: its text into it; a complete `toolUse` gets its input and is ready.
    fn stop(&mut self, index: usize, to: &mut Assembly) {
        let position = self.blocks[..index.min(self.blocks.len())]
            .iter()
            .filter(|b| b.tool)
            .count();
        let key = index as u64;
        let block = slot(&mut self.blocks, index);
        if !block.tool || to.is_ready(key) {
            return;
        }
        let Some((input, _)) = to.finished(key) else {
            return; // cut off: it never starts
        };
        if let Some(Value::Object(tool_use)) = block.value.get_mut("toolUse") {
            tool_use.insert("input".into(), input);
        }
        let value = &block.value;
        to.ready(key, position, || {
            super::calls::tool_use(value, At::item("output.message.content", index))
        });
    }
}

fn block_index(body: &Value, event: &'static str) -> Result<usize, ResponseError> {
    let at = At::from(event).field(".contentBlockIndex");
    index(&READ, body.get("contentBlockIndex"), at)
}
