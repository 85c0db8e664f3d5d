//! Conversations moved between dialects (issue 41), judged by the target's own SDK types: each
//! dialect's toolkit writes a conversation, `Transcript::render` writes it for every dialect,
//! and every rendered history goes through `tests/sdk/validate_histories.py` (Bedrock's, as
//! whole requests, through botocore's model).

use serde_json::{Map, Value};
use toolnexus::transcript::Transcript;
use toolnexus::ToolsOptions;

use crate::common::dialects;
use crate::common::generate::Rng;
use crate::common::transcript::{conversation, toolkit};

#[tokio::test]
async fn every_history_moved_between_dialects_is_accepted_by_the_targets_sdk() {
    let mut rng = Rng(7);
    let mut sources = Vec::new();
    for source in dialects::ALL {
        for turns in [2, 3] {
            let (history, _) = conversation(source, &mut rng, turns).await;
            let transcript = Transcript::read(source.dialect(), &history).unwrap();
            sources.push(transcript);
        }
    }
    // A user's media of every kind: each target sends what its user messages take.
    sources.push(crate::common::transcript::with_user_media());
    let mut keyed = Map::new();
    for target in crate::venv::keyed() {
        let histories: Vec<Value> = sources
            .iter()
            .map(|t| Value::Array(t.render(target.dialect()).messages))
            .collect();
        keyed.insert(target.sdk().key.to_owned(), Value::Array(histories));
    }
    let Some((ok, report)) = crate::venv::verdict(
        "tests/sdk/validate_histories.py",
        &Value::Object(keyed),
        "histories.json",
    ) else {
        return;
    };
    assert!(ok, "an SDK refused a moved history:\n{report}");
    assert!(
        report.contains("messages of the histories accepted"),
        "{report}"
    );
    let toolkit = toolkit();
    for (fixture, script) in crate::venv::validated_alone() {
        let dialect = fixture.dialect();
        let tools = toolkit.tools_for(dialect, ToolsOptions::default());
        let requests: Vec<Value> = sources
            .iter()
            .map(|t| {
                let tools = serde_json::to_value(&tools).unwrap();
                fixture.request(t.render(dialect).messages, Some(tools))
            })
            .collect();
        let file = format!("histories_{}.json", fixture.sdk().key);
        let (ok, report) = crate::venv::validate_alone(fixture, script, &requests, None, &file)
            .expect("Python was there a moment ago");
        assert!(ok, "{script} refused a moved history:\n{report}");
    }
}

/// The history validator refuses what the providers would, in user messages and in the model's
/// turns alike.
#[test]
fn the_history_validator_refuses_what_the_providers_would() {
    let wrong = serde_json::json!({
        "openai_chat": [[{"role": "system", "content": "x", "extra": 1},
                         {"role": "assistant", "content": null, "tool_calls": []}]],
        "openai_responses": [[{"role": "user", "content": "x", "name": "me"}]],
        "anthropic": [[{"role": "user", "content": [{"type": "image_url", "url": "x"}]}]],
        "gemini": [[{"role": "user", "parts": [{"image": "x"}]}]],
        "cohere": [[{"role": "user", "content": [{"type": "image", "image": "x"}]}]],
    });
    let Some((ok, report)) = crate::venv::verdict(
        "tests/sdk/validate_histories.py",
        &wrong,
        "histories_wrong.json",
    ) else {
        return;
    };
    assert!(!ok, "{report}");
    for place in [
        "openai_chat[0][0]",
        "empty `tool_calls`",
        "openai_responses[0][0]",
        "anthropic[0][0]",
        "gemini[0][0]",
        "cohere[0][0]",
    ] {
        assert!(report.contains(place), "{place} not refused:\n{report}");
    }
}
