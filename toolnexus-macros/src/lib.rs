//! The `#[tool]` attribute of `toolnexus`. Depend on `toolnexus`, which re-exports it.
#![forbid(unsafe_code)]
