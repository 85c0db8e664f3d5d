//! One guard per call (issue 16 point 2, issue 11 "no hidden hooks", SPEC §9): every piece of
//! user code that runs for a call runs inside the toolkit's one panic guard. One test per way a
//! panic used to escape it: a `NativeTool` closure that panics before it returns its future, a
//! hand-written `execute` that panics before `Box::pin`, a `#[tool]` parameter whose own
//! `Deserialize` panics on a value the model chose, a `#[state]` whose `Clone` panics, a panic
//! payload whose own `Drop` panics (also thrown while a timeout cancels a call), a future whose
//! drop panics after it finished; and a plain custom `Tool` that panics. Each is answered through
//! `execute`, `execute_json`, `execute_call` and `respond` in every dialect with
//! ``tool `NAME` panicked; it could not complete this call`` (the payload only in
//! `metadata.panic`), the call next to it is answered as usual, and the test goes on: the
//! process did not unwind.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use schemars::JsonSchema;
use serde::{Deserialize, Deserializer};
use serde_json::{json, Value};
use toolnexus::{
    async_trait, tool, Arguments, InputSchema, NativeTool, RunOptions, Tool, ToolCall, ToolResult,
    Toolkit,
};

use crate::fixtures::*;

fn panicked(name: &str) -> String {
    format!("tool `{name}` panicked; it could not complete this call")
}

/// A healthy tool, called next to the one that panics in every turn.
fn fine() -> NativeTool {
    NativeTool::of(
        "fine",
        "Answers ok",
        json!({"type": "object", "properties": {}}),
        |_| async { "ok" },
    )
    .unwrap()
}

fn toolkit(tool: impl Tool + 'static) -> Toolkit {
    Toolkit::new().with(tool).unwrap().with(fine()).unwrap()
}

/// Calls tool `name` with `args` through every public per-call path and checks each answer:
/// ``tool `NAME` panicked``, the payload's text (`panic`) only in `metadata.panic`, and the call
/// beside it answered.
async fn assert_panicked_everywhere(toolkit: &Toolkit, name: &str, args: Value, panic: &str) {
    let expected = ToolResult::error(panicked(name)).with_metadata(json!({ "panic": panic }));
    assert_eq!(
        toolkit.execute(name, args.clone()).await,
        expected,
        "execute"
    );
    assert_eq!(
        toolkit.execute_json(name, &args.to_string()).await,
        expected,
        "execute_json"
    );
    for arguments in [
        Arguments::Text(args.to_string()),
        Arguments::Value(args.clone()),
    ] {
        let call = ToolCall::new("call_1", name, arguments);
        let result = toolkit.execute_call(&call, &RunOptions::default()).await;
        assert_eq!(result, expected, "execute_call");
    }
    for strict in [false, true] {
        let options = RunOptions::default().with_openai_strict(strict);
        for fixture in dialects::ALL {
            let dialect = fixture.dialect();
            let body = fixture.body(&[
                WireCall::json("call_1", name, &args),
                WireCall::json("call_2", "fine", &json!({})),
            ]);
            let answers = round_trip(toolkit, fixture, &body, &options)
                .await
                .unwrap_or_else(|e| panic!("{dialect}: {e}"));
            let texts: Vec<&str> = answers.iter().map(|a| a.text.as_str()).collect();
            assert_eq!(texts, [panicked(name).as_str(), "ok"], "{dialect}");
            // The payload never reaches the model.
            assert!(!answers[0].text.contains(panic), "{dialect}");
            let response = dialect.parse_body(&body).unwrap();
            let turn = toolkit
                .respond_with(&response, dialect, &options)
                .await
                .unwrap();
            assert_eq!(turn.results[0], expected, "{dialect} strict={strict}");
            // Nor does it anywhere in the messages sent next (metadata included).
            let sent = serde_json::to_string(&turn.result_messages).unwrap();
            assert!(!sent.contains(panic), "{dialect}: {sent}");
        }
    }
}

/// Route 1: the closure of a `NativeTool` panics before it returns its future.
#[tokio::test]
async fn a_closure_that_panics_before_its_future_is_answered() {
    let lookup = NativeTool::of(
        "lookup",
        "Looks up a record",
        json!({"type": "object", "properties": {"id": {"type": "integer"}}}),
        |args| {
            let id = args["id"].as_u64().expect("the id is a number");
            async move { format!("record {id}") }
        },
    )
    .unwrap();
    let toolkit = toolkit(lookup);
    assert_eq!(
        toolkit.execute("lookup", json!({"id": 7})).await.output,
        "record 7"
    );
    assert_panicked_everywhere(&toolkit, "lookup", json!({"id": "x"}), "the id is a number").await;
}

/// Route 2: a hand-written `call` that does work before it builds its future.
struct Eager {
    schema: InputSchema,
}

impl Tool for Eager {
    fn name(&self) -> &str {
        "eager"
    }
    fn description(&self) -> &str {
        "Reads its argument before it builds the future"
    }
    fn input_schema(&self) -> &InputSchema {
        &self.schema
    }
    fn call<'s, 'a, 'f>(
        &'s self,
        _: toolnexus::CallContext,
        args: toolnexus::CallArgs<'a>,
    ) -> Pin<Box<dyn Future<Output = ToolResult> + Send + 'f>>
    where
        's: 'f,
        'a: 'f,
        Self: 'f,
    {
        let args = args.into_object("eager").expect("an object");
        let n = args["n"].as_u64().expect("n is a number");
        Box::pin(async move { ToolResult::ok(n.to_string()) })
    }
}

#[tokio::test]
async fn a_hand_written_execute_that_panics_before_box_pin_is_answered() {
    let schema =
        InputSchema::new(json!({"type": "object", "properties": {"n": {"type": "integer"}}}));
    let toolkit = toolkit(Eager {
        schema: schema.unwrap(),
    });
    assert_eq!(toolkit.execute("eager", json!({"n": 3})).await.output, "3");
    assert_panicked_everywhere(&toolkit, "eager", json!({}), "n is a number").await;
}

/// Route 3: a parameter type whose own `Deserialize` panics on a value the model chose.
#[derive(JsonSchema)]
struct Divisor(u32);

impl<'de> Deserialize<'de> for Divisor {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let n = u32::deserialize(deserializer)?;
        assert!(n != 0, "a divisor of zero");
        Ok(Divisor(n))
    }
}

/// Divides 100 by `by`.
#[tool]
async fn divide(by: Divisor) -> String {
    (100 / by.0).to_string()
}

#[tokio::test]
async fn a_parameter_whose_deserialize_panics_is_answered() {
    let toolkit = toolkit(Divide);
    assert_eq!(
        toolkit.execute("divide", json!({"by": 4})).await.output,
        "25"
    );
    assert_panicked_everywhere(&toolkit, "divide", json!({"by": 0}), "a divisor of zero").await;
}

/// Route 4: `#[state]` passed by value whose `Clone` panics.
struct Fragile {
    greeting: &'static str,
}

impl Clone for Fragile {
    fn clone(&self) -> Self {
        panic!("this state cannot be cloned")
    }
}

/// Uses state that is cloned for each call.
#[tool]
async fn stateful(#[state] fragile: Fragile, word: String) -> String {
    format!("{} {word}", fragile.greeting)
}

#[tokio::test]
async fn a_state_whose_clone_panics_is_answered() {
    let toolkit = toolkit(Stateful {
        fragile: Fragile { greeting: "hello" },
    });
    assert_panicked_everywhere(
        &toolkit,
        "stateful",
        json!({"word": "hi"}),
        "this state cannot be cloned",
    )
    .await;
}

/// A panic payload whose own `Drop` panics (with a plain message).
struct LoudPayload;

impl Drop for LoudPayload {
    fn drop(&mut self) {
        panic!("the payload's drop panicked");
    }
}

/// A panic payload whose own `Drop` panics with another payload like itself, without end.
struct EndlessPayload;

impl Drop for EndlessPayload {
    fn drop(&mut self) {
        std::panic::panic_any(EndlessPayload);
    }
}

fn throw<P: std::any::Any + Send>(payload: P) -> String {
    std::panic::panic_any(payload)
}

/// Route 5: the payload of a tool's panic panics when it is dropped.
#[tokio::test]
async fn a_payload_whose_drop_panics_is_answered() {
    let loud = NativeTool::of(
        "loud",
        "Panics with a payload whose drop panics",
        json!({"type": "object", "properties": {}}),
        |_| async { throw(LoudPayload) },
    )
    .unwrap();
    assert_panicked_everywhere(
        &toolkit(loud),
        "loud",
        json!({}),
        "a non-string panic payload",
    )
    .await;
    let endless = NativeTool::of(
        "endless",
        "Panics with a payload whose drop panics with another such payload",
        json!({"type": "object", "properties": {}}),
        |_| async { throw(EndlessPayload) },
    )
    .unwrap();
    assert_panicked_everywhere(
        &toolkit(endless),
        "endless",
        json!({}),
        "a non-string panic payload",
    )
    .await;
}

/// Held by a call that never finishes: when the timeout drops the call, this throws a payload
/// whose own `Drop` panics.
struct ThrowsOnDrop;

impl Drop for ThrowsOnDrop {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            std::panic::panic_any(LoudPayload);
        }
    }
}

/// Route 6: route 5 thrown from a `Drop` that the timeout's cancellation runs. The call timed
/// out: it is answered as a timeout (as any panic while a timed-out call is dropped is), the
/// payload's text in `metadata.panic`, and the turn and the process go on.
#[tokio::test(start_paused = true)]
async fn a_payload_whose_drop_panics_thrown_while_a_timeout_cancels_is_answered() {
    let stuck = NativeTool::of(
        "stuck",
        "Holds a guard and never finishes",
        json!({"type": "object", "properties": {}}),
        |_| async {
            let _guard = ThrowsOnDrop;
            std::future::pending::<String>().await
        },
    )
    .unwrap();
    let toolkit = toolkit(stuck);
    let expected = ToolResult::error("tool `stuck` timed out after 2s")
        .with_metadata(json!({"panic": "a non-string panic payload"}));
    let options = RunOptions::default().with_timeout(Duration::from_secs(2));
    let call = ToolCall::new("call_1", "stuck", Arguments::Absent);
    assert_eq!(toolkit.execute_call(&call, &options).await, expected);
    for fixture in dialects::ALL {
        let dialect = fixture.dialect();
        let body = fixture.body(&[
            WireCall::json("call_1", "stuck", &json!({})),
            WireCall::json("call_2", "fine", &json!({})),
        ]);
        let response = dialect.parse_body(&body).unwrap();
        let turn = toolkit
            .respond_with(&response, dialect, &options)
            .await
            .unwrap();
        assert_eq!(
            turn.results,
            [expected.clone(), ToolResult::ok("ok")],
            "{dialect}"
        );
    }
}

/// A future that is ready at once and panics when it is dropped afterwards.
struct ReadyThenPanics;

impl Future for ReadyThenPanics {
    type Output = ToolResult;
    fn poll(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<ToolResult> {
        Poll::Ready(ToolResult::ok("done"))
    }
}

impl Drop for ReadyThenPanics {
    fn drop(&mut self) {
        panic!("the finished future's drop panicked");
    }
}

struct DropsBadly {
    schema: InputSchema,
}

impl Tool for DropsBadly {
    fn name(&self) -> &str {
        "drops_badly"
    }
    fn description(&self) -> &str {
        "Its future panics when dropped"
    }
    fn input_schema(&self) -> &InputSchema {
        &self.schema
    }
    fn call<'s, 'a, 'f>(
        &'s self,
        _: toolnexus::CallContext,
        _: toolnexus::CallArgs<'a>,
    ) -> Pin<Box<dyn Future<Output = ToolResult> + Send + 'f>>
    where
        's: 'f,
        'a: 'f,
        Self: 'f,
    {
        Box::pin(ReadyThenPanics)
    }
}

/// The future's own drop, after it finished, runs inside the guard too.
#[tokio::test]
async fn a_future_whose_drop_panics_is_answered() {
    let toolkit = toolkit(DropsBadly {
        schema: InputSchema::empty(),
    });
    assert_panicked_everywhere(
        &toolkit,
        "drops_badly",
        json!({}),
        "the finished future's drop panicked",
    )
    .await;
}

/// Issue 11, acceptance 3: a custom `Tool` whose `execute` panics is answered by
/// `Toolkit::execute` and `respond` (no hook lets a tool claim it catches its own panics).
struct Custom;

#[async_trait]
impl Tool for Custom {
    fn name(&self) -> &str {
        "custom"
    }
    fn description(&self) -> &str {
        "A hand-written tool that panics"
    }
    fn input_schema(&self) -> &InputSchema {
        static SCHEMA: std::sync::OnceLock<InputSchema> = std::sync::OnceLock::new();
        SCHEMA.get_or_init(InputSchema::empty)
    }
    async fn call(&self, _: toolnexus::CallContext, _: toolnexus::CallArgs<'_>) -> ToolResult {
        panic!("custom tool failed")
    }
}

#[tokio::test]
async fn a_custom_tool_that_panics_is_answered() {
    assert_panicked_everywhere(&toolkit(Custom), "custom", json!({}), "custom tool failed").await;
}

/// The same on a multi-threaded runtime, through a spawned task: the task ends normally.
#[test]
fn a_panic_in_any_route_does_not_end_a_spawned_task() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .build()
        .unwrap();
    runtime.block_on(async {
        let lookup = NativeTool::of(
            "lookup",
            "Looks up a record",
            json!({"type": "object", "properties": {}}),
            |args| {
                let id = args["id"].as_u64().expect("the id is a number");
                async move { format!("record {id}") }
            },
        )
        .unwrap();
        let toolkit = std::sync::Arc::new(toolkit(lookup));
        let task = tokio::spawn({
            let toolkit = std::sync::Arc::clone(&toolkit);
            async move { toolkit.execute("lookup", json!({})).await }
        });
        let result = task.await.expect("the task does not panic");
        assert_eq!(result.output, panicked("lookup"));
    });
}

/// A future that never finishes and panics when dropped.
struct PendingThenPanics;

impl Future for PendingThenPanics {
    type Output = ToolResult;
    fn poll(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<ToolResult> {
        Poll::Pending
    }
}

impl Drop for PendingThenPanics {
    fn drop(&mut self) {
        panic!("the cut-off future's drop panicked");
    }
}

struct HangsThenDropsBadly(InputSchema);

impl Tool for HangsThenDropsBadly {
    fn name(&self) -> &str {
        "hangs"
    }
    fn description(&self) -> &str {
        "Never answers; its future panics when dropped"
    }
    fn input_schema(&self) -> &InputSchema {
        &self.0
    }
    fn call<'s, 'a, 'f>(
        &'s self,
        _: toolnexus::CallContext,
        _: toolnexus::CallArgs<'a>,
    ) -> Pin<Box<dyn Future<Output = ToolResult> + Send + 'f>>
    where
        's: 'f,
        'a: 'f,
        Self: 'f,
    {
        Box::pin(PendingThenPanics)
    }
}

/// A call by name the caller drops before it finished drops the tool's future under the guard:
/// its panic reaches no one, with or without a policy (the two ways a call by name runs), and
/// whether the call was polled or not.
#[tokio::test]
async fn a_call_by_name_dropped_before_it_finished_drops_the_tool_under_the_guard() {
    let plain = toolkit(HangsThenDropsBadly(InputSchema::empty()));
    let gated =
        toolkit(HangsThenDropsBadly(InputSchema::empty())).with_policy(toolnexus::Policy::new());
    for toolkit in [&plain, &gated] {
        let mut polled = Box::pin(toolkit.execute_json("hangs", "{}"));
        let once = std::future::poll_fn(|cx| Poll::Ready(polled.as_mut().poll(cx))).await;
        assert!(once.is_pending());
        drop(polled);
        drop(toolkit.execute("hangs", json!({})));
        // The toolkit still answers.
        assert_eq!(toolkit.execute("fine", json!({})).await.output, "ok");
    }
}
