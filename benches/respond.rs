//! One provider response with 8 calls: parse the calls, execute them (a fast tool, no sleep)
//! and render the results, i.e. `Toolkit::respond`, next to its floor: hand-written code that
//! walks the same `Value` to the calls, decodes each (`from_str` for OpenAI's text,
//! `from_value` of a clone for Gemini's object), calls the fn directly and builds the result
//! messages with `Map` code. Both sides start from the parsed response (`Value`) and run on
//! the same current-thread Tokio runtime.

mod common;

use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;
use toolnexus::Dialect;

fn respond(c: &mut Criterion) {
    let rt = common::runtime();
    let toolkit = common::toolkit();
    let cases = [
        (
            "openai_chat",
            Dialect::OpenAiChat,
            common::openai_chat_response(),
        ),
        ("gemini", Dialect::Gemini, common::gemini_response()),
    ];
    for (label, dialect, response) in &cases {
        // The floor renders exactly what the toolkit renders.
        let ours = rt
            .block_on(toolkit.respond(response, *dialect))
            .expect("valid response")
            .result_messages;
        let floor = match dialect {
            Dialect::OpenAiChat => rt.block_on(common::floor_openai_chat(response)),
            _ => rt.block_on(common::floor_gemini(response)),
        };
        assert_eq!(ours, floor, "{label}");

        let mut group = c.benchmark_group(format!("respond/{label}"));
        group.bench_function("floor", |b| {
            b.to_async(&rt).iter(|| async {
                match dialect {
                    Dialect::OpenAiChat => common::floor_openai_chat(black_box(response)).await,
                    _ => common::floor_gemini(black_box(response)).await,
                }
            })
        });
        group.bench_function("respond", |b| {
            b.to_async(&rt)
                .iter(|| toolkit.respond(black_box(response), *dialect))
        });
        group.finish();
    }
}

criterion_group!(benches, respond);
criterion_main!(benches);
