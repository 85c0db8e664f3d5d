//! What a Cohere tool result takes beside its text (nothing), and the user's next message (the
//! text of a model turn is OpenAI Chat's: `wire::message_text`).

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
