//! The provider examples end to end, offline: for each dialect the loop talks HTTP to a scripted
//! server of that dialect, which checks the URL, the headers, the tools' envelope and that the
//! second request carries both results; the conversation it returns can go on.

#[allow(dead_code)] // `main` and the real-endpoint path are the examples', not the test's
#[path = "../provider/mod.rs"]
mod provider;

use serde_json::json;
use toolnexus::{Dialect, NativeTool, Toolkit};

const DIALECTS: [Dialect; 4] = [
    Dialect::OpenAiChat,
    Dialect::OpenAiResponses,
    Dialect::Anthropic,
    Dialect::Gemini,
];

#[tokio::test]
async fn each_provider_example_answers_two_calls_over_http_and_keeps_the_conversation() {
    let toolkit = provider::toolkit().unwrap();
    for dialect in DIALECTS {
        let (answer, history) =
            provider::scripted::run_offline(dialect, &toolkit, provider::QUESTION)
                .await
                .unwrap_or_else(|e| panic!("{dialect}: {e}"));
        assert_eq!(answer, provider::scripted::FINAL_ANSWER, "{dialect}");
        // The question first, the final answer last: the whole conversation is kept.
        assert_eq!(
            history[0],
            dialect.user_message(provider::QUESTION),
            "{dialect}"
        );
        assert!(
            history
                .last()
                .unwrap()
                .to_string()
                .contains(provider::scripted::FINAL_ANSWER),
            "{dialect}: {history:?}"
        );
    }
}

#[tokio::test]
async fn a_wrong_header_or_result_is_refused_by_the_scripted_server() {
    let schema = json!({"type": "object", "properties": {}});
    let weather = NativeTool::of("get_weather", "Weather", schema.clone(), |_| async {
        "Paris: 18°C, sunny"
    })
    .unwrap();
    let add = NativeTool::of("add", "Adds", schema, |_| async { "6" }).unwrap();
    let toolkit = Toolkit::new().with(weather).unwrap().with(add).unwrap();
    for dialect in DIALECTS {
        let err = provider::scripted::run_offline(dialect, &toolkit, provider::QUESTION)
            .await
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("expected the two tool results"),
            "{dialect}: {err}"
        );
    }
    // A provider whose key goes in the wrong header.
    let (base_url, server) = provider::scripted::start(Dialect::Anthropic).await.unwrap();
    let wrong = provider::Provider {
        dialect: Dialect::OpenAiChat,
        base_url,
        api_key: "test-key".into(),
        model: "m".into(),
    };
    let toolkit = provider::toolkit().unwrap();
    assert!(provider::run(&wrong, &toolkit, "hi").await.is_err());
    let verdict = server.await.unwrap().unwrap_err();
    assert!(
        verdict.contains("expected a POST to /v1/messages"),
        "{verdict}"
    );
}
