//! The README's first command, `cargo run --example quickstart`, runs here too, so it cannot rot.

#[path = "../../examples/quickstart.rs"]
mod quickstart;

#[test]
fn quickstart_runs_offline() {
    quickstart::main().expect("the quickstart runs without network or keys");
}
