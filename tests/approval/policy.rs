//! A `Policy` on a toolkit: a destructive tool asks by default, a tool's own gate and a rule
//! over the arguments decide before the hints, and every way in keeps a call it does not let run
//! from running.

use serde_json::json;
use toolnexus::{Dialect, Gate, Policy};

use crate::fixtures::{chat_response, toolkit, Ran};

#[tokio::test]
async fn without_a_policy_every_call_runs_as_before() {
    let ran = Ran::default();
    let toolkit = toolkit(&ran);
    let turn = toolkit
        .respond(&chat_response("/tmp", "/tmp/x"), Dialect::OpenAiChat)
        .await
        .unwrap();
    assert_eq!(turn.results[1].output, "deleted /tmp/x");
    assert_eq!((ran.list(), ran.rm()), (1, 1));
}

#[tokio::test]
async fn by_the_hints_a_destructive_call_is_answered_not_run_outside_a_gated_turn() {
    let ran = Ran::default();
    let toolkit = toolkit(&ran).with_policy(Policy::new());
    let turn = toolkit
        .respond(&chat_response("/tmp", "/tmp/x"), Dialect::OpenAiChat)
        .await
        .unwrap();
    assert_eq!(turn.results[0].output, "listed /tmp");
    assert!(turn.results[1].is_error);
    assert!(turn.results[1].output.contains("needs the host's approval"));
    assert_eq!((ran.list(), ran.rm()), (1, 0));
    // Every way in: one call by name too.
    let result = toolkit.execute("rm", json!({"path": "/x"})).await;
    assert!(result.is_error);
    assert_eq!(ran.rm(), 0);
}

#[tokio::test]
async fn a_tools_gate_and_a_rule_decide_before_the_hints() {
    let ran = Ran::default();
    let policy = Policy::new()
        .tool("rm", Gate::Run)
        .tool("list", Gate::refuse("listing is off today"))
        .rule(|name, args| {
            let outside = args["path"]
                .as_str()
                .is_some_and(|p| !p.starts_with("/tmp"));
            (name == "rm" && outside).then(|| Gate::refuse("only /tmp may be cleaned"))
        });
    let toolkit = toolkit(&ran).with_policy(policy.clone());
    let results = [
        toolkit.execute("rm", json!({"path": "/tmp/a"})).await,
        toolkit.execute("rm", json!({"path": "/etc/passwd"})).await,
        toolkit.execute_json("list", r#"{"path":"/tmp"}"#).await,
    ];
    assert_eq!(results[0].output, "deleted /tmp/a");
    assert_eq!(
        results[1].output,
        "`rm` was not run: only /tmp may be cleaned"
    );
    assert_eq!(
        results[2].output,
        "`list` was not run: listing is off today"
    );
    assert_eq!((ran.list(), ran.rm()), (0, 1));
    // The decision itself, as a host can ask for it.
    let rm = toolkit.get("rm").map(|t| &**t);
    assert_eq!(
        policy.decide("rm", rm, Some(&json!({"path": "/tmp/b"}))),
        Gate::Run
    );
    assert_eq!(policy.decide("rm", rm, None), Gate::Run);
}

#[tokio::test]
async fn arguments_that_are_no_object_are_answered_as_always_under_a_rule() {
    let ran = Ran::default();
    let toolkit = toolkit(&ran).with_policy(Policy::new().rule(|_, _| Some(Gate::Run)));
    let result = toolkit.execute_json("list", "[1]").await;
    assert_eq!(
        result.output,
        "invalid arguments for `list`: expected a JSON object, got an array"
    );
    assert_eq!(ran.list(), 0);
}
