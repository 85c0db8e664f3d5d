//! The conversation around the calls (issue 26): the model's text answer in every dialect
//! (`Turn::text`), the user's next message (`Dialect::user_message`), and the calls of a turn
//! keeping the arguments the model sent.

use serde_json::{json, Value};
use toolnexus::{Arguments, Dialect, Media, NativeTool, Toolkit};

fn toolkit() -> Toolkit {
    let echo = NativeTool::of(
        "echo",
        "Echoes",
        json!({"type": "object"}),
        |args: Value| async move { args.to_string() },
    )
    .unwrap();
    Toolkit::new().with(echo).unwrap()
}

/// A final answer with reasoning or thinking around it, in each dialect, and its text.
fn answers() -> Vec<(Dialect, Value, &'static str)> {
    vec![
        (
            Dialect::OpenAiChat,
            json!({"choices": [{"index": 0, "finish_reason": "stop", "message":
                {"role": "assistant", "content": "Sunny, 21 °C."}}]}),
            "Sunny, 21 °C.",
        ),
        (
            Dialect::OpenAiResponses,
            json!({"id": "r", "status": "completed", "output": [
                {"type": "reasoning", "id": "rs", "summary": [{"type": "summary_text", "text": "hm"}]},
                {"type": "message", "id": "m", "role": "assistant", "status": "completed",
                 "content": [{"type": "output_text", "text": "Sunny, ", "annotations": []},
                             {"type": "output_text", "text": "21 °C.", "annotations": []}]}]}),
            "Sunny, 21 °C.",
        ),
        (
            Dialect::Anthropic,
            json!({"type": "message", "role": "assistant", "stop_reason": "end_turn", "content": [
                {"type": "thinking", "thinking": "hm", "signature": "s"},
                {"type": "text", "text": "Sunny, 21 °C."}]}),
            "Sunny, 21 °C.",
        ),
        (
            Dialect::Gemini,
            json!({"candidates": [{"finishReason": "STOP", "content": {"role": "model", "parts": [
                {"text": "hm", "thought": true}, {"text": "Sunny, "}, {"text": "21 °C."}]}}]}),
            "Sunny, 21 °C.",
        ),
        (
            Dialect::Cohere,
            json!({"id": "r", "finish_reason": "COMPLETE", "message": {"role": "assistant",
                "content": [{"type": "thinking", "thinking": "hm"},
                            {"type": "text", "text": "Sunny, "}, {"type": "text", "text": "21 °C."}]}}),
            "Sunny, 21 °C.",
        ),
    ]
}

#[tokio::test]
async fn the_final_answer_is_read_in_every_dialect_without_thinking() {
    let toolkit = toolkit();
    for (dialect, response, text) in answers() {
        let turn = toolkit.respond(&response, dialect).await.unwrap();
        assert!(turn.is_final(), "{dialect}");
        assert_eq!(turn.text(), text, "{dialect}");
        assert_eq!(turn.dialect(), dialect);
    }
    // Chat content given as parts.
    let parts = json!({"choices": [{"finish_reason": "stop", "message": {"role": "assistant",
        "content": [{"type": "text", "text": "a"}, {"type": "refusal", "refusal": "x"},
                    {"type": "text", "text": "b"}]}}]});
    let turn = toolkit.respond(&parts, Dialect::OpenAiChat).await.unwrap();
    assert_eq!(turn.text(), "ab");
    // Text beside calls; no text at all.
    let beside = json!({"type": "message", "role": "assistant", "stop_reason": "tool_use",
        "content": [{"type": "text", "text": "Let me check."},
                    {"type": "tool_use", "id": "t1", "name": "echo", "input": {"a": 1}}]});
    let turn = toolkit.respond(&beside, Dialect::Anthropic).await.unwrap();
    assert_eq!(turn.text(), "Let me check.");
    let silent = json!({"choices": [{"finish_reason": "tool_calls", "message": {"role": "assistant",
        "content": null, "tool_calls": [{"id": "c", "type": "function",
            "function": {"name": "echo", "arguments": "{}"}}]}}]});
    let turn = toolkit.respond(&silent, Dialect::OpenAiChat).await.unwrap();
    assert_eq!(turn.text(), "");
}

#[tokio::test]
async fn a_turn_keeps_the_arguments_the_model_sent() {
    let toolkit = toolkit();
    let chat = json!({"choices": [{"finish_reason": "tool_calls", "message": {"role": "assistant",
        "tool_calls": [{"id": "c", "type": "function",
            "function": {"name": "echo", "arguments": "{\"city\": \"Paris\"}"}}]}}]});
    let turn = toolkit.respond(&chat, Dialect::OpenAiChat).await.unwrap();
    assert_eq!(
        turn.calls[0].arguments,
        Arguments::Text("{\"city\": \"Paris\"}".into())
    );
    assert_eq!(turn.results[0].output, r#"{"city":"Paris"}"#);
    let gemini = json!({"candidates": [{"finishReason": "STOP", "content": {"role": "model",
        "parts": [{"functionCall": {"name": "echo", "args": {"n": 2.0}}}]}}]});
    let turn = toolkit.respond(&gemini, Dialect::Gemini).await.unwrap();
    assert_eq!(turn.calls[0].arguments, Arguments::Value(json!({"n": 2.0})));
}

#[test]
fn the_users_next_message_in_every_dialect() {
    let text = "Weather in Paris?";
    for dialect in [
        Dialect::OpenAiChat,
        Dialect::OpenAiResponses,
        Dialect::Anthropic,
        Dialect::Cohere,
    ] {
        assert_eq!(
            dialect.user_message(text),
            json!({"role": "user", "content": text})
        );
    }
    assert_eq!(
        Dialect::Gemini.user_message(text),
        json!({"role": "user", "parts": [{"text": text}]})
    );
    let png = Media::image("image/png", b"png".to_vec());
    let pdf = Media::file("application/pdf", b"pdf".to_vec(), "a.pdf");
    let both = [png, pdf];
    assert_eq!(
        Dialect::OpenAiChat.user_message_with_media(text, &both),
        json!({"role": "user", "content": [
            {"type": "text", "text": text},
            {"type": "image_url", "image_url": {"url": "data:image/png;base64,cG5n"}},
            {"type": "file", "file": {"filename": "a.pdf", "file_data": "data:application/pdf;base64,cGRm"}}]})
    );
    assert_eq!(
        Dialect::OpenAiResponses.user_message_with_media(text, &both),
        json!({"role": "user", "content": [
            {"type": "input_text", "text": text},
            {"type": "input_image", "image_url": "data:image/png;base64,cG5n", "detail": "auto"},
            {"type": "input_file", "filename": "a.pdf", "file_data": "data:application/pdf;base64,cGRm"}]})
    );
    assert_eq!(
        Dialect::Anthropic.user_message_with_media(text, &both),
        json!({"role": "user", "content": [
            {"type": "text", "text": text},
            {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "cG5n"}},
            {"type": "document", "source": {"type": "base64", "media_type": "application/pdf",
                "data": "cGRm"}, "title": "a.pdf"}]})
    );
    assert_eq!(
        Dialect::Gemini.user_message_with_media(text, &both),
        json!({"role": "user", "parts": [
            {"text": text},
            {"inlineData": {"mimeType": "image/png", "data": "cG5n"}},
            {"inlineData": {"mimeType": "application/pdf", "data": "cGRm", "displayName": "a.pdf"}}]})
    );
    // Cohere's message takes images; a file is named in a note, its bytes left out.
    assert_eq!(
        Dialect::Cohere.user_message_with_media(text, &both),
        json!({"role": "user", "content": [
            {"type": "text", "text": text},
            {"type": "image_url", "image_url": {"url": "data:image/png;base64,cG5n"}},
            {"type": "text", "text": "(a file that cannot be shown here: `a.pdf`, application/pdf, 3 bytes)"}]})
    );
}
