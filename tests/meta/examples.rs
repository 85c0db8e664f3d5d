//! The README's first command, `cargo run --example quickstart`, runs here too, so it cannot rot;
//! and so do `cargo run --example typed_answer`, `cargo run --example approval`,
//! `cargo run --example failover` and `cargo run --example many_tools`.

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

#[allow(dead_code)] // `main` is `run` on a runtime of its own; the test runs `run`
#[path = "../../examples/failover.rs"]
mod failover;

#[test]
fn failover_moves_one_conversation_over_three_providers_offline() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let (answer, gemini) = runtime
        .block_on(failover::run())
        .expect("the failover example runs without network or keys");
    assert_eq!(answer, "Sunny in Paris and in Oslo.");
    // Gemini got both calls, each with its result, and the instructions kept from OpenAI.
    let contents = gemini["contents"].as_array().unwrap();
    let calls: Vec<&str> = contents
        .iter()
        .flat_map(|c| c["parts"].as_array().unwrap())
        .filter_map(|p| p["functionCall"]["args"]["city"].as_str())
        .collect();
    assert_eq!(calls, ["Paris", "Oslo"]);
    let results: Vec<&str> = contents
        .iter()
        .flat_map(|c| c["parts"].as_array().unwrap())
        .filter_map(|p| p["functionResponse"]["response"]["output"].as_str())
        .collect();
    assert_eq!(results, ["sunny in Paris", "sunny in Oslo"]);
    assert_eq!(
        gemini["systemInstruction"]["parts"][0]["text"],
        "Answer in one sentence."
    );
}

#[allow(dead_code)] // `main` is `run` on a runtime of its own; the test runs `run`
#[path = "../../examples/many_tools.rs"]
mod many_tools;

#[test]
fn many_tools_sends_two_then_the_found_one_offline() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let sent = runtime
        .block_on(many_tools::run())
        .expect("the many_tools example runs without network or keys");
    assert_eq!(sent[0], ["search_tools", "get_time"]);
    // The search found the billing tools; the first of them is sent after the two.
    assert_eq!(sent[1][..2], sent[0][..]);
    assert!(
        sent[1].len() > 2 && sent[1][2].starts_with("billing_"),
        "{sent:?}"
    );
}
