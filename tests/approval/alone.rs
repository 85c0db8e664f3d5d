//! A tool that runs alone: no other call of its turn overlaps it (the calls before it finish
//! first, the ones after it start after it), and the results stay in call order; in a whole
//! response, in `execute_calls` and in a resumed turn. Tools record when they start and end.

use std::sync::{Arc, Mutex};

use serde_json::json;
use toolnexus::approval::{Answer, Gated};
use toolnexus::{Arguments, Dialect, NativeTool, Policy, RunOptions, ToolCall, ToolHints, Toolkit};

type Log = Arc<Mutex<Vec<String>>>;

/// A tool that logs `start N` and `end N`, yielding to the runtime in between.
fn recording(name: &str, log: &Log) -> NativeTool {
    let log = log.clone();
    let schema = json!({"type": "object", "properties": {"n": {"type": "integer"}}});
    NativeTool::of(name, "Records its run.", schema, move |args| {
        let log = log.clone();
        async move {
            let n = args["n"].as_i64().unwrap_or(-1);
            log.lock().unwrap().push(format!("start {n}"));
            for _ in 0..3 {
                tokio::task::yield_now().await;
            }
            log.lock().unwrap().push(format!("end {n}"));
            n.to_string()
        }
    })
    .unwrap()
}

fn toolkit(log: &Log, policy: Policy) -> Toolkit {
    let migrate = recording("migrate", log).with_hints(ToolHints::new().with_destructive(true));
    Toolkit::new()
        .with(recording("work", log))
        .and_then(|t| t.with(migrate))
        .unwrap()
        .with_policy(policy)
}

/// `work` 0 and 1, `migrate` 2, `work` 3 and 4.
fn calls() -> Vec<ToolCall> {
    (0..5)
        .map(|n| {
            let name = if n == 2 { "migrate" } else { "work" };
            ToolCall::new(
                format!("call_{n}"),
                name,
                Arguments::Text(format!(r#"{{"n":{n}}}"#)),
            )
        })
        .collect()
}

/// The log from `start 2` to `end 2`, and whether it is unbroken.
fn alone_in(log: &Log) -> bool {
    let log = log.lock().unwrap();
    let start = log.iter().position(|e| e == "start 2").unwrap();
    log[start + 1] == "end 2"
        && ["end 0", "end 1"]
            .iter()
            .all(|e| log[..start].contains(&(*e).to_owned()))
        && ["start 3", "start 4"]
            .iter()
            .all(|e| log[start..].contains(&(*e).to_owned()))
}

fn outputs(results: &[toolnexus::ToolResult]) -> Vec<&str> {
    results.iter().map(|r| r.output.as_str()).collect()
}

#[tokio::test]
async fn a_call_that_runs_alone_overlaps_no_other_and_results_stay_in_order() {
    let policy = Policy::new().tool("migrate", toolnexus::Gate::Run);
    // Without the mark the calls overlap: the test can tell.
    let log = Log::default();
    let results = toolkit(&log, policy.clone())
        .execute_calls(&calls(), &RunOptions::default())
        .await;
    assert_eq!(outputs(&results), ["0", "1", "2", "3", "4"]);
    assert!(!alone_in(&log), "{:?}", log.lock().unwrap());

    let log = Log::default();
    let toolkit = toolkit(&log, policy.run_alone("migrate"));
    let results = toolkit
        .execute_calls(&calls(), &RunOptions::default())
        .await;
    assert_eq!(outputs(&results), ["0", "1", "2", "3", "4"]);
    assert!(alone_in(&log), "{:?}", log.lock().unwrap());

    // A concurrency limit below the turn's size keeps it too.
    log.lock().unwrap().clear();
    let results = toolkit
        .execute_calls(&calls(), &RunOptions::default().with_concurrency(1))
        .await;
    assert_eq!(outputs(&results), ["0", "1", "2", "3", "4"]);
    assert!(alone_in(&log));
}

#[tokio::test]
async fn an_approved_call_that_runs_alone_does_so_in_the_resumed_turn() {
    let log = Log::default();
    let toolkit = toolkit(&log, Policy::new().run_alone("migrate"));
    let tool_calls: Vec<_> = calls()
        .iter()
        .map(|c| {
            let Arguments::Text(args) = &c.arguments else {
                unreachable!()
            };
            json!({"id": c.id, "type": "function", "function": {"name": c.name, "arguments": args}})
        })
        .collect();
    let response = json!({"choices": [{"finish_reason": "tool_calls", "message": {
        "role": "assistant", "content": null, "tool_calls": tool_calls}}]});
    let Gated::Pending(pending) = toolkit
        .respond_gated(&response, Dialect::OpenAiChat)
        .await
        .unwrap()
    else {
        panic!("migrate is destructive: it asks")
    };
    let answer = Answer::approve(pending.call("call_2").unwrap());
    let turn = toolkit.resume(pending, &[answer]).await.unwrap();
    assert_eq!(outputs(&turn.results), ["0", "1", "2", "3", "4"]);
    assert!(alone_in(&log), "{:?}", log.lock().unwrap());

    // And in a whole response answered at once.
    log.lock().unwrap().clear();
    let toolkit = self::toolkit(
        &log,
        Policy::new()
            .tool("migrate", toolnexus::Gate::Run)
            .run_alone("migrate"),
    );
    let turn = toolkit
        .respond(&response, Dialect::OpenAiChat)
        .await
        .unwrap();
    assert_eq!(outputs(&turn.results), ["0", "1", "2", "3", "4"]);
    assert!(alone_in(&log));
}
