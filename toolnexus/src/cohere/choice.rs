//! `tool_choice` in Cohere v2 Chat, as the cohere SDK types it (`V2ChatRequestToolChoice`:
//! `"REQUIRED"` or `"NONE"`; left out, the model chooses). It has no member for a named tool,
//! an allowed subset or one call at a time.

use serde_json::{Map, Value};

use crate::values::error::Error;
use crate::wire::choice::{
    unsupported, Pick, ToolChoice, AN_ALLOWED_SUBSET, DROP_ONE_AT_A_TIME, ONE_AT_A_TIME,
    SEND_THE_SUBSET,
};
use crate::wire::member;

/// What the refusal of a named tool says the model was asked for.
const A_NAMED_TOOL: &str = "one named tool";
/// What to do instead of a named tool.
const SEND_THAT_TOOL: &str = "send only that tool (`Toolkit::select`) with \
     `ToolChoice::required()`";

/// Nothing for `auto` (Cohere's default), `{"tool_choice": "REQUIRED"}`,
/// `{"tool_choice": "NONE"}`.
pub(crate) fn tool_choice(
    api: &'static str,
    choice: &ToolChoice,
) -> Result<Map<String, Value>, Error> {
    let members = match choice.pick() {
        Pick::Auto => Map::new(),
        Pick::Required => member("tool_choice", "REQUIRED".into()),
        Pick::None => member("tool_choice", "NONE".into()),
        Pick::Tool(_) => return Err(unsupported(api, A_NAMED_TOOL, SEND_THAT_TOOL)),
        Pick::Among { .. } => return Err(unsupported(api, AN_ALLOWED_SUBSET, SEND_THE_SUBSET)),
    };
    // No call at all is one at a time too.
    if choice.is_one_at_a_time() && !matches!(choice.pick(), Pick::None) {
        return Err(unsupported(api, ONE_AT_A_TIME, DROP_ONE_AT_A_TIME));
    }
    Ok(members)
}
