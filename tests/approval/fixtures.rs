//! Tools and responses the approval tests share.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use serde_json::{json, Value};
use toolnexus::{NativeTool, ToolHints, Toolkit};

/// Counts the calls that ran, per tool.
#[derive(Clone, Default)]
pub struct Ran(pub Arc<[AtomicUsize; 2]>);

impl Ran {
    pub fn list(&self) -> usize {
        self.0[0].load(Ordering::SeqCst)
    }
    pub fn rm(&self) -> usize {
        self.0[1].load(Ordering::SeqCst)
    }
}

/// `list` (read-only) and `rm` (destructive, `path` a required string): each echoes its
/// arguments and counts its runs.
pub fn toolkit(ran: &Ran) -> Toolkit {
    let schema = json!({"type": "object", "properties": {"path": {"type": "string"}},
        "required": ["path"]});
    let counted = ran.clone();
    let list = NativeTool::of("list", "Lists a folder.", schema.clone(), move |args| {
        counted.0[0].fetch_add(1, Ordering::SeqCst);
        async move { format!("listed {}", args["path"].as_str().unwrap_or("?")) }
    })
    .unwrap()
    .with_hints(ToolHints::new().with_read_only(true));
    let counted = ran.clone();
    let rm = NativeTool::of("rm", "Deletes a file.", schema, move |args| {
        counted.0[1].fetch_add(1, Ordering::SeqCst);
        async move {
            match args["path"].as_str() {
                Some(path) => Ok(format!("deleted {path}")),
                None => Err("`path` must be a string"),
            }
        }
    })
    .unwrap()
    .with_hints(ToolHints::new().with_destructive(true));
    Toolkit::new().with(list).unwrap().with(rm).unwrap()
}

/// An OpenAI Chat response calling `list` then `rm` with these paths.
pub fn chat_response(list: &str, rm: &str) -> Value {
    json!({"choices": [{"finish_reason": "tool_calls", "message": {"role": "assistant",
        "content": null, "tool_calls": [
        {"id": "call_1", "type": "function", "function": {"name": "list",
            "arguments": json!({"path": list}).to_string()}},
        {"id": "call_2", "type": "function", "function": {"name": "rm",
            "arguments": json!({"path": rm}).to_string()}}]}}]})
}
