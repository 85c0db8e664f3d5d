//! The conversation around the calls, for both OpenAI APIs: the model's text answer in its
//! turn, and the user's next message.

use serde_json::{json, Value};

use crate::values::media::{Media, MediaSupport, WEB_IMAGES};

/// What a Chat Completions `user` message takes: the web image types (`image_url`) and PDF
/// (`file`), as OpenAI's file inputs guide lists them.
pub(crate) const CHAT_USER_MEDIA: MediaSupport = MediaSupport {
    images: WEB_IMAGES,
    documents: &["application/pdf"],
    any_document: false,
    text_must_be_utf8: false,
    audio: &[],
};

/// A Chat Completions `user` message: `content` as text, or parts (`text`, `image_url` with a
/// data URL, `file` with its name and a data URL) when there are media.
pub(crate) fn chat_user_message(text: &str, media: &[Media]) -> Value {
    if media.is_empty() {
        return json!({"role": "user", "content": text});
    }
    let mut parts = vec![json!({"type": "text", "text": text})];
    parts.extend(media.iter().map(|m| {
        if m.is_image() {
            json!({"type": "image_url", "image_url": {"url": m.data_url()}})
        } else {
            let name = m.name().map_or_else(|| m.default_name(), str::to_owned);
            json!({"type": "file", "file": {"filename": name, "file_data": m.data_url()}})
        }
    }));
    json!({"role": "user", "content": parts})
}

/// The text of a Responses model turn: the `output_text` parts of its `message` items.
pub(crate) fn responses_text(model_turn: &[Value]) -> String {
    model_turn
        .iter()
        .filter(|item| item.get("type").and_then(Value::as_str) == Some("message"))
        .filter_map(|item| item.get("content").and_then(Value::as_array))
        .flatten()
        .filter(|part| part.get("type").and_then(Value::as_str) == Some("output_text"))
        .filter_map(|part| part.get("text").and_then(Value::as_str))
        .collect()
}

/// A Responses `user` input item: `content` as text, or `input_text`, `input_image` (with
/// `detail: "auto"`) and `input_file` parts when there are media.
pub(crate) fn responses_user_message(text: &str, media: &[Media]) -> Value {
    if media.is_empty() {
        return json!({"role": "user", "content": text});
    }
    let mut parts = vec![json!({"type": "input_text", "text": text})];
    parts.extend(media.iter().map(|m| {
        let mut item = super::responses::input_item(m);
        // In a user message an image names its detail (`auto`: the model's choice).
        if let (true, Value::Object(item)) = (m.is_image(), &mut item) {
            item.insert("detail".into(), "auto".into());
        }
        item
    }));
    json!({"role": "user", "content": parts})
}
