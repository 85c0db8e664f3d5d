//! The round trip of each dialect (calls in, results out, asserted as exact JSON over the
//! fixtures in `tests/fixtures/roundtrip/`), and the batch runner under every dialect.

#[path = "../common/mod.rs"]
mod common;

mod anthropic;
mod batch;
mod bedrock;
mod cohere;
mod conversation;
mod gemini;
mod openai_chat;
mod openai_responses;
mod profiles;
mod promises;
mod transcript;
