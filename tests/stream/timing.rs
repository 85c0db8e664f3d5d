//! Eager execution on Tokio's paused clock (issue 10, acceptance 3): three calls whose
//! arguments complete at t = 0, 100 and 200 ms, each tool taking 150 ms, the stream ending at
//! t = 300 ms. Eager, the results are ready at 150, 250 and 350 ms (all by 350, not 650);
//! with eager execution off, all at the stream's end + 150 ms = 450 ms. The paused clock makes
//! these instants exact, not measured.

use std::time::Duration;

use futures::StreamExt;
use serde_json::{json, Value};
use tokio::time::Instant;
use toolnexus::stream::{StreamEvent, StreamTurn};
use toolnexus::{Dialect, RunOptions};

use crate::common::dialects::{self, Call, Fixture};
use crate::common::generate::in_order;
use crate::common::stream::*;

/// Four groups of events: group k (k < 3) completes call k's arguments (by the format's rule);
/// group 3 ends the stream (it may hold no event, then only the framing's end). Group k is sent
/// at t = 100·k ms.
fn groups(fixture: &dyn Fixture) -> [Vec<Value>; 4] {
    let calls: Vec<Call> = (0..3)
        .map(|n| Call::new(format!("call_{n}"), "slow", json!({"n": n})))
        .collect();
    let (events, ends) = in_order(fixture, &calls);
    let mut groups: [Vec<Value>; 4] = Default::default();
    for (at, event) in events.into_iter().enumerate() {
        groups[ends.iter().filter(|&&end| end < at).count()].push(event);
    }
    groups
}

/// Streams the groups on the paused clock; returns when each call finished (ms after the start)
/// and checks the turn.
async fn finish_times(fixture: &dyn Fixture, eager: bool) -> Vec<u64> {
    let toolkit = slow_toolkit(Duration::from_millis(150));
    let start = Instant::now();
    let bodies: Vec<(u64, Vec<u8>)> = groups(fixture)
        .iter()
        .enumerate()
        .map(|(k, events)| (100 * k as u64, fixture.sse(events)))
        .collect();
    let dialect = fixture.dialect();
    let body = futures::stream::iter(bodies).then(move |(at, bytes)| async move {
        tokio::time::sleep_until(start + Duration::from_millis(at)).await;
        Ok::<_, std::io::Error>(bytes)
    });
    let mut turn = StreamTurn::new(&toolkit, dialect, RunOptions::default()).with_eager(eager);
    let mut finished = Vec::new();
    let mut events = turn.read(body);
    while let Some(event) = events.next().await {
        if let StreamEvent::CallFinished { index, result, .. } = event.unwrap() {
            assert_eq!(result.output, format!("done {index}"));
            finished.push((index, (Instant::now() - start).as_millis() as u64));
        }
    }
    let turn = turn.finish().await.unwrap();
    assert_eq!(turn.results.len(), 3);
    assert_eq!(
        (Instant::now() - start).as_millis(),
        *finished.iter().map(|(_, t)| t).max().unwrap() as u128
    );
    finished.sort();
    finished.into_iter().map(|(_, t)| t).collect()
}

#[tokio::test(start_paused = true)]
async fn eager_calls_finish_150ms_after_their_arguments_complete() {
    for fixture in dialects::ALL {
        assert_eq!(
            finish_times(fixture, true).await,
            [150, 250, 350],
            "{:?}",
            fixture.dialect()
        );
    }
}

#[tokio::test(start_paused = true)]
async fn without_eager_execution_calls_run_once_the_stream_has_ended() {
    for fixture in dialects::ALL {
        assert_eq!(
            finish_times(fixture, false).await,
            [450, 450, 450],
            "{:?}",
            fixture.dialect()
        );
    }
}

#[tokio::test(start_paused = true)]
async fn the_concurrency_bound_holds_while_streaming() {
    // One call at a time: 150, then 300 (the second waited for the first), then 450.
    let toolkit = slow_toolkit(Duration::from_millis(150));
    let start = Instant::now();
    let fixture = dialects::of(Dialect::Anthropic);
    let dialect = fixture.dialect();
    let bodies: Vec<(u64, Vec<u8>)> = groups(fixture)
        .iter()
        .enumerate()
        .map(|(k, events)| (100 * k as u64, fixture.sse(events)))
        .collect();
    let body = futures::stream::iter(bodies).then(move |(at, bytes)| async move {
        tokio::time::sleep_until(start + Duration::from_millis(at)).await;
        Ok::<_, std::io::Error>(bytes)
    });
    let options = RunOptions::default().with_concurrency(1);
    let mut turn = StreamTurn::new(&toolkit, dialect, options);
    let mut events = turn.read(body);
    let mut times = Vec::new();
    while let Some(event) = events.next().await {
        if let StreamEvent::CallFinished { .. } = event.unwrap() {
            times.push((Instant::now() - start).as_millis());
        }
    }
    assert_eq!(times, [150, 300, 450]);
    turn.finish().await.unwrap();
}
