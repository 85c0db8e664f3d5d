//! A `#[tool]` fn's `CallContext` parameter: known by its type, left out of the schema, and
//! handed the toolkit's context of each call (by value or by reference, in an `async fn`, a
//! plain `fn`, next to `#[state]` and `#[args]`).

use std::sync::{Arc, Mutex};

use serde_json::json;
use toolnexus::{
    tool, Arguments, CallContext, Dialect, Progress, RunOptions, Tool, ToolArgs, ToolCall, Toolkit,
};

/// Says which call it is.
#[tool]
async fn whoami(
    /// A prefix.
    prefix: String,
    ctx: CallContext,
) -> String {
    format!("{prefix} {} {:?}", ctx.id().unwrap_or("-"), ctx.dialect())
}

/// The same from a plain fn, the context by reference, before the argument.
#[tool]
fn whoami_ref(ctx: &toolnexus::CallContext, n: i64) -> String {
    format!("{n} {}", ctx.id().unwrap_or("-"))
}

#[derive(serde::Deserialize, schemars::JsonSchema, ToolArgs)]
struct Job {
    steps: u32,
}

/// Runs a job, reporting progress, with a log as state.
#[tool]
async fn run_job(#[state] log: &Mutex<Vec<String>>, ctx: CallContext, #[args] job: Job) -> String {
    for step in 1..=job.steps {
        ctx.progress(f64::from(step), Some(f64::from(job.steps)), None);
    }
    log.lock().unwrap().push(ctx.id().unwrap_or("-").to_owned());
    format!("{} steps", job.steps)
}

#[test]
fn the_context_is_not_in_the_schema() {
    let schema = Whoami.input_schema().as_value().clone();
    assert_eq!(
        schema["properties"],
        json!({"prefix": {"type": "string", "description": "A prefix."}})
    );
    assert_eq!(schema["required"], json!(["prefix"]));
    assert_eq!(
        WhoamiRef.input_schema().as_value()["required"],
        json!(["n"])
    );
    assert_eq!(
        RunJob {
            log: Mutex::default()
        }
        .input_schema()
        .as_value()["required"],
        json!(["steps"])
    );
}

#[tokio::test]
async fn the_fn_gets_the_toolkits_context_of_each_call() {
    let toolkit = Toolkit::new()
        .with(Whoami)
        .unwrap()
        .with(WhoamiRef)
        .unwrap();
    let response = json!({"type": "message", "role": "assistant", "stop_reason": "tool_use",
        "content": [
            {"type": "tool_use", "id": "toolu_1", "name": "whoami", "input": {"prefix": "a"}},
            {"type": "tool_use", "id": "toolu_2", "name": "whoami_ref", "input": {"n": 7}}]});
    let turn = toolkit
        .respond(&response, Dialect::Anthropic)
        .await
        .unwrap();
    assert_eq!(turn.results[0].output, "a toolu_1 Some(Anthropic)");
    assert_eq!(turn.results[1].output, "7 toolu_2");

    // Text arguments too (a call read without a dialect has none).
    let call = ToolCall::new("c9", "whoami", Arguments::Text(r#"{"prefix":"t"}"#.into()));
    let result = toolkit.execute_call(&call, &RunOptions::default()).await;
    assert_eq!(result.output, "t c9 None");

    // Called directly, outside a toolkit: a context with nothing in it.
    assert_eq!(
        Whoami.execute(json!({"prefix": "d"})).await.output,
        "d - None"
    );
    assert_eq!(WhoamiRef.execute_json(r#"{"n": 1}"#).await.output, "1 -");
}

#[tokio::test]
async fn progress_and_state_next_to_the_context() {
    let tool = RunJob {
        log: Mutex::default(),
    };
    let reports = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&reports);
    let ctx = CallContext::new()
        .with_id("job_1")
        .with_progress(move |p: Progress| sink.lock().unwrap().push((p.done, p.total)));
    let result = tool
        .call(ctx, toolnexus::CallArgs::Text(r#"{"steps": 2}"#))
        .await;
    assert_eq!(result.output, "2 steps");
    assert_eq!(
        *reports.lock().unwrap(),
        [(1.0, Some(2.0)), (2.0, Some(2.0))]
    );
    assert_eq!(*tool.log.lock().unwrap(), ["job_1"]);

    // The fn stays an ordinary fn: a test hands it a context of its own.
    let log = Mutex::default();
    let out = run_job(&log, CallContext::new(), Job { steps: 0 }).await;
    assert_eq!(out, "0 steps");
}

/// A builder never detaches an earlier clone from the signal (issue 39): a clone a spawned
/// task holds, made before `with_id`, `with_dialect` or `with_progress`, still sees the call
/// cancelled, and its `cancelled()` wakes; the id, dialect and listener are the built one's.
#[tokio::test]
async fn builders_keep_every_clone_on_one_signal() {
    let first = CallContext::new();
    let early = first.clone();
    let built = first
        .with_id("call_9")
        .with_dialect(toolnexus::Dialect::Gemini)
        .with_progress(|_| {});
    let later = built.clone();
    let rebuilt = later.clone().with_id("call_10");
    let waiting = tokio::spawn({
        let early = early.clone();
        async move { early.cancelled().await }
    });
    assert!(!early.is_cancelled());
    rebuilt.cancel();
    for ctx in [&early, &built, &later, &rebuilt] {
        assert!(ctx.is_cancelled(), "{ctx:?}");
    }
    tokio::time::timeout(std::time::Duration::from_secs(10), waiting)
        .await
        .expect("the early clone's cancelled() wakes")
        .unwrap();
    assert_eq!(early.id(), None);
    assert_eq!(built.id(), Some("call_9"));
    assert_eq!(rebuilt.id(), Some("call_10"));
}
