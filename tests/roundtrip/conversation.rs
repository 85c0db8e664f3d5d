//! The conversation around the calls (issue 26): the model's text answer in every dialect
//! (`Turn::text`), the user's next message (`Dialect::user_message`), and the calls of a turn
//! keeping the arguments the model sent.

use serde_json::{json, Value};
use toolnexus::{Arguments, Dialect, Media, NativeTool, Toolkit};

use crate::common::dialects;

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

#[tokio::test]
async fn the_final_answer_is_read_in_every_dialect_without_thinking() {
    let toolkit = toolkit();
    // A final answer with reasoning or thinking around it, in parts where the format has them.
    let text = "Sunny, 21 °C.";
    for fixture in dialects::ALL {
        let dialect = fixture.dialect();
        let turn = toolkit
            .respond(&fixture.text_only(text), dialect)
            .await
            .unwrap();
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
    for fixture in dialects::ALL {
        let dialect = fixture.dialect();
        assert_eq!(
            dialect.user_message(text),
            fixture.user_message(text),
            "{dialect}"
        );
    }
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
    // Converse's blocks carry the format and the bytes; a document's name keeps the
    // characters Converse allows.
    assert_eq!(
        Dialect::Bedrock.user_message_with_media(text, &both),
        json!({"role": "user", "content": [
            {"text": text},
            {"image": {"format": "png", "source": {"bytes": "cG5n"}}},
            {"document": {"format": "pdf", "name": "a pdf", "source": {"bytes": "cGRm"}}}]})
    );
    // Cohere's message takes images; a file is named in a note after the text, its bytes left
    // out.
    assert_eq!(
        Dialect::Cohere.user_message_with_media(text, &both),
        json!({"role": "user", "content": [
            {"type": "text", "text": "Weather in Paris?\n(a file that cannot be shown here: `a.pdf`, application/pdf, 3 bytes)"},
            {"type": "image_url", "image_url": {"url": "data:image/png;base64,cG5n"}}]})
    );
    // Any dialect: a type its user messages do not take is a note, never a block the provider
    // refuses (a zip archive as an Anthropic `document` is a 400).
    let zip = Media::file("application/zip", b"zip".to_vec(), "d.zip");
    assert_eq!(
        Dialect::Anthropic.user_message_with_media(text, &[zip]),
        json!({"role": "user", "content":
            "Weather in Paris?\n(a file that cannot be shown here: `d.zip`, application/zip, 3 bytes)"})
    );
}
