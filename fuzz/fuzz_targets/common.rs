//! A toolkit shared by the fuzz targets: a typed tool (decodes into a struct), an untyped one,
//! and one that fails, so every execution path is reachable from model input. (No panicking tool:
//! libFuzzer's panic hook aborts even on a panic the toolkit catches; tests cover that path.)

use std::sync::OnceLock;

use serde::Deserialize;
use serde_json::json;
use toolnexus::{__private::decode_str, __private::decode_value, NativeTool, Toolkit};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)] // Fields are read only by serde.
pub struct Order {
    pub sku: String,
    pub qty: u8,
    pub note: Option<String>,
    pub tags: Vec<String>,
    pub address: Address,
}

#[derive(Debug, Deserialize)]
#[allow(dead_code)]
pub struct Address {
    pub street: String,
    pub zip: Option<u32>,
}

pub fn toolkit() -> &'static Toolkit {
    static TOOLKIT: OnceLock<Toolkit> = OnceLock::new();
    TOOLKIT.get_or_init(|| {
        let object = json!({"type": "object", "properties": {}});
        let typed = NativeTool::of("order", "Typed", object.clone(), |args| async move {
            match decode_value::<Order>("order", args) {
                Ok(order) => toolnexus::ToolResult::ok(format!("{} x{}", order.sku, order.qty)),
                Err(refused) => refused,
            }
        })
        .unwrap();
        let echo = NativeTool::of("echo", "Untyped", object.clone(), |args| {
            let text = args.to_string();
            RUNS.with(|runs| runs.borrow_mut().push(text.clone()));
            async move { text }
        })
        .unwrap();
        let fails = NativeTool::of("fails", "Err", object.clone(), |_| async { Err::<String, _>("no") }).unwrap();
        Toolkit::new().with(typed).unwrap().with(echo).unwrap().with(fails).unwrap()
    })
}

thread_local! {
    /// The arguments of every run of `echo` on this thread, as JSON text.
    static RUNS: std::cell::RefCell<Vec<String>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// The runs of `echo` since the last call, sorted (a multiset to compare).
pub fn take_runs() -> Vec<String> {
    let mut runs = RUNS.with(|runs| std::mem::take(&mut *runs.borrow_mut()));
    runs.sort();
    runs
}

pub fn runtime() -> &'static tokio::runtime::Runtime {
    static RT: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RT.get_or_init(|| tokio::runtime::Builder::new_current_thread().build().unwrap())
}

/// The typed decoder on its own, as `#[tool]` code calls it.
pub fn decode_typed(text: &str) -> bool {
    decode_str::<Order>("order", text).is_ok()
}
