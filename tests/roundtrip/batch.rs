//! The batch runner under every dialect: bounded concurrency, order, timeouts, duplicate ids,
//! panics, the argument paths, and the strict-mode hook. Time is Tokio's paused clock, so no test
//! depends on how fast this machine is.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use serde_json::json;
use toolnexus::{Arguments, Dialect, NativeTool, RunOptions, ToolCall, ToolResult, Toolkit};

use crate::common::dialects;
use crate::common::roundtrip::*;

/// A toolkit whose `probe` tool records how many of its calls ran at once.
fn probe_toolkit() -> (Toolkit, Arc<AtomicUsize>) {
    let in_flight = Arc::new(AtomicUsize::new(0));
    let most = Arc::new(AtomicUsize::new(0));
    let (now, peak) = (Arc::clone(&in_flight), Arc::clone(&most));
    let probe = NativeTool::of(
        "probe",
        "Records concurrency",
        json!({"type": "object", "properties": {"n": {"type": "integer"}}}),
        move |args| {
            let (now, peak) = (Arc::clone(&now), Arc::clone(&peak));
            async move {
                let running = now.fetch_add(1, Ordering::SeqCst) + 1;
                peak.fetch_max(running, Ordering::SeqCst);
                tokio::time::sleep(Duration::from_millis(10)).await;
                now.fetch_sub(1, Ordering::SeqCst);
                format!("done {}", args["n"])
            }
        },
    )
    .unwrap();
    (Toolkit::new().with(probe).unwrap(), most)
}

fn probe_calls(n: usize) -> Vec<ToolCall> {
    (0..n)
        .map(|i| {
            ToolCall::new(
                format!("call_{i}"),
                "probe",
                Arguments::Text(format!("{{\"n\":{i}}}")),
            )
        })
        .collect()
}

fn outputs(results: &[ToolResult]) -> Vec<&str> {
    results.iter().map(|r| r.output.as_str()).collect()
}

#[tokio::test(start_paused = true)]
async fn calls_run_concurrently_up_to_the_bound_and_results_keep_call_order() {
    for (bound, expected_peak) in [(1, 1), (3, 3), (8, 8), (0, 1)] {
        let (toolkit, peak) = probe_toolkit();
        let options = RunOptions::default().with_concurrency(bound);
        let results = toolkit.execute_calls(&probe_calls(8), &options).await;
        assert_eq!(
            outputs(&results),
            (0..8).map(|i| format!("done {i}")).collect::<Vec<_>>(),
            "bound {bound}"
        );
        assert_eq!(peak.load(Ordering::SeqCst), expected_peak, "bound {bound}");
    }
}

#[tokio::test(start_paused = true)]
async fn the_default_runs_a_turn_of_eight_calls_at_once() {
    let (toolkit, peak) = probe_toolkit();
    toolkit
        .execute_calls(&probe_calls(8), &RunOptions::default())
        .await;
    assert_eq!(peak.load(Ordering::SeqCst), 8);
}

#[tokio::test(start_paused = true)]
async fn a_slow_first_call_does_not_reorder_results() {
    let (toolkit, _) = toolkit();
    let calls = [
        ToolCall::new("call_1", "slow_search", Arguments::Absent),
        ToolCall::new("call_2", "add", Arguments::Value(json!({"a": 1, "b": 2}))),
    ];
    let results = toolkit.execute_calls(&calls, &RunOptions::default()).await;
    assert_eq!(outputs(&results), ["no results", "3"]);
}

#[tokio::test(start_paused = true)]
async fn a_timeout_answers_only_the_slow_call() {
    let (toolkit, _) = toolkit();
    let calls = [
        ToolCall::new("call_1", "add", Arguments::Absent),
        ToolCall::new("call_2", "slow_search", Arguments::Text("{}".into())),
        ToolCall::new(
            "call_3",
            "get_weather",
            Arguments::Text(r#"{"city":"Oslo"}"#.into()),
        ),
    ];
    let options = RunOptions::default().with_timeout(Duration::from_millis(1500));
    let results = toolkit.execute_calls(&calls, &options).await;
    assert_eq!(
        outputs(&results),
        [
            "0",
            "tool `slow_search` timed out after 1.5s",
            "Oslo: 4°C, rain"
        ]
    );
    assert!(results[1].is_error);
}

#[tokio::test]
async fn a_duplicate_id_is_answered_without_running_the_call_twice() {
    let runs = Arc::new(AtomicUsize::new(0));
    let counter = Arc::clone(&runs);
    let charge = NativeTool::of(
        "charge_card",
        "Charges a card",
        json!({"type": "object", "properties": {}}),
        move |_| {
            let counter = Arc::clone(&counter);
            async move { format!("charge #{}", counter.fetch_add(1, Ordering::SeqCst) + 1) }
        },
    )
    .unwrap();
    let toolkit = Toolkit::new().with(charge).unwrap();
    let calls = [
        ToolCall::new("call_same", "charge_card", Arguments::Absent),
        ToolCall::new("call_same", "charge_card", Arguments::Absent),
        ToolCall::new("call_other", "charge_card", Arguments::Absent),
    ];
    let results = toolkit.execute_calls(&calls, &RunOptions::default()).await;
    assert_eq!(
        outputs(&results),
        [
            "charge #1",
            "duplicate call id `call_same`: an earlier call in this turn has it; this call was not run",
            "charge #2"
        ]
    );
    assert!(results[1].is_error);
    assert_eq!(runs.load(Ordering::SeqCst), 2);

    // Rendered, each call still has exactly one answer, in order, in every dialect.
    for fixture in dialects::ALL {
        let dialect = fixture.dialect();
        let answers = fixture.answers(&dialect.render_results(calls.iter().zip(&results)));
        let ids: Vec<_> = answers.iter().map(|a| a.id.as_deref()).collect();
        assert_eq!(
            ids,
            [Some("call_same"), Some("call_same"), Some("call_other")],
            "{dialect}"
        );
        let errors: Vec<_> = answers.iter().map(|a| a.error).collect();
        assert_eq!(errors, [Some(false), Some(true), Some(false)], "{dialect}");
    }
}

#[tokio::test]
async fn calls_without_ids_are_never_duplicates() {
    let (toolkit, _) = toolkit();
    let call = ToolCall::without_id("add", Arguments::Value(json!({"a": 2, "b": 2})));
    let results = toolkit
        .execute_calls(&[call.clone(), call], &RunOptions::default())
        .await;
    assert_eq!(outputs(&results), ["4", "4"]);
}

#[tokio::test]
async fn a_panic_is_an_error_result_and_its_payload_stays_in_metadata() {
    let (toolkit, _) = toolkit();
    let calls = [
        ToolCall::new("call_1", "explode", Arguments::Absent),
        ToolCall::new("call_2", "add", Arguments::Text(r#"{"a":40,"b":2}"#.into())),
    ];
    let results = toolkit.execute_calls(&calls, &RunOptions::default()).await;
    assert_eq!(results[0].output, PANICKED);
    assert!(results[0].is_error);
    assert_eq!(
        results[0].metadata.as_deref(),
        Some(&json!({"panic": "secret internals: the password is hunter2"}))
    );
    assert_eq!(results[1], ToolResult::ok("42"));
}

#[tokio::test]
async fn text_goes_through_execute_json_and_values_through_execute() {
    let (toolkit, paths) = toolkit();
    let options = RunOptions::default();
    let text = ToolCall::new(
        "a",
        "get_weather",
        Arguments::Text(r#"{"city":"Paris"}"#.into()),
    );
    let value = ToolCall::new(
        "b",
        "get_weather",
        Arguments::Value(json!({"city": "Paris"})),
    );
    let absent = ToolCall::new("c", "get_weather", Arguments::Absent);
    assert_eq!(
        toolkit.execute_call(&text, &options).await.output,
        "Paris: 18°C, sunny"
    );
    assert_eq!(
        toolkit.execute_call(&value, &options).await.output,
        "Paris: 18°C, sunny"
    );
    assert_eq!(
        toolkit.execute_call(&absent, &options).await.output,
        "invalid arguments for `get_weather`: missing field `city`"
    );
    assert_eq!(paths.counts(), (1, 2));
}

#[tokio::test]
async fn blank_and_null_argument_text_mean_an_empty_object() {
    let (toolkit, _) = toolkit();
    for text in ["", "   ", "null", "{}"] {
        let call = ToolCall::new("a", "add", Arguments::Text(text.into()));
        let result = toolkit.execute_call(&call, &RunOptions::default()).await;
        assert_eq!(result, ToolResult::ok("0"), "for {text:?}");
    }
}

#[tokio::test]
async fn under_strict_mode_arguments_are_read_into_a_value_and_unknown_tools_come_first() {
    let (toolkit, paths) = toolkit();
    let strict = RunOptions::default().with_openai_strict(true);
    let call = ToolCall::new(
        "a",
        "get_weather",
        Arguments::Text(r#"{"city":"Oslo"}"#.into()),
    );
    assert_eq!(
        toolkit.execute_call(&call, &strict).await.output,
        "Oslo: 4°C, rain"
    );
    assert_eq!(paths.counts(), (0, 1));

    let unknown = ToolCall::new("b", "get_stock_price", Arguments::Text("{not json".into()));
    assert_eq!(
        toolkit.execute_call(&unknown, &strict).await.output,
        UNKNOWN_STOCK
    );
    let bad = ToolCall::new("c", "add", Arguments::Text("[]".into()));
    assert_eq!(
        toolkit.execute_call(&bad, &strict).await.output,
        "invalid arguments for `add`: expected a JSON object, got an array"
    );
}

#[test]
fn a_turn_can_be_spawned_onto_a_multithreaded_runtime() {
    fn assert_send<T: Send>(_: &T) {}
    let (toolkit, _) = toolkit();
    let response = fixture("openai_chat_parallel");
    let turn = toolkit.respond(&response, Dialect::OpenAiChat);
    assert_send(&turn);
    let (calls, options) = (probe_calls(2), RunOptions::default());
    let batch = toolkit.execute_calls(&calls, &options);
    assert_send(&batch);
}

#[tokio::test]
async fn under_strict_mode_a_null_the_schema_does_not_allow_reaches_the_tool_as_absent() {
    let echo = NativeTool::of(
        "echo",
        "Echo",
        json!({
            "type": "object",
            "properties": {
                "city": {"type": "string"},
                "days": {"type": "integer"},
                "note": {"type": ["string", "null"]},
                "unit": {"type": "object", "properties": {"deg": {"type": "string"}}}
            },
            "required": ["city"]
        }),
        |args| async move { args.to_string() },
    )
    .unwrap();
    let toolkit = Toolkit::new().with(echo).unwrap();
    let text = r#"{"city":"Oslo","days":null,"note":null,"unit":{"deg":null}}"#;
    let call = ToolCall::new("a", "echo", Arguments::Text(text.into()));
    // Strict: `days` and `unit.deg` do not allow null, so they become absent; `note` does, so it stays.
    let strict = RunOptions::default().with_openai_strict(true);
    assert_eq!(
        toolkit.execute_call(&call, &strict).await.output,
        r#"{"city":"Oslo","note":null,"unit":{}}"#
    );
    // Not strict: the arguments reach the tool as sent.
    assert_eq!(
        toolkit
            .execute_call(&call, &RunOptions::default())
            .await
            .output,
        text
    );
    // The size limit is checked before strict mode parses anything.
    let small = Toolkit::new()
        .with(
            NativeTool::of(
                "echo",
                "Echo",
                json!({"type": "object", "properties": {}}),
                |a| async move { a.to_string() },
            )
            .unwrap(),
        )
        .unwrap()
        .with_limits(
            toolnexus::Limits::default()
                .with_max_bytes(8)
                .with_max_depth(8),
        );
    assert!(small
        .execute_call(&call, &strict)
        .await
        .output
        .contains("larger than 8 bytes"));
}
