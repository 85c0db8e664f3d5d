//! The conversation around the calls: the model's text answer in its turn, and the user's next
//! message.

use serde_json::{json, Value};

use crate::values::media::Media;

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

/// A `user` content: a `text` part, then an `inlineData` part per image or file.
pub(crate) fn user_message(text: &str, media: &[Media]) -> Value {
    let mut parts = vec![json!({"text": text})];
    parts.extend(media.iter().map(super::calls::inline_data));
    json!({"role": "user", "parts": parts})
}
