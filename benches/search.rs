//! Tool search over 10,000 tools (issue 42), each path next to its floor in one run:
//! - `search/query`: one query through `Bm25::search` (the target: at most 200 µs);
//! - `search/index` against `search/render`: building the index of the tools, and rendering
//!   the same tools with `to_openai()` into bytes (the target: the index at most 2x the render).
//!
//! Run `cargo bench --bench search` (or `scripts/bench.sh` for every ratio).

use std::hint::black_box;
use std::sync::Arc;

use criterion::{criterion_group, criterion_main, Criterion};
use serde_json::json;
use toolnexus::search::{Bm25, ToolSearch};
use toolnexus::{NativeTool, Tool, Toolkit};

/// A realistic tool of a large catalog: a name and description of real words, two documented
/// parameters.
fn tool(i: usize) -> NativeTool {
    const VERBS: &[&str] = &[
        "fetch",
        "update",
        "sync",
        "publish",
        "archive",
        "approve",
        "refund",
        "schedule",
        "translate",
        "score",
    ];
    const NOUNS: &[&str] = &[
        "invoice", "customer", "ticket", "order", "campaign", "payment", "shipment", "lead",
        "survey", "playlist",
    ];
    const PLACES: &[&str] = &[
        "crm",
        "billing",
        "helpdesk",
        "shop",
        "ads",
        "bank",
        "logistics",
        "sales",
        "forms",
        "music",
    ];
    let (verb, noun, place) = (VERBS[i % 10], NOUNS[(i / 10) % 10], PLACES[(i / 100) % 10]);
    NativeTool::of(
        format!("{place}_{verb}_{noun}_{i}"),
        format!("{verb} a {noun} in the {place} system, by its id (variant {i})."),
        json!({"type": "object", "properties": {
            "id": {"type": "string", "description": format!("The {noun}'s id")},
            "note": {"type": "string", "description": "Why, for the audit log"}}}),
        |_| async { "ok" },
    )
    .expect("a valid tool")
}

fn bench(c: &mut Criterion) {
    let mut toolkit = Toolkit::new();
    for i in 0..10_000 {
        toolkit.add(tool(i)).expect("distinct names");
    }
    let tools: Vec<Arc<dyn Tool>> = toolkit.tools().to_vec();
    let index = Bm25::index(&tools);
    let mut group = c.benchmark_group("search");
    group.bench_function("query", |b| {
        b.iter(|| black_box(index.search(black_box("refund a customer payment in billing"), 5)))
    });
    group.bench_function("index", |b| {
        b.iter(|| black_box(Bm25::index(black_box(&tools))))
    });
    group.bench_function("render", |b| {
        b.iter(|| black_box(serde_json::to_vec(&toolnexus::to_openai(black_box(&tools))).unwrap()))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
