//! Every choice in every dialect, as exact JSON, and every refusal, as exact text.

use serde_json::{json, Value};

use crate::values::dialect::Dialect;
use crate::values::error::Error;
use crate::wire::choice::ToolChoice;

/// The part of `choice` in `dialect` as JSON, or the refusal's text.
fn part(choice: &ToolChoice, dialect: Dialect) -> Result<Value, String> {
    choice
        .request_part(dialect)
        .map(Value::Object)
        .map_err(|e| e.to_string())
}

fn tool() -> ToolChoice {
    ToolChoice::tool("get_weather").unwrap()
}

fn auto_among() -> ToolChoice {
    ToolChoice::auto_among(["search", "fetch"]).unwrap()
}

fn required_among() -> ToolChoice {
    ToolChoice::required_among(["search", "fetch"]).unwrap()
}

const SUBSET_REFUSED: &str = "has no tool choice for an allowed subset of tools; send only those \
     tools (`Toolkit::select`) with `ToolChoice::auto()` or `ToolChoice::required()`";
const ONE_REFUSED: &str = "has no tool choice for one call at a time; leave out `one_at_a_time` \
     (the model may then make several calls in one turn; `RunOptions::with_concurrency(1)` runs \
     them one after another)";

#[test]
fn openai_chat_expresses_every_choice() {
    let d = Dialect::OpenAiChat;
    assert_eq!(
        part(&ToolChoice::auto(), d),
        Ok(json!({"tool_choice": "auto"}))
    );
    assert_eq!(
        part(&ToolChoice::none(), d),
        Ok(json!({"tool_choice": "none"}))
    );
    assert_eq!(
        part(&ToolChoice::required(), d),
        Ok(json!({"tool_choice": "required"}))
    );
    assert_eq!(
        part(&tool(), d),
        Ok(json!({"tool_choice": {"type": "function", "function": {"name": "get_weather"}}}))
    );
    let tools = json!([{"type": "function", "function": {"name": "search"}},
                       {"type": "function", "function": {"name": "fetch"}}]);
    assert_eq!(
        part(&auto_among(), d),
        Ok(json!({"tool_choice": {"type": "allowed_tools",
            "allowed_tools": {"mode": "auto", "tools": tools}}}))
    );
    assert_eq!(
        part(&required_among().one_at_a_time(), d),
        Ok(json!({"tool_choice": {"type": "allowed_tools",
            "allowed_tools": {"mode": "required", "tools": tools}},
            "parallel_tool_calls": false}))
    );
    assert_eq!(
        part(&ToolChoice::auto().one_at_a_time(), d),
        Ok(json!({"tool_choice": "auto", "parallel_tool_calls": false}))
    );
    assert_eq!(
        part(&tool().one_at_a_time(), d),
        Ok(
            json!({"tool_choice": {"type": "function", "function": {"name": "get_weather"}},
            "parallel_tool_calls": false})
        )
    );
}

#[test]
fn openai_responses_expresses_every_choice() {
    let d = Dialect::OpenAiResponses;
    assert_eq!(
        part(&ToolChoice::auto(), d),
        Ok(json!({"tool_choice": "auto"}))
    );
    assert_eq!(
        part(&ToolChoice::none(), d),
        Ok(json!({"tool_choice": "none"}))
    );
    assert_eq!(
        part(&ToolChoice::required(), d),
        Ok(json!({"tool_choice": "required"}))
    );
    assert_eq!(
        part(&tool(), d),
        Ok(json!({"tool_choice": {"type": "function", "name": "get_weather"}}))
    );
    let tools = json!([{"type": "function", "name": "search"},
                       {"type": "function", "name": "fetch"}]);
    assert_eq!(
        part(&auto_among(), d),
        Ok(json!({"tool_choice": {"type": "allowed_tools", "mode": "auto", "tools": tools}}))
    );
    assert_eq!(
        part(&required_among(), d),
        Ok(json!({"tool_choice": {"type": "allowed_tools", "mode": "required", "tools": tools}}))
    );
    assert_eq!(
        part(&ToolChoice::required().one_at_a_time(), d),
        Ok(json!({"tool_choice": "required", "parallel_tool_calls": false}))
    );
}

#[test]
fn anthropic_expresses_all_but_an_allowed_subset() {
    let d = Dialect::Anthropic;
    assert_eq!(
        part(&ToolChoice::auto(), d),
        Ok(json!({"tool_choice": {"type": "auto"}}))
    );
    assert_eq!(
        part(&ToolChoice::none(), d),
        Ok(json!({"tool_choice": {"type": "none"}}))
    );
    assert_eq!(
        part(&ToolChoice::required(), d),
        Ok(json!({"tool_choice": {"type": "any"}}))
    );
    assert_eq!(
        part(&tool(), d),
        Ok(json!({"tool_choice": {"type": "tool", "name": "get_weather"}}))
    );
    assert_eq!(
        part(&tool().one_at_a_time(), d),
        Ok(
            json!({"tool_choice": {"type": "tool", "name": "get_weather",
            "disable_parallel_tool_use": true}})
        )
    );
    assert_eq!(
        part(&ToolChoice::auto().one_at_a_time(), d),
        Ok(json!({"tool_choice": {"type": "auto", "disable_parallel_tool_use": true}}))
    );
    assert_eq!(
        part(&ToolChoice::required().one_at_a_time(), d),
        Ok(json!({"tool_choice": {"type": "any", "disable_parallel_tool_use": true}}))
    );
    for subset in [auto_among(), required_among().one_at_a_time()] {
        assert_eq!(
            part(&subset, d),
            Err(format!("Anthropic Messages {SUBSET_REFUSED}"))
        );
    }
}

#[test]
fn gemini_expresses_all_but_one_call_at_a_time() {
    let d = Dialect::Gemini;
    let config = |c: Value| Ok(json!({"toolConfig": {"functionCallingConfig": c}}));
    assert_eq!(
        part(&ToolChoice::auto(), d),
        config(json!({"mode": "AUTO"}))
    );
    assert_eq!(
        part(&ToolChoice::none(), d),
        config(json!({"mode": "NONE"}))
    );
    assert_eq!(
        part(&ToolChoice::required(), d),
        config(json!({"mode": "ANY"}))
    );
    assert_eq!(
        part(&tool(), d),
        config(json!({"mode": "ANY", "allowedFunctionNames": ["get_weather"]}))
    );
    assert_eq!(
        part(&auto_among(), d),
        config(json!({"mode": "VALIDATED", "allowedFunctionNames": ["search", "fetch"]}))
    );
    assert_eq!(
        part(&required_among(), d),
        config(json!({"mode": "ANY", "allowedFunctionNames": ["search", "fetch"]}))
    );
    for one in [
        ToolChoice::auto(),
        ToolChoice::required(),
        tool(),
        auto_among(),
    ] {
        assert_eq!(
            part(&one.one_at_a_time(), d),
            Err(format!("Gemini generateContent {ONE_REFUSED}"))
        );
    }
}

#[test]
fn bedrock_expresses_auto_required_and_one_tool() {
    let d = Dialect::Bedrock;
    let choice = |c: Value| Ok(json!({"toolConfig": {"toolChoice": c}}));
    assert_eq!(part(&ToolChoice::auto(), d), choice(json!({"auto": {}})));
    assert_eq!(part(&ToolChoice::required(), d), choice(json!({"any": {}})));
    assert_eq!(
        part(&tool(), d),
        choice(json!({"tool": {"name": "get_weather"}}))
    );
    let api = "Amazon Bedrock Converse";
    assert_eq!(
        part(&ToolChoice::none(), d),
        Err(format!(
            "{api} has no tool choice for `none` (no tool calls); for a text answer send the \
             request without `toolConfig` (Converse needs it while the messages hold tool use \
             or results: then use `ToolChoice::auto()` and ask for text in the prompt)"
        ))
    );
    for subset in [auto_among(), required_among(), auto_among().one_at_a_time()] {
        assert_eq!(part(&subset, d), Err(format!("{api} {SUBSET_REFUSED}")));
    }
    for one in [ToolChoice::auto(), ToolChoice::required(), tool()] {
        assert_eq!(
            part(&one.one_at_a_time(), d),
            Err(format!("{api} {ONE_REFUSED}"))
        );
    }
}

#[test]
fn a_refusal_names_its_api_and_leaves_the_body_as_it_was() {
    let mut body = json!({"toolConfig": {"tools": [{"toolSpec": {"name": "a"}}]}});
    let before = body.clone();
    let err = ToolChoice::none()
        .add_to(Dialect::Bedrock, &mut body)
        .unwrap_err();
    assert!(matches!(
        err,
        Error::UnsupportedChoice {
            api: "Amazon Bedrock Converse",
            choice: "`none` (no tool calls)",
            ..
        }
    ));
    assert_eq!(body, before);
}

#[test]
fn add_to_merges_one_level_deep() {
    let mut gemini = json!({"toolConfig": {"retrievalConfig": {"languageCode": "en"}}});
    ToolChoice::required()
        .add_to(Dialect::Gemini, &mut gemini)
        .unwrap();
    assert_eq!(
        gemini,
        json!({"toolConfig": {"retrievalConfig": {"languageCode": "en"},
            "functionCallingConfig": {"mode": "ANY"}}})
    );
    let mut bedrock = json!({"toolConfig": {"tools": [], "toolChoice": {"any": {}}}});
    tool().add_to(Dialect::Bedrock, &mut bedrock).unwrap();
    assert_eq!(
        bedrock,
        json!({"toolConfig": {"tools": [], "toolChoice": {"tool": {"name": "get_weather"}}}})
    );
    let mut chat = json!({"model": "m", "tool_choice": "required"});
    ToolChoice::none()
        .add_to(Dialect::OpenAiChat, &mut chat)
        .unwrap();
    assert_eq!(chat, json!({"model": "m", "tool_choice": "none"}));
}

#[test]
fn names_are_checked_as_tool_names_and_a_subset_needs_one() {
    let err = ToolChoice::tool("get weather").unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid tool name `get weather`: ` ` is not allowed; use only A-Z, a-z, 0-9, `_` and \
         `-` (see `toolnexus::sanitize`)"
    );
    assert!(matches!(
        ToolChoice::required_among(["ok", "not.ok"]),
        Err(Error::InvalidName { name, .. }) if name == "not.ok"
    ));
    assert_eq!(
        ToolChoice::auto_among(Vec::<String>::new())
            .unwrap_err()
            .to_string(),
        "invalid tool name ``: an allowed subset needs at least one tool name; \
         `ToolChoice::none()` is the choice of no tool"
    );
    // A repeated name counts once, in its first place.
    assert_eq!(
        ToolChoice::auto_among(["b", "a", "b"]).unwrap(),
        ToolChoice::auto_among(["b", "a"]).unwrap()
    );
}

#[test]
fn none_has_no_calls_to_limit() {
    assert_eq!(ToolChoice::none().one_at_a_time(), ToolChoice::none());
    for dialect in Dialect::ALL {
        let none = ToolChoice::none().one_at_a_time();
        assert_eq!(part(&none, dialect), part(&ToolChoice::none(), dialect));
    }
    assert_eq!(ToolChoice::default(), ToolChoice::auto());
}
