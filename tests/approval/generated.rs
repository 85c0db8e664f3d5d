//! Property test (issue 34, streaming): generated streams of every dialect (as
//! `tests/stream/generated.rs`), cut into random chunks, read under a policy whose tools run
//! (`run_a`, `run_b`), ask (`ask`) or are refused (`refuse`), with eager execution on or off and
//! any concurrency bound. Judged by what the tools saw: no call that asks ran before its answer
//! and no refused call ever ran; every call that runs ran exactly once while the stream arrived
//! and not again on resume; resuming with approvals and denials runs each approved call once, in
//! call order; the pending turn is `respond_gated`'s for the same response sent whole (each
//! call that ran `Done` with its result), and the resumed `Turn` is the one `respond_gated` then
//! `resume` give. Half the cases give some calls the id of an earlier one: the first call of an
//! id by position is the one judged, each later one is refused as a duplicate (never run, never
//! asked about), whatever order the stream completes them in.

use proptest::prelude::*;
use toolnexus::approval::{Answer, Gated, PendingTurn, Status};
use toolnexus::stream::StreamTurn;
use toolnexus::{Dialect, Gate, Policy, RunOptions, Toolkit, Turn};

use crate::common::block_on;
use crate::common::dialects::{self, Fixture};
use crate::common::generate::{self, calls, chunks, Rng, Runs};

const TOOLS: [&str; 4] = ["run_a", "run_b", "ask", "refuse"];

/// The four recording tools under a policy that asks for `ask` and refuses `refuse`.
fn recording() -> (Toolkit, Runs) {
    let (toolkit, runs) = generate::recording(&TOOLS);
    let policy = Policy::new()
        .tool("ask", Gate::ask("May I?"))
        .tool("refuse", Gate::refuse("not here"));
    (toolkit.with_policy(policy), runs)
}

fn summary(turn: &Turn) -> String {
    format!(
        "{:?}\n{:?}\n{}\n{}",
        turn.calls,
        turn.results,
        serde_json::to_string(&turn.model_turn).unwrap(),
        serde_json::to_string(&turn.result_messages).unwrap()
    )
}

/// The `i`s of the runs logged, in the order they ran.
fn ran(runs: &Runs) -> Vec<u64> {
    let runs = runs.lock().unwrap();
    runs.iter()
        .map(|(_, args)| args["i"].as_u64().unwrap())
        .collect()
}

/// Reads `body` in random chunks, fed by hand or through `read`, and ends it with
/// `finish_gated`.
fn stream(toolkit: &Toolkit, dialect: Dialect, body: &[u8], rng: &mut Rng) -> Gated {
    let chunks = chunks(rng, body);
    let eager = rng.chance(70);
    let by_hand = rng.chance(50);
    let options = RunOptions::default().with_concurrency(1 + rng.below(4));
    block_on(async {
        let mut turn = StreamTurn::new(toolkit, dialect, options).with_eager(eager);
        if by_hand {
            for chunk in &chunks {
                turn.feed_bytes(chunk).for_each(drop);
                tokio::task::yield_now().await;
            }
        } else {
            let body = futures::stream::iter(chunks.into_iter().map(Ok::<_, std::io::Error>));
            let mut events = turn.read(body);
            while let Some(event) = futures::StreamExt::next(&mut events).await {
                event.unwrap();
            }
        }
        turn.finish_gated().await.unwrap_or_else(|e| panic!("{e}"))
    })
}

fn check(fixture: &dyn Fixture, count: usize, seed: u64, repeat: bool) {
    let dialect = fixture.dialect();
    let mut rng = Rng(seed);
    let mut calls = calls(&mut rng, count, &TOOLS);
    if repeat {
        generate::repeat_ids(&mut rng, &mut calls);
    }
    // A call whose id an earlier one has is refused as a duplicate: it never runs nor asks.
    let repeated = generate::repeated(&calls);
    let body = fixture.sse(&fixture.events(&mut rng, &calls));
    let of = |name: &str| -> Vec<u64> {
        (0..calls.len() as u64)
            .filter(|&i| calls[i as usize].name == name && !repeated[i as usize])
            .collect()
    };
    let runs_now: Vec<u64> = (0..calls.len() as u64)
        .filter(|&i| calls[i as usize].name.starts_with("run_") && !repeated[i as usize])
        .collect();

    let (toolkit, runs) = recording();
    let gated = stream(&toolkit, dialect, &body, &mut rng);
    // While the stream arrived: each call that runs ran once; none that asks or is refused.
    let mut seen = ran(&runs);
    seen.sort_unstable();
    assert_eq!(
        seen, runs_now,
        "{dialect}: what ran while the stream arrived"
    );

    let (whole_toolkit, _) = recording();
    let respond =
        block_on(whole_toolkit.respond_gated(&fixture.response(&calls), dialect)).unwrap();
    let (pending, whole_pending) = match (gated, respond) {
        (Gated::Pending(p), Gated::Pending(w)) => (p, w),
        (Gated::Ran(turn), Gated::Ran(w)) => {
            assert!(of("ask").is_empty(), "{dialect}: a call asked");
            assert_eq!(summary(&turn), summary(&w), "{dialect}: the turns");
            return;
        }
        (streamed, whole) => panic!("{dialect}: {streamed:?} against {whole:?}"),
    };
    assert!(!of("ask").is_empty());
    // `respond_gated`'s pending turn, each call that runs `Done` with the result it gave.
    assert_eq!(pending.model_turn(), whole_pending.model_turn());
    assert_eq!(pending.calls().len(), whole_pending.calls().len());
    for (i, (s, w)) in pending
        .calls()
        .iter()
        .zip(whole_pending.calls())
        .enumerate()
    {
        let what = format!("{dialect}: call {i}");
        assert_eq!((s.key(), s.call()), (w.key(), w.call()), "{what}");
        // Each turn has its own nonce: an answer to one is no answer to the other.
        assert_ne!(s.digest(), w.digest(), "{what}");
        match (s.status(), w.status()) {
            (Status::Done { result }, Status::Ready) => {
                assert_eq!(result.output, calls[i].arguments.to_string(), "{what}");
            }
            (s, w) => assert_eq!(s, w, "{what}"),
        }
    }

    // Through JSON, as another process would resume it.
    let pending = PendingTurn::from_json(&pending.to_json()).unwrap();
    let answers: Vec<Answer> = pending
        .awaiting()
        .map(|call| match rng.chance(60) {
            true => Answer::approve(call),
            false => Answer::deny(call, "no"),
        })
        .collect();
    let approved: Vec<u64> = pending
        .awaiting()
        .zip(&answers)
        .filter(|(_, a)| a.approves())
        .map(|(call, _)| index_of(&pending, call.key()))
        .collect();
    let before = ran(&runs).len();
    let turn = block_on(toolkit.resume(pending, &answers)).unwrap();
    // Each approved call ran once, in call order; nothing that ran before ran again.
    assert_eq!(
        ran(&runs)[before..],
        approved[..],
        "{dialect}: what the resume ran"
    );
    // The same answers, given to the whole response's own pending turn.
    let whole_answers: Vec<Answer> = whole_pending
        .awaiting()
        .zip(&answers)
        .map(|(call, answer)| match answer.approves() {
            true => Answer::approve(call),
            false => Answer::deny(call, "no"),
        })
        .collect();
    let expected = block_on(whole_toolkit.resume(whole_pending, &whole_answers)).unwrap();
    assert_eq!(
        summary(&turn),
        summary(&expected),
        "{dialect}: the resumed turns"
    );
}

/// The place of the call with this key.
fn index_of(pending: &PendingTurn, key: &str) -> u64 {
    pending.calls().iter().position(|c| c.key() == key).unwrap() as u64
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn a_gated_call_in_any_stream_runs_only_after_its_answer_and_once(
        d in 0..dialects::ALL.len(), count in 1..=8usize, seed in any::<u64>(), repeat in any::<bool>()
    ) {
        check(dialects::ALL[d], count, seed, repeat);
    }
}
