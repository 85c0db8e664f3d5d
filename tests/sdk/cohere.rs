//! Cohere v2 Chat, judged by the cohere SDK's own pydantic types (`tests/sdk/sdk_cohere.py`:
//! `ChatMessageV2`, `ToolV2`, the `V2Client.chat` parameters, `V2ChatResponse`,
//! `V2ChatStreamResponse`, with no member left undeclared): every request body we build (the
//! tools, the user's messages with media, the model's turn with its plan, the results with
//! errors and refused media, a typed answer, each tool choice), the hand-written responses and
//! stream events the tests read, and control cases the validator must refuse.

use serde_json::{json, Value};
use toolnexus::{
    Dialect, Media, NativeTool, Output, ToolChoice, ToolResult, Toolkit, ToolsOptions,
};

use crate::common::stream;

const COHERE: Dialect = Dialect::Cohere;

fn toolkit() -> Toolkit {
    let weather = NativeTool::of(
        "get_weather",
        "Weather for a city",
        json!({"type": "object", "properties": {"city": {"type": "string"},
            "days": {"type": ["integer", "null"], "minimum": 0},
            "tags": {"type": "array"}}, "required": ["city"]}),
        |args: Value| async move { format!("sunny in {}", args["city"].as_str().unwrap_or("?")) },
    )
    .unwrap();
    let chart = NativeTool::of("chart", "A chart", json!({"type": "object"}), |_| async {
        ToolResult::ok("a chart").with_image("image/png", vec![0x89, b'P'])
    })
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

fn call(id: &str, name: &str, arguments: &str) -> Value {
    json!({"id": id, "type": "function", "function": {"name": name, "arguments": arguments}})
}

fn first_response() -> Value {
    json!({"id": "r1", "finish_reason": "TOOL_CALL", "message": {"role": "assistant",
        "tool_plan": "I will check the weather and draw a chart.",
        "tool_calls": [call("c_w", "get_weather", r#"{"city":"Paris"}"#), call("c_c", "chart", "{}"),
                       call("c_f", "fails", "{}")]},
        "usage": {"billed_units": {"input_tokens": 10, "output_tokens": 5},
                  "tokens": {"input_tokens": 100, "output_tokens": 20}}})
}

fn final_response() -> Value {
    json!({"id": "r2", "finish_reason": "COMPLETE", "message": {"role": "assistant",
        "content": [{"type": "text", "text": "Sunny in Paris."}],
        "citations": [{"start": 0, "end": 5, "text": "Sunny", "type": "TEXT_CONTENT",
            "sources": [{"type": "tool", "id": "c_w:0", "tool_output": {"output": "sunny in Paris"}}]}]}})
}

fn validate(cases: &Value, file: &str) -> Option<(bool, String)> {
    crate::venv::verdict("tests/sdk/validate_cohere.py", cases, file)
}

#[tokio::test]
async fn every_cohere_body_we_build_is_accepted_by_the_cohere_sdk() {
    let toolkit = toolkit();
    let tools = toolkit.tools_for(COHERE, ToolsOptions::default());
    let photo = Media::image("image/jpeg", vec![0xFF, 0xD8, 0xFF]);
    let manual = Media::file("application/pdf", b"%PDF-1.7".to_vec(), "manual.pdf");
    let mut messages = vec![COHERE.user_message("Weather in Paris, and chart it?")];
    let mut requests = vec![json!({"messages": messages, "tools": tools})];
    let turn = toolkit.respond(&first_response(), COHERE).await.unwrap();
    assert_eq!(turn.results.len(), 3);
    assert!(
        turn.results[1].is_error,
        "Cohere takes no image in a tool result"
    );
    messages.extend(turn.into_messages());
    requests.push(json!({"messages": messages, "tools": tools, "max_tokens": 1024}));
    let turn = toolkit.respond(&final_response(), COHERE).await.unwrap();
    assert_eq!(turn.text(), "Sunny in Paris.");
    messages.extend(turn.into_messages());
    messages.push(COHERE.user_message_with_media("And these?", &[photo, manual]));
    requests.push(json!({"messages": messages, "tools": tools, "stream": true}));
    for choice in [ToolChoice::required(), ToolChoice::none()] {
        let mut body = json!({"messages": [COHERE.user_message("Go")], "tools": tools});
        choice.add_to(COHERE, &mut body).unwrap();
        requests.push(body);
    }
    #[derive(serde::Deserialize, schemars::JsonSchema)]
    #[allow(dead_code)]
    struct Report {
        /// The city.
        city: String,
        celsius: i8,
        hourly: Vec<u8>,
        note: Option<String>,
    }
    let mut typed = json!({"messages": [COHERE.user_message("Weather in Oslo, as JSON?")]});
    Output::<Report>::new().unwrap().add_to(COHERE, &mut typed);
    requests.push(typed);
    let mut events = stream::cohere().events;
    events.push(
        json!({"type": "citation-start", "index": 0, "delta": {"message": {"citations": {
        "start": 0, "end": 5, "text": "Sunny", "type": "TEXT_CONTENT", "sources": []}}}}),
    );
    events.push(json!({"type": "citation-end", "index": 0}));
    let cases = json!({
        "requests": requests,
        "responses": [first_response(), final_response(), stream::cohere().whole],
        "stream_events": events,
    });
    let Some((ok, report)) = validate(&cases, "cohere_cases.json") else {
        return;
    };
    assert!(ok, "the cohere SDK refused what we build:\n{report}");
    assert!(
        report.contains(
            "accepted by the cohere SDK's types: 6 requests, 3 responses, 25 stream events"
        ),
        "{report}"
    );
}

/// The validator refuses what Cohere would: a member no SDK model declares, a tool result whose
/// document data is text, a `tool_choice` Cohere does not have, a request member `chat` has no
/// parameter for, a finish reason outside the SDK's, an unknown stream event.
#[test]
fn the_cohere_validator_refuses_what_cohere_would() {
    let cases = json!({
        "requests": [
            {"messages": [{"role": "user", "content": "hi", "name": "me"}]},
            {"messages": [{"role": "tool", "tool_call_id": "c",
                "content": [{"type": "document", "document": {"data": "text"}}]}]},
            {"messages": [], "tool_choice": "AUTO"},
            {"messages": [], "parallel_tool_calls": false},
        ],
        "responses": [{"id": "r", "finish_reason": "DONE", "message": {"role": "assistant"}}],
        "stream_events": [{"type": "tool-call-begin", "index": 0}],
    });
    let Some((ok, report)) = validate(&cases, "cohere_wrong_cases.json") else {
        return;
    };
    assert!(!ok, "{report}");
    for expected in [
        "requests[0].messages[0]: unknown member `name`",
        "requests[1].messages",
        "requests[2].tool_choice: `AUTO`",
        "requests[3]: `parallel_tool_calls` is no parameter",
        "responses[0].finish_reason: `DONE`",
        "stream_events[0]: `tool-call-begin` is not a v2 chat stream event",
    ] {
        assert!(
            report.contains(expected),
            "{expected} not refused:\n{report}"
        );
    }
}
