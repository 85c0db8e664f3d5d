//! A pending turn of 8 calls (`Toolkit::respond_gated` on an OpenAI Chat response whose 8
//! `get_weather` calls all ask): stored and read back (`PendingTurn::to_json` then
//! `PendingTurn::from_json`, which checks the version and recomputes every digest), next to its
//! floors: serializing the 8 calls' arguments alone (`floor`), and serializing and parsing them
//! back (`floor_roundtrip`), and writing and parsing the same JSON document as a plain
//! `serde_json::Value` (`document`: what the pending turn's own checks and types add). Issue 34
//! asks for `store_and_resume` at 1.2× `floor`; the pending turn also carries the model's turn
//! (which repeats every argument), 64-digit digests and prompts, several times the arguments'
//! bytes, so `document` is the comparison that says what the format itself costs.

mod common;

use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;
use toolnexus::{Arguments, Dialect, Gate, Gated, PendingTurn, Policy};

fn approval(c: &mut Criterion) {
    let rt = common::runtime();
    let toolkit = common::toolkit().with_policy(Policy::new().tool("get_weather", Gate::ask("?")));
    let response = common::openai_chat_response();
    let Ok(Gated::Pending(pending)) =
        rt.block_on(toolkit.respond_gated(&response, Dialect::OpenAiChat))
    else {
        panic!("every call asks")
    };
    assert_eq!(pending.awaiting().count(), 8);
    let arguments: Vec<&str> = pending
        .calls()
        .iter()
        .map(|c| match c.arguments() {
            Arguments::Text(text) => text.as_str(),
            _ => unreachable!("OpenAI Chat sends text"),
        })
        .collect();
    assert_eq!(PendingTurn::from_json(&pending.to_json()).unwrap(), pending);

    let document: serde_json::Value = serde_json::from_str(&pending.to_json()).unwrap();
    let bytes = (
        pending.to_json().len(),
        serde_json::to_string(&arguments).unwrap().len(),
    );
    eprintln!(
        "approval/pending_8: {} bytes stored, {} bytes of arguments",
        bytes.0, bytes.1
    );

    let mut group = c.benchmark_group("approval/pending_8");
    group.bench_function("floor", |b| {
        b.iter(|| serde_json::to_string(black_box(&arguments)).unwrap())
    });
    group.bench_function("floor_roundtrip", |b| {
        b.iter(|| {
            let text = serde_json::to_string(black_box(&arguments)).unwrap();
            serde_json::from_str::<Vec<String>>(&text).unwrap()
        })
    });
    group.bench_function("document", |b| {
        b.iter(|| {
            let text = serde_json::to_string(black_box(&document)).unwrap();
            serde_json::from_str::<serde_json::Value>(&text).unwrap()
        })
    });
    group.bench_function("store_and_resume", |b| {
        b.iter(|| PendingTurn::from_json(&black_box(&pending).to_json()).unwrap())
    });
    group.finish();
}

criterion_group!(benches, approval);
criterion_main!(benches);
