//! Response parsing for every dialect: any bytes as a provider response body. Parsing gives calls
//! or a clear error; executing and rendering answer every call exactly once. Nothing may panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use toolnexus::{Dialect, RunOptions};

#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let toolkit = common::toolkit();
    for dialect in [Dialect::OpenAiChat, Dialect::OpenAiResponses, Dialect::Anthropic, Dialect::Gemini, Dialect::Bedrock] {
        let Ok(response) = dialect.parse_body(text) else { continue };
        let _ = dialect.model_turn(&response);
        let Ok(calls) = dialect.parse_calls(&response) else { continue };
        let results = common::runtime().block_on(toolkit.execute_calls(&calls, &RunOptions::default()));
        assert_eq!(results.len(), calls.len(), "every call gets exactly one result");
        let rendered = dialect.render_results(calls.iter().zip(&results));
        if !calls.is_empty() {
            assert!(!rendered.is_empty(), "results are rendered for the next request");
        }
        if let Ok(turn) = common::runtime().block_on(toolkit.respond(&response, dialect)) {
            assert_eq!(turn.results.len(), turn.calls.len(), "respond answers every call");
        }
    }
});
