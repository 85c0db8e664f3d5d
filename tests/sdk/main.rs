//! Everything judged by the providers' official SDKs (the Python scripts next to this file, run
//! with the repo's `.venv`): schemas (`conformance_schemas`, `schema_matrix`, `strict_schemas`
//! and `strict_random`: typed answers and strict tools as fixed points of each SDK's own rule),
//! results with media, tool choices (`choice`), the round trip's and the stream's next-request
//! messages; and how the checks behave without Python (`skip`). In one binary, a machine without
//! Python prints the skip line once.

#[path = "../common/mod.rs"]
mod common;
mod venv;

mod bedrock;
mod choice;
mod cohere;
mod conformance_schemas;
mod conversation;
mod cut_stream;
mod media;
mod roundtrip;
mod schema_matrix;
mod skip;
mod stream;
mod strict_random;
mod strict_schemas;
mod tool_search;
mod transcript;
mod typed;
