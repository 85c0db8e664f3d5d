//! The streaming turn for every dialect: any bytes as a streamed HTTP body, cut into chunks at
//! places the input chooses. Nothing may panic; every call that ran is answered once; the turn
//! (or the error) is the same whether the body arrives in one piece or in chunks; and judged by
//! what the `echo` tool received: a call never starts twice, and eager execution runs exactly
//! the calls, with exactly the arguments, that reading the whole stream first runs (so no call
//! started with arguments the model had not finished).
#![no_main]

use libfuzzer_sys::fuzz_target;
use toolnexus::stream::{StreamEvent, StreamTurn};
use toolnexus::{Dialect, RunOptions};

#[path = "common.rs"]
mod common;

/// The outcome of feeding `chunks`, as text to compare, whether it completed, and the runs of
/// `echo`.
fn outcome(dialect: Dialect, chunks: &[&[u8]], eager: bool) -> (String, bool, Vec<String>) {
    common::take_runs();
    let mut turn = StreamTurn::new(common::toolkit(), dialect, RunOptions::default()).with_eager(eager);
    let mut started = Vec::new();
    let mut note = |event: StreamEvent| {
        if let StreamEvent::CallStarted { index, .. } = event {
            assert!(!started.contains(&index), "call {index} started twice");
            started.push(index);
        }
    };
    for chunk in chunks {
        turn.feed_bytes(chunk).for_each(&mut note);
    }
    let end = common::runtime().block_on(async {
        while let Some(event) = turn.next_call_event().await {
            note(event);
        }
        turn.finish().await
    });
    let complete = end.is_ok();
    let text = match end {
        Ok(turn) => {
            assert_eq!(turn.calls.len(), turn.results.len(), "one result per call");
            if !turn.calls.is_empty() {
                assert!(!turn.result_messages.is_empty(), "results are rendered");
            }
            format!("{:?}\n{:?}\n{:?}", turn.results, turn.model_turn, turn.result_messages)
        }
        Err(e) => {
            assert_eq!(e.calls.len(), e.results.len(), "one result per call that ran");
            if !eager {
                assert!(e.calls.is_empty(), "nothing runs without eager execution");
            }
            format!("{e}\n{:?}", e.results)
        }
    };
    (text, complete, common::take_runs())
}

fuzz_target!(|data: &[u8]| {
    // The first byte picks the chunk size (1 to 64 bytes), the rest is the body.
    let Some((&size, body)) = data.split_first() else { return };
    let size = usize::from(size % 64) + 1;
    let chunks: Vec<&[u8]> = body.chunks(size).collect();
    for dialect in [Dialect::OpenAiChat, Dialect::OpenAiResponses, Dialect::Anthropic, Dialect::Gemini, Dialect::Bedrock] {
        let whole = outcome(dialect, &[body], true);
        let eager = outcome(dialect, &chunks, true);
        assert_eq!(eager.0, whole.0, "a split changed the turn");
        assert_eq!(eager.2, whole.2, "a split changed what the tools received");
        let lazy = outcome(dialect, &chunks, false);
        if eager.1 {
            // Eager execution only adds one way to fail (a server contradicting a started call).
            assert!(lazy.1, "eager completed, lazy did not: {}", lazy.0);
            assert_eq!(eager.0, lazy.0, "eager and lazy turns differ");
            assert_eq!(eager.2, lazy.2, "eager runs differ from the final calls' runs");
        }
    }
});
