//! Property test: generated streams whose calls repeat ids (as `tests/stream/generated.rs`, every
//! dialect, argument pieces interleaved where the format allows it, the body cut into random
//! chunks, eager execution on or off, any concurrency bound). `respond` runs the first call of
//! an id BY POSITION and answers each later one "duplicate call id"; the stream must judge the
//! same calls the same way whatever order their arguments complete in. Judged by what the tools
//! saw (which calls ran, with which arguments, how many times) and by the final `Turn`, against
//! `respond` on the same response sent whole.

use proptest::prelude::*;
use serde_json::Value;
use toolnexus::stream::{StreamTurn, Turn};
use toolnexus::{Dialect, RunOptions, Toolkit};

use crate::common::block_on;
use crate::common::dialects::{self, Call, Fixture};
use crate::common::generate::{self, calls, chunks, Rng, Runs};

const TOOLS: [&str; 3] = ["rec_a", "rec_b", "rec_c"];

fn recording() -> (Toolkit, Runs) {
    generate::recording(&TOOLS)
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

/// `count` generated calls, some given the id of an earlier one (at least one repeat when
/// there are two calls or more).
pub(crate) fn repeating(rng: &mut Rng, count: usize, tools: &[&'static str]) -> Vec<Call> {
    let mut calls = calls(rng, count, tools);
    let mut repeated = false;
    for i in 1..count {
        if rng.chance(40) {
            calls[i].id = calls[rng.below(i)].id.clone();
            repeated = true;
        }
    }
    if !repeated && count >= 2 {
        let (from, to) = (rng.below(count - 1), count - 1);
        calls[to].id = calls[from].id.clone();
    }
    calls
}

/// The runs logged, in the order of the calls' places (`i`), each once per run.
fn sorted(runs: &Runs) -> Vec<(String, Value)> {
    let mut runs = runs.lock().unwrap().clone();
    runs.sort_by_key(|(_, args)| args["i"].as_u64());
    runs
}

/// Reads `body` in random chunks (fed by hand, with pauses that let started calls run, or
/// through `read`) and finishes the turn.
fn stream(toolkit: &Toolkit, dialect: Dialect, body: &[u8], rng: &mut Rng, eager: bool) -> Turn {
    let chunks = chunks(rng, body);
    let by_hand = rng.chance(50);
    let options = RunOptions::default().with_concurrency(1 + rng.below(8));
    let pauses: Vec<bool> = chunks.iter().map(|_| rng.chance(30)).collect();
    block_on(async {
        let mut turn = StreamTurn::new(toolkit, dialect, options).with_eager(eager);
        if by_hand {
            for (chunk, pause) in chunks.iter().zip(pauses) {
                turn.feed_bytes(chunk).for_each(drop);
                if pause {
                    tokio::task::yield_now().await;
                }
            }
        } else {
            let body = futures::stream::iter(chunks.into_iter().map(Ok::<_, std::io::Error>));
            let mut events = turn.read(body);
            while let Some(event) = futures::StreamExt::next(&mut events).await {
                event.unwrap();
            }
        }
        turn.finish().await.unwrap_or_else(|e| panic!("{e}"))
    })
}

fn check(fixture: &dyn Fixture, count: usize, seed: u64, eager: bool) {
    let dialect = fixture.dialect();
    let mut rng = Rng(seed);
    let calls = repeating(&mut rng, count, &TOOLS);
    let body = fixture.sse(&fixture.events(&mut rng, &calls));

    let (whole_toolkit, whole_runs) = recording();
    let whole = block_on(whole_toolkit.respond(&fixture.response(&calls), dialect))
        .unwrap_or_else(|e| panic!("{e}"));
    let (toolkit, runs) = recording();
    let turn = stream(&toolkit, dialect, &body, &mut rng, eager);

    let what = format!("{dialect} eager={eager} seed={seed} count={count}");
    assert_eq!(
        sorted(&runs),
        sorted(&whole_runs),
        "{what}: what the tools received"
    );
    assert_eq!(summary(&turn), summary(&whole), "{what}: the turns");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn repeated_ids_are_judged_by_position_in_any_stream(
        d in 0..dialects::ALL.len(), count in 2..=8usize, seed in any::<u64>(), eager in any::<bool>()
    ) {
        check(dialects::ALL[d], count, seed, eager);
    }
}

/// The reporter's seeds (2 and 4 among them) in every dialect, eager on and off: fixed cases
/// next to the random ones.
#[test]
fn the_reported_seeds_agree_with_respond() {
    for seed in 0..40 {
        for fixture in dialects::ALL {
            for eager in [true, false] {
                check(fixture, 2 + (seed as usize % 7), seed, eager);
            }
        }
    }
}
