//! `#[tool]` and `#[derive(ToolArgs)]` at run time: what the generated tools execute and the
//! schemas they send. (The compile-fail suite is `tests/macro_ui.rs`, a binary of its own.)

mod context;
mod execute;
mod hints;
mod output;
mod schema;
