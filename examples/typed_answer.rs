//! Typed answers, offline: a `#[derive(Deserialize, JsonSchema)]` type as the model's final
//! answer. First structured output (each provider's request part, and a scripted answer read back
//! into the type), then tool mode in a loop: the model calls a tool, then the output tool with a
//! mistake, reads the field path it got back, and answers again. Run with
//! `cargo run --example typed_answer`.

use serde::Deserialize;
use serde_json::{json, Value};
use toolnexus::{tool, AnswerError, Dialect, Output, ToolChoice, Toolkit};

/// A short trip plan.
#[derive(Debug, PartialEq, Deserialize, schemars::JsonSchema)]
pub struct Plan {
    /// The city to visit.
    city: String,
    /// How many days.
    days: u8,
    /// The places to see, in order.
    stops: Vec<String>,
}

/// Opening hours of a place.
#[tool]
fn opening_hours(place: String) -> String {
    format!("{place}: 10:00-17:00")
}

/// A scripted model's answers in `dialect`, as the provider would send them.
fn answer_text(dialect: Dialect, text: &str) -> Value {
    match dialect {
        Dialect::OpenAiChat => json!({"choices": [{"finish_reason": "stop",
            "message": {"role": "assistant", "content": text}}]}),
        Dialect::OpenAiResponses => json!({"status": "completed", "output": [{"type": "message",
            "role": "assistant", "content": [{"type": "output_text", "text": text}]}]}),
        Dialect::Anthropic => json!({"type": "message", "role": "assistant",
            "stop_reason": "end_turn", "content": [{"type": "text", "text": text}]}),
        Dialect::Gemini => json!({"candidates": [{"finishReason": "STOP",
            "content": {"role": "model", "parts": [{"text": text}]}}]}),
        _ => json!({"stopReason": "end_turn", "output": {"message": {"role": "assistant",
            "content": [{"text": text}]}}}),
    }
}

/// An Anthropic response calling `name` with `input`.
fn call(id: &str, name: &str, input: Value) -> Value {
    json!({"type": "message", "role": "assistant", "stop_reason": "tool_use",
        "content": [{"type": "tool_use", "id": id, "name": name, "input": input}]})
}

#[tokio::main]
pub async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let output = Output::<Plan>::new()?;

    // 1. Structured output: the provider holds the model to the schema; the answer is its text.
    let text = r#"{"city": "Oslo", "days": 2.0, "stops": ["Fram Museum", "Opera"]}"#;
    for dialect in [
        Dialect::OpenAiChat,
        Dialect::OpenAiResponses,
        Dialect::Anthropic,
        Dialect::Gemini,
        Dialect::Bedrock,
    ] {
        let mut body = json!({"messages": [dialect.user_message("Plan two days in Oslo.")]});
        output.add_to(dialect, &mut body);
        let part = serde_json::to_string(output.request_part(dialect))?;
        println!(
            "{dialect}: {}...",
            part.chars().take(90).collect::<String>()
        );
        let plan = output.parse_response(dialect, &answer_text(dialect, text))?;
        assert_eq!(plan.days, 2);
    }

    // 2. Tool mode: the output tool next to the toolkit's own; the loop ends when it is called
    //    with a valid answer. A scripted Anthropic model: a lookup, a wrong answer, the answer.
    let toolkit = Toolkit::new().with(OpeningHours)?.with(output.tool())?;
    let mut script = [
        call("t1", "opening_hours", json!({"place": "Fram Museum"})),
        call(
            "t2",
            "Plan",
            json!({"city": "Oslo", "days": "two", "stops": []}),
        ),
        call(
            "t3",
            "Plan",
            json!({"city": "Oslo", "days": 2, "stops": ["Fram Museum"]}),
        ),
    ]
    .into_iter();
    let mut history = vec![Dialect::Anthropic.user_message("Plan two days in Oslo.")];
    let plan = loop {
        // The request: the tools, the output tool among them, and a tool call required.
        let mut _body = json!({"model": "claude-sonnet-4-5", "max_tokens": 1024,
            "messages": history, "tools": toolkit.to_anthropic()});
        ToolChoice::required().add_to(Dialect::Anthropic, &mut _body)?;
        let response = script.next().expect("the scripted model has an answer");
        let turn = toolkit.respond(&response, Dialect::Anthropic).await?;
        let parsed = output.parse(&turn);
        history.extend(turn.into_messages());
        match parsed {
            Ok(plan) => break plan,
            // Another tool ran: its result is in `history`, go on.
            Err(AnswerError::NoAnswer { .. }) => println!("a tool ran; asking again"),
            // The output tool's result already carries the retry message to the model.
            Err(error @ AnswerError::Invalid { .. }) => println!("retry: {error}"),
            Err(other) => return Err(other.into()),
        }
    };
    println!("{plan:?}");
    assert_eq!(plan.stops, ["Fram Museum"]);
    Ok(())
}
