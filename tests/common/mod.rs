//! Fixtures and helpers shared by more than one test binary, in one place. A binary includes
//! this module with `#[path = "../common/mod.rs"] mod common;` and uses the parts it needs.

#![allow(dead_code)] // each test binary uses its own part

pub mod dialects;
pub mod generate;
pub mod roundtrip;
pub mod stream;
pub mod transcript;

use std::future::Future;
use std::path::Path;

/// The repository root (the root package's manifest directory; tests/mcp, a package of its
/// own, includes this module too).
pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .find(|dir| dir.join("tests/common/mod.rs").is_file())
        .expect("the repository holds tests/common")
}

thread_local! {
    static RUNTIME: tokio::runtime::Runtime =
        tokio::runtime::Builder::new_current_thread().enable_time().build().unwrap();
}

/// Runs `f` to its end on this thread's runtime: for property tests, whose bodies are not async.
pub fn block_on<F: Future>(f: F) -> F::Output {
    RUNTIME.with(|rt| rt.block_on(f))
}
