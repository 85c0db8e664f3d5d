//! Argument decoding: any bytes as the `arguments` text OpenAI sends, through the toolkit's
//! limits, the JSON-object rules and a typed decode. Nothing may panic; every call gets a result.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let toolkit = common::toolkit();
    common::decode_typed(text);
    common::runtime().block_on(async {
        for name in ["order", "echo", "fails", "missing"] {
            let result = toolkit.execute_json(name, text).await;
            // An error result always says something the model can read.
            assert!(!result.is_error || !result.output.is_empty());
        }
        if let Ok(value) = serde_json::from_str::<serde_json::Value>(text) {
            let result = toolkit.execute("order", value).await;
            assert!(!result.is_error || !result.output.is_empty());
        }
    });
});
