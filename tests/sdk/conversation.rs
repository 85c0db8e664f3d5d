//! The user's next message (`Dialect::user_message_with_media`) in every dialect, judged by the
//! providers' official SDK request types (`tests/sdk/validate_user_messages.py`), and a control
//! case the validator must refuse.

use serde_json::{json, Map, Value};
use toolnexus::{Dialect, Media};

fn media() -> Vec<Media> {
    vec![
        Media::image("image/png", vec![0x89, b'P', b'N', b'G', 13, 10, 26, 10]),
        Media::file("application/pdf", b"%PDF-1.7 tiny".to_vec(), "report.pdf"),
    ]
}

#[test]
fn user_messages_with_and_without_media_are_accepted_by_every_official_sdk() {
    let messages = |dialect: Dialect| {
        vec![
            dialect.user_message("What is the weather in Paris?"),
            dialect.user_message_with_media("What does this chart show?", &media()[..1]),
            dialect.user_message_with_media("Summarize these.", &media()),
        ]
    };
    let mut all = Map::new();
    for fixture in crate::venv::keyed() {
        let sdk = fixture.sdk();
        all.insert(
            sdk.key.to_owned(),
            Value::Array(messages(fixture.dialect())),
        );
    }
    let Some((ok, report)) = crate::venv::verdict(
        "tests/sdk/validate_user_messages.py",
        &Value::Object(all.clone()),
        "user_messages.json",
    ) else {
        return;
    };
    assert!(ok, "the SDK types refused a user message:\n{report}");
    assert!(
        report.contains(&format!("{} user messages accepted", 3 * all.len())),
        "{report}"
    );
    // A dialect with a validator of its own: each message opens a request.
    for (fixture, script) in crate::venv::validated_alone() {
        let requests: Vec<Value> = messages(fixture.dialect())
            .into_iter()
            .map(|m| fixture.request(vec![m], None))
            .collect();
        let file = format!("user_messages_{}.json", fixture.sdk().key);
        let (ok, report) = crate::venv::validate_alone(fixture, script, &requests, None, &file)
            .expect("Python was there a moment ago");
        assert!(ok, "{script} refused a user message:\n{report}");
        assert!(report.contains("3 requests"), "{report}");
    }
}

/// The validator refuses what the providers would: a part type the SDK does not have, an
/// unknown key, a Gemini part field that does not exist.
#[test]
fn the_user_message_validator_refuses_what_the_providers_would() {
    let wrong = json!({
        "openai_chat": [{"role": "user", "content": [{"type": "input_text", "text": "x"}]}],
        "openai_responses": [{"role": "user", "content": "x", "name": "me"}],
        "anthropic": [{"role": "user", "content": [{"type": "image_url", "url": "x"}]}],
        "gemini": [{"role": "user", "parts": [{"image": "x"}]}],
        "cohere": [{"role": "user", "content": [{"type": "image", "image": "x"}]}],
    });
    let Some((ok, report)) = crate::venv::verdict(
        "tests/sdk/validate_user_messages.py",
        &wrong,
        "user_messages_wrong.json",
    ) else {
        return;
    };
    assert!(!ok, "{report}");
    for dialect in [
        "openai_chat[0]",
        "openai_responses[0]",
        "anthropic[0]",
        "gemini[0]",
        "cohere[0]",
    ] {
        assert!(report.contains(dialect), "{dialect} not refused:\n{report}");
    }
}
