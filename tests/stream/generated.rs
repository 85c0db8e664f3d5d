//! Property test (issue 24): valid streams generated for every dialect, judged by what the
//! tools saw. Up to 8 calls whose argument pieces interleave at random where the format allows it
//! (Chat `index`es, Responses `output_index`es), split into random pieces (empty ones included)
//! and the body cut into random chunks down to 1 byte. The tools record every run and the
//! arguments it received. Asserted: every call that starts has exactly its final arguments,
//! runs once, starts once; eager and non-eager reading give the same `Turn`, and it is the
//! `Turn` that `respond` gives for the same response sent whole.

use proptest::prelude::*;
use serde_json::{json, Value};
use toolnexus::stream::{StreamEvent, StreamTurn};
use toolnexus::Turn;
use toolnexus::{Arguments, Dialect, RunOptions, Toolkit};

use crate::common::block_on;
use crate::common::dialects::{self, Fixture};
use crate::common::generate::{self, calls, chunks, Rng, Runs};
use crate::common::stream::sse;

const TOOLS: [&str; 3] = ["rec_a", "rec_b", "rec_c"];

/// The three recording tools.
fn recording() -> (Toolkit, Runs) {
    generate::recording(&TOOLS)
}

/// What a turn says, for comparing two turns.
fn summary(turn: &Turn) -> String {
    format!(
        "{:?}\n{:?}\n{}\n{}",
        turn.calls,
        turn.results,
        serde_json::to_string(&turn.model_turn).unwrap(),
        serde_json::to_string(&turn.result_messages).unwrap()
    )
}

fn arguments_of(arguments: &Arguments) -> Value {
    match arguments {
        Arguments::Text(text) => serde_json::from_str(text).unwrap(),
        Arguments::Value(value) => value.clone(),
        Arguments::Absent => json!({}),
    }
}

/// Reads `body` cut into random chunks, through `StreamTurn::read` (a body stream) or
/// `feed_bytes` (chunks fed by hand), and returns the turn, the events and the runs. With
/// `feed_bytes` and eager execution off, the calls run inside `finish`, whose events are not
/// returned: `None` then.
fn read(
    dialect: Dialect,
    body: &[u8],
    rng: &mut Rng,
    eager: bool,
) -> (Turn, Option<Vec<StreamEvent>>, Vec<(String, Value)>) {
    let (toolkit, runs) = recording();
    let chunks = chunks(rng, body);
    let by_hand = rng.chance(50);
    let yields: Vec<bool> = chunks.iter().map(|_| rng.chance(20)).collect();
    let (turn, events) = block_on(async {
        let mut turn = StreamTurn::new(&toolkit, dialect, RunOptions::default()).with_eager(eager);
        let mut events = Vec::new();
        if by_hand {
            for (chunk, pause) in chunks.iter().zip(yields) {
                events.extend(turn.feed_bytes(chunk));
                // Let started calls run while the body is still arriving.
                if pause {
                    tokio::task::yield_now().await;
                }
            }
            while let Some(event) = turn.next_call_event().await {
                events.push(event);
            }
        } else {
            let body = futures::stream::iter(chunks.into_iter().map(Ok::<_, std::io::Error>));
            let mut stream = turn.read(body);
            while let Some(event) = futures::StreamExt::next(&mut stream).await {
                events.push(event.unwrap());
            }
        }
        let turn = turn.finish().await.unwrap_or_else(|e| panic!("{e}"));
        (turn, events)
    });
    let runs = runs.lock().unwrap().clone();
    let events = (eager || !by_hand).then_some(events);
    (turn, events, runs)
}

fn check(fixture: &dyn Fixture, count: usize, seed: u64) {
    let dialect = fixture.dialect();
    let mut rng = Rng(seed);
    let calls = calls(&mut rng, count, &TOOLS);
    let body = fixture.sse(&fixture.events(&mut rng, &calls));
    let expected: Vec<(String, Value)> = calls
        .iter()
        .map(|c| (c.name.to_owned(), c.arguments.clone()))
        .collect();
    let (toolkit, _) = recording();
    let respond = block_on(toolkit.respond(&fixture.response(&calls), dialect))
        .unwrap_or_else(|e| panic!("{e}"));

    let mut turns = Vec::new();
    for eager in [true, false] {
        let (turn, events, mut runs) = read(dialect, &body, &mut rng, eager);
        // Every call ran once, with exactly its final arguments (each call's arguments name it).
        runs.sort_by_key(|(_, args)| args["i"].as_u64());
        assert_eq!(
            runs, expected,
            "{dialect} eager={eager}: what the tools received"
        );
        // One start per call, with its final arguments; one finish per call.
        let Some(events) = events else {
            turns.push(summary(&turn));
            continue;
        };
        let mut started = vec![0; count];
        let mut finished = vec![0; count];
        for event in &events {
            match event {
                StreamEvent::CallStarted { index, call } => {
                    started[*index] += 1;
                    assert_eq!(call.name, calls[*index].name);
                    assert_eq!(arguments_of(&call.arguments), calls[*index].arguments);
                }
                StreamEvent::CallFinished { index, .. } => finished[*index] += 1,
                _ => {}
            }
        }
        assert_eq!(
            started,
            vec![1; count],
            "{dialect} eager={eager}: starts per call"
        );
        assert_eq!(
            finished,
            vec![1; count],
            "{dialect} eager={eager}: finishes per call"
        );
        for (i, result) in turn.results.iter().enumerate() {
            assert_eq!(
                result.output,
                calls[i].arguments.to_string(),
                "{dialect} result {i}"
            );
        }
        turns.push(summary(&turn));
    }
    assert_eq!(turns[0], turns[1], "{dialect}: eager and non-eager turns");
    let respond = summary(&respond);
    assert_eq!(
        turns[0], respond,
        "{dialect}: the streamed turn and respond's"
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn generated_streams_run_each_call_once_with_its_final_arguments(
        d in 0..dialects::ALL.len(), count in 1..=8usize, seed in any::<u64>()
    ) {
        check(dialects::ALL[d], count, seed);
    }
}

/// The issue's own transcript: Chat pieces of index 0 arriving after index 1 has begun. Before
/// the fix, `get_time` ran twice (once with `{}`) and index 0 started twice.
#[test]
fn chat_pieces_after_another_index_began_do_not_start_the_call_early() {
    let events = [
        json!({"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_a","type":"function","function":{"name":"rec_a","arguments":""}}]}}]}),
        json!({"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"id":"call_b","type":"function","function":{"name":"rec_b","arguments":""}}]}}]}),
        json!({"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"timezone\":\"UTC\"}"}}]}}]}),
        json!({"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}),
    ];
    let body = sse(Dialect::OpenAiChat, &events);
    let (turn, events, mut runs) = read(Dialect::OpenAiChat, &body, &mut Rng(7), true);
    runs.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(
        runs,
        [
            ("rec_a".to_owned(), json!({"timezone": "UTC"})),
            ("rec_b".to_owned(), json!({}))
        ]
    );
    let starts: Vec<usize> = events
        .unwrap()
        .iter()
        .filter_map(|e| match e {
            StreamEvent::CallStarted { index, .. } => Some(*index),
            _ => None,
        })
        .collect();
    assert_eq!(starts, [0, 1]);
    assert_eq!(turn.results[0].output, r#"{"timezone":"UTC"}"#);

    // A partial object (`{"ci`) does not start when another index begins either.
    let events = [
        json!({"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_a","type":"function","function":{"name":"rec_a","arguments":"{\"ci"}}]}}]}),
        json!({"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"id":"call_b","type":"function","function":{"name":"rec_b","arguments":"{}"}}]}}]}),
        json!({"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"ty\":\"Paris\"}"}}]}}]}),
        json!({"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}),
    ];
    let (_, _, mut runs) = read(
        Dialect::OpenAiChat,
        &sse(Dialect::OpenAiChat, &events),
        &mut Rng(1),
        true,
    );
    runs.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(
        runs,
        [
            ("rec_a".to_owned(), json!({"city": "Paris"})),
            ("rec_b".to_owned(), json!({}))
        ]
    );
}
