//! Amazon Bedrock Converse round trip (issue 25, the fifth dialect): `toolUse` blocks in, ONE
//! `user` message of `toolResult` blocks out (`status: "error"` on failures, never a blank text),
//! the stop rule, media as `image`/`document` blocks, the conversation around the calls, and the
//! tools array, asserted as exact JSON.

use serde_json::{json, Value};
use toolnexus::{
    Dialect, Media, NativeTool, Remedy, ResponseError, TokenLimit, ToolResult, Toolkit,
    ToolsOptions,
};

const BEDROCK: Dialect = Dialect::Bedrock;

fn toolkit() -> Toolkit {
    let weather = NativeTool::of(
        "get_weather",
        "Weather for a city",
        json!({"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}),
        |args: Value| async move {
            match args["city"].as_str() {
                Some("Atlantis") => ToolResult::error("no such city"),
                Some(city) => ToolResult::ok(format!("{city}: 18°C, sunny")),
                None => ToolResult::error("no city"),
            }
        },
    )
    .unwrap();
    let add = NativeTool::of(
        "add",
        "Adds",
        json!({"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}}}),
        |args: Value| async move { (args["a"].as_i64().unwrap_or(0) + args["b"].as_i64().unwrap_or(0)).to_string() },
    )
    .unwrap();
    let chart = NativeTool::of("chart", "A chart", json!({"type": "object"}), |_| async {
        ToolResult::ok("")
            .with_image("image/png", vec![0x89, b'P', b'N', b'G'])
            .with_file("application/pdf", b"%PDF".to_vec(), "q3 report.pdf")
    })
    .unwrap();
    Toolkit::new()
        .with(weather)
        .unwrap()
        .with(add)
        .unwrap()
        .with(chart)
        .unwrap()
}

fn response(stop: &str, content: Value) -> Value {
    json!({"output": {"message": {"role": "assistant", "content": content}},
        "stopReason": stop, "usage": {"inputTokens": 10, "outputTokens": 5, "totalTokens": 15},
        "metrics": {"latencyMs": 100}})
}

fn tool_use(id: &str, name: &str, input: Value) -> Value {
    json!({"toolUse": {"toolUseId": id, "name": name, "input": input}})
}

#[tokio::test]
async fn parallel_calls_are_answered_in_one_user_message_in_order() {
    let toolkit = toolkit();
    let response = response(
        "tool_use",
        json!([{"text": "Let me check."},
            tool_use("tooluse_w", "get_weather", json!({"city": "Paris"})),
            tool_use("tooluse_a", "add", json!({"a": 2.0, "b": 3})),
            tool_use("tooluse_x", "get_weather", json!({"city": "Atlantis"})),
            tool_use("tooluse_u", "nope", json!({}))]),
    );
    let turn = toolkit.respond(&response, BEDROCK).await.unwrap();
    assert_eq!(turn.text(), "Let me check.");
    assert_eq!(
        turn.model_turn,
        [json!({"role": "assistant", "content": response["output"]["message"]["content"]})]
    );
    assert_eq!(
        turn.result_messages,
        [json!({"role": "user", "content": [
            {"toolResult": {"toolUseId": "tooluse_w", "content": [{"text": "Paris: 18°C, sunny"}]}},
            {"toolResult": {"toolUseId": "tooluse_a", "content": [{"text": "5"}]}},
            {"toolResult": {"toolUseId": "tooluse_x", "content": [{"text": "no such city"}],
                "status": "error"}},
            {"toolResult": {"toolUseId": "tooluse_u", "content": [{"text":
                "Unknown tool: nope. Available tools: get_weather, add, chart"}], "status": "error"}},
        ]})]
    );
}

#[tokio::test]
async fn media_become_image_and_document_blocks_and_a_blank_text_is_never_sent() {
    let toolkit = toolkit();
    let response = response(
        "tool_use",
        json!([tool_use("tooluse_c", "chart", json!({}))]),
    );
    let turn = toolkit.respond(&response, BEDROCK).await.unwrap();
    assert_eq!(
        turn.result_messages,
        [
            json!({"role": "user", "content": [{"toolResult": {"toolUseId": "tooluse_c", "content": [
                {"text": "(the tool returned no text)"},
                {"image": {"format": "png", "source": {"bytes": "iVBORw=="}}},
                {"document": {"format": "pdf", "name": "q3 report pdf", "source": {"bytes": "JVBERg=="}}},
            ]}}]})
        ]
    );
    // A type Converse does not take makes the result an error result that says so.
    let bmp = Media::image("image/bmp", vec![b'B', b'M']);
    let results = BEDROCK.render_results([(
        &toolnexus::ToolCall::new("t", "shot", toolnexus::Arguments::Absent),
        &ToolResult::ok("x").with_media(bmp),
    )]);
    let block = &results[0]["content"][0]["toolResult"];
    assert_eq!(block["status"], "error");
    assert!(
        block["content"][0]["text"]
            .as_str()
            .unwrap()
            .contains("image/bmp"),
        "{block}"
    );
}

#[test]
fn the_stop_rule_runs_only_finished_turns() {
    let content = json!([tool_use("t", "add", json!({"a": 1, "b": 2}))]);
    for stop in ["tool_use", "end_turn", "stop_sequence"] {
        assert_eq!(
            Dialect::Bedrock
                .parse_calls(&response(stop, content.clone()))
                .unwrap()
                .len(),
            1,
            "{stop}"
        );
    }
    let cases = [
        ("max_tokens", Remedy::RaiseLimit),
        ("model_context_window_exceeded", Remedy::ChangeRequest),
        ("malformed_tool_use", Remedy::Retry),
        ("malformed_model_output", Remedy::Retry),
        ("guardrail_intervened", Remedy::ChangeRequest),
        ("content_filtered", Remedy::ChangeRequest),
        ("something_new", Remedy::ChangeRequest),
    ];
    for (stop, remedy) in cases {
        let err = BEDROCK
            .parse_calls(&response(stop, content.clone()))
            .unwrap_err();
        assert_eq!(err.remedy(), remedy, "{stop}: {err:?}");
        assert!(
            err.to_string()
                .contains(&format!("`stopReason` is `{stop}`")),
            "{err}"
        );
    }
    assert!(matches!(
        BEDROCK.parse_calls(&response("max_tokens", content.clone())),
        Err(ResponseError::Truncated {
            limit: TokenLimit::Output,
            ..
        })
    ));
    // A malformed response says where.
    let err = BEDROCK
        .parse_calls(&json!({"output": {"message": {"content": [
        {"toolUse": {"name": "add", "input": {}}}]}}, "stopReason": "tool_use"}))
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "unexpected Amazon Bedrock Converse response: expected a string at \
         `output.message.content[0].toolUse.toolUseId`, found nothing"
    );
}

#[test]
fn an_input_that_is_not_an_object_is_answered_and_repeated_as_an_empty_object() {
    let response = response(
        "tool_use",
        json!([tool_use("t", "add", json!("{\"a\":1}"))]),
    );
    let turn = BEDROCK.model_turn(&response).unwrap();
    assert_eq!(turn[0]["content"][0]["toolUse"]["input"], json!({}));
    let calls = Dialect::Bedrock.parse_calls(&response).unwrap();
    assert_eq!(
        calls[0].arguments,
        toolnexus::Arguments::Value(json!("{\"a\":1}"))
    );
}

#[test]
fn tools_go_out_as_tool_specs_and_the_user_message_as_content_blocks() {
    let toolkit = toolkit();
    let tools = toolkit.tools_for(BEDROCK, ToolsOptions::default());
    assert_eq!(
        tools[0],
        json!({"toolSpec": {"name": "get_weather", "description": "Weather for a city",
            "inputSchema": {"json": {"type": "object", "properties": {"city": {"type": "string"}},
                "required": ["city"]}}}})
    );
    assert_eq!(tools.len(), 3);
    assert_eq!(
        toolkit
            .select(["add"])
            .unwrap()
            .tools_for(BEDROCK, ToolsOptions::default())[0]["toolSpec"]["name"],
        "add"
    );
    assert_eq!(
        BEDROCK.user_message("Hi"),
        json!({"role": "user", "content": [{"text": "Hi"}]})
    );
    assert_eq!(BEDROCK.api_name(), "Amazon Bedrock Converse");
    assert_eq!(BEDROCK.max_tools(), 10_000);
}
