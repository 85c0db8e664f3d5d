//! The toolkit's one call path: what a tool sees of its call (the call context) and when its
//! signal fires; a turn's repeated call ids.

use std::future::pending;
use std::pin::pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use async_trait::async_trait;
use futures::future::{select, Either};
use serde_json::{json, Value};
use tokio::sync::Notify;

use crate::{
    Arguments, CallArgs, CallContext, Dialect, InputSchema, NativeTool, Progress, RunOptions, Tool,
    ToolCall, ToolResult, Toolkit,
};

/// What a call of [`Probe`] left behind: its context, and whether its future's drop saw the
/// signal.
#[derive(Default)]
struct Seen {
    context: Mutex<Option<CallContext>>,
    dropped_cancelled: Mutex<Option<bool>>,
    started: Notify,
}

impl Seen {
    fn context(&self) -> CallContext {
        self.context.lock().unwrap().clone().expect("the tool ran")
    }
}

/// Records its context; then answers at once (`hang: false`) or never.
struct Probe {
    schema: InputSchema,
    seen: Arc<Seen>,
    hang: bool,
}

/// Sets `dropped_cancelled` when the tool's future is dropped.
struct OnDrop(Arc<Seen>, CallContext);

impl Drop for OnDrop {
    fn drop(&mut self) {
        *self.0.dropped_cancelled.lock().unwrap() = Some(self.1.is_cancelled());
    }
}

#[async_trait]
impl Tool for Probe {
    fn name(&self) -> &str {
        "probe"
    }
    fn description(&self) -> &str {
        "Records its call."
    }
    fn input_schema(&self) -> &InputSchema {
        &self.schema
    }
    async fn call(&self, context: CallContext, args: CallArgs<'_>) -> ToolResult {
        let args = match args.into_object(self.name()) {
            Ok(args) => args,
            Err(refused) => return refused,
        };
        {
            *self.seen.context.lock().unwrap() = Some(context.clone());
            let _guard = OnDrop(Arc::clone(&self.seen), context.clone());
            context.progress(1.0, Some(2.0), Some("half"));
            self.seen.started.notify_one();
            if self.hang {
                pending::<()>().await;
            }
            ToolResult::ok(format!(
                "{} {:?} {}",
                context.id().unwrap_or("-"),
                context.dialect(),
                args
            ))
        }
    }
}

fn probe(hang: bool) -> (Toolkit, Arc<Seen>) {
    let seen = Arc::new(Seen::default());
    let tool = Probe {
        schema: InputSchema::new(json!({"type": "object", "properties": {}})).unwrap(),
        seen: Arc::clone(&seen),
        hang,
    };
    (Toolkit::new().with(tool).unwrap(), seen)
}

fn chat_call(id: &str) -> Value {
    json!({"choices": [{"finish_reason": "tool_calls", "message": {"role": "assistant",
        "content": null, "tool_calls": [{"id": id, "type": "function",
        "function": {"name": "probe", "arguments": "{\"a\":1}"}}]}}]})
}

#[tokio::test]
async fn a_tool_sees_its_call_id_and_dialect() {
    let (toolkit, seen) = probe(false);
    let turn = toolkit
        .respond(&chat_call("call_9"), Dialect::OpenAiChat)
        .await
        .unwrap();
    // Text arguments reach the same `call`.
    assert_eq!(turn.results[0].output, r#"call_9 Some(OpenAiChat) {"a":1}"#);
    // A call that finished was not cancelled, and nobody listened to its progress.
    let context = seen.context();
    assert!(!context.is_cancelled());
    assert!(!context.has_listener());
    assert_eq!(*seen.dropped_cancelled.lock().unwrap(), Some(false));

    let call = ToolCall::new("c1", "probe", Arguments::Value(json!({})));
    let result = toolkit.execute_call(&call, &RunOptions::default()).await;
    assert_eq!(result.output, "c1 None {}");
    let by_name = toolkit.execute("probe", json!({})).await;
    assert_eq!(by_name.output, "- None {}");
}

#[tokio::test]
async fn dropping_the_turn_cancels_the_call_before_its_future_is_dropped() {
    let (toolkit, seen) = probe(true);
    let response = chat_call("call_1");
    {
        let turn = pin!(toolkit.respond(&response, Dialect::OpenAiChat));
        let started = pin!(seen.started.notified());
        match select(turn, started).await {
            Either::Left(_) => panic!("a hanging call finished"),
            Either::Right(((), _turn)) => {}
        }
        assert!(!seen.context().is_cancelled());
    } // the turn is dropped here
    let context = seen.context();
    assert!(context.is_cancelled());
    // The tool's own drop code ran after the signal fired.
    assert_eq!(*seen.dropped_cancelled.lock().unwrap(), Some(true));
    // `cancelled()` completes for a clone kept past the call.
    context.cancelled().await;
}

#[tokio::test]
async fn a_timeout_cancels_the_call() {
    let (toolkit, seen) = probe(true);
    let waiter = {
        let seen = Arc::clone(&seen);
        tokio::spawn(async move {
            seen.started.notified().await;
            seen.context().cancelled().await;
        })
    };
    let options = RunOptions::default().with_timeout(Duration::from_millis(20));
    let turn = toolkit
        .respond_with(&chat_call("call_2"), Dialect::OpenAiChat, &options)
        .await
        .unwrap();
    assert_eq!(turn.results[0].output, "tool `probe` timed out after 20ms");
    assert!(seen.context().is_cancelled());
    assert_eq!(*seen.dropped_cancelled.lock().unwrap(), Some(true));
    // A task waiting on `cancelled()` woke up.
    waiter.await.unwrap();
}

#[tokio::test]
async fn progress_reaches_a_listener_and_is_a_no_op_without_one() {
    let (toolkit, seen) = probe(false);
    // In a toolkit nobody listens: the report goes nowhere, and the call answers as usual.
    let result = toolkit.execute("probe", json!({})).await;
    assert!(!result.is_error);
    assert!(!seen.context().has_listener());

    let reports = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&reports);
    let context = CallContext::new()
        .with_id("x")
        .with_progress(move |p: Progress| sink.lock().unwrap().push(p));
    let tool = toolkit.get("probe").unwrap();
    let result = tool.call(context, CallArgs::Value(json!({}))).await;
    assert_eq!(result.output, "x None {}");
    let reports = reports.lock().unwrap();
    assert_eq!(reports.len(), 1);
    assert_eq!(
        (
            reports[0].done,
            reports[0].total,
            reports[0].message.as_deref()
        ),
        (1.0, Some(2.0), Some("half"))
    );
}

#[tokio::test]
async fn a_context_cancelled_by_hand_wakes_every_clone() {
    let context = CallContext::new().with_id("h");
    let clone = context.clone();
    let fired = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&fired);
    let waiter = tokio::spawn(async move {
        clone.cancelled().await;
        flag.store(true, Ordering::SeqCst);
    });
    tokio::task::yield_now().await;
    assert!(!context.is_cancelled());
    context.cancel();
    waiter.await.unwrap();
    assert!(fired.load(Ordering::SeqCst));
    // The context of a direct call (`Tool::execute`) has nothing to fire.
    let detached = CallContext::detached();
    detached.cancel();
    assert!(!detached.is_cancelled());
    assert_eq!(detached.id(), None);
}

/// Duplicate ids are found the same way by the pairwise check (up to 16 calls) and the hash
/// set (more).
#[tokio::test]
async fn duplicate_ids_are_the_same_for_few_and_many_calls() {
    let echo = NativeTool::of(
        "echo",
        "Echo",
        json!({"type": "object", "properties": {}}),
        |_| async { "ok" },
    )
    .unwrap();
    let toolkit = Toolkit::new().with(echo).unwrap();
    let ids = ["a", "b", "a", "c", "b", "d", "e", "a"];
    for n in [8, 16, 17, 40] {
        let calls: Vec<ToolCall> = (0..n)
            .map(|i| ToolCall {
                id: (i % 5 != 4).then(|| ids[i % ids.len()].to_owned() + &(i / 8).to_string()),
                name: "echo".into(),
                arguments: Arguments::Absent,
                ..Default::default()
            })
            .collect();
        let options = RunOptions::default().with_concurrency(64);
        let results = toolkit.execute_calls(&calls, &options).await;
        let mut seen = std::collections::HashSet::new();
        for (call, result) in calls.iter().zip(&results) {
            let duplicate = call.id.as_deref().is_some_and(|id| !seen.insert(id));
            assert_eq!(result.is_error, duplicate, "{n} {call:?}");
        }
    }
}
