//! Streaming turns: the same turn as the whole response, under any split of the bytes, on
//! Tokio's paused clock with eager execution, and however the stream ends.

#[path = "../common/mod.rs"]
mod common;

mod duplicates;
mod endings;
mod generated;
mod kinds;
mod max_calls;
mod props;
mod roundtrip;
mod text_events;
mod timing;
