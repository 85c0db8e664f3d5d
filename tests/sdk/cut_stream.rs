//! A stream cut after some calls ran (issue 31): for every dialect, dropped and truncated, the
//! `StreamError` names exactly the calls that ran (in its own text and in the `ResponseError`
//! inside), and gives the messages a host appends to go on — the model's turn holding only those
//! calls, then their results — which the providers' SDK request types accept
//! (`validate_messages.py`; Bedrock: botocore's `Converse` input shape, `validate_bedrock.py`).

use serde_json::{json, Value};
use toolnexus::stream::{StreamError, StreamEvent, StreamTurn};
use toolnexus::{Dialect, ResponseError, RunOptions};

use crate::common::dialects::{self, Call, Stop};
use crate::common::generate::Rng;
use crate::common::stream::{self, toolkit};
use crate::venv::Turns;

/// The two calls of the fixtures' streams.
fn calls() -> [Call; 2] {
    [
        Call::new("call_w", "get_weather", json!({"city": "Paris"})),
        Call::new("call_a", "add", json!({"a": 2, "b": 3})),
    ]
}

/// The whole streams that make calls, each named for the report: the realistic transcripts
/// that do (`common::stream`), and for every dialect its fixture's stream of [`calls`].
fn streams() -> Vec<(String, Dialect, Vec<Value>)> {
    let realistic = stream::transcripts().into_iter().filter(|t| {
        !t.dialect
            .parse_calls(&t.whole)
            .expect("a transcript's response parses")
            .is_empty()
    });
    let generated = dialects::ALL.iter().enumerate().map(|(seed, fixture)| {
        let events = fixture.events(&mut Rng(seed as u64), &calls());
        let name = format!("{} (generated)", fixture.sdk().key);
        (name, fixture.dialect(), events)
    });
    realistic
        .map(|t| (t.name.to_owned(), t.dialect, t.events))
        .chain(generated)
        .collect()
}

/// Where in `events` the first call starts (so it runs): the place of that event.
fn first_call_at(dialect: Dialect, events: &[Value]) -> Option<usize> {
    let toolkit = toolkit();
    let mut probe = StreamTurn::new(&toolkit, dialect, RunOptions::default());
    events.iter().position(|event| {
        probe
            .feed_event(event.clone())
            .any(|e| matches!(e, StreamEvent::CallStarted { .. }))
    })
}

/// A stream that ended while its calls ran: the events it got, and whether they end at the
/// output token limit (or the connection just dropped).
struct Cut {
    name: String,
    dialect: Dialect,
    events: Vec<Value>,
    truncated: bool,
}

/// Every stream of [`streams`] dropped right after its first call started, and for every
/// dialect its fixture's stream of [`calls`] cut at the token limit in its last call
/// (`Fixture::cut_short`).
fn cuts() -> Vec<Cut> {
    let mut cuts: Vec<Cut> = streams()
        .into_iter()
        .map(|(name, dialect, mut events)| {
            let first = first_call_at(dialect, &events)
                .unwrap_or_else(|| panic!("{name}: no call started"));
            events.truncate(first + 1);
            Cut {
                name: format!("{name} (dropped)"),
                dialect,
                events,
                truncated: false,
            }
        })
        .collect();
    for (seed, fixture) in dialects::ALL.iter().enumerate() {
        let (events, _) = fixture.cut_short(&mut Rng(seed as u64), &calls(), Stop::Length);
        cuts.push(Cut {
            name: format!("{} (truncated)", fixture.sdk().key),
            dialect: fixture.dialect(),
            events,
            truncated: true,
        });
    }
    cuts
}

/// Feeds `cut`'s events and finishes: the error, and the calls that started.
async fn cut(cut: &Cut) -> (StreamError, Vec<String>) {
    let toolkit = toolkit();
    let mut turn = StreamTurn::new(&toolkit, cut.dialect, RunOptions::default());
    let mut started = Vec::new();
    for event in &cut.events {
        for happened in turn.feed_event(event.clone()) {
            if let StreamEvent::CallStarted { call, .. } = happened {
                started.push(call.name);
            }
        }
    }
    assert!(!started.is_empty(), "{}: no call started", cut.name);
    (turn.finish().await.unwrap_err(), started)
}

#[tokio::test]
async fn a_cut_stream_gives_the_turn_of_the_calls_that_ran_which_every_sdk_accepts() {
    let mut turns = Turns::default();
    let cases = cuts();
    for fixture in dialects::ALL {
        for truncated in [false, true] {
            assert!(
                cases
                    .iter()
                    .any(|c| c.dialect == fixture.dialect() && c.truncated == truncated),
                "{:?} has a case (truncated: {truncated})",
                fixture.dialect()
            );
        }
    }
    for c in &cases {
        let fixture = dialects::of(c.dialect);
        turns.add_events(fixture, &c.events);
        let (err, started) = cut(c).await;
        let case = &c.name;
        match (&err.error, c.truncated) {
            (ResponseError::Truncated { .. }, true) | (ResponseError::Dropped { .. }, false) => {}
            (other, _) => panic!("{case}: {other:?}"),
        }
        // What ran is what started, each with its result; nothing else.
        let ran: Vec<&str> = err.calls.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(ran, started, "{case}");
        assert_eq!(err.results.len(), err.calls.len(), "{case}");
        assert!(
            err.results.iter().all(|r| !r.is_error),
            "{case}: {:?}",
            err.results
        );
        // Every text says exactly which ran: the error's and the `ResponseError` inside.
        assert_eq!(err.error.ran().len(), err.calls.len(), "{case}");
        for text in [err.to_string(), err.error.to_string()] {
            assert!(
                !text.contains("none were run") && !text.contains("no call was run"),
                "{case}: {text}"
            );
            for call in &err.calls {
                assert!(text.contains(&format!("`{}`", call.name)), "{case}: {text}");
            }
        }
        // The model's turn holds exactly the calls that ran, under the ids they came with.
        let expected: Vec<(Option<String>, String)> = err
            .calls
            .iter()
            .map(|c| (c.id.clone(), c.name.clone()))
            .collect();
        assert_eq!(
            fixture.turn_calls(&err.model_turn),
            expected,
            "{case}: {:?}",
            err.model_turn
        );
        assert!(!err.result_messages.is_empty(), "{case}");
        let next = err.clone().into_messages();
        assert_eq!(next, err.messages().cloned().collect::<Vec<_>>());
        turns.add(fixture, next, &toolkit());
    }
    turns.assert_accepted("cut_stream");
}

#[tokio::test]
async fn a_cut_stream_before_any_call_completed_keeps_the_text_the_model_completed() {
    let toolkit = toolkit();
    let mut turns = Turns::default();
    let mut kept = 0;
    for (name, dialect, events) in streams() {
        // The events before the first that starts a call.
        let first = first_call_at(dialect, &events).expect("a call starts");
        let mut turn = StreamTurn::new(&toolkit, dialect, RunOptions::default());
        let mut said = Vec::new();
        for event in &events[..first] {
            for happened in turn.feed_event(event.clone()) {
                if let StreamEvent::Text(text) = happened {
                    said.push(text);
                }
            }
        }
        let err = turn.finish().await.unwrap_err();
        assert!(
            err.calls.is_empty() && err.result_messages.is_empty(),
            "{name}"
        );
        assert!(err.error.ran().is_empty());
        let fixture = dialects::of(dialect);
        assert_eq!(
            fixture.turn_calls(&err.model_turn),
            [],
            "{name}: no call that never ran"
        );
        if said.concat().trim().is_empty() {
            assert!(err.model_turn.is_empty(), "{name}: {:?}", err.model_turn);
            assert_eq!(err.messages().count(), 0, "{name}");
            continue;
        }
        // Before issue 39 the turn was empty here, and what the model wrote was lost.
        let turn_text = serde_json::to_string(&err.model_turn).unwrap();
        for piece in &said {
            let piece = serde_json::to_string(piece).unwrap();
            let piece = piece.trim_matches('"');
            assert!(turn_text.contains(piece), "{name}: {piece} in {turn_text}");
        }
        kept += 1;
        turns.add(fixture, err.clone().into_messages(), &toolkit);
    }
    assert!(
        kept >= 4,
        "the transcripts with text before their first call: {kept}"
    );
    turns.assert_accepted("cut_stream_text");
}
