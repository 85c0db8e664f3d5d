//! Property test (issue 10, acceptance 2): any split of a transcript's bytes into chunks (cuts
//! inside lines, `\r\n` pairs, escapes and UTF-8 characters included) gives the same calls,
//! results, model turn and text as the body in one piece, with eager execution on or off.

use proptest::prelude::*;
use toolnexus::stream::{StreamEvent, StreamTurn};
use toolnexus::{RunOptions, Toolkit};

use crate::common::block_on;
use crate::common::stream::*;

/// The turn's parts and the text, from `body` fed in pieces cut at `cuts`.
fn assemble(toolkit: &Toolkit, t: &Transcript, body: &[u8], cuts: &[usize], eager: bool) -> String {
    block_on(async {
        let mut turn = StreamTurn::new(toolkit, t.dialect, RunOptions::default()).with_eager(eager);
        let mut text = String::new();
        let mut from = 0;
        for &cut in cuts.iter().chain([&body.len()]) {
            for event in turn.feed_bytes(&body[from..cut]) {
                if let StreamEvent::Text(piece) = event {
                    text.push_str(&piece);
                }
            }
            from = cut;
        }
        let turn = turn.finish().await.unwrap();
        format!(
            "{:?}\n{:?}\n{}\n{}\n{text}",
            turn.calls,
            turn.results,
            serde_json::to_string(&turn.model_turn).unwrap(),
            serde_json::to_string(&turn.result_messages).unwrap()
        )
    })
}

/// A transcript, its body with Windows line ends or not, and cut points into it.
fn case() -> impl Strategy<Value = (usize, bool, Vec<usize>, bool)> {
    let count = transcripts().len();
    (
        0..count,
        any::<bool>(),
        prop::collection::vec(any::<prop::sample::Index>(), 0..40),
        any::<bool>(),
    )
        .prop_map(|(t, crlf, cuts, eager)| {
            (
                t,
                crlf,
                cuts.iter().map(|i| i.index(1 << 20)).collect(),
                eager,
            )
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn any_split_of_the_body_gives_the_same_turn((index, crlf, cuts, eager) in case()) {
        let toolkit = toolkit();
        let t = transcripts().swap_remove(index);
        let mut body = t.body();
        if crlf {
            body = String::from_utf8(body).unwrap().replace('\n', "\r\n").into_bytes();
        }
        let mut cuts: Vec<usize> = cuts.into_iter().map(|c| c % (body.len() + 1)).collect();
        cuts.sort_unstable();
        let whole = assemble(&toolkit, &t, &body, &[], true);
        prop_assert_eq!(assemble(&toolkit, &t, &body, &cuts, eager), whole);
    }
}

#[test]
fn every_single_cut_gives_the_same_turn() {
    // One cut at every 5th byte of every transcript (a different residue per transcript), `\r\n`
    // line ends included.
    let toolkit = toolkit();
    for (i, t) in transcripts().into_iter().enumerate() {
        let body = String::from_utf8(t.body())
            .unwrap()
            .replace('\n', "\r\n")
            .into_bytes();
        let whole = assemble(&toolkit, &t, &body, &[], true);
        for cut in (i % 5..=body.len()).step_by(5) {
            assert_eq!(
                assemble(&toolkit, &t, &body, &[cut], true),
                whole,
                "{} cut at {cut}",
                t.name
            );
        }
    }
}
