//! `tool_choice` and `parallel_tool_calls` in OpenAI's two formats, as the openai SDK types
//! them: Chat Completions' `ChatCompletionToolChoiceOptionParam` (a string,
//! `ChatCompletionNamedToolChoiceParam`, `ChatCompletionAllowedToolChoiceParam`) and the
//! Responses API's `ToolChoice` (`ToolChoiceOptions`, `ToolChoiceFunctionParam`,
//! `ToolChoiceAllowedParam`). Both express every choice.

use serde_json::{json, Map, Value};

use crate::wire::choice::{Pick, ToolChoice};
use crate::wire::member;

/// Chat Completions: a named function is `{"type": "function", "function": {"name"}}`, an
/// allowed subset `{"type": "allowed_tools", "allowed_tools": {"mode", "tools"}}`.
pub(crate) fn chat(choice: &ToolChoice) -> Map<String, Value> {
    let function = |name: &str| json!({"type": "function", "function": {"name": name}});
    let value = match choice.pick() {
        Pick::Tool(name) => function(name),
        Pick::Among { names, required } => json!({"type": "allowed_tools", "allowed_tools": {
            "mode": mode(*required),
            "tools": names.iter().map(|name| function(name)).collect::<Vec<_>>(),
        }}),
        pick => option(pick),
    };
    with_parallel(member("tool_choice", value), choice)
}

/// The Responses API: a named function is `{"type": "function", "name"}`, an allowed subset
/// `{"type": "allowed_tools", "mode", "tools"}`.
pub(crate) fn responses(choice: &ToolChoice) -> Map<String, Value> {
    let function = |name: &str| json!({"type": "function", "name": name});
    let value = match choice.pick() {
        Pick::Tool(name) => function(name),
        Pick::Among { names, required } => json!({
            "type": "allowed_tools",
            "mode": mode(*required),
            "tools": names.iter().map(|name| function(name)).collect::<Vec<_>>(),
        }),
        pick => option(pick),
    };
    with_parallel(member("tool_choice", value), choice)
}

/// `"auto"`, `"none"` or `"required"`: the string both formats take.
fn option(pick: &Pick) -> Value {
    match pick {
        Pick::None => "none",
        Pick::Required => "required",
        _ => "auto",
    }
    .into()
}

/// An allowed subset's `mode`.
fn mode(required: bool) -> &'static str {
    if required {
        "required"
    } else {
        "auto"
    }
}

/// `members` with `"parallel_tool_calls": false` after them for one call at a time.
fn with_parallel(mut members: Map<String, Value>, choice: &ToolChoice) -> Map<String, Value> {
    if choice.is_one_at_a_time() {
        members.insert("parallel_tool_calls".into(), Value::Bool(false));
    }
    members
}
