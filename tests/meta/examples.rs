//! The README's first command, `cargo run --example quickstart`, runs here too, so it cannot rot;
//! and so do `cargo run --example typed_answer` and `cargo run --example approval`.

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

#[allow(dead_code)] // `main` reads a terminal; the test runs `run(false)`
#[path = "../../examples/approval.rs"]
mod approval;

#[test]
fn approval_runs_offline_and_its_rule_decides() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let text = runtime
        .block_on(approval::run(false))
        .expect("the approval example runs without network, keys or a terminal");
    assert!(text.contains("not allowed"), "{text}");
    let streamed = runtime
        .block_on(approval::run_with(false, true))
        .expect("streamed, too");
    assert_eq!(streamed, text);
}
