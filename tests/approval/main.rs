//! The host decides what runs (issue 34): a `Policy` per tool (`policy`), the pending turn and
//! its answers, across a process boundary (`pending`), every bad answer or tampered turn refused
//! (`refusals`), hooks around each call (`hooks`), and tools that run alone (`alone`).

#[path = "../common/mod.rs"]
mod common;
mod fixtures;

mod alone;
mod alone_stream;
mod generated;
mod hooks;
mod hostile;
mod pending;
mod policy;
mod refusals;
mod stream;
mod trust;
