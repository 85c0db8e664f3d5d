//! A turn of calls to a tool that yields to the runtime once (`tokio::task::yield_now`), 8 and
//! 64 calls: wall time of `Toolkit::execute_calls` (library defaults, arguments as JSON text)
//! next to its floor, `futures::future::join_all` of the same direct calls. A tool that yields
//! instead of sleeping keeps the runtime's own work in the turn without the timer's millisecond
//! grain, which would hide any overhead below it. Both run on the same current-thread runtime.
//! `policy` is the same turn on a toolkit under a `Policy` that lets every call run (the gate
//! on each call's path; issue 34 holds it to 1.02× `execute_calls`).
//! `TURN_BENCH_ONLY=setup|execute_calls|policy:TURNS` runs that many 8-call turns of one side
//! alone and exits, for an instruction count under callgrind (a ratio machine load does not
//! change).

mod common;

use criterion::{criterion_group, BenchmarkId, Criterion};
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
        let calls = calls(n);
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

/// The 8 calls of a turn.
fn calls(n: u32) -> Vec<ToolCall> {
    (0..n)
        .map(|i| {
            ToolCall::new(
                format!("call_{i}"),
                "yielding",
                Arguments::Text(format!(r#"{{"n":{i}}}"#)),
            )
        })
        .collect()
}

/// `TURN_BENCH_ONLY=SIDE:TURNS`: one side alone (see the module docs).
fn only(spec: &str) {
    let (side, turns) = spec.split_once(':').unwrap_or((spec, "2000"));
    let turns: usize = turns.parse().expect("TURN_BENCH_ONLY=SIDE:TURNS");
    let rt = common::runtime();
    let toolkit = match side {
        "policy" => common::toolkit().with_policy(Policy::new()),
        _ => common::toolkit(),
    };
    let (calls, options) = (calls(8), RunOptions::default());
    rt.block_on(async {
        for _ in 0..turns {
            if side != "setup" {
                drop(black_box(
                    toolkit.execute_calls(black_box(&calls), &options).await,
                ));
            }
        }
    });
}

criterion_group!(benches, turn);

fn main() {
    if let Ok(spec) = std::env::var("TURN_BENCH_ONLY") {
        return only(&spec);
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
