//! Tool choice (issue 31), judged by the providers' official SDK types: every choice each
//! dialect can express, rendered into a request body beside its tools (`ToolChoice::add_to`),
//! by `tests/sdk/validate_choices.py` and, for Bedrock, botocore's model
//! (`validate_bedrock.py`); and control cases the validator must refuse.

use serde_json::{json, Map, Value};
use toolnexus::{Dialect, NativeTool, ToolChoice, Toolkit, ToolsOptions};

fn toolkit() -> Toolkit {
    let tool = |name: &str| {
        NativeTool::of(
            name,
            "Looks something up",
            json!({"type": "object", "properties": {"query": {"type": "string"}},
                "required": ["query"]}),
            |_| async { "found" },
        )
        .unwrap()
    };
    Toolkit::new()
        .with(tool("get_weather"))
        .unwrap()
        .with(tool("search"))
        .unwrap()
        .with(tool("fetch"))
        .unwrap()
}

/// Every choice, each plain and one call at a time (`none` one call at a time is `none`).
fn choices() -> Vec<ToolChoice> {
    let plain = [
        ToolChoice::auto(),
        ToolChoice::none(),
        ToolChoice::required(),
        ToolChoice::tool("get_weather").unwrap(),
        ToolChoice::auto_among(["search", "fetch"]).unwrap(),
        ToolChoice::required_among(["search", "fetch"]).unwrap(),
    ];
    plain
        .iter()
        .cloned()
        .chain(plain.iter().cloned().map(ToolChoice::one_at_a_time))
        .collect()
}

/// A request body of `dialect` declaring the toolkit's tools, without a choice.
fn body(dialect: Dialect) -> Value {
    let tools =
        serde_json::to_value(toolkit().tools_for(dialect, ToolsOptions::default())).unwrap();
    let user = dialect.user_message("Weather in Oslo?");
    match dialect {
        Dialect::OpenAiChat => json!({"model": "gpt-4.1", "messages": [user], "tools": tools}),
        Dialect::OpenAiResponses => json!({"model": "gpt-4.1", "input": [user], "tools": tools}),
        Dialect::Anthropic => json!({"model": "claude-sonnet-4-5", "max_tokens": 1024,
            "messages": [user], "tools": tools}),
        Dialect::Bedrock => json!({"messages": [user], "toolConfig": {"tools": tools}}),
        Dialect::Cohere => json!({"model": "command-a-03-2025", "messages": [user],
            "tools": tools}),
        _ => json!({"contents": [user], "tools": tools}),
    }
}

/// The bodies of every choice `dialect` expresses.
fn bodies(dialect: Dialect) -> Vec<Value> {
    choices()
        .iter()
        .filter_map(|choice| {
            let mut body = body(dialect);
            choice.add_to(dialect, &mut body).ok().map(|()| body)
        })
        .collect()
}

#[test]
fn every_expressible_choice_is_accepted_by_the_official_sdks() {
    let mut all = Map::new();
    let mut expected = 0;
    for (key, dialect, count) in [
        ("openai_chat", Dialect::OpenAiChat, 12),
        ("openai_responses", Dialect::OpenAiResponses, 12),
        ("anthropic", Dialect::Anthropic, 8),
        ("gemini", Dialect::Gemini, 7),
        ("cohere", Dialect::Cohere, 4),
    ] {
        let list = bodies(dialect);
        assert_eq!(list.len(), count, "{key}: the choices it expresses");
        expected += count;
        all.insert(key.to_owned(), Value::Array(list));
    }
    let Some((ok, report)) = crate::venv::verdict(
        "tests/sdk/validate_choices.py",
        &Value::Object(all),
        "tool_choices.json",
    ) else {
        return;
    };
    assert!(ok, "the SDK types refused a tool choice:\n{report}");
    assert!(
        report.contains(&format!("{expected} tool-choice request bodies accepted")),
        "{report}"
    );
}

#[test]
fn every_expressible_bedrock_choice_is_accepted_by_botocores_model() {
    let requests = bodies(Dialect::Bedrock);
    assert_eq!(requests.len(), 3, "auto, required and one tool");
    let cases = json!({
        "requests": requests,
        "responses": [{"stopReason": "end_turn", "output": {"message": {"role": "assistant",
            "content": [{"text": "ok"}]}}, "usage": {"inputTokens": 1, "outputTokens": 1,
            "totalTokens": 2}, "metrics": {"latencyMs": 1}}],
        "stream_events": [{"messageStop": {"stopReason": "end_turn"}}],
    });
    let Some((ok, report)) = crate::venv::verdict(
        "tests/sdk/validate_bedrock.py",
        &cases,
        "tool_choices_bedrock.json",
    ) else {
        return;
    };
    assert!(ok, "botocore refused a tool choice:\n{report}");
    assert!(report.contains("3 requests"), "{report}");
}

/// The validators refuse what the providers would: Chat's allowed tools in the Responses shape,
/// a Responses function choice in Chat's shape, `disable_parallel_tool_use` on Anthropic's
/// `none`, a Gemini mode that does not exist, a choice naming an undeclared tool, Cohere's `ANY`, Bedrock's
/// `none`.
#[test]
fn the_tool_choice_validators_refuse_what_the_providers_would() {
    let with = |dialect: Dialect, members: Value| {
        let mut body = body(dialect);
        body.as_object_mut()
            .unwrap()
            .extend(members.as_object().unwrap().clone());
        body
    };
    let wrong = json!({
        "openai_chat": [
            with(Dialect::OpenAiChat, json!({"tool_choice": {"type": "allowed_tools",
                "allowed_tools": {"mode": "auto", "tools": [{"type": "function", "name": "search"}]}}})),
            with(Dialect::OpenAiChat, json!({"tool_choice": {"type": "function",
                "function": {"name": "nowhere"}}})),
        ],
        "openai_responses": [with(Dialect::OpenAiResponses, json!({"tool_choice": {
            "type": "function", "function": {"name": "search"}}}))],
        "anthropic": [with(Dialect::Anthropic, json!({"tool_choice": {"type": "none",
            "disable_parallel_tool_use": true}}))],
        "gemini": [with(Dialect::Gemini, json!({"toolConfig": {"functionCallingConfig":
            {"mode": "REQUIRED"}}}))],
        "cohere": [with(Dialect::Cohere, json!({"tool_choice": "ANY"}))],
    });
    if let Some((ok, report)) = crate::venv::verdict(
        "tests/sdk/validate_choices.py",
        &wrong,
        "tool_choices_wrong.json",
    ) {
        assert!(!ok, "{report}");
        for case in [
            "openai_chat[0]",
            "openai_chat[1]",
            "openai_responses[0]",
            "anthropic[0]",
            "gemini[0]",
            "cohere[0]",
        ] {
            assert!(report.contains(case), "{case} not refused:\n{report}");
        }
    }
    let mut none = body(Dialect::Bedrock);
    none["toolConfig"]["toolChoice"] = json!({"none": {}});
    let bedrock = json!({
        "requests": [none],
        "responses": [{"stopReason": "end_turn", "output": {"message": {"role": "assistant",
            "content": [{"text": "ok"}]}}, "usage": {"inputTokens": 1, "outputTokens": 1,
            "totalTokens": 2}, "metrics": {"latencyMs": 1}}],
        "stream_events": [{"messageStop": {"stopReason": "end_turn"}}],
    });
    if let Some((ok, report)) = crate::venv::verdict(
        "tests/sdk/validate_bedrock.py",
        &bedrock,
        "tool_choices_bedrock_wrong.json",
    ) {
        assert!(!ok, "{report}");
        assert!(report.contains("requests[0]"), "{report}");
    }
}
