//! Property test (issue 39): a host's store and its UI attacked, over generated responses of
//! every dialect (Gemini's calls without ids among them), under a policy whose tools run, ask
//! or are refused and a rule that refuses `ask` for `i = 99`. Judged by what the tools recorded:
//! - answers given for another pending turn of the same response (the same keys, the same
//!   arguments) are refused and nothing runs;
//! - a stored turn resumed twice (a double click, a retried POST) runs its calls once;
//! - a stored turn edited in any field (status, result, name, kind, arguments, nonce,
//!   dialect, model turn) is refused, from `from_json` or at `resume`, and nothing runs;
//! - an approval with edited arguments the rule refuses stays refused, and does not run;
//! - arguments over the limit end the call with the limit's error, not a question.

use proptest::prelude::*;
use serde_json::{json, Value};
use toolnexus::approval::{Answer, Gated, PendingTurn};
use toolnexus::{Error, Gate, Limits, Policy, Toolkit};

use crate::common::block_on;
use crate::common::dialects::{self, Fixture};
use crate::common::generate::{self, calls, Rng, Runs};

const TOOLS: [&str; 4] = ["run_a", "run_b", "ask", "refuse"];

fn recording(limits: Limits) -> (Toolkit, Runs) {
    let (toolkit, runs) = generate::recording(&TOOLS);
    let policy = Policy::new()
        .rule(|name: &str, args: &Value| {
            (name == "ask" && args["i"] == 99).then(|| Gate::refuse("not 99"))
        })
        .tool("ask", Gate::ask("May I?"))
        .tool("refuse", Gate::refuse("not here"));
    (toolkit.with_policy(policy).with_limits(limits), runs)
}

fn ran(runs: &Runs) -> usize {
    runs.lock().unwrap().len()
}

fn pending_of(toolkit: &Toolkit, fixture: &dyn Fixture, response: &Value) -> Option<PendingTurn> {
    match block_on(toolkit.respond_gated(response, fixture.dialect())).unwrap() {
        Gated::Pending(pending) => Some(pending),
        Gated::Ran(_) => None,
    }
}

fn approvals(pending: &PendingTurn) -> Vec<Answer> {
    pending.awaiting().map(Answer::approve).collect()
}

/// `text` (a stored pending turn) with one field edited, by `pick`.
fn tampered(text: &str, pick: usize, rng: &mut Rng) -> (String, &'static str) {
    let mut stored: Value = serde_json::from_str(text).unwrap();
    let calls = stored["calls"].as_array().unwrap().len();
    let awaiting: Vec<usize> = (0..calls)
        .filter(|&k| stored["calls"][k]["status"] == "awaiting")
        .collect();
    let k = awaiting[rng.below(awaiting.len())];
    let call = &mut stored["calls"][k];
    let what = match pick % 8 {
        0 => {
            call["status"] = json!("done");
            call["result"] = json!({"output": "forged", "is_error": false});
            "an awaiting call stored as done"
        }
        1 => {
            call["name"] = json!("run_a");
            "a call's tool"
        }
        2 => {
            call["type"] = json!("custom");
            "a call's kind"
        }
        3 => {
            let edited = json!({"i": 7, "text": "edited"});
            match call.get("argumentsText") {
                Some(_) => call["argumentsText"] = json!(edited.to_string()),
                None => call["arguments"] = edited,
            }
            "a call's arguments"
        }
        4 => {
            stored["nonce"] = json!("00112233445566778899aabbccddeeff");
            "the nonce"
        }
        5 => {
            let other = match stored["dialect"].as_str() {
                Some("Gemini") => "Anthropic",
                _ => "Gemini",
            };
            stored["dialect"] = json!(other);
            "the dialect"
        }
        6 => {
            stored["modelTurn"] = json!([]);
            "the model turn"
        }
        _ => {
            call["status"] = json!("ready");
            call.as_object_mut().unwrap().remove("prompt");
            "an awaiting call stored as ready"
        }
    };
    (stored.to_string(), what)
}

fn check(fixture: &dyn Fixture, count: usize, seed: u64, pick: usize) {
    let dialect = fixture.dialect();
    let mut rng = Rng(seed);
    let mut calls = calls(&mut rng, count, &TOOLS);
    // At least one call asks (no repeated ids here: each call is its own).
    let asking = rng.below(count);
    calls[asking].name = "ask".to_owned();
    let response = fixture.response(&calls);
    let (toolkit, runs) = recording(Limits::default());

    // Two pending turns of the same response: the same keys, the same arguments.
    let first = pending_of(&toolkit, fixture, &response).expect("a call asks");
    let second = pending_of(&toolkit, fixture, &response).expect("a call asks");
    assert_eq!(ran(&runs), 0, "{dialect}: nothing runs before an answer");
    let keys = |p: &PendingTurn| {
        p.calls()
            .iter()
            .map(|c| c.key().to_owned())
            .collect::<Vec<_>>()
    };
    assert_eq!(keys(&first), keys(&second));
    let error = block_on(toolkit.resume(second.clone(), &approvals(&first)))
        .expect_err("answers for another turn");
    assert!(matches!(error, Error::Approval(_)), "{dialect}: {error}");
    assert_eq!(
        ran(&runs),
        0,
        "{dialect}: answers for another turn ran something"
    );

    // Stored, edited in one field: refused, and nothing runs.
    let text = first.to_json();
    let (forged, what) = tampered(&text, pick, &mut rng);
    // The host answers what the stored turn says awaits (a call relabelled `ready` is then
    // resumed with no answer, as a host trusting the label would).
    let resumed = PendingTurn::from_json(&forged).and_then(|forged| {
        let answers = approvals(&forged);
        block_on(toolkit.resume(forged, &answers))
    });
    assert!(
        resumed.is_err(),
        "{dialect}: {what} edited, yet resumed: {forged}"
    );
    assert_eq!(ran(&runs), 0, "{dialect}: {what} edited ran something");

    // The real stored turn, resumed twice from the same text: its calls run once.
    let stored = PendingTurn::from_json(&text).unwrap();
    let answers = approvals(&stored);
    block_on(toolkit.resume(stored, &answers)).unwrap();
    let once = ran(&runs);
    assert!(once >= 1, "{dialect}: the approved call ran");
    let again = PendingTurn::from_json(&text).unwrap();
    let error = block_on(toolkit.resume(again, &answers)).expect_err("a second resume");
    assert!(matches!(error, Error::Approval(_)), "{dialect}: {error}");
    assert_eq!(ran(&runs), once, "{dialect}: a second resume ran something");

    // An approval with arguments the rule refuses: refused though approved, never run.
    let third = pending_of(&toolkit, fixture, &response).expect("a call asks");
    let answers: Vec<Answer> = third
        .awaiting()
        .map(|call| Answer::approve_with(call, json!({"i": 99, "text": "x"})))
        .collect();
    let before = ran(&runs);
    let turn = block_on(toolkit.resume(third, &answers)).unwrap();
    let runs_now = runs.lock().unwrap().clone();
    assert!(
        runs_now[before..].iter().all(|(_, args)| args["i"] != 99),
        "{dialect}: the rule's refusal stood"
    );
    assert!(
        turn.results.iter().any(|r| r.output.contains("not 99")),
        "{dialect}"
    );

    // Arguments over the limit: the call that would ask ends with the limit's error.
    let (small, small_runs) = recording(Limits::default().with_max_bytes(8));
    match block_on(small.respond_gated(&response, dialect)).unwrap() {
        Gated::Ran(turn) => {
            for (call, result) in turn.calls.iter().zip(&turn.results) {
                assert!(result.is_error, "{dialect}: {} over the limit", call.name);
            }
        }
        Gated::Pending(pending) => panic!("{dialect}: an over-limit call asked: {pending:?}"),
    }
    assert_eq!(ran(&small_runs), 0, "{dialect}: nothing over the limit ran");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn a_hostile_store_or_ui_gets_nothing_run(
        d in 0..dialects::ALL.len(), count in 1..=6usize, seed in any::<u64>(), pick in 0..8usize
    ) {
        check(dialects::ALL[d], count, seed, pick);
    }
}

/// Every field edit in every dialect, at fixed seeds, next to the random cases.
#[test]
fn every_edit_in_every_dialect_is_refused() {
    for fixture in dialects::ALL {
        for pick in 0..8 {
            check(fixture, 3, pick as u64 + 1, pick);
        }
    }
}
