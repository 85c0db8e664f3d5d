//! Strict mode known to the turn: a toolkit that handed out strict tools reads that dialect's
//! calls as strict calls (`null` for an optional argument reaches the tool as "absent") with a
//! plain `respond()` or `StreamTurn`, without `RunOptions::with_openai_strict`.

use serde_json::{json, Value};
use toolnexus::stream::StreamTurn;
use toolnexus::{Dialect, NativeTool, RunOptions, Toolkit, ToolsOptions};

/// A tool that answers with the arguments it received, so a test sees what reached it.
fn echo() -> NativeTool {
    let schema = json!({"type": "object", "properties": {
        "city": {"type": "string"}, "days": {"type": "integer"}}, "required": ["city"]});
    NativeTool::of("echo", "Echoes its arguments", schema, |args| async move {
        args.to_string()
    })
    .unwrap()
}

fn toolkit() -> Toolkit {
    Toolkit::new().with(echo()).unwrap()
}

/// What strict mode makes the model send: every key, `null` for the optional one.
const ARGS: &str = r#"{"city":"Oslo","days":null}"#;

fn chat_response() -> Value {
    json!({"choices": [{"finish_reason": "tool_calls", "message": {"role": "assistant",
        "tool_calls": [{"id": "call_1", "type": "function",
            "function": {"name": "echo", "arguments": ARGS}}]}}]})
}

fn responses_response() -> Value {
    json!({"status": "completed", "output": [{"type": "function_call", "call_id": "call_1",
        "name": "echo", "arguments": ARGS, "status": "completed"}]})
}

async fn seen(toolkit: &Toolkit, response: &Value, dialect: Dialect) -> String {
    let turn = toolkit.respond(response, dialect).await.unwrap();
    turn.results[0].output.clone()
}

#[tokio::test]
async fn chat_calls_after_strict_rendering_reach_the_tool_without_their_nulls() {
    let toolkit = toolkit();
    // Not rendered strict: the `null` is the model's and reaches the tool as sent.
    assert_eq!(
        seen(&toolkit, &chat_response(), Dialect::OpenAiChat).await,
        ARGS
    );
    let tools = toolkit.tools_for(
        Dialect::OpenAiChat,
        ToolsOptions::default().with_strict(true),
    );
    assert_eq!(tools[0]["function"]["strict"], true);
    assert_eq!(
        seen(&toolkit, &chat_response(), Dialect::OpenAiChat).await,
        r#"{"city":"Oslo"}"#
    );
    // Another dialect's calls are not strict calls: its tools were not rendered strict.
    let anthropic = json!({"type": "message", "role": "assistant", "stop_reason": "tool_use",
        "content": [{"type": "tool_use", "id": "toolu_1", "name": "echo",
            "input": {"city": "Oslo", "days": null}}]});
    assert_eq!(seen(&toolkit, &anthropic, Dialect::Anthropic).await, ARGS);
    // A clone keeps what the toolkit knows; adding a tool keeps it too.
    let mut clone = toolkit.clone();
    clone
        .add(
            NativeTool::of(
                "other",
                "Other",
                json!({"type": "object", "properties": {}}),
                |_| async { "" },
            )
            .unwrap(),
        )
        .unwrap();
    assert_eq!(
        seen(&clone, &chat_response(), Dialect::OpenAiChat).await,
        r#"{"city":"Oslo"}"#
    );
}

#[tokio::test]
async fn responses_calls_are_strict_only_after_strict_rendering() {
    let toolkit = toolkit();
    let tools = toolkit.tools_for(Dialect::OpenAiResponses, ToolsOptions::default());
    assert_eq!(tools[0]["strict"], false);
    assert_eq!(
        seen(&toolkit, &responses_response(), Dialect::OpenAiResponses).await,
        ARGS
    );
    toolkit.tools_for(
        Dialect::OpenAiResponses,
        ToolsOptions::default().with_strict(true),
    );
    assert_eq!(
        seen(&toolkit, &responses_response(), Dialect::OpenAiResponses).await,
        r#"{"city":"Oslo"}"#
    );
    // Chat Completions tools were never rendered strict.
    assert_eq!(
        seen(&toolkit, &chat_response(), Dialect::OpenAiChat).await,
        ARGS
    );
}

#[tokio::test]
async fn a_strict_selection_makes_the_toolkit_read_strict_calls() {
    let toolkit = toolkit();
    toolkit.select(["echo"]).unwrap().tools_for(
        Dialect::OpenAiChat,
        ToolsOptions::default().with_strict(true),
    );
    assert_eq!(
        seen(&toolkit, &chat_response(), Dialect::OpenAiChat).await,
        r#"{"city":"Oslo"}"#
    );
}

#[tokio::test]
async fn a_streamed_turn_after_strict_rendering_prunes_the_nulls_too() {
    let toolkit = toolkit();
    toolkit.tools_for(
        Dialect::OpenAiChat,
        ToolsOptions::default().with_strict(true),
    );
    let chunk = json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0,
        "id": "call_1", "type": "function", "function": {"name": "echo", "arguments": ARGS}}]}}]});
    let end = json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]});
    let mut turn = StreamTurn::new(&toolkit, Dialect::OpenAiChat, RunOptions::default());
    let _ = turn.feed_event(chunk);
    let _ = turn.feed_event(end);
    let turn = turn.finish().await.unwrap();
    assert_eq!(turn.results[0].output, r#"{"city":"Oslo"}"#);
}

#[tokio::test]
async fn a_default_field_refuses_null_until_the_tools_are_rendered_strict() {
    #[derive(serde::Deserialize, schemars::JsonSchema)]
    struct Args {
        city: String,
        #[serde(default)]
        days: u8,
    }
    let schema = toolnexus::InputSchema::of::<Args>().unwrap();
    let tool = NativeTool::of(
        "forecast",
        "Forecast",
        schema.as_value().clone(),
        |args| async move {
            match serde_json::from_value::<Args>(args) {
                Ok(a) => Ok(format!("{} in {} days", a.city, a.days)),
                Err(e) => Err(e.to_string()),
            }
        },
    )
    .unwrap();
    let toolkit = Toolkit::new().with(tool).unwrap();
    let response = json!({"choices": [{"finish_reason": "tool_calls", "message": {"role": "assistant",
        "tool_calls": [{"id": "call_1", "type": "function",
            "function": {"name": "forecast", "arguments": "{\"city\":\"Oslo\",\"days\":null}"}}]}}]});
    let before = toolkit
        .respond(&response, Dialect::OpenAiChat)
        .await
        .unwrap();
    assert!(before.results[0].is_error, "{:?}", before.results[0]);
    toolkit.tools_for(
        Dialect::OpenAiChat,
        ToolsOptions::default().with_strict(true),
    );
    let after = toolkit
        .respond(&response, Dialect::OpenAiChat)
        .await
        .unwrap();
    assert_eq!(after.results[0].output, "Oslo in 0 days");
}
