//! What a Cohere tool result takes beside its text (nothing), and the user's next message (the
//! text of a model turn is OpenAI Chat's: `wire::message_text`).

use serde_json::{json, Value};

use crate::values::media::{Media, MediaSupport, WEB_IMAGES};

/// A Cohere `tool` message's content is text or documents (`ToolContent` in the cohere SDK:
/// `text`, `document` with JSON `data`): no image or file can go there.
pub(crate) const MEDIA: MediaSupport = MediaSupport {
    images: &[],
    documents: &[],
    any_document: false,
    text_must_be_utf8: false,
    audio: &[],
};

/// A Cohere `user` message takes images (`Content` in the cohere SDK: `text`, `image_url`;
/// PNG, JPEG, WEBP and GIF, as Cohere's image inputs guide lists them), no file.
pub(crate) const USER_MEDIA: MediaSupport = MediaSupport {
    images: WEB_IMAGES,
    ..MEDIA
};

/// A `user` message: `content` as text, or a `text` item then an `image_url` item (a data URL)
/// per image (a file is a note in the text: `USER_MEDIA`).
pub(crate) fn user_message(text: &str, media: &[Media]) -> Value {
    if media.is_empty() {
        return json!({"role": "user", "content": text});
    }
    let mut content = vec![json!({"type": "text", "text": text})];
    content.extend(
        media
            .iter()
            .map(|m| json!({"type": "image_url", "image_url": {"url": m.data_url()}})),
    );
    json!({"role": "user", "content": content})
}
