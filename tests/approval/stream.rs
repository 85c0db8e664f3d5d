//! Streamed: a call the policy holds back never starts early, while the calls it lets run still
//! start as their arguments complete; at the end the held-back call is answered (not run) by
//! `finish`, or `finish_gated` gives the pending turn, whose calls that ran keep their results
//! on resume (in another process too). Bad answers and a tampered or incompatible stored turn
//! are refused, naming the call, and nothing runs.

use serde_json::json;
use toolnexus::approval::{Answer, ApprovalError, Gated, PendingTurn, Status};
use toolnexus::stream::{StreamEvent, StreamTurn};
use toolnexus::{Dialect, Error, Policy, RunOptions, Toolkit};

use crate::fixtures::{toolkit, Ran};

#[tokio::test]
async fn a_gated_call_never_starts_early_and_an_ungated_one_still_does() {
    let ran = Ran::default();
    let toolkit = toolkit(&ran).with_policy(Policy::new());
    let tool = |index: usize, id: &str, name: &str| {
        json!({"type": "content_block_start", "index": index,
               "content_block": {"type": "tool_use", "id": id, "name": name, "input": {}}})
    };
    let args = |index: usize, piece: &str| {
        json!({"type": "content_block_delta", "index": index,
               "delta": {"type": "input_json_delta", "partial_json": piece}})
    };
    let stop = |index: usize| json!({"type": "content_block_stop", "index": index});
    let events = [
        json!({"type": "message_start", "message": {"id": "msg_1", "type": "message",
            "role": "assistant", "model": "m", "content": [], "stop_reason": null,
            "usage": {"input_tokens": 1, "output_tokens": 1}}}),
        tool(0, "toolu_1", "rm"),
        args(0, r#"{"path": "/tmp/x"}"#),
        stop(0),
        tool(1, "toolu_2", "list"),
        args(1, r#"{"path": "/tmp"}"#),
        stop(1),
    ];
    let mut turn = StreamTurn::new(&toolkit, Dialect::Anthropic, RunOptions::default());
    let mut started = Vec::new();
    for event in events {
        for happened in turn.feed_event(event) {
            if let StreamEvent::CallStarted { call, .. } = happened {
                started.push(call.name);
            }
        }
    }
    // Both calls' arguments are complete: only the one the policy lets run has started.
    while let Some(happened) = turn.next_call_event().await {
        if let StreamEvent::CallStarted { call, .. } = happened {
            started.push(call.name);
        }
    }
    assert_eq!(started, ["list"]);
    assert_eq!((ran.list(), ran.rm()), (1, 0));

    let rest = [
        json!({"type": "message_delta", "delta": {"stop_reason": "tool_use"},
               "usage": {"output_tokens": 9}}),
        json!({"type": "message_stop"}),
    ];
    for event in rest {
        turn.feed_event(event).for_each(drop);
    }
    let turn = turn.finish().await.unwrap();
    assert_eq!(turn.results[1].output, "listed /tmp");
    assert!(turn.results[0].output.contains("needs the host's approval"));
    assert_eq!(ran.rm(), 0);
}

/// An Anthropic stream calling `list` (`toolu_1`, small arguments) then `rm` (`toolu_2`) with
/// `rm_path`.
pub(crate) fn list_then_rm(rm_path: &str) -> Vec<serde_json::Value> {
    let block = |index: usize, id: &str, name: &str, path: &str| {
        [
            json!({"type": "content_block_start", "index": index,
                   "content_block": {"type": "tool_use", "id": id, "name": name, "input": {}}}),
            json!({"type": "content_block_delta", "index": index, "delta": {"type": "input_json_delta",
                   "partial_json": json!({"path": path}).to_string()}}),
            json!({"type": "content_block_stop", "index": index}),
        ]
    };
    let mut events = vec![json!({"type": "message_start", "message": {"id": "msg_1",
        "type": "message", "role": "assistant", "content": [], "stop_reason": null}})];
    events.extend(block(0, "toolu_1", "list", "/tmp"));
    events.extend(block(1, "toolu_2", "rm", rm_path));
    events.push(json!({"type": "message_delta", "delta": {"stop_reason": "tool_use"}}));
    events.push(json!({"type": "message_stop"}));
    events
}

/// [`list_then_rm`] with `/tmp/x` (`list` runs, `rm` asks), read to its end with
/// `finish_gated`.
async fn streamed(toolkit: &Toolkit) -> PendingTurn {
    let events = list_then_rm("/tmp/x");
    let mut turn = StreamTurn::new(toolkit, Dialect::Anthropic, RunOptions::default());
    for event in events {
        turn.feed_event(event).for_each(drop);
    }
    match turn.finish_gated().await.unwrap() {
        Gated::Pending(pending) => pending,
        Gated::Ran(turn) => panic!("rm asks, got {turn:?}"),
    }
}

async fn refused(toolkit: &Toolkit, pending: PendingTurn, answers: &[Answer]) -> ApprovalError {
    match toolkit.resume(pending, answers).await {
        Err(Error::Approval(e)) => e,
        other => panic!("expected an approval error, got {other:?}"),
    }
}

#[tokio::test]
async fn a_streamed_turn_ends_with_the_pending_turn_and_resuming_runs_only_the_approved_call() {
    let ran = Ran::default();
    let toolkit = toolkit(&ran).with_policy(Policy::new());
    let pending = streamed(&toolkit).await;
    assert_eq!((ran.list(), ran.rm()), (1, 0));
    let [list, rm] = pending.calls() else {
        panic!("two calls")
    };
    assert!(matches!(list.status(), Status::Done { result } if result.output == "listed /tmp"));
    assert!(matches!(rm.status(), Status::Awaiting { .. }));
    // The JSON form says so, and a new toolkit (another process) resumes it.
    let stored = pending.to_json();
    let member: serde_json::Value = serde_json::from_str(&stored).unwrap();
    assert_eq!(member["calls"][0]["status"], "done");
    assert_eq!(member["calls"][0]["result"]["output"], "listed /tmp");
    let pending = PendingTurn::from_json(&stored).unwrap();
    let answers = [Answer::approve(pending.call("toolu_2").unwrap())];
    let other = Ran::default();
    let turn = crate::fixtures::toolkit(&other)
        .with_policy(Policy::new())
        .resume(pending, &answers)
        .await
        .unwrap();
    assert_eq!(turn.results[0].output, "listed /tmp");
    assert_eq!(turn.results[1].output, "deleted /tmp/x");
    // `list` is not run again anywhere; `rm` ran once, after its answer.
    assert_eq!(
        (ran.list(), ran.rm(), other.list(), other.rm()),
        (1, 0, 0, 1)
    );
}

#[tokio::test]
async fn bad_answers_to_a_streamed_pending_turn_are_refused_and_nothing_runs() {
    let ran = Ran::default();
    let toolkit = toolkit(&ran).with_policy(Policy::new());
    let pending = streamed(&toolkit).await;
    let rm = pending.call("toolu_2").unwrap();
    let list = pending.call("toolu_1").unwrap();
    let mut stray = serde_json::to_value(Answer::approve(rm)).unwrap();
    stray["id"] = json!("toolu_9");
    let stray: Answer = serde_json::from_value(stray).unwrap();
    let cases = [
        (
            vec![stray],
            ApprovalError::UnknownCall {
                call: "toolu_9".into(),
            },
        ),
        (
            vec![Answer::approve(rm), Answer::deny(rm, "no")],
            ApprovalError::SecondAnswer {
                call: "toolu_2".into(),
            },
        ),
        (
            vec![Answer::approve(rm), Answer::approve(list)],
            ApprovalError::AlreadyDone {
                call: "toolu_1".into(),
            },
        ),
        (
            vec![],
            ApprovalError::Unanswered {
                call: "toolu_2".into(),
            },
        ),
    ];
    for (answers, expected) in cases {
        let error = refused(&toolkit, pending.clone(), &answers).await;
        assert_eq!(error, expected);
        assert!(error.to_string().ends_with("; nothing was run"), "{error}");
        assert!(
            error.to_string().contains(expected.call().unwrap()),
            "{error}"
        );
    }
    assert_eq!((ran.list(), ran.rm()), (1, 0));
}

#[tokio::test]
async fn a_tampered_or_incompatible_streamed_pending_turn_is_refused() {
    let ran = Ran::default();
    let toolkit = toolkit(&ran).with_policy(Policy::new());
    let text = streamed(&toolkit).await.to_json();
    let refusal = |text: &str| match PendingTurn::from_json(text) {
        Err(Error::Approval(e)) => e,
        other => panic!("expected an approval error, got {other:?}"),
    };
    let other_version = text.replace(r#""version":2"#, r#""version":1"#);
    assert_eq!(refusal(&other_version), ApprovalError::Version { found: 1 });
    // The arguments of the call that ran, or of the one that asks, edited since.
    let member: serde_json::Value = serde_json::from_str(&text).unwrap();
    for (i, id) in ["toolu_1", "toolu_2"].into_iter().enumerate() {
        let mut tampered = member.clone();
        tampered["calls"][i]["arguments"]["path"] = json!("/");
        let error = refusal(&tampered.to_string());
        assert_eq!(error, ApprovalError::Tampered { call: id.into() });
        assert!(error.to_string().contains(&format!("call `{id}`")));
    }
    // A call marked done without its result is no pending turn.
    let mut cut = member.clone();
    cut["calls"][0].as_object_mut().unwrap().remove("result");
    let error = refusal(&cut.to_string());
    assert!(
        error
            .to_string()
            .contains("call 0 is `done` without its `result`"),
        "{error}"
    );
    assert_eq!((ran.list(), ran.rm()), (1, 0));
}
