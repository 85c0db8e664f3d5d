//! `toolConfig.functionCallingConfig` in `generateContent`, as google-genai types it
//! (`types.FunctionCallingConfig`: `mode` of `FunctionCallingConfigMode`,
//! `allowedFunctionNames`, which the modes `ANY` and `VALIDATED` take). It has no member for
//! one call at a time.

use serde_json::{json, Map, Value};

use crate::values::error::Error;
use crate::wire::choice::{unsupported, Pick, ToolChoice, DROP_ONE_AT_A_TIME, ONE_AT_A_TIME};
use crate::wire::member;

/// `{"toolConfig": {"functionCallingConfig": {"mode", "allowedFunctionNames"?}}}`: a named
/// tool is `ANY` with its one name; an allowed subset is `ANY` (a call required) or
/// `VALIDATED` (text or a call) with its names.
pub(crate) fn tool_choice(
    api: &'static str,
    choice: &ToolChoice,
) -> Result<Map<String, Value>, Error> {
    if choice.is_one_at_a_time() {
        return Err(unsupported(api, ONE_AT_A_TIME, DROP_ONE_AT_A_TIME));
    }
    let config = match choice.pick() {
        Pick::Auto => json!({"mode": "AUTO"}),
        Pick::None => json!({"mode": "NONE"}),
        Pick::Required => json!({"mode": "ANY"}),
        Pick::Tool(name) => json!({"mode": "ANY", "allowedFunctionNames": [name]}),
        Pick::Among { names, required } => json!({
            "mode": if *required { "ANY" } else { "VALIDATED" },
            "allowedFunctionNames": names,
        }),
    };
    Ok(member(
        "toolConfig",
        json!({"functionCallingConfig": config}),
    ))
}
