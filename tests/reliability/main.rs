//! Reliability: whatever a model sends, whatever a tool does (fails, panics, hangs), the toolkit
//! answers every call exactly once and never crashes. A catalog of bad inputs, fault injection,
//! panics, property tests, and regressions the suite found.

#[path = "../common/mod.rs"]
mod common;
mod fixtures;

mod catalog;
mod faults;
mod ids;
mod model_input;
mod numbers;
mod panics;
mod props;
mod regressions;
mod transcripts;
