//! Typed answers (issue 27), each next to its floor.
//!
//! - `typed/parse/<answer>`: `floor` is `serde_json::from_str::<Report>` of the answer text;
//!   `parse_text` is `Output::<Report>::parse_text` of the same text (limits, decoding with the
//!   whole-number-float and strict-`null` rules). `plain`: an answer as a model writes it;
//!   `nulls`: strict mode's `null` for every optional field. Target: ≤ 1.1×.
//! - `typed/render/<dialect>`: `floor` serializes a prebuilt `Value` equal to the request part;
//!   `request_part` serializes `Output::request_part(dialect)` (rendered once, when the output
//!   is built). Target: ≤ 1.5×.
//!
//! Run `scripts/bench.sh typed` for the ratio table. `TYPED_BENCH_ONLY=SIDE:ANSWER:N`
//! (`SIDE`: `setup`, `floor`, `parse_text`; `ANSWER`: `plain`, `nulls`) parses that answer `N`
//! times alone and exits, for an instruction count under callgrind, which machine load does
//! not change:
//! `TYPED_BENCH_ONLY=floor:plain:20000 valgrind --tool=callgrind target/release/deps/typed-*`.

use criterion::{criterion_group, BenchmarkId, Criterion};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;
use std::hint::black_box;
use toolnexus::{Dialect, Output};

/// A weather report with a few nested rows.
#[derive(Debug, PartialEq, Deserialize, JsonSchema)]
#[allow(dead_code)] // Read by serde only.
struct Report {
    city: String,
    country: Option<String>,
    celsius: i32,
    sky: Sky,
    hourly: Vec<Hour>,
    note: Option<String>,
}

#[derive(Debug, PartialEq, Deserialize, JsonSchema)]
enum Sky {
    Clear,
    Cloudy,
    Rain,
}

#[derive(Debug, PartialEq, Deserialize, JsonSchema)]
#[allow(dead_code)]
struct Hour {
    hour: u8,
    celsius: f64,
    wind: Option<f64>,
}

fn answer(nulls: bool) -> String {
    let hours: Vec<String> = (0..24)
        .map(|h| {
            let wind = if nulls {
                "null".to_owned()
            } else {
                format!("{}.5", h % 7)
            };
            format!(r#"{{"hour":{h},"celsius":{}.25,"wind":{wind}}}"#, h % 9)
        })
        .collect();
    let (country, note) = if nulls {
        ("null", "null")
    } else {
        (r#""Norway""#, r#""Windy in the afternoon.""#)
    };
    format!(
        r#"{{"city":"Oslo","country":{country},"celsius":4,"sky":"Cloudy","hourly":[{}],"note":{note}}}"#,
        hours.join(",")
    )
}

fn parse(c: &mut Criterion) {
    let output = Output::<Report>::new().expect("an object schema");
    let mut group = c.benchmark_group("typed/parse");
    for (name, text) in [("plain", answer(false)), ("nulls", answer(true))] {
        // Both sides read the same value.
        let floor: Report = serde_json::from_str(&text).expect("JSON");
        assert_eq!(output.parse_text(&text).expect("valid"), floor);
        group.bench_with_input(BenchmarkId::new("floor", name), &text, |b, text| {
            b.iter(|| serde_json::from_str::<Report>(black_box(text)).expect("JSON"))
        });
        group.bench_with_input(BenchmarkId::new("parse_text", name), &text, |b, text| {
            b.iter(|| output.parse_text(black_box(text)).expect("valid"))
        });
    }
    group.finish();
}

fn render(c: &mut Criterion) {
    let output = Output::<Report>::new().expect("an object schema");
    let mut group = c.benchmark_group("typed/render");
    for dialect in [
        Dialect::OpenAiChat,
        Dialect::OpenAiResponses,
        Dialect::Anthropic,
        Dialect::Gemini,
        Dialect::Bedrock,
    ] {
        let prebuilt = Value::Object(output.request_part(dialect).clone());
        assert_eq!(
            serde_json::to_string(&prebuilt).unwrap(),
            serde_json::to_string(output.request_part(dialect)).unwrap()
        );
        let name = format!("{dialect:?}");
        group.bench_with_input(BenchmarkId::new("floor", &name), &prebuilt, |b, v| {
            b.iter(|| serde_json::to_string(black_box(v)).unwrap())
        });
        group.bench_with_input(BenchmarkId::new("request_part", &name), &dialect, |b, d| {
            b.iter(|| serde_json::to_string(output.request_part(black_box(*d))).unwrap())
        });
    }
    group.finish();
}

/// `TYPED_BENCH_ONLY=SIDE:ANSWER:N`: one side of `typed/parse` alone (see the module docs).
fn only(spec: &str) {
    let mut parts = spec.split(':');
    let (side, kind, n) = (parts.next(), parts.next(), parts.next());
    let n: usize = n
        .and_then(|n| n.parse().ok())
        .expect("TYPED_BENCH_ONLY=SIDE:ANSWER:N");
    let text = answer(kind == Some("nulls"));
    let output = Output::<Report>::new().expect("an object schema");
    for _ in 0..n {
        match side {
            Some("setup") => {}
            Some("floor") => drop(black_box(
                serde_json::from_str::<Report>(black_box(&text)).expect("JSON"),
            )),
            Some("parse_text") => drop(black_box(
                output.parse_text(black_box(&text)).expect("valid"),
            )),
            _ => panic!("TYPED_BENCH_ONLY: unknown side in {spec:?}"),
        }
    }
}

criterion_group!(benches, parse, render);

fn main() {
    if let Ok(spec) = std::env::var("TYPED_BENCH_ONLY") {
        return only(&spec);
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
