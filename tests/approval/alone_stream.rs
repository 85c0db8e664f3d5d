//! A tool that runs alone, streamed (issue 34): in a `StreamTurn`, eager starts included, a call
//! of a tool the policy runs alone overlaps no other call of its turn, whatever the dialect,
//! the chunking, the concurrency bound and eager or not; each call runs once, and the results
//! stay in call order. The tools log when they start and end (yielding in between), so an
//! overlap shows in the log.

use std::sync::{Arc, Mutex};

use proptest::prelude::*;
use serde_json::{json, Value};
use toolnexus::stream::StreamTurn;
use toolnexus::{Dialect, NativeTool, Policy, RunOptions, Toolkit, Turn};

use crate::common::block_on;
use crate::common::dialects::{self, Call, Fixture};
use crate::common::generate::{calls, chunks, Rng};

const TOOLS: [&str; 3] = ["work_a", "work_b", "solo"];

/// `(started, tool, i)`: a call starting (`true`) or ending.
type Log = Arc<Mutex<Vec<(bool, String, u64)>>>;

fn toolkit(log: &Log, policy: Policy) -> Toolkit {
    let mut toolkit = Toolkit::new();
    for name in TOOLS {
        let log = Arc::clone(log);
        let tool = NativeTool::of(name, "Logs its run", json!({"type": "object"}), {
            move |args: Value| {
                let log = Arc::clone(&log);
                async move {
                    let i = args["i"].as_u64().unwrap();
                    log.lock().unwrap().push((true, name.to_owned(), i));
                    for _ in 0..3 {
                        tokio::task::yield_now().await;
                    }
                    log.lock().unwrap().push((false, name.to_owned(), i));
                    args.to_string()
                }
            }
        })
        .unwrap();
        toolkit.add(tool).unwrap();
    }
    toolkit.with_policy(policy)
}

/// The first overlap with a `solo` call the log shows: a call starting while `solo` runs, or
/// `solo` starting while another call runs.
fn overlap(log: &Log) -> Option<String> {
    let mut running: Vec<(String, u64)> = Vec::new();
    for (started, name, i) in log.lock().unwrap().iter() {
        if !started {
            running.retain(|(n, j)| !(n == name && j == i));
            continue;
        }
        let solo_running = running.iter().any(|(n, _)| n == "solo");
        if solo_running || (name == "solo" && !running.is_empty()) {
            return Some(format!("{name} {i} started while {running:?} ran"));
        }
        running.push((name.clone(), *i));
    }
    None
}

/// Reads `body` in `chunks`, by hand (yielding between chunks so that started calls run), and
/// finishes the turn.
async fn stream(
    toolkit: &Toolkit,
    dialect: Dialect,
    chunks: &[Vec<u8>],
    options: RunOptions,
    eager: bool,
) -> Turn {
    let mut turn = StreamTurn::new(toolkit, dialect, options).with_eager(eager);
    for chunk in chunks {
        turn.feed_bytes(chunk).for_each(drop);
        tokio::task::yield_now().await;
    }
    turn.finish().await.unwrap_or_else(|e| panic!("{e}"))
}

fn check(fixture: &dyn Fixture, count: usize, seed: u64) {
    let dialect = fixture.dialect();
    let mut rng = Rng(seed);
    let calls = calls(&mut rng, count, &TOOLS);
    let body = fixture.sse(&fixture.events(&mut rng, &calls));
    let chunks = chunks(&mut rng, &body);
    let options = RunOptions::default().with_concurrency(1 + rng.below(8));
    let eager = rng.chance(70);
    let log = Log::default();
    let toolkit = toolkit(&log, Policy::new().run_alone("solo"));
    let turn = block_on(stream(&toolkit, dialect, &chunks, options, eager));
    assert_eq!(overlap(&log), None, "{dialect}");
    // Each call ran once, and the results are in call order.
    let mut started: Vec<u64> = log
        .lock()
        .unwrap()
        .iter()
        .filter(|e| e.0)
        .map(|e| e.2)
        .collect();
    started.sort_unstable();
    assert_eq!(started, (0..count as u64).collect::<Vec<_>>(), "{dialect}");
    let outputs: Vec<&str> = turn.results.iter().map(|r| r.output.as_str()).collect();
    let expected: Vec<String> = calls.iter().map(|c| c.arguments.to_string()).collect();
    assert_eq!(outputs, expected, "{dialect}: results in call order");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn a_call_that_runs_alone_overlaps_no_other_in_any_stream(
        d in 0..dialects::ALL.len(), count in 1..=8usize, seed in any::<u64>()
    ) {
        check(dialects::ALL[d], count, seed);
    }
}

#[test]
fn without_the_mark_streamed_calls_overlap_and_with_it_solo_runs_alone() {
    // Anthropic (the policy is the subject, not the format): `work_a` 0, `solo` 1, `work_b` 2,
    // all complete before the turn is polled.
    let fixture = dialects::of(Dialect::Anthropic);
    let calls: Vec<Call> = ["work_a", "solo", "work_b"]
        .iter()
        .enumerate()
        .map(|(i, name)| Call::new(format!("toolu_{i}"), *name, json!({"i": i})))
        .collect();
    let body = vec![fixture.sse(&fixture.events(&mut Rng(0), &calls))];

    let log = Log::default();
    let unmarked = toolkit(&log, Policy::new());
    block_on(stream(
        &unmarked,
        Dialect::Anthropic,
        &body,
        RunOptions::default(),
        true,
    ));
    assert!(overlap(&log).is_some(), "{:?}", log.lock().unwrap());

    let log = Log::default();
    let marked = toolkit(&log, Policy::new().run_alone("solo"));
    let turn = block_on(stream(
        &marked,
        Dialect::Anthropic,
        &body,
        RunOptions::default(),
        true,
    ));
    assert_eq!(overlap(&log), None);
    let order: Vec<(bool, u64)> = log.lock().unwrap().iter().map(|e| (e.0, e.2)).collect();
    // The call before it finished first; the one after it started after it.
    assert_eq!(
        order,
        [
            (true, 0),
            (false, 0),
            (true, 1),
            (false, 1),
            (true, 2),
            (false, 2)
        ]
    );
    let outputs: Vec<&str> = turn.results.iter().map(|r| r.output.as_str()).collect();
    assert_eq!(outputs, [r#"{"i":0}"#, r#"{"i":1}"#, r#"{"i":2}"#]);
}
