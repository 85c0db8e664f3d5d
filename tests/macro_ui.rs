//! The compile-time contract of `#[tool]` and `#[derive(ToolArgs)]`: every misuse in
//! `tests/ui/fail` is refused with one error whose caret sits on the offending token (the
//! checked-in `.stderr` files hold the exact messages), and everything in `tests/ui/pass`
//! compiles and runs.
//!
//! Regenerate the `.stderr` files with `TRYBUILD=overwrite cargo test --workspace --test macro_ui`, then
//! read every diff: the messages are part of the interface.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/fail/*.rs");
    t.pass("tests/ui/pass/*.rs");
}
