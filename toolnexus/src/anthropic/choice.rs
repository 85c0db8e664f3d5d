//! `tool_choice` in the Messages API, as the anthropic SDK types it (`ToolChoiceParam`:
//! `ToolChoiceAutoParam`, `ToolChoiceAnyParam`, `ToolChoiceToolParam`, `ToolChoiceNoneParam`,
//! the first three with `disable_parallel_tool_use`). It has no allowed subset.

use serde_json::{Map, Value};

use crate::values::error::Error;
use crate::wire::choice::{unsupported, Pick, ToolChoice, AN_ALLOWED_SUBSET, SEND_THE_SUBSET};
use crate::wire::member;

/// `{"tool_choice": {"type", "name"?, "disable_parallel_tool_use"?}}`.
pub(crate) fn tool_choice(
    api: &'static str,
    choice: &ToolChoice,
) -> Result<Map<String, Value>, Error> {
    let mut object = Map::with_capacity(3);
    let kind = match choice.pick() {
        Pick::Auto => "auto",
        Pick::None => "none",
        Pick::Required => "any",
        Pick::Tool(_) => "tool",
        Pick::Among { .. } => return Err(unsupported(api, AN_ALLOWED_SUBSET, SEND_THE_SUBSET)),
    };
    object.insert("type".into(), kind.into());
    if let Pick::Tool(name) = choice.pick() {
        object.insert("name".into(), name.as_str().into());
    }
    if choice.is_one_at_a_time() {
        object.insert("disable_parallel_tool_use".into(), Value::Bool(true));
    }
    Ok(member("tool_choice", Value::Object(object)))
}
