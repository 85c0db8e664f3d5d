//! Property test: generated streams whose calls repeat ids (as `tests/stream/generated.rs`, every
//! dialect, argument pieces interleaved where the format allows it, the body cut into random
//! chunks, eager execution on or off, any concurrency bound). `respond` runs the first call of
//! an id BY POSITION and answers each later one "duplicate call id"; the stream must judge the
//! same calls the same way whatever order their arguments complete in. Judged by what the tools
//! saw (which calls ran, with which arguments, how many times) and by the final `Turn`, against
//! `respond` on the same response sent whole.

use proptest::prelude::*;
use serde_json::{json, Value};
use toolnexus::stream::{StreamEvent, StreamTurn};
use toolnexus::Turn;
use toolnexus::{Dialect, RunOptions, Toolkit};

use crate::common::block_on;
use crate::common::dialects::{self, Fixture};
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
    let mut calls = calls(&mut rng, count, &TOOLS);
    generate::repeat_ids(&mut rng, &mut calls);
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

/// Many calls per response (past the 16 the assembler finds by a walk, then through its index;
/// issue 39 made the judging linear in the calls): the same agreement with `respond`.
#[test]
fn responses_of_many_calls_with_repeated_ids_agree_with_respond() {
    for seed in 0..6u64 {
        for fixture in dialects::ALL {
            check(fixture, 17 + (seed as usize * 13) % 60, seed, seed % 2 == 0);
        }
    }
}

/// The reporter's 200 seeds (2 and 4 among them; before the fix about a third of Chat's and
/// Responses' runs differed) in every dialect, eager on and off: fixed cases next to the random
/// ones.
#[test]
fn the_reported_seeds_agree_with_respond() {
    for seed in 0..200 {
        for fixture in dialects::ALL {
            for eager in [true, false] {
                check(fixture, 2 + (seed as usize % 7), seed, eager);
            }
        }
    }
}

/// The `index`es of the calls a batch of stream events started, in order.
fn started(events: impl Iterator<Item = StreamEvent>) -> Vec<usize> {
    events
        .filter_map(|e| match e {
            StreamEvent::CallStarted { index, .. } => Some(index),
            _ => None,
        })
        .collect()
}

/// One Chat chunk holding one `tool_calls` delta.
fn chat_delta(delta: Value) -> Value {
    json!({"choices": [{"index": 0, "delta": {"tool_calls": [delta]}}]})
}

/// Call 0's id when it begins, call 1's id, call 0's id named later, what starts when call 1
/// completes, what starts when call 0 is named.
type Case = (
    Option<&'static str>,
    &'static str,
    Option<&'static str>,
    &'static [usize],
    &'static [usize],
);

/// Eager as can be: Chat's call 1 completes (call 0 resumes its pieces) before call 0. Its start
/// waits only while call 0's id is unknown: with call 0 named when it begins, call 1 starts at
/// once (another id) or is answered as a duplicate at once (the same id, without running).
#[test]
fn a_call_completing_before_an_earlier_one_starts_once_the_earlier_ids_are_known() {
    let cases: [Case; 3] = [
        (Some("a"), "b", None, &[1], &[]),
        (Some("a"), "a", None, &[1], &[]),
        (None, "b", Some("a"), &[], &[1]),
    ];
    for (first, second, later, at_complete, at_named) in cases {
        let (toolkit, runs) = recording();
        let mut begin = json!({"index": 0, "type": "function",
            "function": {"name": "rec_a", "arguments": "{\"i\":0"}});
        if let Some(id) = first {
            begin["id"] = id.into();
        }
        let events = [
            chat_delta(begin),
            chat_delta(json!({"index": 1, "id": second, "type": "function",
                "function": {"name": "rec_b", "arguments": "{\"i\":1}"}})),
            // Call 0's pieces go on: call 1 is complete.
            chat_delta(json!({"index": 0, "function": {"arguments": ""}})),
        ];
        let what = format!("{first:?} {second} {later:?}");
        let turn = block_on(async {
            let mut turn = StreamTurn::new(&toolkit, Dialect::OpenAiChat, RunOptions::default());
            let mut starts = Vec::new();
            for event in events {
                starts = started(turn.feed_event(event));
            }
            assert_eq!(starts, at_complete, "{what}: when call 1 completed");
            let mut named = json!({"index": 0, "function": {"arguments": "}"}});
            if let Some(id) = later {
                named["id"] = id.into();
            }
            let starts = started(turn.feed_event(chat_delta(named)));
            assert_eq!(starts, at_named, "{what}: when call 0 was named");
            let finish =
                json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]});
            assert_eq!(started(turn.feed_event(finish)), [0], "{what}");
            turn.finish().await.unwrap()
        });
        let ran: Vec<u64> = sorted(&runs)
            .iter()
            .map(|(_, args)| args["i"].as_u64().unwrap())
            .collect();
        let repeat = turn.calls[0].id == turn.calls[1].id;
        assert_eq!(ran, if repeat { vec![0] } else { vec![0, 1] }, "{what}");
        assert_eq!(turn.results[1].is_error, repeat, "{what}");
    }
}

/// Responses names each call in its `output_item.added`: call 1 done before call 0 starts at
/// its `output_item.done`, or is answered as call 0's duplicate there.
#[test]
fn a_responses_call_done_before_an_earlier_one_starts_at_its_done() {
    for second in ["call_b", "call_a"] {
        let (toolkit, runs) = recording();
        let item = |i: usize, id: &str, name: &str, arguments: &str, status: &str| {
            json!({"type": "function_call", "id": format!("fc_{i}"), "call_id": id,
                "name": name, "arguments": arguments, "status": status})
        };
        let one = r#"{"i":1}"#;
        let zero = r#"{"i":0}"#;
        let turn = block_on(async {
            let mut turn =
                StreamTurn::new(&toolkit, Dialect::OpenAiResponses, RunOptions::default());
            for event in [
                json!({"type": "response.created", "response": {"id": "r", "status": "in_progress", "output": []}}),
                json!({"type": "response.output_item.added", "output_index": 0,
                    "item": item(0, "call_a", "rec_a", "", "in_progress")}),
                json!({"type": "response.output_item.added", "output_index": 1,
                    "item": item(1, second, "rec_b", "", "in_progress")}),
            ] {
                assert_eq!(started(turn.feed_event(event)), [] as [usize; 0]);
            }
            let done = json!({"type": "response.output_item.done", "output_index": 1,
                "item": item(1, second, "rec_b", one, "completed")});
            assert_eq!(started(turn.feed_event(done)), [1], "{second}");
            let done = json!({"type": "response.output_item.done", "output_index": 0,
                "item": item(0, "call_a", "rec_a", zero, "completed")});
            assert_eq!(started(turn.feed_event(done)), [0], "{second}");
            let output = [
                item(0, "call_a", "rec_a", zero, "completed"),
                item(1, second, "rec_b", one, "completed"),
            ];
            turn.feed_event(json!({"type": "response.completed",
                "response": {"id": "r", "status": "completed", "output": output}}))
                .for_each(drop);
            turn.finish().await.unwrap()
        });
        let ran = sorted(&runs).len();
        assert_eq!(ran, if second == "call_a" { 1 } else { 2 }, "{second}");
        assert_eq!(turn.results[1].is_error, second == "call_a", "{second}");
    }
}

/// A server renaming a call's id after a later call started under the stream's judgment of it
/// (Chat appends id pieces as any text): the whole response judges the later call a duplicate,
/// so the turn fails, naming the call that ran, rather than give a turn `respond` would not.
#[test]
fn an_id_renamed_after_a_later_call_started_fails_the_turn() {
    let (toolkit, runs) = recording();
    let events = [
        chat_delta(json!({"index": 0, "id": "x", "type": "function",
            "function": {"name": "rec_a", "arguments": "{\"i\":0"}})),
        chat_delta(json!({"index": 1, "id": "xy", "type": "function",
            "function": {"name": "rec_b", "arguments": "{\"i\":1}"}})),
        chat_delta(json!({"index": 0, "function": {"arguments": ""}})),
        // Call 0's id becomes `xy`: call 1, already started, repeats it.
        chat_delta(json!({"index": 0, "id": "y", "function": {"arguments": "}"}})),
        json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}),
    ];
    let error = block_on(async {
        let mut turn = StreamTurn::new(&toolkit, Dialect::OpenAiChat, RunOptions::default());
        let mut starts = Vec::new();
        for event in events {
            starts.extend(started(turn.feed_event(event)));
        }
        assert_eq!(starts, [1, 0], "call 1 started as it completed");
        turn.finish().await.unwrap_err()
    });
    assert!(
        error.error.to_string().contains("(the stream's call 1).id"),
        "{}",
        error.error
    );
    let ran: Vec<u64> = error
        .calls
        .iter()
        .map(|c| match &c.arguments {
            toolnexus::Arguments::Text(text) => serde_json::from_str::<Value>(text).unwrap()["i"]
                .as_u64()
                .unwrap(),
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(ran.len(), sorted(&runs).len(), "the error names what ran");
    assert!(ran.contains(&1));
}
