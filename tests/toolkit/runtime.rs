//! Issue 24, point 7: a host's runtime without Tokio's timer is the host's mistake. A call with
//! `RunOptions::with_timeout` on such a runtime used to be answered "tool `echo` panicked" (the
//! panic was Tokio's "timers are disabled", inside the crate's own timeout); now the call does
//! not run and its result says to enable time.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use serde_json::json;
use toolnexus::{Arguments, Dialect, NativeTool, RunOptions, ToolCall, Toolkit};

const NO_TIMER: &str = "tool `echo` was not run: the host's setup, not this call, is at fault. \
    `RunOptions::with_timeout` needs Tokio's timer, which this call's runtime lacks; build the \
    Tokio runtime with `enable_time()` or `enable_all()`";

/// An `echo` tool that counts its runs, and a `sleepy` one that uses Tokio's timer itself.
fn toolkit(runs: &Arc<AtomicUsize>) -> Toolkit {
    let counter = Arc::clone(runs);
    let echo = NativeTool::of(
        "echo",
        "Echoes",
        json!({"type": "object", "properties": {}}),
        move |args| {
            counter.fetch_add(1, Ordering::SeqCst);
            async move { args.to_string() }
        },
    )
    .unwrap();
    let sleepy = NativeTool::of(
        "sleepy",
        "Sleeps a moment",
        json!({"type": "object", "properties": {}}),
        |_| async move {
            tokio::time::sleep(Duration::from_millis(1)).await;
            "slept"
        },
    )
    .unwrap();
    Toolkit::new().with(echo).unwrap().with(sleepy).unwrap()
}

/// A runtime as `Builder::new_current_thread().build()` makes it: no time driver.
fn runtime_without_time() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap()
}

#[test]
fn a_timeout_on_a_runtime_without_time_is_the_hosts_error_not_a_panic() {
    let runs = Arc::new(AtomicUsize::new(0));
    let toolkit = toolkit(&runs);
    let timed = RunOptions::default().with_timeout(Duration::from_secs(5));
    let call = ToolCall::new("call_1", "echo", Arguments::Text("{}".to_owned()));
    let response = json!({"choices": [{"finish_reason": "tool_calls", "message": {
        "role": "assistant", "content": null, "tool_calls": [{"id": "call_1", "type": "function",
        "function": {"name": "echo", "arguments": "{}"}}]}}]});
    let (one, turn) = runtime_without_time().block_on(async {
        let one = toolkit.execute_call(&call, &timed).await;
        let turn = toolkit
            .respond_with(&response, Dialect::OpenAiChat, &timed)
            .await
            .unwrap();
        (one, turn)
    });
    for result in [&one, &turn.results[0]] {
        assert!(result.is_error);
        assert_eq!(result.output, NO_TIMER);
        let runtime = result.metadata.as_ref().unwrap()["runtime"]
            .as_str()
            .unwrap();
        assert!(runtime.contains("timers are disabled"), "{runtime}");
    }
    assert_eq!(
        turn.result_messages[0]["content"],
        format!("Error: {NO_TIMER}")
    );
    // The tool's own code never ran: no side effect happened under a bound that did not exist.
    assert_eq!(runs.load(Ordering::SeqCst), 0);

    // Without a timeout, nothing needs the timer: the call runs.
    let untimed =
        runtime_without_time().block_on(toolkit.execute_call(&call, &RunOptions::default()));
    assert_eq!((untimed.output.as_str(), untimed.is_error), ("{}", false));
    assert_eq!(runs.load(Ordering::SeqCst), 1);
}

#[test]
fn a_tool_that_needs_the_timer_itself_still_panicked_on_its_own() {
    // The same missing driver hit inside the tool's own code is the tool's panic, as before.
    let runs = Arc::new(AtomicUsize::new(0));
    let toolkit = toolkit(&runs);
    let call = ToolCall::new("call_1", "sleepy", Arguments::Absent);
    let result =
        runtime_without_time().block_on(toolkit.execute_call(&call, &RunOptions::default()));
    assert_eq!(
        result.output,
        "tool `sleepy` panicked; it could not complete this call"
    );
    // With time enabled, the timed call runs as usual.
    let enabled = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .unwrap();
    let timed = RunOptions::default().with_timeout(Duration::from_secs(5));
    let result = enabled.block_on(toolkit.execute_call(&call, &timed));
    assert_eq!((result.output.as_str(), result.is_error), ("slept", false));
}

#[test]
fn the_timer_check_prints_nothing_to_stderr() {
    // The check's panic is caught; it must not reach the panic hook either (a message and a
    // backtrace on stderr, for a result that already says what to fix). Run the test above
    // alone in a child process of this test binary and read its stderr.
    let child = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "runtime::a_timeout_on_a_runtime_without_time_is_the_hosts_error_not_a_panic",
            "--nocapture",
            "--test-threads=1",
        ])
        .env("RUST_BACKTRACE", "1")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&child.stdout);
    let stderr = String::from_utf8_lossy(&child.stderr);
    assert!(child.status.success(), "{stdout}{stderr}");
    assert!(
        stdout.contains("1 passed"),
        "the child ran no test: {stdout}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(!stderr.contains("timers are disabled"), "{stderr}");
    // A panic of the tool's own still reaches the hook, as any panic does.
    let child = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "runtime::a_tool_that_needs_the_timer_itself_still_panicked_on_its_own",
            "--nocapture",
        ])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&child.stderr).contains("panicked"));
}
