//! Streaming turns of every dialect (issue 10): the turn a stream assembles equals what
//! `Toolkit::respond` gives for the same response sent whole, whether the body is fed as bytes,
//! read from a byte stream or fed as parsed events; text and call events arrive in order.

use futures::StreamExt;
use serde_json::Value;
use toolnexus::stream::{StreamEvent, StreamTurn};
use toolnexus::Turn;
use toolnexus::{RunOptions, ToolCall, ToolResult, Toolkit};

use crate::common::stream::*;

/// A turn's parts, to compare.
type Parts = (Vec<ToolCall>, Vec<ToolResult>, Vec<Value>, Vec<Value>);

fn parts(turn: Turn) -> Parts {
    (
        turn.calls,
        turn.results,
        turn.model_turn,
        turn.result_messages,
    )
}

/// What `respond` makes of the whole response.
async fn expected(toolkit: &Toolkit, t: &Transcript) -> Parts {
    let result_messages = toolkit
        .respond(&t.whole, t.dialect)
        .await
        .unwrap()
        .result_messages;
    // The calls keep their arguments as sent, streamed or whole.
    let calls = t.dialect.parse_calls(&t.whole).unwrap();
    let results = toolkit.execute_calls(&calls, &RunOptions::default()).await;
    let model_turn = t.dialect.model_turn(&t.whole).unwrap();
    (calls, results, model_turn, result_messages)
}

#[tokio::test]
async fn each_transcript_fed_as_bytes_gives_the_turn_of_the_whole_response() {
    let toolkit = toolkit();
    for t in transcripts() {
        let mut turn = StreamTurn::new(&toolkit, t.dialect, RunOptions::default());
        let mut text = String::new();
        for event in turn.feed_bytes(&t.body()) {
            if let StreamEvent::Text(piece) = event {
                text.push_str(&piece);
            }
        }
        let got = parts(
            turn.finish()
                .await
                .unwrap_or_else(|e| panic!("{}: {e}", t.name)),
        );
        assert_eq!(got, expected(&toolkit, &t).await, "{}", t.name);
        assert!(!text.is_empty(), "{}: text is reported", t.name);
    }
}

#[tokio::test]
async fn each_transcript_fed_as_events_gives_the_same_turn() {
    let toolkit = toolkit();
    for t in transcripts() {
        let mut turn = StreamTurn::new(&toolkit, t.dialect, RunOptions::default());
        for event in &t.events {
            turn.feed_event(event.clone()).for_each(drop);
        }
        let got = parts(
            turn.finish()
                .await
                .unwrap_or_else(|e| panic!("{}: {e}", t.name)),
        );
        assert_eq!(got, expected(&toolkit, &t).await, "{}", t.name);
    }
}

#[tokio::test]
async fn read_reports_text_then_each_call_started_before_it_finished() {
    let toolkit = toolkit();
    for t in transcripts() {
        let body = t.body();
        let chunks: Vec<Result<Vec<u8>, std::io::Error>> =
            body.chunks(7).map(|c| Ok(c.to_vec())).collect();
        let mut turn = StreamTurn::new(&toolkit, t.dialect, RunOptions::default());
        let mut events = Vec::new();
        let mut stream = turn.read(futures::stream::iter(chunks));
        while let Some(event) = stream.next().await {
            events.push(event.unwrap());
        }
        let got = parts(turn.finish().await.unwrap());
        let want = expected(&toolkit, &t).await;
        assert_eq!(got, want, "{}", t.name);

        let text: String = events
            .iter()
            .filter_map(|e| match e {
                StreamEvent::Text(piece) => Some(piece.as_str()),
                _ => None,
            })
            .collect();
        // The text a reader of the whole response is shown: the answer, not thinking or
        // reasoning.
        assert_eq!(text, t.fixture().text(&t.whole), "{}", t.name);
        for (index, (call, result)) in want.0.iter().zip(&want.1).enumerate() {
            let started = events.iter().position(|e| {
                matches!(e, StreamEvent::CallStarted { index: i, call: c } if *i == index && c.id == call.id && c.name == call.name)
            });
            let finished = events.iter().position(|e| {
                matches!(e, StreamEvent::CallFinished { index: i, result: r, .. } if *i == index && r == result)
            });
            let (Some(started), Some(finished)) = (started, finished) else {
                panic!("{}: call {index} not reported: {events:?}", t.name);
            };
            assert!(started < finished, "{}: call {index}", t.name);
        }
        let reported = events
            .iter()
            .filter(|e| matches!(e, StreamEvent::CallStarted { .. }))
            .count();
        assert_eq!(reported, want.0.len(), "{}: each call starts once", t.name);
    }
}

#[test]
fn a_streaming_turn_and_its_futures_can_move_between_threads() {
    fn send<T: Send>(_: &T) {}
    let toolkit = toolkit();
    let mut turn = StreamTurn::new(
        &toolkit,
        toolnexus::Dialect::Anthropic,
        RunOptions::default(),
    );
    send(&turn);
    let body = futures::stream::iter(Vec::<Result<Vec<u8>, std::io::Error>>::new());
    send(&turn.read(body));
    send(&turn.next_call_event());
    send(&turn.finish());
}
