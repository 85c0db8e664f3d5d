//! What the property tests (issue 24) generate around the fixtures' streams: up to 8 calls
//! with random arguments, the random pieces and interleavings the fixtures cut a stream's
//! argument text into (`tests/common/dialects`), a body cut into random chunks down to 1 byte,
//! and a toolkit that records what its tools receive. A stream and the response sent whole
//! next to it come from the fixture (`dialects::ALL[d].events(..)`, `.response(..)`).

#![allow(dead_code)] // each test binary uses its own part

use std::sync::{Arc, Mutex};

use serde_json::{json, Value};
use toolnexus::{NativeTool, Toolkit};

use super::dialects;

/// A small deterministic generator (splitmix64), so one seed is one whole case.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    pub fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
}

pub use super::dialects::Call;

/// `count` calls of the `tools`, each with its own arguments (`i` is its place).
pub fn calls(rng: &mut Rng, count: usize, tools: &[&'static str]) -> Vec<Call> {
    let alphabet = [
        "a", "Z", " ", "\"", "\\", "é", "😀", "{", "}", ":", ",", "\n", "0",
    ];
    (0..count)
        .map(|i| {
            let text: String = (0..rng.below(12))
                .map(|_| alphabet[rng.below(alphabet.len())])
                .collect();
            let mut arguments = json!({"i": i, "text": text});
            if rng.chance(50) {
                arguments["n"] = json!(rng.below(1000) as i64 - 500);
            }
            if rng.chance(30) {
                arguments["nested"] = json!({"list": [1, {"k": "v"}], "flag": true});
            }
            Call {
                name: tools[rng.below(tools.len())].to_owned(),
                id: format!("call_{i}"),
                arguments,
            }
        })
        .collect()
}

/// `calls` with some given the id of an earlier one (at least one repeat when there are two
/// calls or more), for the rule that the first call of an id BY POSITION runs and each later
/// one is answered "duplicate call id" without running.
pub fn repeat_ids(rng: &mut Rng, calls: &mut [Call]) {
    let count = calls.len();
    let mut repeated = false;
    for i in 1..count {
        if rng.chance(40) {
            calls[i].id = calls[rng.below(i)].id.clone();
            repeated = true;
        }
    }
    if !repeated && count >= 2 {
        let from = rng.below(count - 1);
        calls[count - 1].id = calls[from].id.clone();
    }
}

/// For each of `calls`, whether an earlier one has its id (it is not run).
pub fn repeated(calls: &[Call]) -> Vec<bool> {
    (0..calls.len())
        .map(|i| calls[..i].iter().any(|c| c.id == calls[i].id))
        .collect()
}

/// `text` cut at random character boundaries into 1 to 6 pieces, sometimes with empty ones.
pub fn pieces(rng: &mut Rng, text: &str) -> Vec<String> {
    let bounds: Vec<usize> = (0..=text.len())
        .filter(|&i| text.is_char_boundary(i))
        .collect();
    let mut cuts: Vec<usize> = (0..rng.below(6))
        .map(|_| bounds[rng.below(bounds.len())])
        .collect();
    cuts.sort_unstable();
    let mut out = Vec::new();
    let mut from = 0;
    for cut in cuts.into_iter().chain([text.len()]) {
        out.push(text[from..cut].to_owned());
        from = cut;
    }
    out
}

/// The per-call event sequences merged in a random order that keeps each call's own order,
/// and lets call `i` begin only after call `i - 1` has begun (indexes appear in order).
pub fn interleave<T>(rng: &mut Rng, mut lanes: Vec<std::collections::VecDeque<T>>) -> Vec<T> {
    let mut out = Vec::new();
    let mut begun = 0;
    loop {
        let open: Vec<usize> = (0..lanes.len().min(begun + 1))
            .filter(|&i| !lanes[i].is_empty())
            .collect();
        let Some(&lane) = open.get(rng.below(open.len().max(1))) else {
            return out;
        };
        begun = begun.max(lane + 1);
        out.extend(lanes[lane].pop_front());
    }
}

/// The fixture's stream of `calls` for the first seed in which each call completes (by
/// [`Fixture::ready_at`](dialects::Fixture::ready_at)) at its own event, in call order, and
/// those events' positions: for tests that time each call, or that need arrival order to be
/// call order.
pub fn in_order(fixture: &dyn dialects::Fixture, calls: &[Call]) -> (Vec<Value>, Vec<usize>) {
    (0..1000)
        .find_map(|seed| {
            let events = fixture.events(&mut Rng(seed), calls);
            let ends: Vec<usize> = (0..calls.len())
                .map(|call| fixture.ready_at(&events, call))
                .collect::<Option<_>>()?;
            ends.windows(2)
                .all(|w| w[0] < w[1])
                .then_some((events, ends))
        })
        .unwrap_or_else(|| {
            panic!(
                "{:?}: no stream whose calls complete apart",
                fixture.dialect()
            )
        })
}

/// `body` cut into random chunks, a third of them 1 byte long.
pub fn chunks(rng: &mut Rng, body: &[u8]) -> Vec<Vec<u8>> {
    let mut chunks = Vec::new();
    let mut rest = body;
    while !rest.is_empty() {
        let size = if rng.chance(30) { 1 } else { 1 + rng.below(64) };
        let (chunk, after) = rest.split_at(size.min(rest.len()));
        chunks.push(chunk.to_vec());
        rest = after;
    }
    chunks
}

/// Every run of a [`recording`] toolkit's tools: the tool and the arguments it received.
pub type Runs = Arc<Mutex<Vec<(String, Value)>>>;

/// A toolkit of `tools`, each logging its runs with the arguments it received (so a test judges
/// a stream by what the tools saw) and answering with them.
pub fn recording(tools: &[&'static str]) -> (Toolkit, Runs) {
    let runs: Runs = Arc::default();
    let mut toolkit = Toolkit::new();
    for &name in tools {
        let runs = Arc::clone(&runs);
        let tool = NativeTool::of(
            name,
            "Records its runs",
            json!({"type": "object"}),
            move |args: Value| {
                runs.lock().unwrap().push((name.to_owned(), args.clone()));
                async move { args.to_string() }
            },
        )
        .unwrap();
        toolkit.add(tool).unwrap();
    }
    (toolkit, runs)
}
