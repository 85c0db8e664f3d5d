//! Every bad answer and every bad pending turn is an `Error::Approval` naming the call, and
//! nothing runs: an unknown call id, a second answer to one call, an answer given for other
//! arguments, a call that asks without an answer, another format version, tampered or
//! malformed JSON.

use serde_json::{json, Value};
use toolnexus::approval::{Answer, ApprovalError, Gated, PendingTurn};
use toolnexus::{Dialect, Error, Policy, Toolkit};

use crate::fixtures::{chat_response, toolkit, Ran};

async fn setup(rm: &str) -> (Toolkit, Ran, PendingTurn) {
    let ran = Ran::default();
    let toolkit = toolkit(&ran).with_policy(Policy::new());
    let gated = toolkit
        .respond_gated(&chat_response("/tmp", rm), Dialect::OpenAiChat)
        .await
        .unwrap();
    let Gated::Pending(pending) = gated else {
        panic!("rm asks")
    };
    (toolkit, ran, pending)
}

async fn refused(toolkit: &Toolkit, pending: PendingTurn, answers: &[Answer]) -> ApprovalError {
    match toolkit.resume(pending, answers).await {
        Err(Error::Approval(e)) => e,
        other => panic!("expected an approval error, got {other:?}"),
    }
}

/// An answer's JSON with one member changed.
fn edited(answer: &Answer, key: &str, value: Value) -> Answer {
    let mut json = serde_json::to_value(answer).unwrap();
    json[key] = value;
    serde_json::from_value(json).unwrap()
}

#[tokio::test]
async fn an_answer_for_a_call_the_turn_does_not_have_is_refused() {
    let (toolkit, ran, pending) = setup("/tmp/x").await;
    let stray = edited(&Answer::approve(&pending.calls()[1]), "id", json!("call_9"));
    let error = refused(&toolkit, pending, &[stray]).await;
    assert_eq!(
        error,
        ApprovalError::UnknownCall {
            call: "call_9".into()
        }
    );
    assert_eq!(
        error.to_string(),
        "an answer names call `call_9`, which this pending turn does not have; nothing was run"
    );
    assert_eq!((ran.list(), ran.rm()), (0, 0));
}

#[tokio::test]
async fn a_second_answer_to_one_call_is_refused() {
    let (toolkit, ran, pending) = setup("/tmp/x").await;
    let rm = &pending.calls()[1];
    let answers = [Answer::approve(rm), Answer::deny(rm, "no")];
    let error = refused(&toolkit, pending, &answers).await;
    assert_eq!(
        error,
        ApprovalError::SecondAnswer {
            call: "call_2".into()
        }
    );
    assert_eq!((ran.list(), ran.rm()), (0, 0));
}

#[tokio::test]
async fn an_approval_given_for_other_arguments_is_refused() {
    let (_, _, shown) = setup("/tmp/x").await;
    let approval = Answer::approve(&shown.calls()[1]);
    // The same call id, other arguments, another turn: the approval was not given for these.
    let (toolkit, ran, pending) = setup("/home").await;
    let error = refused(&toolkit, pending.clone(), std::slice::from_ref(&approval)).await;
    assert_eq!(
        error,
        ApprovalError::OtherTurn {
            call: "call_2".into()
        }
    );
    assert_eq!(error.call(), Some("call_2"));
    // An answer that does not say its turn (the Python package's shape) is refused by its digest.
    let mut data = serde_json::to_value(&approval).unwrap()["data"].clone();
    data.as_object_mut().unwrap().remove("turn");
    let unnamed = edited(&approval, "data", data.clone());
    let error = refused(&toolkit, pending.clone(), &[unnamed]).await;
    assert_eq!(
        error,
        ApprovalError::OtherArguments {
            call: "call_2".into()
        }
    );
    // Without a digest at all: it says so.
    data.as_object_mut().unwrap().remove("digest");
    let bare = edited(&approval, "data", data);
    let error = refused(&toolkit, pending, &[bare]).await;
    assert_eq!(
        error,
        ApprovalError::MissingDigest {
            call: "call_2".into()
        }
    );
    assert!(error.to_string().contains("carries no digest"), "{error}");
    assert_eq!((ran.list(), ran.rm()), (0, 0));
}

#[tokio::test]
async fn a_call_that_asks_needs_an_answer_whatever_the_stored_turn_says() {
    let (toolkit, ran, pending) = setup("/tmp/x").await;
    let error = refused(&toolkit, pending.clone(), &[]).await;
    assert_eq!(
        error,
        ApprovalError::Unanswered {
            call: "call_2".into()
        }
    );
    // Marking the call ready in the JSON does not get it past the policy.
    let text = pending
        .to_json()
        .replace(r#""status":"awaiting""#, r#""status":"ready""#);
    let relabelled = PendingTurn::from_json(&text).unwrap();
    let error = refused(&toolkit, relabelled, &[]).await;
    assert_eq!(
        error,
        ApprovalError::Unanswered {
            call: "call_2".into()
        }
    );
    assert_eq!((ran.list(), ran.rm()), (0, 0));
}

#[tokio::test]
async fn another_version_tampered_arguments_and_malformed_json_are_refused() {
    let (_, _, pending) = setup("/tmp/x").await;
    let text = pending.to_json();
    // Version 1 bound answers to the arguments alone: it is not read.
    let other = text.replace(r#""version":2"#, r#""version":1"#);
    let refusal = |text: &str| match PendingTurn::from_json(text) {
        Err(Error::Approval(e)) => e,
        other => panic!("expected an approval error, got {other:?}"),
    };
    assert_eq!(refusal(&other), ApprovalError::Version { found: 1 });
    // A later version with another shape still says which version it is.
    assert_eq!(
        refusal(r#"{"version": 3, "turn": []}"#),
        ApprovalError::Version { found: 3 }
    );

    let tampered = text.replace(r#"{\"path\":\"/tmp/x\"}"#, r#"{\"path\":\"/\"}"#);
    assert_ne!(tampered, text);
    let error = refusal(&tampered);
    assert_eq!(
        error,
        ApprovalError::Tampered {
            call: "call_2".into()
        }
    );
    assert!(error.to_string().contains("call `call_2`"), "{error}");
    // Through serde too: the same check, as serde's error.
    let through_serde = serde_json::from_str::<PendingTurn>(&tampered).unwrap_err();
    assert!(through_serde.to_string().contains("call `call_2`"));

    assert!(matches!(refusal("[1]"), ApprovalError::Malformed { .. }));
    let unknown = text.replace(r#""dialect":"OpenAiChat""#, r#""dialect":"Mistral""#);
    assert!(refusal(&unknown)
        .to_string()
        .contains("unknown dialect `Mistral`"));
}
