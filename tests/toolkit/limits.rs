//! Argument limits (issue 6, point 5): size and nesting are checked before anything is decoded.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use serde_json::{json, Value};
use toolnexus::{Limits, NativeTool, ToolResult, Toolkit};

fn counting() -> (Toolkit, Arc<AtomicUsize>) {
    let runs = Arc::new(AtomicUsize::new(0));
    let seen = Arc::clone(&runs);
    let tool = NativeTool::of(
        "t",
        "d",
        json!({"type": "object", "properties": {}}),
        move |a| {
            seen.fetch_add(1, Ordering::SeqCst);
            async move { a.as_object().map_or(0, |m| m.len()).to_string() }
        },
    )
    .unwrap();
    (Toolkit::new().with(tool).unwrap(), runs)
}

fn nested(depth: usize) -> String {
    format!("{}1{}", "{\"a\":".repeat(depth), "}".repeat(depth))
}

#[tokio::test]
async fn a_ten_megabyte_string_is_refused_before_parsing() {
    let (toolkit, runs) = counting();
    let text = format!("{{\"q\":\"{}\"}}", "x".repeat(10 * 1024 * 1024));
    let r = toolkit.execute_json("t", &text).await;
    assert_eq!(
        r,
        ToolResult::error(format!(
            "invalid arguments for `t`: the arguments are larger than 1048576 bytes (at least {} bytes); send less data",
            text.len()
        ))
    );
    // The same as an object: its size is counted without building the text.
    let r = toolkit
        .execute("t", json!({"q": "x".repeat(10 * 1024 * 1024)}))
        .await;
    assert!(
        r.is_error && r.output.contains("larger than 1048576 bytes"),
        "{}",
        r.output
    );
    assert_eq!(runs.load(Ordering::SeqCst), 0);
}

#[tokio::test]
async fn nesting_is_bounded_and_100000_levels_neither_overflow_nor_run() {
    let (toolkit, runs) = counting();
    let deep = nested(100_000);
    let r = toolkit.execute_json("t", &deep).await;
    assert_eq!(
        r,
        ToolResult::error(
            "invalid arguments for `t`: the arguments are nested deeper than 64 levels"
        )
    );
    // 64 levels are fine (the object itself is level 1).
    assert_eq!(
        toolkit.execute_json("t", &nested(64)).await,
        ToolResult::ok("1")
    );
    assert!(toolkit.execute_json("t", &nested(65)).await.is_error);
    // Arrays count as levels too.
    let arrays = format!("{{\"a\":{}1{}}}", "[".repeat(70), "]".repeat(70));
    assert!(toolkit.execute_json("t", &arrays).await.is_error);
    // A deep Value is measured without recursion.
    let mut value = json!(1);
    for _ in 0..100 {
        value = json!({ "a": value });
    }
    let r = toolkit.execute("t", value).await;
    assert_eq!(
        r,
        ToolResult::error(
            "invalid arguments for `t`: the arguments are nested deeper than 64 levels"
        )
    );
    assert_eq!(runs.load(Ordering::SeqCst), 1, "only the 64-level call ran");
}

#[tokio::test]
async fn brackets_inside_strings_do_not_count_as_nesting() {
    let (toolkit, _) = counting();
    let text = format!("{{\"q\":\"{}\\\"{}\"}}", "[{".repeat(500), "}]".repeat(500));
    assert_eq!(toolkit.execute_json("t", &text).await, ToolResult::ok("1"));
}

#[tokio::test]
async fn ten_thousand_keys_are_fine_under_the_default_limits() {
    let (toolkit, _) = counting();
    let map: serde_json::Map<String, Value> =
        (0..10_000).map(|i| (format!("k{i}"), json!(i))).collect();
    let text = serde_json::to_string(&map).unwrap();
    assert_eq!(
        toolkit.execute_json("t", &text).await,
        ToolResult::ok("10000")
    );
    assert_eq!(
        toolkit.execute("t", Value::Object(map)).await,
        ToolResult::ok("10000")
    );
}

#[tokio::test]
async fn limits_are_configurable() {
    let (toolkit, _) = counting();
    let toolkit = toolkit.with_limits(Limits::default().with_max_bytes(16).with_max_depth(2));
    assert_eq!(
        toolkit.execute_json("t", r#"{"a":{"b":1}}"#).await,
        ToolResult::ok("1")
    );
    assert_eq!(
        toolkit.execute_json("t", r#"{"a":{"b":[1]}}"#).await,
        ToolResult::error(
            "invalid arguments for `t`: the arguments are nested deeper than 2 levels"
        )
    );
    assert_eq!(
        toolkit.execute_json("t", r#"{"a":"0123456789abcdef"}"#).await,
        ToolResult::error("invalid arguments for `t`: the arguments are larger than 16 bytes (at least 24 bytes); send less data")
    );
    // Counted size of a value equals its compact JSON length.
    let v = json!({"ab": [true, false, null, 12, "x"]});
    let exact = serde_json::to_string(&v).unwrap().len();
    let tk = counting()
        .0
        .with_limits(Limits::default().with_max_bytes(exact).with_max_depth(8));
    assert!(!tk.execute("t", v.clone()).await.is_error);
    let tk = counting().0.with_limits(
        Limits::default()
            .with_max_bytes(exact - 1)
            .with_max_depth(8),
    );
    assert!(tk.execute("t", v).await.is_error);
}
