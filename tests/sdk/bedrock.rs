//! Amazon Bedrock Converse, judged by botocore's own service model of `bedrock-runtime`
//! (`tests/sdk/validate_bedrock.py`, offline): every request body we build (the tools as
//! `toolConfig.tools`, the user's messages with media, the model's turn, the results with
//! media and errors), the hand-written responses and stream events the tests read, and control
//! cases the validator must refuse.

use serde_json::{json, Value};
use toolnexus::{Dialect, Media, NativeTool, ToolResult, Toolkit, ToolsOptions};

fn toolkit() -> Toolkit {
    let weather = NativeTool::of(
        "get_weather",
        "Weather for a city",
        json!({"type": "object", "properties": {"city": {"type": "string"},
            "days": {"type": ["integer", "null"], "minimum": 0}}, "required": ["city"]}),
        |args: Value| async move { format!("sunny in {}", args["city"].as_str().unwrap_or("?")) },
    )
    .unwrap();
    let chart = NativeTool::of(
        "chart",
        "A chart and its data",
        json!({"type": "object"}),
        |_| async {
            ToolResult::ok("")
                .with_image("image/png", vec![0x89, b'P', b'N', b'G'])
                .with_file("text/csv", b"a,b\n1,2\n".to_vec(), "data (q3).csv")
        },
    )
    .unwrap();
    let fails = NativeTool::of(
        "fails",
        "Always fails",
        json!({"type": "object"}),
        |_| async { ToolResult::error("the service is down") },
    )
    .unwrap();
    Toolkit::new()
        .with(weather)
        .unwrap()
        .with(chart)
        .unwrap()
        .with(fails)
        .unwrap()
}

fn first_response() -> Value {
    json!({"output": {"message": {"role": "assistant", "content": [
            {"text": "Let me check."},
            {"toolUse": {"toolUseId": "tooluse_w", "name": "get_weather", "input": {"city": "Paris"}}},
            {"toolUse": {"toolUseId": "tooluse_c", "name": "chart", "input": {}}},
            {"toolUse": {"toolUseId": "tooluse_f", "name": "fails", "input": {}}}]}},
        "stopReason": "tool_use",
        "usage": {"inputTokens": 100, "outputTokens": 40, "totalTokens": 140},
        "metrics": {"latencyMs": 900}})
}

fn final_response() -> Value {
    json!({"output": {"message": {"role": "assistant", "content": [{"text": "Sunny in Paris."}]}},
        "stopReason": "end_turn",
        "usage": {"inputTokens": 200, "outputTokens": 10, "totalTokens": 210},
        "metrics": {"latencyMs": 400}})
}

fn stream_events() -> Vec<Value> {
    vec![
        json!({"messageStart": {"role": "assistant"}}),
        json!({"contentBlockDelta": {"contentBlockIndex": 0, "delta": {"text": "Let me check."}}}),
        json!({"contentBlockStop": {"contentBlockIndex": 0}}),
        json!({"contentBlockStart": {"contentBlockIndex": 1,
            "start": {"toolUse": {"toolUseId": "tooluse_w", "name": "get_weather"}}}}),
        json!({"contentBlockDelta": {"contentBlockIndex": 1,
            "delta": {"toolUse": {"input": "{\"city\": \"Paris\"}"}}}}),
        json!({"contentBlockStop": {"contentBlockIndex": 1}}),
        json!({"messageStop": {"stopReason": "tool_use"}}),
        json!({"metadata": {"usage": {"inputTokens": 100, "outputTokens": 40, "totalTokens": 140},
            "metrics": {"latencyMs": 900}}}),
        json!({"throttlingException": {"message": "Too many requests"}}),
    ]
}

fn validate(cases: &Value, file: &str) -> Option<(bool, String)> {
    crate::venv::verdict("tests/sdk/validate_bedrock.py", cases, file)
}

#[tokio::test]
async fn every_bedrock_body_we_build_is_accepted_by_botocores_model() {
    let toolkit = toolkit();
    let tools = toolkit.tools_for(Dialect::Bedrock, ToolsOptions::default());
    let photo = Media::image("image/jpeg", vec![0xFF, 0xD8, 0xFF]);
    let manual = Media::file("application/pdf", b"%PDF-1.7".to_vec(), "manual.pdf");
    let mut messages = vec![Dialect::Bedrock.user_message("Weather in Paris, and chart it?")];
    let mut requests = vec![json!({"messages": messages, "toolConfig": {"tools": tools}})];
    let turn = toolkit
        .respond(&first_response(), Dialect::Bedrock)
        .await
        .unwrap();
    assert_eq!(turn.results.len(), 3);
    messages.extend(turn.into_messages());
    requests.push(json!({"messages": messages, "toolConfig": {"tools": tools},
        "inferenceConfig": {"maxTokens": 1024}}));
    let turn = toolkit
        .respond(&final_response(), Dialect::Bedrock)
        .await
        .unwrap();
    assert_eq!(turn.text(), "Sunny in Paris.");
    messages.extend(turn.into_messages());
    messages.push(Dialect::Bedrock.user_message_with_media("And these?", &[photo, manual]));
    requests.push(json!({"messages": messages, "toolConfig": {"tools": tools}}));
    let cases = json!({
        "requests": requests,
        "responses": [first_response(), final_response()],
        "stream_events": stream_events(),
    });
    let Some((ok, report)) = validate(&cases, "bedrock_cases.json") else {
        return;
    };
    assert!(ok, "botocore refused what we build:\n{report}");
    assert!(
        report.contains("accepted by botocore's bedrock-runtime model: 3 requests, 2 responses, 9 stream events"),
        "{report}"
    );
}

/// The validator refuses what Bedrock would: a tool name outside its pattern, a result status
/// it does not have, a blob that is not base64, an unknown member in a response, an unknown
/// stream event.
#[test]
fn the_bedrock_validator_refuses_what_bedrock_would() {
    let cases = json!({
        "requests": [
            {"messages": [{"role": "user", "content": [{"text": "hi"}]}],
             "toolConfig": {"tools": [{"toolSpec": {"name": "get.weather", "description": "x",
                 "inputSchema": {"json": {"type": "object"}}}}]}},
            {"messages": [{"role": "user", "content": [{"toolResult": {"toolUseId": "t",
                "content": [{"text": "x"}], "status": "failed"}}]}]},
            {"messages": [{"role": "user", "content": [{"image": {"format": "png",
                "source": {"bytes": "not base64!"}}}]}]},
        ],
        "responses": [{"output": {"message": {"role": "assistant", "content": []}},
            "stopReason": "tool_use", "usage": {"inputTokens": 1, "outputTokens": 1, "totalTokens": 2},
            "metrics": {"latencyMs": 1}, "surprise": true}],
        "stream_events": [{"contentBlockDelta": {"contentBlockIndex": 0, "delta": {"text": "x"}},
            "messageStop": {"stopReason": "end_turn"}}, {"ping": {}}],
    });
    let Some((ok, report)) = validate(&cases, "bedrock_wrong_cases.json") else {
        return;
    };
    assert!(!ok, "{report}");
    for expected in [
        "requests[0]",
        "requests[1]",
        "requests[2]",
        "unknown member `surprise`",
        "stream_events[0]",
        "`ping` is not a ConverseStream event",
    ] {
        assert!(
            report.contains(expected),
            "{expected} not refused:\n{report}"
        );
    }
}
