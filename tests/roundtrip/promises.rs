//! Issue 24, points 10 and 11: documented promises about responses, names and media that had no
//! test, each tested exactly as the guides word them (`toolnexus/docs/errors.md`,
//! `security.md`, `media.md`; these were README's sections before issue 26).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use serde_json::{json, Value};
use toolnexus::{Dialect, NativeTool, ResponseError, ToolResult, Toolkit};

use crate::common::dialects::{self, Call};

/// A toolkit whose `count` tool counts its runs, and `shot`, which returns `bytes` bytes of PNG.
fn toolkit() -> (Toolkit, Arc<AtomicUsize>) {
    let runs = Arc::new(AtomicUsize::new(0));
    let counter = Arc::clone(&runs);
    let count = NativeTool::of(
        "count",
        "Counts its runs",
        json!({"type": "object", "properties": {}}),
        move |_| {
            let n = counter.fetch_add(1, Ordering::SeqCst);
            async move { n.to_string() }
        },
    )
    .unwrap();
    let shot = NativeTool::of(
        "shot",
        "An image of `bytes` bytes",
        json!({"type": "object", "properties": {"bytes": {"type": "integer"}}}),
        |args| async move {
            let bytes = args["bytes"].as_u64().unwrap_or(0) as usize;
            ToolResult::ok("shot").with_image("image/png", vec![0u8; bytes])
        },
    )
    .unwrap();
    let toolkit = Toolkit::new().with(count).unwrap().with(shot).unwrap();
    (toolkit, runs)
}

/// A valid response of `dialect` with one call to `count`.
fn one_call(dialect: Dialect) -> Value {
    dialects::of(dialect).response(&[Call::new("c1", "count", json!({}))])
}

/// errors.md: `Stopped` covers Responses `status: "incomplete"` for `content_filter`, and
/// `"cancelled"`; nothing runs.
#[tokio::test]
async fn a_cancelled_responses_turn_is_stopped_and_runs_nothing() {
    let (toolkit, runs) = toolkit();
    let mut cancelled = one_call(Dialect::OpenAiResponses);
    cancelled["status"] = json!("cancelled");
    let mut filtered = one_call(Dialect::OpenAiResponses);
    filtered["status"] = json!("incomplete");
    filtered["incomplete_details"] = json!({"reason": "content_filter"});
    for (response, reason) in [
        (cancelled, "`status` is `cancelled`"),
        (filtered, "`status` is `incomplete`: content_filter"),
    ] {
        let err = toolkit
            .respond(&response, Dialect::OpenAiResponses)
            .await
            .unwrap_err();
        assert!(
            matches!(&err, ResponseError::Stopped { reason: r, .. } if r == reason),
            "{err:?}"
        );
        let turn = Dialect::OpenAiResponses.model_turn(&response).unwrap_err();
        assert_eq!(turn, err, "model_turn gives the same error");
    }
    assert_eq!(runs.load(Ordering::SeqCst), 0);
}

/// errors.md: `Provider` is an `error` with a message, a code or `true`, or Responses
/// `status: "failed"`; `"error": null`, `false`, `{}` or `""` beside a valid response is no
/// error.
#[tokio::test]
async fn a_provider_error_in_any_form_is_provider_and_runs_nothing() {
    let (toolkit, runs) = toolkit();
    let errors = [
        json!(true),
        json!({"code": "x"}),
        json!({"code": 429}),
        json!(500),
        json!({"message": "overloaded"}),
        json!("overloaded"),
    ];
    for dialect in Dialect::ALL {
        for error in &errors {
            let mut response = one_call(dialect);
            response["error"] = error.clone();
            let err = toolkit.respond(&response, dialect).await.unwrap_err();
            assert!(
                matches!(err, ResponseError::Provider { dialect: d, .. } if d == dialect),
                "{dialect} with error {error}: {err:?}"
            );
        }
        for no_error in [json!(null), json!(false), json!({}), json!("")] {
            let mut response = one_call(dialect);
            response["error"] = no_error.clone();
            let turn = toolkit.respond(&response, dialect).await;
            assert!(turn.is_ok(), "{dialect} with error {no_error}: {turn:?}");
        }
    }
    let runs_so_far = runs.load(Ordering::SeqCst);
    assert_eq!(
        runs_so_far,
        4 * Dialect::ALL.len(),
        "only the responses without an error ran"
    );
    // `failed` without an error object.
    let mut failed = one_call(Dialect::OpenAiResponses);
    failed["status"] = json!("failed");
    let err = toolkit
        .respond(&failed, Dialect::OpenAiResponses)
        .await
        .unwrap_err();
    assert!(matches!(err, ResponseError::Provider { .. }), "{err:?}");
    assert_eq!(runs.load(Ordering::SeqCst), runs_so_far);
}

/// security.md: a name no function can have, over 64 characters (or outside
/// `[A-Za-z0-9_.:-]`), is replaced by the same safe short name in the repeated model turn and
/// in the response; a name of exactly 64 allowed characters is a name and is kept.
#[tokio::test]
async fn gemini_keeps_a_64_character_name_and_shortens_a_65_character_one() {
    let (toolkit, _) = toolkit();
    let n64 = "n".repeat(64);
    let cases = [
        (n64.clone(), n64.clone()),
        ("n".repeat(65), n64.clone()),
        (
            format!("{}.:-_9", "n".repeat(59)),
            format!("{}.:-_9", "n".repeat(59)),
        ),
        (
            format!("{}é", "n".repeat(63)),
            format!("{}_", "n".repeat(63)),
        ),
    ];
    for (sent, wire) in cases {
        let response = json!({"candidates": [{"finishReason": "STOP", "content": {
            "role": "model", "parts": [{"functionCall": {"name": sent, "args": {}}}]}}]});
        let turn = toolkit.respond(&response, Dialect::Gemini).await.unwrap();
        let called = &turn.model_turn[0]["parts"][0]["functionCall"]["name"];
        let answered = &turn.result_messages[0]["parts"][0]["functionResponse"]["name"];
        assert_eq!((called, answered), (&json!(wire), &json!(wire)), "{sent}");
    }
}

/// media.md: `Limits` bounds media to 3 MiB per result and 12 MiB per turn by default (counted
/// before base64, in call order); a result past either becomes an error result that says so.
#[tokio::test]
async fn the_default_media_limits_are_3_mib_a_result_and_12_mib_a_turn() {
    let (toolkit, _) = toolkit();
    let mib = 1024 * 1024;
    let call = |i: usize, bytes: usize| json!({"type": "tool_use", "id": format!("c{i}"), "name": "shot", "input": {"bytes": bytes}});
    // Four results of exactly 3 MiB are exactly 12 MiB: all sent. One byte more is refused.
    let mut calls: Vec<Value> = (0..4).map(|i| call(i, 3 * mib)).collect();
    calls.push(call(4, 1));
    let response = json!({"type": "message", "role": "assistant", "stop_reason": "tool_use",
        "content": calls});
    let turn = toolkit
        .respond(&response, Dialect::Anthropic)
        .await
        .unwrap();
    for result in &turn.results[..4] {
        assert!(!result.is_error, "{}", result.output);
        assert_eq!(result.media.len(), 1);
    }
    assert_eq!(
        turn.results[4].output,
        format!(
            "the result of `shot` was not sent: its media (1 bytes) would bring this turn's media \
             to {} bytes, more than the {} bytes one turn may carry; call fewer tools that return \
             images or files at once",
            12 * mib + 1,
            12 * mib
        )
    );
    // One result of 3 MiB and one byte is past the per-result default.
    let response = json!({"type": "message", "role": "assistant", "stop_reason": "tool_use",
        "content": [call(0, 3 * mib + 1)]});
    let turn = toolkit
        .respond(&response, Dialect::Anthropic)
        .await
        .unwrap();
    assert_eq!(
        turn.results[0].output,
        format!(
            "the result of `shot` was not sent: its media total {} bytes, more than the {} bytes \
             one result may carry; return smaller or fewer images or files",
            3 * mib + 1,
            3 * mib
        )
    );
}

/// Point 11. Anthropic's `pause_turn` (a long turn paused, as server tools do) is not an
/// ending: the `tool_use` blocks it carries run, as for `tool_use`, and the paused turn is
/// repeated as it was sent.
#[tokio::test]
async fn an_anthropic_pause_turn_runs_its_calls() {
    let (toolkit, runs) = toolkit();
    let mut response = one_call(Dialect::Anthropic);
    response["stop_reason"] = json!("pause_turn");
    let turn = toolkit
        .respond(&response, Dialect::Anthropic)
        .await
        .unwrap();
    assert_eq!(runs.load(Ordering::SeqCst), 1);
    assert_eq!(turn.results, [ToolResult::ok("0")]);
    assert_eq!(
        turn.model_turn,
        [json!({"role": "assistant", "content": response["content"]})]
    );
    // Without calls the turn is final as far as tools go, though the model has not finished.
    let paused = json!({"type": "message", "role": "assistant", "stop_reason": "pause_turn",
        "content": [{"type": "text", "text": "Searching..."}]});
    let turn = toolkit.respond(&paused, Dialect::Anthropic).await.unwrap();
    assert!(turn.is_final());
    assert_eq!(
        turn.model_turn,
        [json!({"role": "assistant", "content": paused["content"]})]
    );
}
