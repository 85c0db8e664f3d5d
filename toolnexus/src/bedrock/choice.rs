//! `toolConfig.toolChoice` in Converse, as botocore's `bedrock-runtime` model has it (the
//! union `ToolChoice`: `auto` (`AutoToolChoice`, empty), `any` (`AnyToolChoice`, empty),
//! `tool` (`SpecificToolChoice`: `name`)). It has no member for `none`, for an allowed
//! subset or for one call at a time.

use serde_json::{json, Map, Value};

use crate::values::error::Error;
use crate::wire::choice::{
    unsupported, Pick, ToolChoice, AN_ALLOWED_SUBSET, DROP_ONE_AT_A_TIME, NO_TOOL, ONE_AT_A_TIME,
    SEND_THE_SUBSET,
};
use crate::wire::member;

/// What to do instead of `none`: Converse needs `toolConfig` while the messages hold tool use.
const LEAVE_THE_TOOLS_OUT: &str = "for a text answer send the request without `toolConfig` \
     (Converse needs it while the messages hold tool use or results: then use \
     `ToolChoice::auto()` and ask for text in the prompt)";

/// `{"toolConfig": {"toolChoice": {"auto": {}} | {"any": {}} | {"tool": {"name"}}}}` (a named
/// tool: Anthropic's Claude 3 and later and Amazon Nova models, as the model's documentation
/// says).
pub(crate) fn tool_choice(
    api: &'static str,
    choice: &ToolChoice,
) -> Result<Map<String, Value>, Error> {
    let tool_choice = match choice.pick() {
        Pick::Auto => json!({"auto": {}}),
        Pick::Required => json!({"any": {}}),
        Pick::Tool(name) => json!({"tool": {"name": name}}),
        Pick::None => return Err(unsupported(api, NO_TOOL, LEAVE_THE_TOOLS_OUT)),
        Pick::Among { .. } => return Err(unsupported(api, AN_ALLOWED_SUBSET, SEND_THE_SUBSET)),
    };
    if choice.is_one_at_a_time() {
        return Err(unsupported(api, ONE_AT_A_TIME, DROP_ONE_AT_A_TIME));
    }
    Ok(member("toolConfig", json!({"toolChoice": tool_choice})))
}
