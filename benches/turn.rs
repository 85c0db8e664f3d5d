//! A turn of calls to a tool that yields to the runtime once (`tokio::task::yield_now`), 8 and
//! 64 calls: wall time of `Toolkit::execute_calls` (library defaults, arguments as JSON text)
//! next to its floor, `futures::future::join_all` of the same direct calls. A tool that yields
//! instead of sleeping keeps the runtime's own work in the turn without the timer's millisecond
//! grain, which would hide any overhead below it. Both run on the same current-thread runtime.
//! `policy` is the same turn on a toolkit under a `Policy` that lets every call run (the gate
//! on each call's path; issue 34 holds it to 1.02× `execute_calls`).

mod common;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use futures::future::join_all;
use std::hint::black_box;
use toolnexus::{Arguments, Policy, RunOptions, ToolCall};

fn turn(c: &mut Criterion) {
    let rt = common::runtime();
    let toolkit = common::toolkit();
    let options = RunOptions::default();
    let gated = common::toolkit().with_policy(Policy::new());
    let mut group = c.benchmark_group("turn/yield");
    for n in [8u32, 64] {
        let calls: Vec<ToolCall> = (0..n)
            .map(|i| {
                ToolCall::new(
                    format!("call_{i}"),
                    "yielding",
                    Arguments::Text(format!(r#"{{"n":{i}}}"#)),
                )
            })
            .collect();
        let results = rt.block_on(toolkit.execute_calls(&calls, &options));
        let outputs: Vec<String> = results.into_iter().map(|r| r.output).collect();
        let expected: Vec<String> = (0..n).map(|i| i.to_string()).collect();
        assert_eq!(outputs, expected);

        group.bench_with_input(BenchmarkId::new("floor", n), &n, |b, &n| {
            b.to_async(&rt)
                .iter(|| join_all((0..n).map(|i| common::yielding(black_box(i)))))
        });
        group.bench_with_input(BenchmarkId::new("execute_calls", n), &calls, |b, calls| {
            b.to_async(&rt)
                .iter(|| toolkit.execute_calls(black_box(calls), &options))
        });
        group.bench_with_input(BenchmarkId::new("policy", n), &calls, |b, calls| {
            b.to_async(&rt)
                .iter(|| gated.execute_calls(black_box(calls), &options))
        });
    }
    group.finish();
}

criterion_group!(benches, turn);
criterion_main!(benches);
