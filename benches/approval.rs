//! A pending turn of 8 calls (`Toolkit::respond_gated` on an OpenAI Chat response whose 8
//! `get_weather` calls all ask): stored and read back (`PendingTurn::to_json` then
//! `PendingTurn::from_json`, which checks the version and recomputes every digest), next to its
//! floors: serializing the 8 calls' arguments alone (`floor`), and serializing and parsing them
//! back (`floor_roundtrip`), and writing and parsing the same JSON document as a plain
//! `serde_json::Value` (`document`: what the pending turn's own checks and types add). Issue 34
//! asks for `store_and_resume` at 1.2× `floor`, which a reading that checks the arguments cannot
//! reach: parsing alone is about 3× `floor` (`floor_roundtrip`), and the pending turn is 3307
//! bytes for 447 bytes of arguments (the model's turn, 1322 bytes, repeats every argument and
//! call id; each call adds its id, name, 64-digit digest, status and prompt), each argument
//! written and parsed twice, plus a SHA-256 per call. Measured in instructions under callgrind
//! (`APPROVAL_BENCH_ONLY`, below; 200 turns, `setup` subtracted), before and after the pending
//! turn's JSON was written into one buffer with its digests on the stack and read with borrowed
//! names and digests compared digit by digit: `store_and_resume` 29.0× → 26.6× `floor`, 9.56×
//! → 9.08× `floor_roundtrip`, 1.003× → 0.952× `document` (callgrind runs SHA-256 in software; on
//! a CPU with SHA extensions, as sha2 detects at run time, the digests cost less). Keeping a
//! read-back model turn as raw text, parsed only when needed, measured 0.66× `document` for
//! the reading alone but 1.05× once `resume` parses it (a resumed `Turn` holds it as values),
//! so the model turn is parsed when read.
//!
//! `approval/stream_8` and `approval/respond_8`: a turn of 8 calls under a policy that lets every
//! call run next to the same turn without a policy, streamed (`finish_gated` against `finish`)
//! and whole (`respond_gated` against `respond`); issue 34 holds each to 1.02×. Wall-clock
//! ratios drift on a loaded machine; `APPROVAL_BENCH_ONLY=SIDE:TURNS` runs one side alone for an
//! instruction count under callgrind (subtract `setup`). Measured so (200 turns): streamed
//! 1.008×, whole 1.020×.

mod common;

use criterion::{criterion_group, Criterion};
use std::hint::black_box;
use toolnexus::approval::{Gated, PendingTurn, SealKey};
use toolnexus::stream::StreamTurn;
use toolnexus::{Arguments, Dialect, Gate, Policy, RunOptions, Toolkit};

/// The pending turn of `common::openai_chat_response`'s 8 calls (every one asks), its calls'
/// argument texts, and the same JSON as a plain `serde_json::Value`.
struct Pending8 {
    pending: PendingTurn,
    arguments: Vec<String>,
    document: serde_json::Value,
}

fn pending_8() -> Pending8 {
    let rt = common::runtime();
    let toolkit = common::toolkit().with_policy(Policy::new().tool("get_weather", Gate::ask("?")));
    let response = common::openai_chat_response();
    let Ok(Gated::Pending(pending)) =
        rt.block_on(toolkit.respond_gated(&response, Dialect::OpenAiChat))
    else {
        panic!("every call asks")
    };
    assert_eq!(pending.awaiting().count(), 8);
    let arguments: Vec<String> = pending
        .calls()
        .iter()
        .map(|c| match c.arguments() {
            Arguments::Text(text) => text.clone(),
            _ => unreachable!("OpenAI Chat sends text"),
        })
        .collect();
    assert_eq!(PendingTurn::from_json(&pending.to_json()).unwrap(), pending);
    let document = serde_json::from_str(&pending.to_json()).unwrap();
    Pending8 {
        pending,
        arguments,
        document,
    }
}

/// The four sides of `approval/pending_8`, one iteration each.
fn floor(arguments: &[String]) -> String {
    serde_json::to_string(arguments).unwrap()
}

fn floor_roundtrip(arguments: &[String]) -> Vec<String> {
    serde_json::from_str(&floor(arguments)).unwrap()
}

fn document(document: &serde_json::Value) -> serde_json::Value {
    serde_json::from_str(&serde_json::to_string(document).unwrap()).unwrap()
}

fn store_and_resume(pending: &PendingTurn) -> PendingTurn {
    PendingTurn::from_json(&pending.to_json()).unwrap()
}

/// The same through the sealed form (HMAC-SHA-256 under the host's key): issue 39's target is
/// at most 1.1x the plain `document` round trip.
fn store_and_resume_sealed(pending: &PendingTurn, key: &SealKey) -> PendingTurn {
    PendingTurn::from_sealed_json(&pending.to_sealed_json(key), key).unwrap()
}

fn approval(c: &mut Criterion) {
    let Pending8 {
        pending,
        arguments,
        document: value,
    } = pending_8();
    eprintln!(
        "approval/pending_8: {} bytes stored ({} of them the model's turn), {} bytes of arguments",
        pending.to_json().len(),
        serde_json::to_string(pending.model_turn()).unwrap().len(),
        floor(&arguments).len()
    );

    let mut group = c.benchmark_group("approval/pending_8");
    group.bench_function("floor", |b| b.iter(|| floor(black_box(&arguments))));
    group.bench_function("floor_roundtrip", |b| {
        b.iter(|| floor_roundtrip(black_box(&arguments)))
    });
    group.bench_function("document", |b| b.iter(|| document(black_box(&value))));
    group.bench_function("store_and_resume", |b| {
        b.iter(|| store_and_resume(black_box(&pending)))
    });
    let key = SealKey::new([7; 32]);
    group.bench_function("store_and_resume_sealed", |b| {
        b.iter(|| store_and_resume_sealed(black_box(&pending), &key))
    });
    group.finish();
}

/// The 8 calls of `common::openai_chat_response` as a Chat Completions SSE body: each call's
/// name in one chunk and its arguments in the next, then `finish_reason` and `[DONE]`.
fn chat_stream() -> Vec<u8> {
    let response = common::openai_chat_response();
    let mut body = String::new();
    let mut chunk = |delta: serde_json::Value, finish: serde_json::Value| {
        let event = serde_json::json!({"id": "chatcmpl-123", "object": "chat.completion.chunk",
            "model": "gpt-4o", "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]});
        body.push_str(&format!("data: {event}\n\n"));
    };
    let calls = response["choices"][0]["message"]["tool_calls"]
        .as_array()
        .unwrap();
    for (i, call) in calls.iter().enumerate() {
        let function = &call["function"];
        chunk(
            serde_json::json!({"tool_calls": [{"index": i, "id": call["id"], "type": "function",
                "function": {"name": function["name"], "arguments": ""}}]}),
            serde_json::Value::Null,
        );
        chunk(
            serde_json::json!({"tool_calls": [{"index": i,
                "function": {"arguments": function["arguments"]}}]}),
            serde_json::Value::Null,
        );
    }
    chunk(serde_json::json!({}), "tool_calls".into());
    body.push_str("data: [DONE]\n\n");
    body.into_bytes()
}

/// A streamed turn of 8 calls, the body fed in 1 KiB chunks: on a toolkit without a policy
/// (`stream_turn`, `finish`) and under a policy that lets every call run (`allow_all`,
/// `finish_gated`: each call's gate as it completes, the statuses at the end); and a whole
/// response's turn, `respond` next to `respond_gated` under that policy. Issue 34 holds a turn
/// under an allow-all policy to 1.02× the turn without one.
fn allow_all(c: &mut Criterion) {
    let rt = common::runtime();
    let plain = common::toolkit();
    let allowing = common::toolkit().with_policy(Policy::new());
    let body = chat_stream();
    let chunks: Vec<&[u8]> = body.chunks(1024).collect();
    let whole = rt.block_on(plain.respond(&common::openai_chat_response(), Dialect::OpenAiChat));
    let whole = whole.unwrap();
    assert_eq!(rt.block_on(streamed(&plain, &chunks, false)), whole);
    assert_eq!(rt.block_on(streamed(&allowing, &chunks, true)), whole);

    let mut group = c.benchmark_group("approval/stream_8");
    group.bench_function("stream_turn", |b| {
        b.to_async(&rt).iter(|| streamed(&plain, &chunks, false))
    });
    group.bench_function("allow_all", |b| {
        b.to_async(&rt).iter(|| streamed(&allowing, &chunks, true))
    });
    group.finish();

    let response = common::openai_chat_response();
    let mut group = c.benchmark_group("approval/respond_8");
    group.bench_function("respond", |b| {
        b.to_async(&rt)
            .iter(|| plain.respond(black_box(&response), Dialect::OpenAiChat))
    });
    group.bench_function("respond_gated_allow_all", |b| {
        b.to_async(&rt)
            .iter(|| allowing.respond_gated(black_box(&response), Dialect::OpenAiChat))
    });
    group.finish();
}

/// One streamed turn of `chunks`, ended with `finish_gated` (`gated`) or `finish`.
async fn streamed(toolkit: &Toolkit, chunks: &[&[u8]], gated: bool) -> toolnexus::Turn {
    let mut turn = StreamTurn::new(toolkit, Dialect::OpenAiChat, RunOptions::default());
    for chunk in chunks {
        turn.feed_bytes(black_box(chunk)).for_each(drop);
    }
    if gated {
        match turn.finish_gated().await.unwrap() {
            Gated::Ran(turn) => turn,
            Gated::Pending(_) => unreachable!("every call runs"),
        }
    } else {
        turn.finish().await.unwrap()
    }
}

/// `APPROVAL_BENCH_ONLY=SIDE:TURNS` (SIDE `setup`, `stream_turn`, `allow_all`, `respond`,
/// `respond_policy` (`respond` under the allow-all policy), `respond_gated`, or one side of
/// `approval/pending_8`: `floor`, `floor_roundtrip`, `document`, `store_and_resume`,
/// `store_and_resume_sealed`): that many
/// turns of one side alone, for an instruction count under callgrind (a ratio machine load does
/// not change).
fn only(spec: &str) {
    let (side, turns) = spec.split_once(':').unwrap_or((spec, "200"));
    let turns: usize = turns.parse().expect("APPROVAL_BENCH_ONLY=SIDE:TURNS");
    let rt = common::runtime();
    let toolkit = match side {
        "allow_all" | "respond_gated" | "respond_policy" => {
            common::toolkit().with_policy(Policy::new())
        }
        _ => common::toolkit(),
    };
    let body = chat_stream();
    let chunks: Vec<&[u8]> = body.chunks(1024).collect();
    let response = common::openai_chat_response();
    let pending = pending_8();
    let key = SealKey::new([7; 32]);
    rt.block_on(async {
        for _ in 0..turns {
            match side {
                "floor" => drop(black_box(floor(black_box(&pending.arguments)))),
                "floor_roundtrip" => {
                    drop(black_box(floor_roundtrip(black_box(&pending.arguments))))
                }
                "document" => drop(black_box(document(black_box(&pending.document)))),
                "store_and_resume" => {
                    drop(black_box(store_and_resume(black_box(&pending.pending))))
                }
                "store_and_resume_sealed" => drop(black_box(store_and_resume_sealed(
                    black_box(&pending.pending),
                    &key,
                ))),
                "stream_turn" => drop(black_box(streamed(&toolkit, &chunks, false).await)),
                "allow_all" => drop(black_box(streamed(&toolkit, &chunks, true).await)),
                "respond" | "respond_policy" => drop(black_box(
                    toolkit
                        .respond(black_box(&response), Dialect::OpenAiChat)
                        .await,
                )),
                "respond_gated" => drop(black_box(
                    toolkit
                        .respond_gated(black_box(&response), Dialect::OpenAiChat)
                        .await,
                )),
                _ => {}
            }
        }
    });
}

criterion_group!(benches, approval, allow_all);

fn main() {
    if let Ok(spec) = std::env::var("APPROVAL_BENCH_ONLY") {
        return only(&spec);
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
