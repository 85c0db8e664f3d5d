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

use crate::response::Reader;
use crate::wire::{one_call, Signal};
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

#[derive(Debug, Default)]
pub(crate) struct Converse {
    role: Option<Value>,
    blocks: Vec<Block>,
    /// `messageStop`'s and `metadata`'s fields (`stopReason`, `usage`, `metrics`, ...).
    root: Map<String, Value>,
    max_bytes: usize,
}

#[derive(Debug, Default)]
struct Block {
    /// The block as it will be sent back (a `toolUse` without its `input` until its stop).
    value: Map<String, Value>,
    /// Text received by deltas.
    text: String,
    /// The tool input's JSON pieces, the bytes received, and whether they went past the bound.
    json: String,
    bytes: usize,
    oversize: bool,
    tool: bool,
    ready: bool,
}

impl Converse {
    pub(crate) fn new(max_bytes: usize) -> Self {
        Self {
            max_bytes,
            ..Self::default()
        }
    }

    pub(crate) fn apply(
        &mut self,
        event: Value,
        out: &mut Vec<Signal>,
    ) -> Result<(), ResponseError> {
        let Value::Object(event) = event else {
            return Err(READ.malformed("(event)", "an object", Some(&event)));
        };
        for (kind, body) in event {
            match kind.as_str() {
                "messageStart" => self.role = body.get("role").cloned(),
                "contentBlockStart" => {
                    let index = index(&body, "contentBlockStart")?;
                    let block = self.block(index);
                    if let Some(tool_use) =
                        body.pointer("/start/toolUse").and_then(Value::as_object)
                    {
                        block.tool = true;
                        block
                            .value
                            .insert("toolUse".into(), Value::Object(tool_use.clone()));
                    }
                }
                "contentBlockDelta" => {
                    let index = index(&body, "contentBlockDelta")?;
                    let max = self.max_bytes;
                    let block = self.block(index);
                    let Some(delta) = body.get("delta").and_then(Value::as_object) else {
                        continue;
                    };
                    if let Some(text) = delta.get("text").and_then(Value::as_str) {
                        block.text.push_str(text);
                        if !text.is_empty() {
                            out.push(Signal::Text(text.to_owned()));
                        }
                    } else if let Some(piece) = delta
                        .get("toolUse")
                        .and_then(|t| t.get("input"))
                        .and_then(Value::as_str)
                    {
                        block.tool = true;
                        block.bytes = block.bytes.saturating_add(piece.len());
                        if block.bytes > max {
                            block.oversize = true;
                            block.json.clear();
                        } else if !block.oversize {
                            block.json.push_str(piece);
                        }
                    } else {
                        // Reasoning, citations, images: kept as the last delta gave them.
                        for (key, value) in delta {
                            block.value.insert(key.clone(), value.clone());
                        }
                    }
                }
                "contentBlockStop" => {
                    let index = index(&body, "contentBlockStop")?;
                    self.stop(index, out);
                }
                "messageStop" | "metadata" => {
                    if let Value::Object(fields) = body {
                        self.root.extend(fields);
                    }
                    if kind == "messageStop" {
                        out.push(Signal::End(None));
                    }
                }
                other if EXCEPTIONS.contains(&other) => {
                    let mut error = match body {
                        Value::Object(map) => map,
                        _ => Map::new(),
                    };
                    error.insert("code".into(), other.into());
                    out.push(Signal::End(Some(READ.provider(&Value::Object(error)))));
                }
                _ => {}
            }
        }
        Ok(())
    }

    fn block(&mut self, index: usize) -> &mut Block {
        if self.blocks.len() <= index {
            self.blocks.resize_with(index + 1, Block::default);
        }
        &mut self.blocks[index]
    }

    /// A block's stop: its text into it; a complete `toolUse` gets its input and is ready.
    fn stop(&mut self, index: usize, out: &mut Vec<Signal>) {
        let position = self.blocks[..index.min(self.blocks.len())]
            .iter()
            .filter(|b| b.tool)
            .count();
        let block = self.block(index);
        if !block.tool || block.ready {
            return;
        }
        // Past the bound (it gets an error result, never runs) or no pieces at all: `{}`.
        let input = if block.oversize || block.json.trim().is_empty() {
            Some(Value::Object(Map::new()))
        } else {
            serde_json::from_str::<Value>(&block.json)
                .ok()
                .filter(Value::is_object)
        };
        let Some(input) = input else {
            return; // cut off: it never starts
        };
        block.ready = true;
        let oversize = block.oversize.then_some(block.bytes);
        if let Some(Value::Object(tool_use)) = block.value.get_mut("toolUse") {
            tool_use.insert("input".into(), input);
        }
        let response = serde_json::json!({"output": {"message": {"content": [block.value]}}});
        if let Some(call) = one_call(super::parse_calls, &response) {
            out.push(Signal::Ready {
                position,
                call,
                oversize,
            });
        }
    }

    /// The response `Converse` would have returned.
    pub(crate) fn into_response(self) -> Value {
        let content: Vec<Value> = self
            .blocks
            .into_iter()
            .map(|mut block| {
                if !block.text.is_empty() {
                    block.value.insert("text".into(), Value::String(block.text));
                }
                if block.tool && !block.ready {
                    // Never completed: its input as the pieces spell it, for the reader to judge.
                    if let Some(Value::Object(tool_use)) = block.value.get_mut("toolUse") {
                        let input =
                            serde_json::from_str(&block.json).unwrap_or(Value::String(block.json));
                        tool_use.insert("input".into(), input);
                    }
                }
                Value::Object(block.value)
            })
            .collect();
        let mut message = Map::new();
        message.insert(
            "role".into(),
            self.role.unwrap_or_else(|| "assistant".into()),
        );
        message.insert("content".into(), Value::Array(content));
        let mut root = Map::new();
        root.insert("output".into(), serde_json::json!({ "message": message }));
        root.extend(self.root);
        Value::Object(root)
    }
}

fn index(body: &Value, event: &'static str) -> Result<usize, ResponseError> {
    match body.get("contentBlockIndex").and_then(Value::as_u64) {
        // A stream holds few blocks: an index past this bound is no real one.
        Some(i) if i < 10_000 => Ok(i as usize),
        _ => Err(ResponseError::Malformed {
            ran: Default::default(),
            dialect: Dialect::Bedrock,
            path: format!("{event}.contentBlockIndex"),
            expected: "an integer below 10000",
            found: body
                .get("contentBlockIndex")
                .map_or("nothing", crate::values::text::kind),
        }),
    }
}

crate::wire::accumulate!(Converse);
