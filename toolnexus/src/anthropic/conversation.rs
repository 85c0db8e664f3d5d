//! The conversation around the calls: the model's text answer in its turn, and the user's next
//! message.

use serde_json::{json, Value};

use crate::values::media::Media;

/// The text of a model turn: its `text` blocks (thinking is not part of the answer).
pub(crate) fn text(model_turn: &[Value]) -> String {
    model_turn
        .iter()
        .filter_map(|message| message.get("content").and_then(Value::as_array))
        .flatten()
        .filter(|block| block.get("type").and_then(Value::as_str) == Some("text"))
        .filter_map(|block| block.get("text").and_then(Value::as_str))
        .collect()
}

/// A `user` message: `content` as text, or a `text` block then `image` and `document` blocks
/// when there are media.
pub(crate) fn user_message(text: &str, media: &[Media]) -> Value {
    if media.is_empty() {
        return json!({"role": "user", "content": text});
    }
    let mut blocks = vec![json!({"type": "text", "text": text})];
    blocks.extend(media.iter().map(super::calls::media_block));
    json!({"role": "user", "content": blocks})
}
