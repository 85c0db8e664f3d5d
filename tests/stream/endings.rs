//! Every way a stream can end (issue 10, acceptance 4): complete, truncated, dropped, an error
//! event mid-stream; with eager execution on and off. No panic, every call whose arguments
//! completed is answered exactly once, no call starts twice, and the results of the calls that
//! ran come back with the error. Also: arguments and events past the `Limits`.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use futures::StreamExt;
use serde_json::{json, Value};
use toolnexus::stream::{StreamError, StreamEvent, StreamTurn};
use toolnexus::Turn;
use toolnexus::{
    Dialect, Limits, NativeTool, Remedy, ResponseError, RunOptions, TokenLimit, Toolkit,
};

use crate::common::dialects::{self, Call, Fixture, Stop};
use crate::common::generate::Rng;
use crate::common::stream::*;

/// `get_weather`, `add` and `ping` that count how often each ran.
fn counting_toolkit(limits: Limits) -> (Toolkit, Arc<Mutex<HashMap<String, usize>>>) {
    let runs = Arc::new(Mutex::new(HashMap::new()));
    let mut toolkit = Toolkit::new().with_limits(limits);
    for name in ["get_weather", "add", "ping"] {
        let runs = Arc::clone(&runs);
        let tool = NativeTool::of(
            name,
            "A tool",
            json!({"type": "object", "properties": {}}),
            move |_| {
                *runs.lock().unwrap().entry(name.to_owned()).or_insert(0) += 1;
                async move { format!("{name} ran") }
            },
        )
        .unwrap();
        toolkit.add(tool).unwrap();
    }
    (toolkit, runs)
}

struct Outcome {
    end: Result<Turn, StreamError>,
    events: Vec<StreamEvent>,
    runs: HashMap<String, usize>,
}

async fn run_body(dialect: Dialect, body: Vec<u8>, eager: bool, limits: Limits) -> Outcome {
    let (toolkit, runs) = counting_toolkit(limits);
    let chunks: Vec<Result<Vec<u8>, std::io::Error>> =
        body.chunks(5).map(|c| Ok(c.to_vec())).collect();
    let mut turn = StreamTurn::new(&toolkit, dialect, RunOptions::default()).with_eager(eager);
    let mut events = Vec::new();
    let mut stream = turn.read(futures::stream::iter(chunks));
    while let Some(event) = stream.next().await {
        events.push(event.unwrap());
    }
    let end = turn.finish().await;
    let runs = runs.lock().unwrap().clone();
    // Never twice: each call index starts at most once and finishes at most once.
    for kind in ["started", "finished"] {
        let mut indexes: Vec<usize> = events
            .iter()
            .filter_map(|e| match (e, kind) {
                (StreamEvent::CallStarted { index, .. }, "started") => Some(*index),
                (StreamEvent::CallFinished { index, .. }, "finished") => Some(*index),
                _ => None,
            })
            .collect();
        let n = indexes.len();
        indexes.sort_unstable();
        indexes.dedup();
        assert_eq!(indexes.len(), n, "a call {kind} twice: {events:?}");
    }
    Outcome { end, events, runs }
}

async fn run(dialect: Dialect, events: &[Value], eager: bool) -> Outcome {
    run_body(dialect, sse(dialect, events), eager, Limits::default()).await
}

/// The stream failed with an error whose text contains `why`; exactly the tools `ran` ran, once
/// each, and come back with the error in that order.
fn assert_failed(outcome: &Outcome, why: &str, ran: &[&str]) {
    let Err(error) = &outcome.end else {
        panic!("expected an error, got {:?}", outcome.end);
    };
    assert!(
        error.to_string().contains(why),
        "{error} does not say {why:?}"
    );
    let names: Vec<&str> = error.calls.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ran, "the calls returned with the error");
    assert_eq!(error.results.len(), error.calls.len());
    for (call, result) in error.calls.iter().zip(&error.results) {
        assert_eq!(result.output, format!("{} ran", call.name));
    }
    let mut runs: Vec<(&str, usize)> = outcome.runs.iter().map(|(k, v)| (k.as_str(), *v)).collect();
    runs.sort();
    let mut expected: Vec<(&str, usize)> = ran.iter().map(|n| (*n, 1)).collect();
    expected.sort();
    assert_eq!(runs, expected, "each call that ran, ran once");
    let finished = outcome
        .events
        .iter()
        .filter(|e| matches!(e, StreamEvent::CallFinished { .. }))
        .count();
    assert_eq!(
        finished,
        ran.len(),
        "each call that ran was reported finished"
    );
}

/// The first `n` events of a transcript.
fn first(t: &Transcript, n: usize) -> Vec<Value> {
    t.events[..n].to_vec()
}

/// The index of the first event matching `f`.
fn find(t: &Transcript, f: impl Fn(&Value) -> bool) -> usize {
    t.events.iter().position(f).expect("event in transcript")
}

#[tokio::test]
async fn complete_streams_run_every_call_once_eager_or_not() {
    for t in transcripts() {
        for eager in [true, false] {
            let outcome = run(t.dialect, &t.events, eager).await;
            let turn = outcome.end.unwrap_or_else(|e| panic!("{}: {e}", t.name));
            let names: Vec<&str> = turn.calls.iter().map(|c| c.name.as_str()).collect();
            for name in &names {
                assert_eq!(outcome.runs[*name], 1, "{} {name}", t.name);
            }
            assert_eq!(turn.results.len(), names.len());
        }
    }
}

/// The weather call whole, then `add` cut short by `stop`, in `fixture`'s format; with what
/// the error says of the stop.
fn cut_short(fixture: &dyn Fixture, stop: Stop) -> (Vec<Value>, String) {
    let calls = [
        Call::new(
            "call_w",
            "get_weather",
            serde_json::from_str(CITY_ARGS).unwrap(),
        ),
        Call::new("call_a", "add", json!({"a": 2, "b": 3})),
    ];
    fixture.cut_short(&mut Rng(3), &calls, stop)
}

#[tokio::test]
async fn truncated_streams_return_the_calls_that_ran_and_never_start_a_cut_call() {
    for fixture in dialects::ALL {
        let dialect = fixture.dialect();
        let (events, why) = cut_short(fixture, Stop::Length);
        let eager = run(dialect, &events, true).await;
        assert_failed(&eager, &why, &["get_weather"]);
        let error = &eager.end.as_ref().unwrap_err().error;
        assert!(
            matches!(
                error,
                ResponseError::Truncated {
                    limit: TokenLimit::Output,
                    ..
                }
            ),
            "{dialect}: {error:?}"
        );
        assert_eq!(error.remedy(), Remedy::RaiseLimit);
        let lazy = run(dialect, &events, false).await;
        assert_failed(&lazy, &why, &[]);
    }
}

/// security.md: a response the provider stopped for safety runs none of its calls; streamed,
/// the call the stop cut never starts, the calls whose arguments completed before it ran only
/// with eager execution (and come back with the error), and without it none ran. Each
/// dialect's stream ended by its safety stop; Bedrock's `ConverseStream` also fed event by
/// event, as the AWS SDKs decode it.
#[tokio::test]
async fn streams_stopped_for_safety_never_start_a_cut_call_and_without_eager_run_none() {
    for fixture in dialects::ALL {
        let dialect = fixture.dialect();
        let (events, why) = cut_short(fixture, Stop::Safety);
        let eager = run(dialect, &events, true).await;
        assert_failed(&eager, &why, &["get_weather"]);
        let error = &eager.end.as_ref().unwrap_err().error;
        assert!(
            matches!(error, ResponseError::Stopped { .. }),
            "{dialect}: {error:?}"
        );
        let lazy = run(dialect, &events, false).await;
        assert_failed(&lazy, &why, &[]);
    }

    let converse = [
        json!({"messageStart": {"role": "assistant"}}),
        json!({"contentBlockStart": {"contentBlockIndex": 0,
            "start": {"toolUse": {"toolUseId": "tu_1", "name": "ping"}}}}),
        json!({"contentBlockDelta": {"contentBlockIndex": 0, "delta": {"toolUse": {"input": "{}"}}}}),
        json!({"contentBlockStop": {"contentBlockIndex": 0}}),
        json!({"contentBlockStart": {"contentBlockIndex": 1,
            "start": {"toolUse": {"toolUseId": "tu_2", "name": "add"}}}}),
        json!({"contentBlockDelta": {"contentBlockIndex": 1, "delta": {"toolUse": {"input": "{\"a\""}}}}),
        json!({"messageStop": {"stopReason": "guardrail_intervened"}}),
    ];
    for eager in [true, false] {
        let (toolkit, runs) = counting_toolkit(Limits::default());
        let mut turn =
            StreamTurn::new(&toolkit, Dialect::Bedrock, RunOptions::default()).with_eager(eager);
        for event in &converse {
            turn.feed_event(event.clone()).for_each(drop);
        }
        let err = turn.finish().await.unwrap_err();
        assert!(
            matches!(err.error, ResponseError::Stopped { .. }),
            "{err:?}"
        );
        assert!(
            err.to_string()
                .contains("`stopReason` is `guardrail_intervened`"),
            "{err}"
        );
        let ran: Vec<&str> = err.calls.iter().map(|c| c.name.as_str()).collect();
        let want: &[&str] = if eager { &["ping"] } else { &[] };
        assert_eq!(ran, want, "eager {eager}");
        let runs = runs.lock().unwrap().clone();
        assert_eq!(runs.get("ping").copied().unwrap_or(0), usize::from(eager));
        assert_eq!(runs.get("add"), None, "the cut call never started");
    }
}

#[tokio::test]
async fn dropped_streams_return_the_calls_that_ran() {
    for t in transcripts()
        .into_iter()
        .filter(|t| t.name != "openai_chat_text_only")
    {
        // Cut after the second call is complete (its closing event is there) but before the end.
        let second_ready = t
            .fixture()
            .ready_at(&t.events, 1)
            .unwrap_or_else(|| panic!("{}: the second call completes", t.name));
        let events = first(&t, second_ready + 1);
        let outcome = run(t.dialect, &events, true).await;
        assert_failed(&outcome, "the body ended before", &["get_weather", "add"]);
        let lazy = run(t.dialect, &events, false).await;
        assert_failed(&lazy, "the body ended before", &[]);

        // Cut in the middle of the next event's bytes.
        let mut body = sse(t.dialect, &events);
        let next = sse(t.dialect, &t.events[second_ready + 1..second_ready + 2]);
        body.extend_from_slice(&next[..next.len() / 2]);
        let outcome = run_body(t.dialect, body, true, Limits::default()).await;
        assert_failed(&outcome, "ended before", &["get_weather", "add"]);
        assert!(outcome
            .end
            .as_ref()
            .unwrap_err()
            .to_string()
            .contains("in the middle of an event"));
    }
}

#[tokio::test]
async fn an_error_event_mid_stream_returns_the_calls_that_ran() {
    let mut cases: Vec<(Dialect, Vec<Value>, String)> = dialects::ALL
        .iter()
        .map(|fixture| {
            let (events, why) = cut_short(*fixture, Stop::Error);
            (fixture.dialect(), events, why)
        })
        .collect();
    // Responses also fails by `response.failed`, carrying the response.
    let responses = openai_responses();
    let weather_done = find(&responses, |e| {
        e["type"] == "response.output_item.done" && e["item"]["call_id"] == "call_w"
    });
    let mut failed = first(&responses, weather_done + 1);
    let mut response = responses.whole.clone();
    response["status"] = "failed".into();
    response["error"] = json!({"code": "server_error", "message": "The model failed"});
    failed.push(json!({"type": "response.failed", "sequence_number": 90, "response": response}));
    cases.push((responses.dialect, failed, "The model failed".to_owned()));
    for (dialect, events, why) in cases {
        let outcome = run(dialect, &events, true).await;
        assert_failed(&outcome, &why, &["get_weather"]);
        assert!(
            matches!(
                outcome.end.as_ref().unwrap_err().error,
                ResponseError::Provider { .. }
            ),
            "{dialect}: {why}"
        );
        let lazy = run(dialect, &events, false).await;
        assert_failed(&lazy, &why, &[]);
    }
}

#[tokio::test]
async fn events_after_an_error_are_ignored() {
    let t = anthropic();
    let mut events = first(&t, 2);
    events.push(json!({"type": "error", "error": {"type": "api_error", "message": "Internal"}}));
    events.extend(t.events[2..].iter().cloned());
    let outcome = run(t.dialect, &events, true).await;
    assert_failed(&outcome, "Internal", &[]);
}

#[tokio::test]
async fn a_stream_of_garbage_is_an_error_not_a_panic() {
    for dialect in Dialect::ALL {
        let outcome = run_body(
            dialect,
            b"data: {not json\n\n".to_vec(),
            true,
            Limits::default(),
        )
        .await;
        assert_failed(&outcome, "not valid JSON", &[]);
        let outcome = run_body(
            dialect,
            b"data: [1,2]\n\n".to_vec(),
            true,
            Limits::default(),
        )
        .await;
        assert!(outcome.end.is_err(), "{dialect}");
        let outcome = run_body(dialect, Vec::new(), true, Limits::default()).await;
        assert_failed(&outcome, "the body ended before", &[]);
    }
}

/// A stream's arguments past the limit are not kept: in every transcript whose dialect streams
/// them as text (Gemini's parts come whole, kept in the model's turn as sent), the weather
/// call's 40-odd bytes under a 24-byte bound.
#[tokio::test]
async fn arguments_past_the_limit_are_not_kept_and_the_call_is_answered_as_for_a_whole_response() {
    let limits = Limits::default().with_max_bytes(24).with_max_depth(64);
    let (toolkit, runs) = counting_toolkit(limits);
    for t in transcripts()
        .into_iter()
        .filter(|t| t.fixture().streams_text() && t.name != "openai_chat_text_only")
    {
        runs.lock().unwrap().clear();
        let mut turn = StreamTurn::new(&toolkit, t.dialect, RunOptions::default());
        turn.feed_bytes(&t.body()).for_each(drop);
        let got = turn.finish().await.unwrap();
        // The whole response's answer: the same error for the weather call, the others ran.
        let calls = t.dialect.parse_calls(&t.whole).unwrap();
        let want = toolkit.execute_calls(&calls, &RunOptions::default()).await;
        assert_eq!(got.results[1..], want[1..], "{}", t.name);
        // The same error; its "at least N bytes" counts the text received (an object's size
        // in a whole response is counted as it is walked, so the number may differ).
        let prefix = "invalid arguments for `get_weather`: the arguments are larger than 24 bytes (at least ";
        assert!(want[0].output.starts_with(prefix), "{:?}", want[0]);
        assert!(
            got.results[0].is_error && got.results[0].output.starts_with(prefix),
            "{:?}",
            got.results[0]
        );
        if t.fixture().sends_text() {
            // Sent whole as text too, not as an object.
            assert_eq!(got.results[0], want[0], "{}: text is counted alike", t.name);
        }
        assert_eq!(
            runs.lock()
                .unwrap()
                .get("get_weather")
                .copied()
                .unwrap_or(0),
            0,
            "{}: never ran",
            t.name
        );
        // What was not kept is not sent back either.
        let turn_text = serde_json::to_string(&got.model_turn).unwrap();
        assert!(!turn_text.contains("France"), "{}: {turn_text}", t.name);
    }
}

#[tokio::test]
async fn an_event_past_the_bound_ends_the_stream() {
    let limits = Limits::default().with_max_bytes(16).with_max_depth(64);
    let mut body = b"data: {\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"".to_vec();
    body.extend(std::iter::repeat_n(b'x', 70_000));
    body.extend_from_slice(b"\"}]}}]}\n\n");
    let outcome = run_body(Dialect::Gemini, body, true, limits).await;
    assert_failed(&outcome, "longer than 65600 bytes", &[]);
}

#[tokio::test]
async fn a_duplicate_id_is_answered_without_running_as_for_a_whole_response() {
    let t = openai_chat();
    let body = String::from_utf8(t.body())
        .unwrap()
        .replace("call_a", "call_w");
    let whole: Value =
        serde_json::from_str(&t.whole.to_string().replace("call_a", "call_w")).unwrap();
    let (toolkit, runs) = counting_toolkit(Limits::default());
    let mut turn = StreamTurn::new(&toolkit, t.dialect, RunOptions::default());
    turn.feed_bytes(body.as_bytes()).for_each(drop);
    let got = turn.finish().await.unwrap();
    let calls = t.dialect.parse_calls(&whole).unwrap();
    let want = toolkit.execute_calls(&calls, &RunOptions::default()).await;
    assert_eq!(got.results, want);
    assert!(got.results[1]
        .output
        .starts_with("duplicate call id `call_w`"));
    assert_eq!(runs.lock().unwrap().get("add"), None);
}

/// security.md: a call that repeats an id seen earlier in the turn is answered "duplicate call
/// id" without running. Streamed, in every dialect, eager or not, fed as bytes or as parsed
/// events, the calls completing in any order (Chat's and Responses' interleave, so the second
/// call often completes first): the second call of the fixture's stream given the first one's
/// id gets the whole response's answer, and `add` never runs.
#[tokio::test]
async fn a_repeated_id_is_answered_without_running_in_every_streamed_dialect() {
    let calls = [
        Call::new("same", "ping", json!({})),
        Call::new("same", "add", json!({"a": 2, "b": 3})),
    ];
    let cases = [(true, true), (false, true), (true, false), (false, false)];
    // Streams whose second call completed before the first: the case judged by position.
    let mut second_first = 0;
    for fixture in dialects::ALL {
        let dialect = fixture.dialect();
        let whole = fixture.response(&calls);
        for (seed, (eager, as_bytes)) in (0..32).zip(cases.iter().copied().cycle()) {
            let events = fixture.events(&mut Rng(seed), &calls);
            let ends = (fixture.ready_at(&events, 0), fixture.ready_at(&events, 1));
            second_first += usize::from(matches!(ends, (Some(a), Some(b)) if b < a));
            let (toolkit, runs) = counting_toolkit(Limits::default());
            let mut turn =
                StreamTurn::new(&toolkit, dialect, RunOptions::default()).with_eager(eager);
            if as_bytes {
                turn.feed_bytes(&fixture.sse(&events)).for_each(drop);
            } else {
                for event in &events {
                    turn.feed_event(event.clone()).for_each(drop);
                }
            }
            let got = turn.finish().await.unwrap();
            let parsed = dialect.parse_calls(&whole).unwrap();
            assert_eq!(parsed[1].id.as_deref(), Some("same"), "{dialect}");
            let want = toolkit.execute_calls(&parsed, &RunOptions::default()).await;
            let how = format!("{dialect}, seed {seed}, eager {eager}, as bytes {as_bytes}");
            assert_eq!(got.results, want, "{how}");
            assert_eq!(got.results[0].output, "ping ran", "{how}");
            assert_eq!(
                got.results[1].output,
                "duplicate call id `same`: an earlier call in this turn has it; this call was not run",
                "{how}"
            );
            assert_eq!(runs.lock().unwrap().get("add"), None, "{how}");
        }
    }
    assert!(
        second_first > 0,
        "no stream completed its second call first"
    );
}

/// security.md: Gemini pairs a `functionResponse` with its `functionCall` by name, so a name no
/// function can have (over 64 characters, or outside `[A-Za-z0-9_.:-]`) is replaced by the same
/// safe short name in the repeated model turn and in the response. Streamed as whole: the
/// transcript's `add` renamed to a 41 KB name and to one holding U+202E and a space.
#[tokio::test]
async fn a_streamed_gemini_name_no_function_can_have_is_replaced_alike_in_turn_and_response() {
    for name in ["n".repeat(41_000), "bad name\u{202e}".to_owned()] {
        let mut t = gemini();
        t.events[4]["candidates"][0]["content"]["parts"][1]["functionCall"]["name"] =
            name.clone().into();
        t.whole["candidates"][0]["content"]["parts"][3]["functionCall"]["name"] =
            name.clone().into();
        for eager in [true, false] {
            let (toolkit, _) = counting_toolkit(Limits::default());
            let mut turn =
                StreamTurn::new(&toolkit, Dialect::Gemini, RunOptions::default()).with_eager(eager);
            turn.feed_bytes(&t.body()).for_each(drop);
            let got = turn.finish().await.unwrap();
            let whole = toolkit.respond(&t.whole, Dialect::Gemini).await.unwrap();
            let called = &got.model_turn[0]["parts"][3]["functionCall"]["name"];
            let answered = &got.result_messages[0]["parts"][1]["functionResponse"]["name"];
            assert_eq!(called, answered, "eager {eager}");
            let safe = answered.as_str().unwrap();
            assert!(safe.len() <= 64, "{} bytes", safe.len());
            assert!(
                safe.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "_.:-".contains(c)),
                "{safe}"
            );
            assert_eq!(
                got.model_turn, whole.model_turn,
                "as for the whole response"
            );
            assert_eq!(got.result_messages, whole.result_messages);
            // The names the toolkit has are kept.
            assert_eq!(
                got.result_messages[0]["parts"][0]["functionResponse"]["name"],
                "get_weather"
            );
        }
    }
}
