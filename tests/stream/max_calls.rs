//! A cap on calls per response (issue 39): `Limits::max_calls`. A whole response past it is
//! refused before anything runs; a stream fails at the first call past it, in every dialect,
//! and the calls before it are the only ones that may have run.

use toolnexus::stream::StreamTurn;
use toolnexus::{Limits, ResponseError, RunOptions};

use crate::common::block_on;
use crate::common::dialects;
use crate::common::generate::{self, calls, Rng};

const TOOLS: [&str; 2] = ["rec_a", "rec_b"];

fn refused_for_calls(error: &ResponseError, max: usize) {
    let text = error.to_string();
    assert!(
        matches!(error, ResponseError::Malformed { .. }),
        "{error:?}"
    );
    assert!(text.contains("Limits::max_calls"), "{text}");
    assert!(text.contains(&format!("more than {max}")), "{text}");
}

#[test]
fn a_whole_response_past_the_cap_is_refused_and_runs_nothing() {
    for fixture in dialects::ALL {
        let dialect = fixture.dialect();
        let mut rng = Rng(7);
        let calls = calls(&mut rng, 5, &TOOLS);
        let (toolkit, runs) = generate::recording(&TOOLS);
        let capped = toolkit.with_limits(Limits::default().with_max_calls(4));
        let error = block_on(capped.respond(&fixture.response(&calls), dialect))
            .expect_err("five calls past a cap of four");
        refused_for_calls(&error, 4);
        let gated = block_on(capped.respond_gated(&fixture.response(&calls), dialect));
        refused_for_calls(&gated.expect_err("the same, gated"), 4);
        assert!(runs.lock().unwrap().is_empty(), "{dialect}: nothing ran");

        let (toolkit, runs) = generate::recording(&TOOLS);
        let capped = toolkit.with_limits(Limits::default().with_max_calls(5));
        block_on(capped.respond(&fixture.response(&calls), dialect)).expect("five within five");
        assert_eq!(runs.lock().unwrap().len(), 5, "{dialect}");
    }
}

#[test]
fn a_stream_fails_at_the_first_call_past_the_cap() {
    for fixture in dialects::ALL {
        let dialect = fixture.dialect();
        for seed in 0..8 {
            let mut rng = Rng(seed);
            let calls = calls(&mut rng, 7, &TOOLS);
            let body = fixture.sse(&fixture.events(&mut rng, &calls));
            let (toolkit, runs) = generate::recording(&TOOLS);
            let capped = toolkit.with_limits(Limits::default().with_max_calls(3));
            let error = block_on(async {
                let mut turn = StreamTurn::new(&capped, dialect, RunOptions::default());
                turn.feed_bytes(&body).for_each(drop);
                turn.finish().await
            })
            .expect_err("seven calls past a cap of three");
            refused_for_calls(&error.error, 3);
            // Only calls among the first three may have run, each once.
            let runs = runs.lock().unwrap().clone();
            assert!(runs.len() <= 3, "{dialect} seed {seed}: {runs:?}");
            for (_, args) in &runs {
                assert!(
                    args["i"].as_u64().unwrap() < 3,
                    "{dialect} seed {seed}: {args}"
                );
            }
            assert_eq!(error.calls.len(), runs.len(), "{dialect} seed {seed}");
        }
    }
}
