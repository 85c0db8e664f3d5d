//! OpenAI strict mode's null pruning (issue 16, point 1), next to its floor.
//!
//! - `strict/prune/<levels>`: a recursive internally tagged filter (`and`/`or` of filters, an
//!   `eq` leaf whose required `value` strict mode sent as `null`, to be removed) nested
//!   `<levels>` deep, with an optional argument sent as `null` (kept: it may be null).
//!   `floor` is what any integration runs anyway: `serde_json::from_str` of the arguments text
//!   into a `Value`. `prune` is the same parse followed by
//!   `InputSchema::strict_nulls_to_absent`, as strict mode runs it before the tool decodes.
//!   31 levels are the most the default 64-level limit lets through (the pruning used to double
//!   its work per level there: 2 s at 20 levels); the issue's target is under 10 ms.
//!
//! Run `scripts/bench.sh strict` for the ratio table.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};
use std::hint::black_box;
use toolnexus::InputSchema;

#[derive(Deserialize, JsonSchema)]
#[serde(tag = "op", rename_all = "snake_case")]
#[allow(dead_code)] // Read by serde only.
enum Filter {
    And { filters: Vec<Filter> },
    Or { filters: Vec<Filter> },
    Eq { field: String, value: String },
}

#[derive(Deserialize, JsonSchema)]
#[allow(dead_code)]
struct SearchArgs {
    filter: Filter,
    limit: Option<u32>,
}

fn nested_filter(depth: usize) -> Value {
    let mut filter = json!({"op": "eq", "field": "name", "value": null});
    for i in 0..depth {
        let op = if i % 2 == 0 { "and" } else { "or" };
        filter = json!({"op": op, "filters": [filter]});
    }
    filter
}

fn prune(c: &mut Criterion) {
    let schema = InputSchema::of::<SearchArgs>().expect("an object schema");
    let mut group = c.benchmark_group("strict/prune");
    for levels in [1usize, 10, 20, 31] {
        let text = json!({"filter": nested_filter(levels), "limit": null}).to_string();
        // Both sides do the work they claim: the prune removes the null.
        let mut args: Value = serde_json::from_str(&text).expect("JSON");
        schema.strict_nulls_to_absent(&mut args);
        assert!(!args.to_string().contains(r#""value":null"#));
        assert_eq!(args["limit"], Value::Null);

        group.bench_with_input(BenchmarkId::new("floor", levels), &text, |b, text| {
            b.iter(|| serde_json::from_str::<Value>(black_box(text)).expect("JSON"))
        });
        group.bench_with_input(BenchmarkId::new("prune", levels), &text, |b, text| {
            b.iter(|| {
                let mut args = serde_json::from_str::<Value>(black_box(text)).expect("JSON");
                schema.strict_nulls_to_absent(&mut args);
                args
            })
        });
    }
    group.finish();
}

criterion_group!(benches, prune);
criterion_main!(benches);
