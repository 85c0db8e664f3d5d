//! A turn of 8 calls to a tool that sleeps 1 ms: wall time of `Toolkit::execute_calls`
//! (concurrency 8, arguments as JSON text) next to its floor, `futures::future::join_all` of
//! the same 8 direct calls. Tokio's timer has millisecond granularity, so the floor itself is
//! about 1 to 2 ms. Both run on the same current-thread Tokio runtime.

mod common;

use criterion::{criterion_group, criterion_main, Criterion, SamplingMode};
use futures::future::join_all;
use std::hint::black_box;
use toolnexus::{Arguments, RunOptions, ToolCall};

fn turn(c: &mut Criterion) {
    let rt = common::runtime();
    let toolkit = common::toolkit();
    let calls: Vec<ToolCall> = (0..8)
        .map(|i| {
            ToolCall::new(
                format!("call_{i}"),
                "slow",
                Arguments::Text(format!(r#"{{"n":{i}}}"#)),
            )
        })
        .collect();
    let options = RunOptions::default();
    assert!(options.concurrency >= calls.len());
    let results = rt.block_on(toolkit.execute_calls(&calls, &options));
    let outputs: Vec<&str> = results.iter().map(|r| r.output.as_str()).collect();
    assert_eq!(outputs, ["0", "1", "2", "3", "4", "5", "6", "7"]);

    let mut group = c.benchmark_group("turn/8x1ms");
    // Each iteration sleeps: flat sampling keeps the run short without losing precision.
    group.sampling_mode(SamplingMode::Flat).sample_size(40);
    group.bench_function("floor", |b| {
        b.to_async(&rt)
            .iter(|| join_all((0..8).map(|i| common::slow(black_box(i)))))
    });
    group.bench_function("execute_calls", |b| {
        b.to_async(&rt)
            .iter(|| toolkit.execute_calls(black_box(&calls), &options))
    });
    group.finish();
}

criterion_group!(benches, turn);
criterion_main!(benches);
