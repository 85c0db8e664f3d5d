//! What a Cohere tool result takes beside its text (nothing), the text of a model turn, and
//! the user's next message.

use serde_json::{json, Value};

use crate::values::media::{Media, MediaSupport};
use crate::values::text::echo;

/// A Cohere `tool` message's content is text or documents (`ToolContent` in the cohere SDK:
/// `text`, `document` with JSON `data`): no image or file can go there.
pub(crate) const MEDIA: MediaSupport = MediaSupport {
    images: &[],
    documents: &[],
    any_document: false,
    text_must_be_utf8: false,
};

/// The text of a model turn: its `content` as a string, or the `text` of its `text` items
/// (`thinking` is not part of the answer).
pub(crate) fn text(model_turn: &[Value]) -> String {
    let mut text = String::new();
    for message in model_turn {
        match message.get("content") {
            Some(Value::String(content)) => text.push_str(content),
            Some(Value::Array(items)) => items
                .iter()
                .filter(|i| i.get("type").and_then(Value::as_str) == Some("text"))
                .filter_map(|i| i.get("text").and_then(Value::as_str))
                .for_each(|t| text.push_str(t)),
            _ => {}
        }
    }
    text
}

/// A `user` message: `content` as text, or a `text` item, then an `image_url` item (a data URL)
/// per image and a `text` note per file, which a Cohere message cannot carry (`Content` in
/// the cohere SDK: `text`, `image_url`).
pub(crate) fn user_message(text: &str, media: &[Media]) -> Value {
    if media.is_empty() {
        return json!({"role": "user", "content": text});
    }
    let mut content = vec![json!({"type": "text", "text": text})];
    content.extend(media.iter().map(|m| {
        if m.is_image() {
            json!({"type": "image_url", "image_url": {"url": m.data_url()}})
        } else {
            let name = m.name().map_or_else(|| m.default_name(), str::to_owned);
            let note = format!(
                "(a file that cannot be shown here: `{}`, {}, {} bytes)",
                echo(&name),
                echo(m.mime_type()),
                m.len()
            );
            json!({"type": "text", "text": note})
        }
    }));
    json!({"role": "user", "content": content})
}
