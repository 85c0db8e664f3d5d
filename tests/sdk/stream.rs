//! Streaming against the providers' official SDKs (issue 10, acceptance 1): for each
//! transcript, the model turn the crate assembles equals the one made from what the SDK's own
//! stream accumulator produces from the same events (`tests/sdk/stream_accumulate.py`), and
//! equals `model_turn` of the response sent whole; and the next request's messages built from
//! the streamed turn pass the SDKs' request types (`tests/sdk/validate_messages.py`); a dialect
//! with a validator of its own (Bedrock) streams its fixture's events, which with the next
//! request go to that validator. All run
//! with the repo's `.venv` (made by `scripts/venv.sh` when needed); without Python they are
//! skipped, except under `CI` where they are required (`venv.rs`).

use serde_json::{json, Map, Value};
use toolnexus::stream::StreamTurn;
use toolnexus::RunOptions;

use crate::common::dialects::{self, Call};
use crate::common::generate::Rng;
use crate::common::stream::*;
use crate::venv::Turns;

/// Runs `script` on `input` with the venv's Python; returns (success, stdout, stderr), or `None`
/// when the SDK checks are skipped.
fn python(script: &str, input: &Value, file: &str) -> Option<(bool, String, String)> {
    let out = crate::venv::run(script, input, file)?;
    Some((
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    ))
}

#[tokio::test]
async fn streamed_turns_equal_the_sdk_accumulators_and_pass_the_sdk_request_types() {
    let toolkit = toolkit();
    let transcripts = transcripts();
    let input: Map<String, Value> = transcripts
        .iter()
        .map(|t| {
            (
                t.name.to_owned(),
                json!({"dialect": dialects::of(t.dialect).sdk().key, "events": t.events}),
            )
        })
        .collect();
    let Some((ok, stdout, stderr)) = python(
        "tests/sdk/stream_accumulate.py",
        &Value::Object(input),
        "stream_transcripts.json",
    ) else {
        return; // skipped: no Python (never under CI)
    };
    assert!(ok, "the SDK accumulators refused a transcript:\n{stderr}");
    let sdk: Map<String, Value> = serde_json::from_str(&stdout).unwrap();

    let mut turns = Turns::default();
    for t in &transcripts {
        let mut turn = StreamTurn::new(&toolkit, t.dialect, RunOptions::default());
        turn.feed_bytes(&t.body()).for_each(drop);
        let turn = turn.finish().await.unwrap();

        let from_sdk = t.dialect.model_turn(&sdk[t.name]).unwrap();
        assert_eq!(
            turn.model_turn, from_sdk,
            "{}: the SDK accumulator gave\n{}",
            t.name, sdk[t.name]
        );
        assert_eq!(
            turn.model_turn,
            t.dialect.model_turn(&t.whole).unwrap(),
            "{}",
            t.name
        );
        turns.add(dialects::of(t.dialect), turn.into_messages(), &toolkit);
    }
    // A dialect the accumulators do not know (Bedrock: boto3 hands out the events, and adds
    // none up): its fixture's stream, whose turn must equal the response sent whole, and the
    // events themselves go to its own validator.
    let calls = [
        Call::new("call_w", "get_weather", json!({"city": "Paris"})),
        Call::new("call_a", "add", json!({"a": 2, "b": 3})),
    ];
    for (fixture, _) in crate::venv::validated_alone() {
        let dialect = fixture.dialect();
        let events = fixture.events(&mut Rng(3), &calls);
        let mut turn = StreamTurn::new(&toolkit, dialect, RunOptions::default());
        turn.feed_bytes(&fixture.sse(&events)).for_each(drop);
        let turn = turn.finish().await.unwrap();
        assert_eq!(
            turn.model_turn,
            dialect.model_turn(&fixture.response(&calls)).unwrap(),
            "{dialect:?}"
        );
        turns.add_events(fixture, &events);
        turns.add(fixture, turn.into_messages(), &toolkit);
    }
    turns.assert_accepted("stream");
}
