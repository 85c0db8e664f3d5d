//! Tools -> provider bytes, next to its floor: `serde_json::to_vec` of an equal, already-built
//! `Value`. Run `scripts/bench.sh` for the ratio table.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use serde_json::value::RawValue;
use serde_json::{json, Value};
use std::hint::black_box;
use toolnexus::{NativeTool, Toolkit};

/// A realistic tool: a few typed, documented properties, one nested object, one array.
fn tool(i: usize) -> NativeTool {
    NativeTool::of(
        format!("tool_{i}"),
        format!("Tool number {i}: looks something up and returns a short answer"),
        json!({
            "type": "object",
            "properties": {
                "query": {"type": "string", "description": "What to look up"},
                "limit": {"type": "integer", "minimum": 1, "maximum": 100},
                "filters": {
                    "type": "object",
                    "properties": {"lang": {"type": "string", "enum": ["en", "fr", "de"]}, "since": {"type": "string"}},
                },
                "tags": {"type": "array", "items": {"type": "string"}},
            },
            "required": ["query"],
        }),
        |_| async { "" },
    )
    .expect("valid tool")
}

fn toolkit(n: usize) -> Toolkit {
    let mut toolkit = Toolkit::new();
    for i in 0..n {
        toolkit.add(tool(i)).expect("unique names");
    }
    toolkit
}

fn render(c: &mut Criterion) {
    type Render = fn(&Toolkit) -> Vec<Value>;
    type RenderJson = fn(&Toolkit) -> &RawValue;
    let providers: [(&str, Render, RenderJson); 3] = [
        ("openai", Toolkit::to_openai, Toolkit::to_openai_json),
        (
            "anthropic",
            Toolkit::to_anthropic,
            Toolkit::to_anthropic_json,
        ),
        ("gemini", Toolkit::to_gemini, Toolkit::to_gemini_json),
    ];
    for n in [1, 10, 100, 1000] {
        let toolkit = toolkit(n);
        // The cached path must write the same bytes as the Value path.
        assert_eq!(
            serde_json::to_vec(toolkit.to_gemini_json()).expect("serializes"),
            serde_json::to_vec(&toolkit.to_gemini()).expect("serializes")
        );
        for (provider, render, render_json) in providers {
            let mut group = c.benchmark_group(format!("render/{provider}"));
            let built = render(&toolkit);
            group.bench_with_input(BenchmarkId::new("floor", n), &built, |b, built| {
                b.iter(|| serde_json::to_vec(black_box(built)).expect("serializes"))
            });
            group.bench_with_input(BenchmarkId::new("to_value", n), &toolkit, |b, toolkit| {
                b.iter(|| serde_json::to_vec(&render(black_box(toolkit))).expect("serializes"))
            });
            // The request-body path: the toolkit's cached JSON, written into the body verbatim.
            group.bench_with_input(BenchmarkId::new("to_json", n), &toolkit, |b, toolkit| {
                b.iter(|| serde_json::to_vec(render_json(black_box(toolkit))).expect("serializes"))
            });
            group.finish();
        }
    }
}

criterion_group!(benches, render);
criterion_main!(benches);
