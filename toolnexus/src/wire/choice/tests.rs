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

/// Each choice's part in `dialect`, as `cases` expects it (JSON or a refusal's text).
fn expect(dialect: Dialect, cases: Vec<(ToolChoice, Result<Value, String>)>) {
    for (choice, want) in cases {
        assert_eq!(part(&choice, dialect), want, "{dialect:?}: {choice:?}");
    }
}

#[test]
fn openai_chat_expresses_every_choice() {
    let tools = json!([{"type": "function", "function": {"name": "search"}},
                       {"type": "function", "function": {"name": "fetch"}}]);
    let weather = json!({"type": "function", "function": {"name": "get_weather"}});
    expect(
        Dialect::OpenAiChat,
        vec![
            (ToolChoice::auto(), Ok(json!({"tool_choice": "auto"}))),
            (ToolChoice::none(), Ok(json!({"tool_choice": "none"}))),
            (
                ToolChoice::required(),
                Ok(json!({"tool_choice": "required"})),
            ),
            (tool(), Ok(json!({ "tool_choice": weather }))),
            (
                auto_among(),
                Ok(json!({"tool_choice": {"type": "allowed_tools",
                    "allowed_tools": {"mode": "auto", "tools": tools}}})),
            ),
            (
                required_among().one_at_a_time(),
                Ok(json!({"tool_choice": {"type": "allowed_tools",
                    "allowed_tools": {"mode": "required", "tools": tools}},
                    "parallel_tool_calls": false})),
            ),
            (
                ToolChoice::auto().one_at_a_time(),
                Ok(json!({"tool_choice": "auto", "parallel_tool_calls": false})),
            ),
            (
                tool().one_at_a_time(),
                Ok(json!({"tool_choice": weather, "parallel_tool_calls": false})),
            ),
        ],
    );
}

#[test]
fn openai_responses_expresses_every_choice() {
    let tools = json!([{"type": "function", "name": "search"},
                       {"type": "function", "name": "fetch"}]);
    expect(
        Dialect::OpenAiResponses,
        vec![
            (ToolChoice::auto(), Ok(json!({"tool_choice": "auto"}))),
            (ToolChoice::none(), Ok(json!({"tool_choice": "none"}))),
            (
                ToolChoice::required(),
                Ok(json!({"tool_choice": "required"})),
            ),
            (
                tool(),
                Ok(json!({"tool_choice": {"type": "function", "name": "get_weather"}})),
            ),
            (
                auto_among(),
                Ok(
                    json!({"tool_choice": {"type": "allowed_tools", "mode": "auto",
                    "tools": tools}}),
                ),
            ),
            (
                required_among(),
                Ok(
                    json!({"tool_choice": {"type": "allowed_tools", "mode": "required",
                    "tools": tools}}),
                ),
            ),
            (
                ToolChoice::required().one_at_a_time(),
                Ok(json!({"tool_choice": "required", "parallel_tool_calls": false})),
            ),
        ],
    );
}

#[test]
fn anthropic_expresses_all_but_an_allowed_subset() {
    let choice = |c: Value| Ok(json!({ "tool_choice": c }));
    let refused = Err(format!("Anthropic Messages {SUBSET_REFUSED}"));
    expect(
        Dialect::Anthropic,
        vec![
            (ToolChoice::auto(), choice(json!({"type": "auto"}))),
            (ToolChoice::none(), choice(json!({"type": "none"}))),
            (ToolChoice::required(), choice(json!({"type": "any"}))),
            (
                tool(),
                choice(json!({"type": "tool", "name": "get_weather"})),
            ),
            (
                tool().one_at_a_time(),
                choice(json!({"type": "tool", "name": "get_weather",
                    "disable_parallel_tool_use": true})),
            ),
            (
                ToolChoice::auto().one_at_a_time(),
                choice(json!({"type": "auto", "disable_parallel_tool_use": true})),
            ),
            (
                ToolChoice::required().one_at_a_time(),
                choice(json!({"type": "any", "disable_parallel_tool_use": true})),
            ),
            (auto_among(), refused.clone()),
            (required_among().one_at_a_time(), refused),
        ],
    );
}

#[test]
fn gemini_expresses_all_but_one_call_at_a_time() {
    let config = |c: Value| Ok(json!({"toolConfig": {"functionCallingConfig": c}}));
    let refused = || Err(format!("Gemini generateContent {ONE_REFUSED}"));
    expect(
        Dialect::Gemini,
        vec![
            (ToolChoice::auto(), config(json!({"mode": "AUTO"}))),
            (ToolChoice::none(), config(json!({"mode": "NONE"}))),
            (ToolChoice::required(), config(json!({"mode": "ANY"}))),
            (
                tool(),
                config(json!({"mode": "ANY", "allowedFunctionNames": ["get_weather"]})),
            ),
            (
                auto_among(),
                config(json!({"mode": "VALIDATED", "allowedFunctionNames": ["search", "fetch"]})),
            ),
            (
                required_among(),
                config(json!({"mode": "ANY", "allowedFunctionNames": ["search", "fetch"]})),
            ),
            (ToolChoice::auto().one_at_a_time(), refused()),
            (ToolChoice::required().one_at_a_time(), refused()),
            (tool().one_at_a_time(), refused()),
            (auto_among().one_at_a_time(), refused()),
        ],
    );
}

#[test]
fn bedrock_expresses_auto_required_and_one_tool() {
    let api = "Amazon Bedrock Converse";
    let choice = |c: Value| Ok(json!({"toolConfig": {"toolChoice": c}}));
    let subset = || Err(format!("{api} {SUBSET_REFUSED}"));
    let one = || Err(format!("{api} {ONE_REFUSED}"));
    let none = Err(format!(
        "{api} has no tool choice for `none` (no tool calls); for a text answer send the \
         request without `toolConfig` (Converse needs it while the messages hold tool use \
         or results: then use `ToolChoice::auto()` and ask for text in the prompt)"
    ));
    expect(
        Dialect::Bedrock,
        vec![
            (ToolChoice::auto(), choice(json!({"auto": {}}))),
            (ToolChoice::required(), choice(json!({"any": {}}))),
            (tool(), choice(json!({"tool": {"name": "get_weather"}}))),
            (ToolChoice::none(), none),
            (auto_among(), subset()),
            (required_among(), subset()),
            (auto_among().one_at_a_time(), subset()),
            (ToolChoice::auto().one_at_a_time(), one()),
            (ToolChoice::required().one_at_a_time(), one()),
            (tool().one_at_a_time(), one()),
        ],
    );
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
         `-` (see `toolnexus::name::sanitize`)"
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

#[test]
fn within_refuses_a_tool_the_request_does_not_send() {
    let sent = ["search", "fetch", "get_weather"];
    // Every choice that names only sent tools comes back as it was, one_at_a_time kept.
    for choice in [
        ToolChoice::auto(),
        ToolChoice::none(),
        ToolChoice::required(),
        tool().one_at_a_time(),
        auto_among(),
        required_among(),
    ] {
        assert_eq!(choice.clone().within(sent), Ok(choice));
    }
    // A choice naming no tool needs none.
    assert_eq!(
        ToolChoice::required().within([]),
        Ok(ToolChoice::required())
    );
    // The first name not sent is the one refused, with what is sent.
    let unknown = |name: &str| Error::UnknownTool {
        name: name.to_owned(),
        available: vec!["search".to_owned(), "fetch".to_owned()],
    };
    assert_eq!(
        tool().within(["search", "fetch"]),
        Err(unknown("get_weather"))
    );
    assert_eq!(
        ToolChoice::required_among(["search", "lookup", "other"])
            .unwrap()
            .within(["search", "fetch"]),
        Err(unknown("lookup"))
    );
    assert_eq!(
        ToolChoice::auto_among(["fetch", "search", "x"])
            .unwrap()
            .within(["search", "fetch"]),
        Err(unknown("x"))
    );
    // Names compare exactly: no case folding, no prefix.
    assert!(ToolChoice::tool("Search").unwrap().within(sent).is_err());
    assert!(ToolChoice::tool("sear").unwrap().within(sent).is_err());
}
