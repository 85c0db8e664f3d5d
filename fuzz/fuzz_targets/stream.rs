//! The streaming turn for every dialect: any bytes as a streamed HTTP body, cut into chunks at
//! places the input chooses. Nothing may panic; every call that ran is answered once; and the
//! turn (or the error) is the same whether the body arrives in one piece or in chunks.
#![no_main]

use libfuzzer_sys::fuzz_target;
use toolnexus::stream::StreamTurn;
use toolnexus::{Dialect, RunOptions};

#[path = "common.rs"]
mod common;

/// The outcome of feeding `chunks`, as text to compare.
fn outcome(dialect: Dialect, chunks: &[&[u8]], eager: bool) -> String {
    let mut turn = StreamTurn::new(common::toolkit(), dialect, RunOptions::default()).eager(eager);
    for chunk in chunks {
        turn.feed_bytes(chunk).for_each(drop);
    }
    match common::runtime().block_on(turn.finish()) {
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
    }
}

fuzz_target!(|data: &[u8]| {
    // The first byte picks the chunk size (1 to 64 bytes), the rest is the body.
    let Some((&size, body)) = data.split_first() else { return };
    let size = usize::from(size % 64) + 1;
    let chunks: Vec<&[u8]> = body.chunks(size).collect();
    for dialect in [Dialect::OpenAiChat, Dialect::OpenAiResponses, Dialect::Anthropic, Dialect::Gemini] {
        let whole = outcome(dialect, &[body], true);
        assert_eq!(outcome(dialect, &chunks, true), whole, "a split changed the turn");
        outcome(dialect, &chunks, false);
    }
});
