//! Dispatch by name, next to its floor: what a hand-written dispatcher runs anyway.
//!
//! - `dispatch/text`: `Toolkit::execute_json(name, text)` (OpenAI sends arguments as JSON text)
//!   against `serde_json::from_str` into an equal argument struct, a direct call of the same fn
//!   and `serde_json::to_string` of its output. `tool` is the tool's own `execute_json`
//!   (no toolkit), which splits the cost between the toolkit and the generated code.
//! - `dispatch/value`: `Toolkit::execute(name, value)` (Anthropic and Gemini send an object)
//!   against `serde_json::from_value` of the same cloned value and the same call and encoding.
//!
//! Both sides run on the same current-thread Tokio runtime. Run `scripts/bench.sh` for the
//! ratio table.
//!
//! `DISPATCH_BENCH_ONLY=setup|floor|toolkit:CALLS` runs one side of `dispatch/text` alone, that
//! many calls, and exits: `scripts/instructions.sh` counts its instructions under callgrind, a
//! ratio that machine load does not change.

mod common;

use criterion::{criterion_group, Criterion};
use std::hint::black_box;
use toolnexus::{InputSchema, Tool};

use common::{GetWeather, WEATHER_ARGS};

fn dispatch(c: &mut Criterion) {
    let rt = common::runtime();
    let toolkit = common::toolkit();
    // Every side computes the same output.
    let expected = rt.block_on(common::floor_from_str(WEATHER_ARGS));
    let got = rt.block_on(toolkit.execute_json("get_weather", WEATHER_ARGS));
    assert_eq!(
        (got.output.as_str(), got.is_error),
        (expected.as_str(), false)
    );
    // The schema is built once and never on the execute path: the same one before and after.
    let schema: *const InputSchema = GetWeather.input_schema();

    let mut group = c.benchmark_group("dispatch/text");
    group.bench_function("floor", |b| {
        b.to_async(&rt)
            .iter(|| common::floor_from_str(black_box(WEATHER_ARGS)))
    });
    group.bench_function("toolkit", |b| {
        b.to_async(&rt)
            .iter(|| toolkit.execute_json(black_box("get_weather"), black_box(WEATHER_ARGS)))
    });
    group.bench_function("tool", |b| {
        b.to_async(&rt)
            .iter(|| GetWeather.execute_json(black_box(WEATHER_ARGS)))
    });
    group.finish();

    let value: serde_json::Value = serde_json::from_str(WEATHER_ARGS).expect("JSON");
    let mut group = c.benchmark_group("dispatch/value");
    group.bench_function("floor", |b| {
        b.to_async(&rt)
            .iter(|| common::floor_from_value(black_box(&value).clone()))
    });
    group.bench_function("toolkit", |b| {
        b.to_async(&rt)
            .iter(|| toolkit.execute(black_box("get_weather"), black_box(&value).clone()))
    });
    group.bench_function("tool", |b| {
        b.to_async(&rt)
            .iter(|| GetWeather.execute(black_box(&value).clone()))
    });
    group.finish();

    assert!(std::ptr::eq(schema, GetWeather.input_schema()));
}

/// `DISPATCH_BENCH_ONLY=SIDE:CALLS`: one side alone (see the module docs).
fn only(spec: &str) {
    let (side, calls) = spec.split_once(':').unwrap_or((spec, "20000"));
    let calls: usize = calls.parse().expect("DISPATCH_BENCH_ONLY=SIDE:CALLS");
    let rt = common::runtime();
    let toolkit = common::toolkit();
    rt.block_on(async {
        for _ in 0..calls {
            match side {
                "setup" => {}
                "floor" => drop(black_box(
                    common::floor_from_str(black_box(WEATHER_ARGS)).await,
                )),
                "toolkit" => drop(black_box(
                    toolkit
                        .execute_json(black_box("get_weather"), black_box(WEATHER_ARGS))
                        .await,
                )),
                _ => panic!("DISPATCH_BENCH_ONLY: unknown side in {spec:?}"),
            }
        }
    });
}

criterion_group!(benches, dispatch);

fn main() {
    if let Ok(spec) = std::env::var("DISPATCH_BENCH_ONLY") {
        return only(&spec);
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
