//! A stream cut after some calls ran (issue 31): for every dialect, dropped and truncated, the
//! `StreamError` names exactly the calls that ran (in its own text and in the `ResponseError`
//! inside), and gives the messages a host appends to go on — the model's turn holding only those
//! calls, then their results — which the providers' SDK request types accept
//! (`validate_messages.py`; Bedrock: botocore's `Converse` input shape, `validate_bedrock.py`).

use serde_json::{json, Value};
use toolnexus::stream::{StreamError, StreamEvent, StreamTurn};
use toolnexus::{ResponseError, RunOptions};

use crate::common::dialects::{self, Call};
use crate::common::generate::Rng;
use crate::common::stream::{self, toolkit, Transcript};
use crate::venv::Turns;

/// The cases that make calls: the realistic transcripts that do (`common::stream`), and for
/// every dialect a stream of its fixture asking for two calls, each named for the report.
fn transcripts() -> Vec<(String, Transcript)> {
    let realistic = stream::transcripts().into_iter().filter(|t| {
        !t.dialect
            .parse_calls(&t.whole)
            .expect("a transcript's response parses")
            .is_empty()
    });
    let calls = [
        Call::new("call_w", "get_weather", json!({"city": "Paris"})),
        Call::new("call_a", "add", json!({"a": 2, "b": 3})),
    ];
    let generated = dialects::ALL.iter().enumerate().map(|(seed, fixture)| {
        let name = fixture.sdk().key;
        let t = Transcript {
            name,
            dialect: fixture.dialect(),
            events: fixture.events(&mut Rng(seed as u64), &calls),
            whole: fixture.response(&calls),
        };
        (format!("{name} (generated)"), t)
    });
    realistic
        .map(|t| (t.name.to_owned(), t))
        .chain(generated)
        .collect()
}

/// Feeds `t` until the first event after which a call has started (so it ran), then the
/// `ending` events, and finishes: the error, and the calls that started.
async fn cut(t: &Transcript, ending: &[Value]) -> (StreamError, Vec<String>) {
    let toolkit = toolkit();
    let mut turn = StreamTurn::new(&toolkit, t.dialect, RunOptions::default());
    let mut started = Vec::new();
    for event in &t.events {
        for happened in turn.feed_event(event.clone()) {
            if let StreamEvent::CallStarted { call, .. } = happened {
                started.push(call.name);
            }
        }
        if !started.is_empty() {
            break;
        }
    }
    assert!(!started.is_empty(), "{}: no call started", t.name);
    for event in ending {
        turn.feed_event(event.clone()).for_each(drop);
    }
    (turn.finish().await.unwrap_err(), started)
}

#[tokio::test]
async fn a_cut_stream_gives_the_turn_of_the_calls_that_ran_which_every_sdk_accepts() {
    let mut turns = Turns::default();
    let cases = transcripts();
    for fixture in dialects::ALL {
        assert!(
            cases.iter().any(|(_, t)| t.dialect == fixture.dialect()),
            "{:?} has a case",
            fixture.dialect()
        );
    }
    for (name, t) in &cases {
        let fixture = dialects::of(t.dialect);
        turns.add_events(fixture, &t.events);
        for truncated in [false, true] {
            let ending = if truncated {
                fixture.truncation()
            } else {
                Vec::new()
            };
            let (err, started) = cut(t, &ending).await;
            let case = format!(
                "{name} ({})",
                if truncated { "truncated" } else { "dropped" }
            );
            match (&err.error, truncated) {
                (ResponseError::Truncated { .. }, true)
                | (ResponseError::Dropped { .. }, false) => {}
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
            turns.add(fixture, next, None);
        }
    }
    turns.assert_accepted("cut_stream");
}

#[tokio::test]
async fn a_cut_stream_before_any_call_completed_has_nothing_to_append() {
    let toolkit = toolkit();
    for (name, t) in transcripts() {
        // The events before the first that starts a call.
        let mut probe = StreamTurn::new(&toolkit, t.dialect, RunOptions::default());
        let first = t
            .events
            .iter()
            .position(|event| {
                probe
                    .feed_event(event.clone())
                    .any(|e| matches!(e, StreamEvent::CallStarted { .. }))
            })
            .unwrap_or_else(|| panic!("{name}: no call started"));
        let mut turn = StreamTurn::new(&toolkit, t.dialect, RunOptions::default());
        for event in &t.events[..first] {
            turn.feed_event(event.clone()).for_each(drop);
        }
        let err = turn.finish().await.unwrap_err();
        assert!(err.calls.is_empty() && err.model_turn.is_empty(), "{name}");
        assert_eq!(err.messages().count(), 0, "{name}");
        assert!(err.error.ran().is_empty());
    }
}
