//! Converse's content blocks for media, the media it takes, the text of a model turn, and the
//! user's next message.

use serde_json::{json, Value};

use crate::values::media::{Media, MediaSupport, WEB_IMAGES};

/// The MIME types a Converse `toolResult` takes: the image formats of `ImageBlock` and the
/// document formats of `DocumentBlock` (botocore's `bedrock-runtime` model).
pub(crate) const MEDIA: MediaSupport = MediaSupport {
    images: WEB_IMAGES,
    documents: &[
        "application/pdf",
        "text/csv",
        "application/msword",
        "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        "application/vnd.ms-excel",
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        "text/html",
        "text/plain",
        "text/markdown",
    ],
    any_document: false,
    text_must_be_utf8: false,
    audio: &[],
};

/// A medium as an `image` or `document` block: `{format, source: {bytes}}` (base64), a
/// document with its `name`.
pub(crate) fn block_of(media: &Media) -> Value {
    let mime = media.mime_type();
    let format = format(mime);
    if media.is_image() {
        return json!({"image": {"format": format, "source": {"bytes": media.base64()}}});
    }
    let name = name(media.name().unwrap_or("document"));
    json!({"document": {"format": format, "name": name, "source": {"bytes": media.base64()}}})
}

/// The MIME types `MEDIA` admits, with Converse's `format` for each.
const FORMATS: [(&str, &str); 13] = [
    ("image/png", "png"),
    ("image/jpeg", "jpeg"),
    ("image/gif", "gif"),
    ("image/webp", "webp"),
    ("text/csv", "csv"),
    ("application/msword", "doc"),
    (
        "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        "docx",
    ),
    ("application/vnd.ms-excel", "xls"),
    (
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        "xlsx",
    ),
    ("text/html", "html"),
    ("text/plain", "txt"),
    ("text/markdown", "md"),
    ("application/pdf", "pdf"),
];

/// Converse's `format` for a MIME type `MEDIA` admits.
fn format(mime: &str) -> &'static str {
    FORMATS
        .iter()
        .find(|(m, _)| *m == mime)
        .map_or("pdf", |(_, format)| format)
}

/// The MIME type of a Converse `format` (a history's image or document block).
pub(crate) fn mime_of(format: &str) -> Option<&'static str> {
    FORMATS
        .iter()
        .find(|(_, f)| *f == format)
        .map(|(mime, _)| *mime)
}

/// A document name as Converse takes it: alphanumerics, single spaces, `-`, `(`, `)`, `[`, `]`
/// (anything else becomes a space), at most 200 characters; `document` when nothing is left.
fn name(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for c in name.chars() {
        let c = if c.is_ascii_alphanumeric() || matches!(c, '-' | '(' | ')' | '[' | ']') {
            c
        } else {
            ' '
        };
        if !(c == ' ' && (out.is_empty() || out.ends_with(' '))) {
            out.push(c);
        }
        if out.len() >= 200 {
            break;
        }
    }
    let out = out.trim_end().to_owned();
    if out.is_empty() {
        "document".to_owned()
    } else {
        out
    }
}

/// The text of a model turn: its `text` blocks (reasoning is not part of the answer).
pub(crate) fn text(model_turn: &[Value]) -> String {
    model_turn
        .iter()
        .filter_map(|message| message.get("content").and_then(Value::as_array))
        .flatten()
        .filter_map(|block| block.get("text").and_then(Value::as_str))
        .collect()
}

/// A `user` message: a `text` block, then an `image` or `document` block per medium.
pub(crate) fn user_message(text: &str, media: &[Media]) -> Value {
    let mut content = vec![json!({"text": text})];
    content.extend(media.iter().map(block_of));
    json!({"role": "user", "content": content})
}

#[cfg(test)]
mod tests {
    use super::name;

    #[test]
    fn document_names_fit_what_converse_takes() {
        assert_eq!(name("report.pdf"), "report pdf");
        assert_eq!(name("  a__b  (1).csv"), "a b (1) csv");
        assert_eq!(name("..."), "document");
        assert_eq!(name(&"x".repeat(300)).len(), 200);
    }
}
