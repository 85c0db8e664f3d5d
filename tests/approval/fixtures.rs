//! Tools and responses the approval tests share.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use serde_json::{json, Value};
use toolnexus::{Dialect, NativeTool, ToolHints, Toolkit};

use crate::common::dialects::{self, Call};

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

/// `list` then `rm` with these paths, as `call_1` and `call_2`.
pub fn calls(list: &str, rm: &str) -> [Call; 2] {
    [
        Call::new("call_1", "list", json!({"path": list})),
        Call::new("call_2", "rm", json!({"path": rm})),
    ]
}

/// An OpenAI Chat response calling `list` then `rm` with these paths (the dialect the policy
/// tests speak: what they test is the policy, not the format).
pub fn chat_response(list: &str, rm: &str) -> Value {
    dialects::of(Dialect::OpenAiChat).response(&calls(list, rm))
}
