//! Typed answers (issue 27): an `Output<T>` through a toolkit, whole and streamed, on every
//! dialect: the output tool is answered as its provider requires and its arguments are the
//! typed value; a wrong answer gets a retry message with the field path, in the result the
//! model reads and in the error the host gets.

use serde::Deserialize;
use serde_json::{json, Value};
use toolnexus::stream::StreamTurn;
use toolnexus::{tool, AnswerError, Dialect, Output, RunOptions, Toolkit};

#[path = "../common/mod.rs"]
mod common;

use common::dialects::{self, Call, Fixture};
use common::generate::Rng;

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

/// A response of `fixture`'s dialect whose one call is `name` with `args`.
fn call_response(fixture: &dyn Fixture, name: &str, args: Value) -> Value {
    fixture.response(&[Call::new("call_1", name, args)])
}

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
    for fixture in dialects::ALL {
        let dialect = fixture.dialect();
        let response = call_response(fixture, "final_answer", arguments());
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
async fn a_structured_answer_in_text_is_the_typed_value_in_every_dialect() {
    let output = Output::<Plan>::new().unwrap();
    let toolkit = toolkit(&output);
    for fixture in dialects::ALL {
        let dialect = fixture.dialect();
        // The text in parts where the format has them, reasoning beside it.
        let response = fixture.text_only(&arguments().to_string());
        let turn = toolkit.respond(&response, dialect).await.unwrap();
        assert!(turn.is_final(), "{dialect}");
        assert_eq!(output.parse(&turn), Ok(plan()), "{dialect}");
        assert_eq!(
            output.parse_response(dialect, &response),
            Ok(plan()),
            "{dialect}"
        );
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
    for fixture in dialects::ALL {
        let dialect = fixture.dialect();
        let turn = toolkit
            .respond(&call_response(fixture, "Plan", wrong.clone()), dialect)
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
    for fixture in dialects::ALL {
        let dialect = fixture.dialect();
        let response = call_response(fixture, "hours", json!({"place": "Fram"}));
        let turn = toolkit.respond(&response, dialect).await.unwrap();
        assert_eq!(turn.results[0].output, "Fram: 9-17", "{dialect}");
        assert!(!turn.is_final(), "{dialect}");
        assert_eq!(output.parse(&turn), Err(AnswerError::NoAnswer { dialect }));
    }
}

#[tokio::test]
async fn a_refused_response_is_refused_not_a_parse_error() {
    let output = Output::<Plan>::new().unwrap();
    let toolkit = toolkit(&output);
    // A response the provider stopped (a refusal, a filter), answer and all.
    for fixture in dialects::ALL {
        let dialect = fixture.dialect();
        let mut refusal = call_response(fixture, "Plan", arguments());
        let reason = fixture.end(&mut refusal, dialects::Stop::Safety);
        let err: AnswerError = toolkit.respond(&refusal, dialect).await.unwrap_err().into();
        assert_eq!(err, AnswerError::Refused { dialect, reason });
    }
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

    // Tool mode: the output tool's arguments, in pieces, in every dialect.
    for fixture in dialects::ALL {
        let dialect = fixture.dialect();
        for seed in 0..8 {
            let call = Call::new("call_1", "Plan", arguments());
            let events = fixture.events(&mut Rng(seed), &[call]);
            let turn = streamed(&toolkit, dialect, events).await;
            assert_eq!(turn.results[0].output, "Answer received.", "{dialect}");
            assert!(turn.is_final(), "{dialect}");
            assert_eq!(output.parse(&turn), Ok(plan()), "{dialect}");
        }
    }
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
