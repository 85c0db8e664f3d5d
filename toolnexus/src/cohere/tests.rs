//! Cohere v2 Chat: the stop rule, the model turn, results out and the choices, as exact JSON
//! (its stream: `tests/stream`).

use serde_json::{json, Value};

use crate::response::ResponseError;
use crate::values::call::{Arguments, ToolCall};
use crate::values::dialect::Dialect;
use crate::values::result::ToolResult;
use crate::wire::choice::ToolChoice;

const COHERE: Dialect = Dialect::Cohere;

fn response(reason: &str) -> Value {
    json!({"id": "r1", "finish_reason": reason, "message": {"role": "assistant",
        "tool_plan": "I will look it up.",
        "tool_calls": [{"id": "c1", "type": "function",
                        "function": {"name": "lookup", "arguments": "{\"q\":\"x\"}"}}]}})
}

#[test]
fn calls_run_under_complete_tool_call_and_stop_sequence_only() {
    for reason in ["COMPLETE", "TOOL_CALL", "STOP_SEQUENCE"] {
        let calls = COHERE.parse_calls(&response(reason)).unwrap();
        assert_eq!(
            calls,
            [ToolCall::new(
                "c1",
                "lookup",
                Arguments::Text("{\"q\":\"x\"}".into())
            )]
        );
    }
    let err = |reason| COHERE.parse_calls(&response(reason)).unwrap_err();
    assert!(matches!(err("MAX_TOKENS"), ResponseError::Truncated { .. }));
    assert!(matches!(err("TIMEOUT"), ResponseError::Incomplete { .. }));
    assert!(
        matches!(err("ERROR"), ResponseError::Provider { retry: true, code: Some(c), .. } if c == "ERROR")
    );
    assert_eq!(
        err("USER_CANCEL").to_string(),
        "the Cohere v2 Chat response was stopped by the provider; none of its tool calls were \
         run (`finish_reason` is `USER_CANCEL`)"
    );
    let refused = COHERE
        .parse_calls(&json!({"id": "e1", "message": "invalid request: model not found"}))
        .unwrap_err();
    assert_eq!(
        refused.to_string(),
        "Cohere v2 Chat returned an error instead of a response: invalid request: model not found"
    );
}

#[test]
fn the_model_turn_keeps_the_plan_with_its_calls() {
    let turn = COHERE.model_turn(&response("TOOL_CALL")).unwrap();
    assert_eq!(
        turn,
        [
            json!({"role": "assistant", "tool_plan": "I will look it up.",
            "tool_calls": [{"id": "c1", "type": "function",
                            "function": {"name": "lookup", "arguments": "{\"q\":\"x\"}"}}]})
        ]
    );
    let text = json!({"id": "r2", "finish_reason": "COMPLETE", "message": {"role": "assistant",
        "content": [{"type": "thinking", "thinking": "hm"}, {"type": "text", "text": "Hi."}]}});
    let turn = COHERE.model_turn(&text).unwrap();
    assert_eq!(turn[0]["content"], text["message"]["content"]);
    assert_eq!(COHERE.wire().text(&turn), "Hi.");
}

#[test]
fn results_are_documents_and_errors_say_so() {
    let calls = [
        ToolCall::new("c1", "lookup", Arguments::Absent),
        ToolCall::new("c2", "shot", Arguments::Absent),
    ];
    let results = [
        ToolResult::error(""),
        ToolResult::ok("page").with_image("image/png", vec![1, 2]),
    ];
    let messages = COHERE.render_results(calls.iter().zip(&results));
    let document = |data: Value| json!([{"type": "document", "document": {"data": data}}]);
    assert_eq!(
        messages,
        [
            json!({"role": "tool", "tool_call_id": "c1",
                   "content": document(json!({"error": "the tool failed without a message"}))}),
            json!({"role": "tool", "tool_call_id": "c2", "content": document(json!({"error":
                "the result of `shot` was not sent: it is an image of type `image/png`, which \
                 Cohere v2 Chat does not accept in a tool result (accepted: no images or files); \
                 convert it or describe it in text"}))}),
        ]
    );
}

#[test]
fn tool_choice_is_required_or_none_and_refuses_the_rest() {
    let part = |choice: ToolChoice| choice.request_part(COHERE).map(Value::Object);
    assert_eq!(part(ToolChoice::auto()).unwrap(), json!({}));
    assert_eq!(
        part(ToolChoice::required()).unwrap(),
        json!({"tool_choice": "REQUIRED"})
    );
    assert_eq!(
        part(ToolChoice::none()).unwrap(),
        json!({"tool_choice": "NONE"})
    );
    for refused in [
        ToolChoice::tool("lookup").unwrap(),
        ToolChoice::auto_among(["lookup"]).unwrap(),
        ToolChoice::required().one_at_a_time(),
    ] {
        let err = part(refused).unwrap_err().to_string();
        assert!(
            err.starts_with("Cohere v2 Chat has no tool choice for "),
            "{err}"
        );
    }
}
