//! The README's first command, `cargo run --example quickstart`, runs here too, so it cannot rot;
//! and so does `cargo run --example typed_answer`.

#[path = "../../examples/quickstart.rs"]
mod quickstart;

#[test]
fn quickstart_runs_offline() {
    quickstart::main().expect("the quickstart runs without network or keys");
}

#[path = "../../examples/typed_answer.rs"]
mod typed_answer;

#[test]
fn typed_answer_runs_offline() {
    typed_answer::main().expect("the typed answer example runs without network or keys");
}
