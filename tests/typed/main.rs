//! Typed answers (issue 27): an `Output<T>` through a toolkit, whole and streamed, on every
//! dialect: the output tool is answered as its provider requires and its arguments are the
//! typed value; a wrong answer gets a retry message with the field path, in the result the
//! model reads and in the error the host gets.

use serde::Deserialize;
use serde_json::{json, Value};
use toolnexus::{tool, AnswerError, Dialect, Output, RunOptions, StreamTurn, Toolkit};

/// A trip plan.
#[derive(Debug, PartialEq, Deserialize, schemars::JsonSchema)]
struct Plan {
    city: String,
    days: u8,
    stops: Vec<Stop>,
}

#[derive(Debug, PartialEq, Deserialize, schemars::JsonSchema)]
struct Stop {
    name: String,
    hours: Option<u8>,
}

/// Opening hours of a place.
#[tool]
fn hours(place: String) -> String {
    format!("{place}: 9-17")
}

fn plan() -> Plan {
    Plan {
        city: "Oslo".into(),
        days: 2,
        stops: vec![Stop {
            name: "Fram Museum".into(),
            hours: None,
        }],
    }
}

/// The answer as a model sends it: Gemini's whole-number floats, strict mode's `null`s.
fn arguments() -> Value {
    json!({"city": "Oslo", "days": 2.0, "stops": [{"name": "Fram Museum", "hours": null}]})
}

/// A response of `dialect` whose one call is `name` with `args`.
fn call_response(dialect: Dialect, name: &str, args: Value) -> Value {
    match dialect {
        Dialect::OpenAiChat => json!({"choices": [{"finish_reason": "tool_calls", "message": {
            "role": "assistant", "content": null, "tool_calls": [{"id": "call_1", "type": "function",
            "function": {"name": name, "arguments": args.to_string()}}]}}]}),
        Dialect::OpenAiResponses => {
            json!({"status": "completed", "output": [{"type": "function_call",
            "id": "fc_1", "call_id": "call_1", "name": name, "arguments": args.to_string(),
            "status": "completed"}]})
        }
        Dialect::Anthropic => {
            json!({"type": "message", "role": "assistant", "stop_reason": "tool_use",
            "content": [{"type": "tool_use", "id": "toolu_1", "name": name, "input": args}]})
        }
        Dialect::Gemini => {
            json!({"candidates": [{"finishReason": "STOP", "content": {"role": "model",
            "parts": [{"functionCall": {"name": name, "args": args}}]}}]})
        }
        Dialect::Cohere => json!({"id": "r1", "finish_reason": "TOOL_CALL", "message": {
            "role": "assistant", "tool_plan": "I will answer.", "tool_calls": [{"id": "call_1",
            "type": "function", "function": {"name": name, "arguments": args.to_string()}}]}}),
        _ => json!({"stopReason": "tool_use", "output": {"message": {"role": "assistant",
            "content": [{"toolUse": {"toolUseId": "tooluse_1", "name": name, "input": args}}]}}}),
    }
}

const DIALECTS: [Dialect; 6] = [
    Dialect::OpenAiChat,
    Dialect::OpenAiResponses,
    Dialect::Anthropic,
    Dialect::Gemini,
    Dialect::Bedrock,
    Dialect::Cohere,
];

fn toolkit(output: &Output<Plan>) -> Toolkit {
    Toolkit::new()
        .with(Hours)
        .unwrap()
        .with(output.tool())
        .unwrap()
}

#[tokio::test]
async fn the_output_tool_gives_the_typed_value_and_its_call_an_answer_in_every_dialect() {
    let output = Output::<Plan>::new()
        .unwrap()
        .with_name("final_answer")
        .unwrap();
    let toolkit = toolkit(&output);
    for dialect in DIALECTS {
        let response = call_response(dialect, "final_answer", arguments());
        let turn = toolkit.respond(&response, dialect).await.unwrap();
        assert_eq!(turn.results[0].output, "Answer received.", "{dialect:?}");
        assert!(!turn.results[0].is_error);
        // The model has answered: a loop that ends on `is_final` ends here.
        assert!(turn.is_final(), "{dialect:?}");
        // The call still gets the result message(s) its provider requires.
        assert!(!turn.result_messages.is_empty(), "{dialect:?}");
        assert_eq!(output.parse(&turn), Ok(plan()), "{dialect:?}");
    }
}

#[tokio::test]
async fn the_output_tool_is_declared_like_any_tool() {
    let output = Output::<Plan>::new().unwrap();
    let toolkit = toolkit(&output);
    let openai = toolkit.to_openai();
    assert_eq!(openai[1]["function"]["name"], "Plan");
    assert_eq!(openai[1]["function"]["description"], "A trip plan.");
    assert_eq!(
        openai[1]["function"]["parameters"],
        *output.schema().for_openai()
    );
    let gemini = toolkit.to_gemini();
    assert_eq!(gemini[0]["functionDeclarations"][1]["name"], "Plan");
}

#[tokio::test]
async fn a_wrong_answer_is_sent_back_with_its_field_path() {
    let output = Output::<Plan>::new().unwrap();
    let toolkit = toolkit(&output);
    let wrong = json!({"city": "Oslo", "days": 2, "stops": [{"name": "Fram", "hours": "all day"}]});
    for dialect in DIALECTS {
        let turn = toolkit
            .respond(&call_response(dialect, "Plan", wrong.clone()), dialect)
            .await
            .unwrap();
        assert!(turn.results[0].is_error, "{dialect:?}");
        // Not final: the model reads why and answers again.
        assert!(!turn.is_final(), "{dialect:?}");
        assert_eq!(
            turn.results[0].output,
            "Your answer does not match the required schema: `stops[0].hours`: invalid type: \
             string \"all day\", expected u8. Answer again with JSON that matches it.",
            "{dialect:?}"
        );
        let err = output.parse(&turn).unwrap_err();
        assert!(
            matches!(&err, AnswerError::Invalid { path: Some(path), .. } if path == "stops[0].hours"),
            "{dialect:?}: {err:?}"
        );
    }
}

#[tokio::test]
async fn a_turn_that_calls_other_tools_has_no_answer_yet() {
    let output = Output::<Plan>::new().unwrap();
    let toolkit = toolkit(&output);
    let response = call_response(Dialect::Gemini, "hours", json!({"place": "Fram"}));
    let turn = toolkit.respond(&response, Dialect::Gemini).await.unwrap();
    assert_eq!(turn.results[0].output, "Fram: 9-17");
    assert!(!turn.is_final());
    assert_eq!(
        output.parse(&turn),
        Err(AnswerError::NoAnswer {
            dialect: Dialect::Gemini
        })
    );
}

#[tokio::test]
async fn a_refused_response_is_refused_not_a_parse_error() {
    let output = Output::<Plan>::new().unwrap();
    let toolkit = toolkit(&output);
    let refusal = json!({"type": "message", "role": "assistant", "stop_reason": "refusal",
        "content": [{"type": "text", "text": "I can't"}]});
    let err: AnswerError = toolkit
        .respond(&refusal, Dialect::Anthropic)
        .await
        .unwrap_err()
        .into();
    assert!(matches!(err, AnswerError::Refused { .. }), "{err:?}");
    let chat = json!({"choices": [{"finish_reason": "stop", "message": {"role": "assistant",
        "content": null, "refusal": "I can't help with that."}}]});
    let turn = toolkit.respond(&chat, Dialect::OpenAiChat).await.unwrap();
    assert_eq!(
        output.parse(&turn),
        Err(AnswerError::Refused {
            dialect: Dialect::OpenAiChat,
            reason: "I can't help with that.".into()
        })
    );
}

/// Feeds `events` to a streamed turn and finishes it.
async fn streamed(toolkit: &Toolkit, dialect: Dialect, events: Vec<Value>) -> toolnexus::Turn {
    let mut turn = StreamTurn::new(toolkit, dialect, RunOptions::default());
    for event in events {
        turn.feed_event(event).for_each(drop);
    }
    turn.finish().await.unwrap()
}

#[tokio::test]
async fn a_streamed_answer_parses_at_the_end() {
    let output = Output::<Plan>::new().unwrap();
    let toolkit = toolkit(&output);
    // Structured output: the answer is the text, in pieces.
    let text = arguments().to_string();
    let (head, tail) = text.split_at(text.len() / 2);
    let delta = |content: &str| json!({"choices": [{"index": 0, "delta": {"content": content}}]});
    let chat = vec![
        json!({"choices": [{"index": 0, "delta": {"role": "assistant", "content": ""}}]}),
        delta(head),
        delta(tail),
        json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}),
    ];
    let turn = streamed(&toolkit, Dialect::OpenAiChat, chat).await;
    assert_eq!(output.parse(&turn), Ok(plan()));
    // Cohere's `response_format`: the answer is a text content item, in pieces.
    let piece = |text: &str| json!({"type": "content-delta", "index": 0, "delta": {"message": {"content": {"text": text}}}});
    let cohere = vec![
        json!({"type": "message-start", "id": "r1", "delta": {"message": {"role": "assistant"}}}),
        json!({"type": "content-start", "index": 0, "delta": {"message": {"content": {
            "type": "text", "text": ""}}}}),
        piece(head),
        piece(tail),
        json!({"type": "content-end", "index": 0}),
        json!({"type": "message-end", "delta": {"finish_reason": "COMPLETE"}}),
    ];
    let turn = streamed(&toolkit, Dialect::Cohere, cohere).await;
    assert_eq!(output.parse(&turn), Ok(plan()));

    // Tool mode: the output tool's arguments, in pieces.
    let anthropic = vec![
        json!({"type": "message_start", "message": {"id": "msg_1", "type": "message",
            "role": "assistant", "content": [], "model": "claude", "stop_reason": null,
            "usage": {"input_tokens": 1, "output_tokens": 1}}}),
        json!({"type": "content_block_start", "index": 0, "content_block": {"type": "tool_use",
            "id": "toolu_1", "name": "Plan", "input": {}}}),
        json!({"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta",
            "partial_json": head}}),
        json!({"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta",
            "partial_json": tail}}),
        json!({"type": "content_block_stop", "index": 0}),
        json!({"type": "message_delta", "delta": {"stop_reason": "tool_use"},
            "usage": {"output_tokens": 9}}),
        json!({"type": "message_stop"}),
    ];
    let turn = streamed(&toolkit, Dialect::Anthropic, anthropic).await;
    assert_eq!(turn.results[0].output, "Answer received.");
    assert!(turn.is_final());
    assert_eq!(output.parse(&turn), Ok(plan()));
}

#[tokio::test]
async fn an_answer_beside_another_call_is_final_and_an_unknown_output_name_is_not() {
    let output = Output::<Plan>::new().unwrap();
    let toolkit = toolkit(&output);
    let both = json!({"type": "message", "role": "assistant", "stop_reason": "tool_use",
        "content": [{"type": "tool_use", "id": "toolu_1", "name": "hours", "input": {"place": "Fram"}},
                    {"type": "tool_use", "id": "toolu_2", "name": "Plan", "input": arguments()}]});
    let turn = toolkit.respond(&both, Dialect::Anthropic).await.unwrap();
    assert!(turn.is_final());
    assert_eq!(output.parse(&turn), Ok(plan()));
    // A toolkit without the output tool: the same call is an unknown tool, and not final.
    let plain = Toolkit::new().with(Hours).unwrap();
    let turn = plain.respond(&both, Dialect::Anthropic).await.unwrap();
    assert!(turn.results[1].is_error);
    assert!(!turn.is_final());
}
