//! Schemas: per-provider lowering, OpenAI strict mode, generation once per tool, and byte
//! identity with the reference packages (`golden`) and the family's documented examples (`seeds`).
//! The schema checks judged by the providers' SDKs are in the `sdk` binary.

mod golden;
mod lowering;
mod once;
mod seeds;
mod strict;
mod strict_turn;
