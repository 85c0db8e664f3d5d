//! Endings a host can act on (issue 24): each way a stream ends is its own `ResponseError`
//! variant with a `Remedy`, the calls that ran stay attached, and the text never contradicts
//! itself. Also: a Responses call item that did not complete never runs, streamed or whole.

use std::sync::{Arc, Mutex};

use futures::StreamExt;
use serde_json::{json, Value};
use toolnexus::stream::{StreamError, StreamEvent, StreamTurn};
use toolnexus::Turn;
use toolnexus::{Dialect, Limits, NativeTool, Remedy, ResponseError, RunOptions, Toolkit};

use crate::common::dialects::{self, Call, Stop};
use crate::common::generate::Rng;
use crate::common::stream::sse;

type Runs = Arc<Mutex<Vec<(String, Value)>>>;

/// `write_file` and `ping`, recording each run with its arguments.
fn recording(limits: Limits) -> (Toolkit, Runs) {
    let runs: Runs = Arc::default();
    let mut toolkit = Toolkit::new().with_limits(limits);
    for name in ["write_file", "ping"] {
        let runs = Arc::clone(&runs);
        let tool = NativeTool::of(name, "Records", json!({"type": "object"}), move |args| {
            runs.lock().unwrap().push((name.to_owned(), args));
            async move { format!("{name} ran") }
        })
        .unwrap();
        toolkit.add(tool).unwrap();
    }
    (toolkit, runs)
}

struct Outcome {
    end: Result<Turn, StreamError>,
    events: Vec<StreamEvent>,
    runs: Vec<(String, Value)>,
}

async fn read_with(dialect: Dialect, body: Vec<u8>, limits: Limits) -> Outcome {
    let (toolkit, runs) = recording(limits);
    let chunks: Vec<Result<Vec<u8>, std::io::Error>> =
        body.chunks(7).map(|c| Ok(c.to_vec())).collect();
    let mut turn = StreamTurn::new(&toolkit, dialect, RunOptions::default());
    let mut events = Vec::new();
    let mut stream = turn.read(futures::stream::iter(chunks));
    while let Some(event) = stream.next().await {
        events.push(event.unwrap());
    }
    let end = turn.finish().await;
    let runs = runs.lock().unwrap().clone();
    Outcome { end, events, runs }
}

async fn read(dialect: Dialect, body: Vec<u8>) -> Outcome {
    read_with(dialect, body, Limits::default()).await
}

fn error(outcome: &Outcome) -> &StreamError {
    outcome.end.as_ref().expect_err("the stream fails")
}

fn started(outcome: &Outcome) -> usize {
    outcome
        .events
        .iter()
        .filter(|e| matches!(e, StreamEvent::CallStarted { .. }))
        .count()
}

fn responses_item(status: &str, arguments: &str) -> Value {
    json!({"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "write_file",
        "arguments": arguments, "status": status})
}

#[tokio::test]
async fn a_responses_call_item_that_did_not_complete_never_runs() {
    let added = json!({"type": "response.output_item.added", "output_index": 0,
        "item": responses_item("in_progress", "")});
    let done = json!({"type": "response.output_item.done", "output_index": 0,
        "item": responses_item("incomplete", "")});
    // The issue's case: `incomplete` item, then `response.incomplete`: `write_file({})` ran.
    let incomplete = json!({"type": "response.incomplete", "response": {"id": "r",
        "status": "incomplete", "incomplete_details": {"reason": "max_output_tokens"},
        "output": [responses_item("incomplete", "")]}});
    let outcome = read(
        Dialect::OpenAiResponses,
        sse(
            Dialect::OpenAiResponses,
            &[added.clone(), done.clone(), incomplete],
        ),
    )
    .await;
    assert_eq!(outcome.runs, [], "nothing ran");
    assert_eq!(started(&outcome), 0);
    assert!(matches!(
        error(&outcome).error,
        ResponseError::Truncated { .. }
    ));
    assert_eq!(error(&outcome).error.remedy(), Remedy::RaiseLimit);

    // A server that still says `response.completed` around an incomplete item: nothing runs.
    let completed = json!({"type": "response.completed", "response": {"id": "r",
        "status": "completed", "output": [responses_item("incomplete", "{\"path\":\"/etc")]}});
    let outcome = read(
        Dialect::OpenAiResponses,
        sse(Dialect::OpenAiResponses, &[added, done, completed]),
    )
    .await;
    assert_eq!(outcome.runs, []);
    assert_eq!(started(&outcome), 0);
    assert_eq!(
        error(&outcome).to_string(),
        "the OpenAI Responses response is incomplete (`output[0].status` is `incomplete`); its \
         tool calls may be cut off, so none were run"
    );

    // The same rule for a whole response.
    let whole = json!({"id": "r", "status": "completed", "output": [
        responses_item("completed", "{}"), responses_item("in_progress", "{\"pa")]});
    let (toolkit, runs) = recording(Limits::default());
    let err = toolkit
        .respond(&whole, Dialect::OpenAiResponses)
        .await
        .unwrap_err();
    assert!(matches!(err, ResponseError::Incomplete { .. }), "{err:?}");
    assert_eq!(err.remedy(), Remedy::Retry);
    assert!(runs.lock().unwrap().is_empty());
}

#[tokio::test]
async fn a_server_contradicting_a_started_call_fails_the_turn_without_running_it_again() {
    let events = [
        json!({"type": "response.output_item.added", "output_index": 0,
            "item": responses_item("in_progress", "")}),
        json!({"type": "response.output_item.done", "output_index": 0,
            "item": responses_item("completed", "{\"path\":\"a\"}")}),
        json!({"type": "response.completed", "response": {"id": "r", "status": "completed",
            "output": [responses_item("completed", "{\"path\":\"b\"}")]}}),
    ];
    let outcome = read(
        Dialect::OpenAiResponses,
        sse(Dialect::OpenAiResponses, &events),
    )
    .await;
    assert_eq!(
        outcome.runs,
        [("write_file".to_owned(), json!({"path": "a"}))],
        "the call ran once, with the arguments it completed with"
    );
    let err = error(&outcome);
    assert!(
        matches!(err.error, ResponseError::Malformed { .. }),
        "{err:?}"
    );
    assert_eq!(err.calls.len(), 1, "the call that ran is attached");
    assert_eq!(err.results[0].output, "write_file ran");
}

/// Found by fuzzing: a call completed and started, but the whole response at the end holds no
/// call there (its item's `type` is garbled). The call is not forgotten: the turn fails with it.
#[tokio::test]
async fn a_started_call_the_whole_response_does_not_hold_fails_the_turn() {
    let mut garbled = responses_item("completed", "{\"path\":\"a\"}");
    garbled["type"] = json!("function_ca$l");
    let events = [
        json!({"type": "response.output_item.added", "output_index": 0,
            "item": responses_item("in_progress", "")}),
        json!({"type": "response.output_item.done", "output_index": 0,
            "item": responses_item("completed", "{\"path\":\"a\"}")}),
        json!({"type": "response.completed", "response": {"id": "r", "status": "completed",
            "output": [garbled]}}),
    ];
    let outcome = read(
        Dialect::OpenAiResponses,
        sse(Dialect::OpenAiResponses, &events),
    )
    .await;
    assert_eq!(
        outcome.runs,
        [("write_file".to_owned(), json!({"path": "a"}))]
    );
    let err = error(&outcome);
    assert!(
        matches!(err.error, ResponseError::Malformed { .. }),
        "{err:?}"
    );
    assert_eq!(err.calls.len(), 1, "the call that ran is attached");
}

/// A Chat body: one call of `ping` complete, then the body stops.
fn chat_dropped() -> Vec<u8> {
    let mut body = sse(
        Dialect::OpenAiChat,
        &[
            json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "id": "c0",
                "type": "function", "function": {"name": "ping", "arguments": "{}"}}]}}]}),
            json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 1, "id": "c1",
                "type": "function", "function": {"name": "write_file", "arguments": "{\"pa"}}]}}]}),
        ],
    );
    let cut = String::from_utf8(body.clone())
        .unwrap()
        .find(": keep-alive")
        .unwrap();
    body.truncate(cut);
    body
}

#[tokio::test]
async fn a_dropped_stream_is_dropped_retry_with_the_call_that_ran_attached() {
    let outcome = read(Dialect::OpenAiChat, chat_dropped()).await;
    assert_eq!(outcome.runs, [("ping".to_owned(), json!({}))]);
    let err = error(&outcome);
    assert!(
        matches!(err.error, ResponseError::Dropped { .. }),
        "{err:?}"
    );
    assert_eq!(err.error.remedy(), Remedy::Retry);
    assert_eq!(err.calls.len(), 1);
    // The text says what ran, and nothing that contradicts it.
    let said = "the OpenAI Chat Completions stream was cut short (the body ended before a \
         `finish_reason`); only the 1 call whose arguments had completed ran: `ping` (`c0`); its \
         result is attached";
    assert_eq!(err.to_string(), said);
    // The `ResponseError` inside (what `?` converts to, what a log prints) says the same.
    assert_eq!(err.error.to_string(), said);
    assert_eq!(
        err.error.ran().iter().collect::<Vec<_>>(),
        [("ping", Some("c0"))]
    );
}

#[tokio::test]
async fn a_truncated_stream_after_a_call_ran_does_not_say_none_ran() {
    let mut events = vec![
        json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "id": "c0",
            "type": "function", "function": {"name": "ping", "arguments": "{}"}}]}}]}),
        json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 1, "id": "c1",
            "type": "function", "function": {"name": "write_file", "arguments": "{\"pa"}}]}}]}),
    ];
    events.push(json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "length"}]}));
    let outcome = read(Dialect::OpenAiChat, sse(Dialect::OpenAiChat, &events)).await;
    let text = error(&outcome).to_string();
    let inner = error(&outcome).error.to_string();
    for text in [&text, &inner] {
        assert!(!text.contains("none were run"), "{text}");
        assert!(
            text.ends_with(
                "only the 1 call whose arguments had completed ran: `ping` (`c0`); its result is \
                 attached"
            ),
            "{text}"
        );
    }
    assert_eq!(outcome.runs, [("ping".to_owned(), json!({}))]);
}

#[tokio::test]
async fn provider_error_events_say_their_kind_and_whether_to_back_off() {
    // Every dialect's error ending (a passing error) is the provider's, with its kind, and
    // says to back off, the call that ran attached.
    let calls = [
        Call::new("c0", "ping", json!({})),
        Call::new("c1", "write_file", json!({"path": "/tmp/x"})),
    ];
    for fixture in dialects::ALL {
        let dialect = fixture.dialect();
        let (events, why) = fixture.cut_short(&mut Rng(2), &calls, Stop::Error);
        let outcome = read(dialect, fixture.sse(&events)).await;
        let err = error(&outcome);
        assert!(
            matches!(&err.error, ResponseError::Provider { code: Some(_), message, retry: true, .. }
                if *message == why),
            "{dialect}: {err:?}"
        );
        assert_eq!(err.error.remedy(), Remedy::BackOff, "{dialect}");
        assert_eq!(err.calls.len(), 1, "{dialect}");
        assert_eq!(outcome.runs, [("ping".to_owned(), json!({}))], "{dialect}");
    }
    // Each provider's names for its kinds (a table of its vocabulary, not of the dialects).
    let cases = [
        (
            Dialect::Anthropic,
            json!({"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}),
            "overloaded_error",
            Remedy::BackOff,
        ),
        (
            Dialect::OpenAiChat,
            json!({"error": {"message": "The server had an error", "type": "server_error"}}),
            "server_error",
            Remedy::BackOff,
        ),
        (
            Dialect::OpenAiResponses,
            json!({"type": "error", "code": "rate_limit_exceeded", "message": "slow down"}),
            "rate_limit_exceeded",
            Remedy::BackOff,
        ),
        (
            Dialect::OpenAiResponses,
            json!({"type": "error", "code": "invalid_request_error", "message": "bad"}),
            "invalid_request_error",
            Remedy::ChangeRequest,
        ),
        (
            Dialect::Gemini,
            json!({"error": {"code": 503, "message": "The model is overloaded.", "status": "UNAVAILABLE"}}),
            "UNAVAILABLE",
            Remedy::BackOff,
        ),
        (
            Dialect::Gemini,
            json!({"error": {"code": 403, "message": "denied", "status": "PERMISSION_DENIED"}}),
            "PERMISSION_DENIED",
            Remedy::GiveUp,
        ),
    ];
    for (dialect, event, kind, remedy) in cases {
        let outcome = read(dialect, sse(dialect, &[event])).await;
        let err = &error(&outcome).error;
        assert!(
            matches!(err, ResponseError::Provider { code: Some(code), .. } if code == kind),
            "{dialect}: {err:?}"
        );
        assert_eq!(err.remedy(), remedy, "{dialect}: {err:?}");
    }
}

#[tokio::test]
async fn an_event_past_the_bound_is_event_too_large_raise_limit() {
    let limits = Limits::default().with_max_bytes(64);
    let big = "x".repeat(70 * 1024);
    let body = format!(
        "data: {{\"choices\": [{{\"index\": 0, \"delta\": {{\"content\": \"{big}\"}}}}]}}\n\n"
    );
    let outcome = read_with(Dialect::OpenAiChat, body.into_bytes(), limits).await;
    let err = &error(&outcome).error;
    assert_eq!(
        err,
        &ResponseError::EventTooLarge {
            dialect: Dialect::OpenAiChat,
            limit: 4 * 64 + 64 * 1024,
            ran: Default::default(),
        }
    );
    assert_eq!(err.remedy(), Remedy::RaiseLimit);
}

#[tokio::test]
async fn a_body_that_is_no_event_stream_says_so_with_its_first_bytes() {
    let html = b"<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>nginx</body>\r\n</html>\r\n";
    for dialect in Dialect::ALL {
        let outcome = read(dialect, html.to_vec()).await;
        let err = &error(&outcome).error;
        let ResponseError::NotEventStream { start, .. } = err else {
            panic!("{dialect}: {err:?}");
        };
        assert!(
            start.starts_with("<html>\\r\\n<head><title>502 Bad Gateway"),
            "{start}"
        );
        assert_eq!(err.remedy(), Remedy::GiveUp);
    }
    // A proxy's JSON error body is the provider's error.
    let body = br#"{"error": {"message": "Rate limit reached", "type": "requests", "code": "rate_limit_exceeded"}}"#;
    let outcome = read(Dialect::OpenAiChat, body.to_vec()).await;
    let err = &error(&outcome).error;
    assert!(
        matches!(err, ResponseError::Provider { message, retry: true, .. } if message == "Rate limit reached"),
        "{err:?}"
    );
    assert_eq!(err.remedy(), Remedy::BackOff);
    // Gemini's `streamGenerateContent` without `?alt=sse`: a JSON array, and the fix.
    let body = br#"[{"candidates": [{"content": {"parts": [{"text": "hi"}]}}]}]"#;
    let outcome = read(Dialect::Gemini, body.to_vec()).await;
    let text = error(&outcome).to_string();
    assert!(text.contains("it starts with `[{\"candidates\""), "{text}");
    assert!(
        text.ends_with("stream with `streamGenerateContent?alt=sse`, or read a whole response"),
        "{text}"
    );
}

/// Bedrock's `ConverseStream`, fed event by event as the AWS SDKs decode it: a complete
/// `toolUse` runs at its `contentBlockStop`; a block cut off by `max_tokens` never starts; an
/// exception event is the provider's error, with the call that ran attached.
#[tokio::test]
async fn converse_stream_events_fed_one_by_one() {
    let (toolkit, runs) = recording(Limits::default());
    let events = [
        json!({"messageStart": {"role": "assistant"}}),
        json!({"contentBlockDelta": {"contentBlockIndex": 0, "delta": {"text": "On it."}}}),
        json!({"contentBlockStop": {"contentBlockIndex": 0}}),
        json!({"contentBlockStart": {"contentBlockIndex": 1,
            "start": {"toolUse": {"toolUseId": "tu_1", "name": "ping"}}}}),
        json!({"contentBlockDelta": {"contentBlockIndex": 1, "delta": {"toolUse": {"input": "{\"n\""}}}}),
        json!({"contentBlockDelta": {"contentBlockIndex": 1, "delta": {"toolUse": {"input": ": 1}"}}}}),
        json!({"contentBlockStop": {"contentBlockIndex": 1}}),
        json!({"contentBlockStart": {"contentBlockIndex": 2,
            "start": {"toolUse": {"toolUseId": "tu_2", "name": "write_file"}}}}),
        json!({"contentBlockDelta": {"contentBlockIndex": 2, "delta": {"toolUse": {"input": "{\"pa"}}}}),
        json!({"contentBlockStop": {"contentBlockIndex": 2}}),
    ];
    let mut turn = StreamTurn::new(&toolkit, Dialect::Bedrock, RunOptions::default());
    let mut seen = Vec::new();
    for event in &events {
        seen.extend(turn.feed_event(event.clone()));
    }
    let mut truncated = turn;
    truncated
        .feed_event(json!({"messageStop": {"stopReason": "max_tokens"}}))
        .for_each(drop);
    let err = truncated.finish().await.unwrap_err();
    assert!(
        matches!(err.error, ResponseError::Truncated { .. }),
        "{err:?}"
    );
    assert_eq!(err.error.remedy(), Remedy::RaiseLimit);
    assert_eq!(seen[0], StreamEvent::Text("On it.".into()));
    assert_eq!(
        runs.lock().unwrap().clone(),
        [("ping".to_owned(), json!({"n": 1}))],
        "the complete call ran once; the cut one never started"
    );
    assert_eq!(err.calls.len(), 1);

    // An exception event mid-stream.
    let (toolkit, _) = recording(Limits::default());
    let mut turn = StreamTurn::new(&toolkit, Dialect::Bedrock, RunOptions::default());
    for event in &events[..7] {
        turn.feed_event(event.clone()).for_each(drop);
    }
    turn.feed_event(json!({"throttlingException": {"message": "Too many requests"}}))
        .for_each(drop);
    let err = turn.finish().await.unwrap_err();
    assert!(
        matches!(&err.error, ResponseError::Provider { code: Some(c), message, .. }
            if c == "throttlingException" && message == "Too many requests"),
        "{err:?}"
    );
    assert_eq!(err.error.remedy(), Remedy::BackOff);
    assert_eq!(err.calls.len(), 1);
}

/// Cohere v2 Chat: a generation that failed ends with `message-end`'s `delta.error`, the
/// provider's error (passing: back off), with the call that ran attached; without eager
/// execution nothing ran.
#[tokio::test]
async fn a_cohere_stream_whose_generation_failed_is_the_providers_error() {
    let events = [
        json!({"type": "message-start", "id": "r", "delta": {"message": {"role": "assistant"}}}),
        json!({"type": "tool-call-start", "index": 0, "delta": {"message": {"tool_calls": {
            "id": "c1", "type": "function", "function": {"name": "ping", "arguments": "{}"}}}}}),
        json!({"type": "tool-call-end", "index": 0}),
        json!({"type": "message-end", "delta": {"finish_reason": "ERROR",
            "error": "internal error while generating"}}),
    ];
    for eager in [true, false] {
        let (toolkit, runs) = recording(Limits::default());
        let mut turn =
            StreamTurn::new(&toolkit, Dialect::Cohere, RunOptions::default()).with_eager(eager);
        turn.feed_bytes(&sse(Dialect::Cohere, &events))
            .for_each(drop);
        let err = turn.finish().await.unwrap_err();
        assert!(
            matches!(&err.error, ResponseError::Provider { code: Some(c), message, .. }
                if c == "ERROR" && message == "internal error while generating"),
            "{err:?}"
        );
        assert_eq!(err.error.remedy(), Remedy::BackOff);
        let ran = runs.lock().unwrap().len();
        assert_eq!((err.calls.len(), ran), if eager { (1, 1) } else { (0, 0) });
    }
}

/// One bound on the index an event gives its block or item, in every format that reads one
/// (issue 40): 10,000 and past is refused as no real index, naming the bound, so no reader grows
/// a list to it; the index just below it is read as any other.
#[tokio::test]
async fn an_event_index_past_the_one_bound_is_refused_in_every_indexed_format() {
    let event = |dialect: Dialect, index: u64| match dialect {
        Dialect::Anthropic => json!({"type": "content_block_stop", "index": index}),
        Dialect::Bedrock => json!({"contentBlockDelta": {"contentBlockIndex": index,
            "delta": {"text": "x"}}}),
        Dialect::Cohere => json!({"type": "content-delta", "index": index,
            "delta": {"message": {"content": {"text": "x"}}}}),
        _ => json!({"type": "response.output_item.added", "output_index": index,
            "item": responses_item("in_progress", "")}),
    };
    let events = |dialect: Dialect, index: u64| {
        let mut events = Vec::new();
        if dialect == Dialect::Anthropic {
            events.push(
                json!({"type": "message_start", "message": {"id": "m", "type": "message",
                "role": "assistant", "content": [], "model": "m"}}),
            );
        }
        events.push(event(dialect, index));
        sse(dialect, &events)
    };
    for dialect in [
        Dialect::Anthropic,
        Dialect::Bedrock,
        Dialect::Cohere,
        Dialect::OpenAiResponses,
    ] {
        let past = read(dialect, events(dialect, 10_000)).await;
        let text = error(&past).error.to_string();
        assert!(
            matches!(error(&past).error, ResponseError::Malformed { .. })
                && text.contains("an integer below 10000"),
            "{dialect}: {text}"
        );
        let below = read(dialect, events(dialect, 9_999)).await;
        if let Err(err) = &below.end {
            assert!(
                !err.error.to_string().contains("below 10000"),
                "{dialect}: 9999 is an index: {err:?}"
            );
        }
    }
}
