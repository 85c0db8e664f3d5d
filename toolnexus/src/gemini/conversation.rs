//! The conversation around the calls: the model's text answer in its turn, and the user's next
//! message.

use serde_json::{json, Value};

use crate::values::media::{Media, MediaSupport};

/// The text of a model turn: its `text` parts that are not thoughts.
pub(crate) fn text(model_turn: &[Value]) -> String {
    model_turn
        .iter()
        .filter_map(|content| content.get("parts").and_then(Value::as_array))
        .flatten()
        .filter(|part| part.get("thought").and_then(Value::as_bool) != Some(true))
        .filter_map(|part| part.get("text").and_then(Value::as_str))
        .collect()
}

/// What a Gemini `user` content takes as `inlineData`: the image, audio, video and document
/// types Gemini's media guides list (image, audio, video and document understanding).
pub(crate) const USER_MEDIA: MediaSupport = MediaSupport {
    images: &[
        "image/png",
        "image/jpeg",
        "image/webp",
        "image/heic",
        "image/heif",
    ],
    documents: &[
        "application/pdf",
        "text/plain",
        "text/html",
        "text/csv",
        "text/markdown",
        "text/xml",
        "text/rtf",
        "video/mp4",
        "video/mpeg",
        "video/mov",
        "video/avi",
        "video/x-flv",
        "video/mpg",
        "video/webm",
        "video/wmv",
        "video/3gpp",
    ],
    any_document: false,
    text_must_be_utf8: false,
    audio: &[
        "audio/wav",
        "audio/mp3",
        "audio/aiff",
        "audio/aac",
        "audio/ogg",
        "audio/flac",
    ],
};

/// A `user` content: a `text` part, then an `inlineData` part per image or file.
pub(crate) fn user_message(text: &str, media: &[Media]) -> Value {
    let mut parts = vec![json!({"text": text})];
    parts.extend(media.iter().map(super::calls::inline_data));
    json!({"role": "user", "parts": parts})
}
