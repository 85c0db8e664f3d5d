//! A pending turn: read under a policy, listed call by call with the arguments as sent, stored
//! as JSON, and resumed with a fresh toolkit (as another process would), approved, approved with
//! edited arguments (checked like any call) or denied; the same `Turn` as `respond` comes out.

use serde_json::{json, Value};
use toolnexus::approval::{Answer, Gated, PendingTurn, Status};
use toolnexus::{Arguments, Dialect, Policy, Toolkit};

use crate::common::dialects::{self, Answer as AnswerRead};
use crate::fixtures::{calls, chat_response, toolkit, Ran};

fn pending(gated: Gated) -> PendingTurn {
    match gated {
        Gated::Pending(pending) => pending,
        Gated::Ran(turn) => panic!("expected a pending turn, got {turn:?}"),
    }
}

async fn read(toolkit: &Toolkit, response: &Value, dialect: Dialect) -> PendingTurn {
    pending(toolkit.respond_gated(response, dialect).await.unwrap())
}

#[tokio::test]
async fn a_destructive_call_waits_and_nothing_runs_until_the_turn_resumes() {
    let ran = Ran::default();
    let toolkit = toolkit(&ran).with_policy(Policy::new());
    let pending = read(
        &toolkit,
        &chat_response("/tmp", "/tmp/x"),
        Dialect::OpenAiChat,
    )
    .await;
    assert_eq!((ran.list(), ran.rm()), (0, 0));
    let calls = pending.calls();
    assert_eq!(calls[0].status(), &Status::Ready);
    assert!(matches!(calls[1].status(), Status::Awaiting { prompt } if prompt.contains("`rm`")));
    assert_eq!(
        calls[1].arguments(),
        &Arguments::Text(r#"{"path":"/tmp/x"}"#.into())
    );
    assert_eq!(
        pending.awaiting().map(|c| c.key()).collect::<Vec<_>>(),
        ["call_2"]
    );
    // The question, in the Python package's `Request` shape.
    let request = serde_json::to_value(calls[1].request().unwrap()).unwrap();
    assert_eq!(request["id"], "call_2");
    assert_eq!(request["kind"], "approval");
    assert_eq!(request["data"]["tool"], "rm");
    assert_eq!(request["data"]["arguments"], r#"{"path":"/tmp/x"}"#);
    assert_eq!(request["data"]["digest"], calls[1].digest());
    assert_eq!(request["data"]["turn"], pending.nonce());
    assert_eq!(calls[1].turn(), pending.nonce());
    assert!(calls[0].request().is_none());
}

#[tokio::test]
async fn stored_as_json_and_resumed_by_a_fresh_toolkit_it_gives_the_turn_respond_gives() {
    let response = chat_response("/tmp", "/tmp/x");
    let (text, answer) = {
        let toolkit = toolkit(&Ran::default()).with_policy(Policy::new());
        let pending = read(&toolkit, &response, Dialect::OpenAiChat).await;
        let answer = serde_json::to_string(&Answer::approve(&pending.calls()[1])).unwrap();
        (pending.to_json(), answer)
    };
    // Everything dropped: only the two texts cross, as to another process.
    let stored: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(stored["version"], 2);
    assert_eq!(stored["dialect"], "OpenAiChat");
    assert_eq!(stored["calls"][1]["status"], "awaiting");
    assert_eq!(stored["calls"][1]["argumentsText"], r#"{"path":"/tmp/x"}"#);

    let ran = Ran::default();
    let fresh = toolkit(&ran).with_policy(Policy::new());
    let pending: PendingTurn = serde_json::from_str(&text).unwrap();
    assert_eq!(PendingTurn::from_json(&text).unwrap(), pending);
    let answer: Answer = serde_json::from_str(&answer).unwrap();
    let turn = fresh.resume(pending, &[answer]).await.unwrap();
    assert_eq!((ran.list(), ran.rm()), (1, 1));

    let ungated = toolkit(&Ran::default());
    let expected = ungated
        .respond(&response, Dialect::OpenAiChat)
        .await
        .unwrap();
    assert_eq!(turn, expected);
    assert_eq!(turn.results[1].output, "deleted /tmp/x");
}

#[tokio::test]
async fn edited_arguments_take_the_one_call_path_and_a_denial_is_what_the_model_reads() {
    let ran = Ran::default();
    let toolkit = toolkit(&ran).with_policy(Policy::new());
    let response = chat_response("/tmp", "/etc/passwd");
    // A turn resumes once: each answer is given to a turn read afresh from the response.
    let resumed = |edited: Option<Value>| {
        let toolkit = &toolkit;
        let response = &response;
        async move {
            let pending = read(toolkit, response, Dialect::OpenAiChat).await;
            let rm = &pending.calls()[1];
            let answer = match edited {
                Some(arguments) => Answer::approve_with(rm, arguments),
                None => Answer::deny(rm, "not the password file"),
            };
            let model_made = rm.arguments().clone();
            let turn = toolkit.resume(pending, &[answer]).await.unwrap();
            (turn, model_made)
        }
    };

    let (turn, model_made) = resumed(Some(json!({"path": "/tmp/passwd"}))).await;
    assert_eq!(turn.results[1].output, "deleted /tmp/passwd");
    // The turn keeps the call as the model made it.
    assert_eq!(turn.calls[1].arguments, model_made);

    let (turn, _) = resumed(Some(json!({"path": "x".repeat(2_000_000)}))).await;
    assert!(turn.results[1].is_error, "{}", turn.results[1].output);
    assert!(turn.results[1].output.contains("`rm`"));
    let (turn, _) = resumed(Some(json!({"path": 5}))).await;
    assert_eq!(turn.results[1].output, "`path` must be a string");
    let (turn, _) = resumed(Some(json!([1]))).await;
    assert_eq!(
        turn.results[1].output,
        "invalid arguments for `rm`: expected a JSON object, got an array"
    );
    assert_eq!(ran.rm(), 2);

    let (turn, _) = resumed(None).await;
    assert_eq!(
        turn.results[1].output,
        "`rm` was not run: not the password file"
    );
    assert!(turn.results[1].is_error);
    assert_eq!(turn.results[0].output, "listed /tmp");
    assert_eq!(ran.rm(), 2);
    // The denial is rendered like any error result, after the model's turn.
    let messages = turn.into_messages();
    assert_eq!(messages[2]["tool_call_id"], "call_2");
    assert_eq!(
        messages[2]["content"],
        "Error: `rm` was not run: not the password file"
    );
}

/// In every dialect, a denied call is answered with the denial as an error result, under the
/// id of the call it answers, and the call never runs.
#[tokio::test]
async fn a_denial_is_rendered_as_an_error_result_in_every_dialect() {
    for fixture in dialects::ALL {
        let ran = Ran::default();
        let toolkit = toolkit(&ran).with_policy(Policy::new());
        let response = fixture.response(&calls("/tmp", "/etc/passwd"));
        let pending = read(&toolkit, &response, fixture.dialect()).await;
        let denied = Answer::deny(&pending.calls()[1], "not the password file");
        let turn = toolkit.resume(pending, &[denied]).await.unwrap();
        let answers = fixture.answers(&turn.result_messages);
        let denial = AnswerRead {
            id: Some("call_2".to_owned()),
            text: "`rm` was not run: not the password file".to_owned(),
            error: Some(true),
        };
        assert_eq!(answers.len(), 2, "{:?}", fixture.dialect());
        assert_eq!(answers[1], denial, "{:?}", fixture.dialect());
        assert_eq!(answers[0].text, "listed /tmp", "{:?}", fixture.dialect());
        assert_eq!((ran.list(), ran.rm()), (1, 0), "{:?}", fixture.dialect());
    }
}

#[tokio::test]
async fn calls_without_ids_are_answered_by_position_and_values_keep_their_form() {
    let ran = Ran::default();
    let toolkit = toolkit(&ran).with_policy(Policy::new());
    let response = json!({"candidates": [{"content": {"role": "model", "parts": [
        {"functionCall": {"name": "rm", "args": {"path": "/tmp/a"}}},
        {"functionCall": {"name": "rm", "args": {"path": "/tmp/b"}}}]}}]});
    let pending = read(&toolkit, &response, Dialect::Gemini).await;
    let keys: Vec<_> = pending.calls().iter().map(|c| c.key()).collect();
    assert_eq!(keys, ["#0", "#1"]);
    let text = pending.to_json();
    let pending = PendingTurn::from_json(&text).unwrap();
    assert_eq!(
        pending.calls()[0].arguments(),
        &Arguments::Value(json!({"path": "/tmp/a"}))
    );
    let answers = [
        Answer::deny(&pending.calls()[0], "no"),
        Answer::approve(&pending.calls()[1]),
    ];
    let turn = toolkit.resume(pending, &answers).await.unwrap();
    let outputs: Vec<_> = turn.results.iter().map(|r| r.output.as_str()).collect();
    assert_eq!(outputs, ["`rm` was not run: no", "deleted /tmp/b"]);
    assert_eq!(ran.rm(), 1);
}

#[tokio::test]
async fn a_turn_where_nothing_asks_runs_at_once() {
    let ran = Ran::default();
    let toolkit = toolkit(&ran).with_policy(Policy::new().tool("rm", toolnexus::Gate::Run));
    let response = chat_response("/tmp", "/tmp/x");
    let Gated::Ran(turn) = toolkit
        .respond_gated(&response, Dialect::OpenAiChat)
        .await
        .unwrap()
    else {
        panic!("nothing asks")
    };
    assert_eq!(
        turn,
        toolkit
            .respond(&response, Dialect::OpenAiChat)
            .await
            .unwrap()
    );
    assert_eq!((ran.list(), ran.rm()), (2, 2));
}
