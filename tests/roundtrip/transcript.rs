//! One conversation, any provider (issue 41): a history each dialect's own toolkit wrote, read
//! as a transcript and rendered for every dialect (all 36 ordered pairs), then read back as the
//! target. Whatever the pair: every call keeps its name and arguments and exactly one result,
//! in order, with its text and error flag; every id fits the target's rule and none repeats;
//! every user and model text survives; the same dialect in and out gives the same bytes.

use serde_json::{json, Value};
use toolnexus::transcript::{Answered, Loss, Message, Part, Reasoning, Transcript};
use toolnexus::{Dialect, ToolResult};

use crate::common::dialects::{self, Fixture};
use crate::common::generate::Rng;
use crate::common::transcript::{conversation, Said};

/// `history` with each run of messages of one role made one (their `content` lists joined):
/// Converse refuses two user turns in a row, which a toolkit's turns (results, then the next
/// question) would otherwise be.
fn alternating(history: &[Value]) -> Vec<Value> {
    let mut joined: Vec<Value> = Vec::new();
    for message in history {
        match joined.last_mut() {
            Some(last) if last["role"] == message["role"] => {
                let more = message["content"].as_array().unwrap().clone();
                last["content"].as_array_mut().unwrap().extend(more);
            }
            _ => joined.push(message.clone()),
        }
    }
    joined
}

fn from_dialect(fixture: &dyn Fixture) -> Dialect {
    fixture.dialect()
}

/// What a transcript says, and every call id it gives, in order.
fn said(transcript: &Transcript) -> (Said, Vec<Option<String>>) {
    let mut said = Said::default();
    let mut ids = Vec::new();
    for message in &transcript.messages {
        match message {
            Message::User { text, .. } => said.user.push(text.clone()),
            Message::Assistant { parts, .. } => {
                for part in parts {
                    match part {
                        Part::Text { text } => said.model.push(text.clone()),
                        Part::Call {
                            id,
                            name,
                            arguments,
                        } => {
                            said.calls.push((name.clone(), arguments.clone()));
                            ids.push(id.clone());
                        }
                        _ => {}
                    }
                }
            }
            Message::Results { results } => {
                for answered in results {
                    said.results
                        .push((answered.result.output.clone(), answered.result.is_error));
                }
            }
            _ => {}
        }
    }
    (said, ids)
}

#[tokio::test]
async fn a_conversation_moves_between_every_pair_of_dialects_keeping_each_call_and_result() {
    let mut rng = Rng(41);
    for source in dialects::ALL {
        for round in 0..10 {
            let (history, expected) = conversation(source, &mut rng, 1 + round % 4).await;
            let from = source.dialect();
            let transcript = Transcript::read(from, &history)
                .unwrap_or_else(|e| panic!("{from}: {e}\n{history:#?}"));
            let (read, _) = said(&transcript);
            assert_eq!(read, expected, "{from}: read as written");
            for target in dialects::ALL {
                let to = target.dialect();
                let moved = transcript.render(to);
                let back = Transcript::read(to, &moved.messages)
                    .unwrap_or_else(|e| panic!("{from} -> {to}: {e}\n{:#?}", moved.messages));
                let (got, ids) = said(&back);
                assert_eq!(got, expected, "{from} -> {to}");
                let rule = to.id_rule();
                let given: Vec<&String> = ids.iter().flatten().collect();
                for id in &given {
                    assert!(rule.accepts(id), "{from} -> {to}: `{id}` breaks the rule");
                }
                let distinct: std::collections::HashSet<_> = given.iter().collect();
                assert_eq!(distinct.len(), given.len(), "{from} -> {to}: ids repeat");
                if from == to {
                    let same = if to == Dialect::Bedrock {
                        alternating(&history)
                    } else {
                        history.clone()
                    };
                    assert_eq!(
                        moved.messages, same,
                        "{from}: the same dialect, the same bytes"
                    );
                    assert!(moved.losses.is_empty(), "{from}: {:?}", moved.losses);
                }
                assert!(
                    moved.losses.iter().all(|l| match l {
                        Loss::SystemMovedOut { .. } => true,
                        Loss::ReasoningDropped { from, .. } => *from == from_dialect(source),
                        _ => false,
                    }),
                    "{from} -> {to}: {:?}",
                    moved.losses
                );
            }
        }
    }
}

#[test]
fn ids_no_target_takes_are_fitted_and_each_result_follows_its_call() {
    // Kimi's ids, reused across turns, and one over OpenAI Chat's 40 bytes.
    let long = "x".repeat(50);
    let history = [
        json!({"role": "user", "content": "go"}),
        json!({"role": "assistant", "content": null, "tool_calls": [
            {"id": "functions.lookup:0", "type": "function", "function": {"name": "lookup", "arguments": "{}"}},
            {"id": long, "type": "function", "function": {"name": "lookup", "arguments": "{\"q\":1}"}}]}),
        json!({"role": "tool", "tool_call_id": long, "content": "second"}),
        json!({"role": "tool", "tool_call_id": "functions.lookup:0", "content": "first"}),
        json!({"role": "assistant", "content": null, "tool_calls": [
            {"id": "functions.lookup:0", "type": "function", "function": {"name": "lookup", "arguments": "{}"}}]}),
        json!({"role": "tool", "tool_call_id": "functions.lookup:0", "content": "third"}),
    ];
    let transcript = Transcript::read(Dialect::OpenAiChat, &history).unwrap();
    let moved = transcript.render(Dialect::Anthropic);
    let m = &moved.messages;
    let first = m[1]["content"][0]["id"].as_str().unwrap().to_owned();
    let second = m[1]["content"][1]["id"].as_str().unwrap().to_owned();
    let third = m[3]["content"][0]["id"].as_str().unwrap().to_owned();
    for id in [&first, &second, &third] {
        assert!(Dialect::Anthropic.id_rule().accepts(id), "{id}");
    }
    assert_ne!(first, third, "a reused id gets a new id per call");
    // The results are put in call order, each with its call's id.
    assert_eq!(m[2]["content"][0]["tool_use_id"], first.as_str());
    assert_eq!(m[2]["content"][0]["content"], "first");
    assert_eq!(m[2]["content"][1]["tool_use_id"], second.as_str());
    assert_eq!(m[4]["content"][0]["tool_use_id"], third.as_str());
    assert_eq!(m[4]["content"][0]["content"], "third");
}

#[test]
fn a_call_without_a_result_is_answered_and_a_result_without_a_call_dropped_each_reported() {
    let history = [
        json!({"role": "user", "content": [{"type": "text", "text": "go"}]}),
        json!({"role": "assistant", "content": [
            {"type": "tool_use", "id": "toolu_1", "name": "lookup", "input": {}}]}),
        json!({"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "toolu_9", "content": "stray"},
            {"type": "text", "text": "never mind"}]}),
    ];
    let transcript = Transcript::read(Dialect::Anthropic, &history).unwrap();
    let moved = transcript.render(Dialect::OpenAiChat);
    assert_eq!(
        moved.losses,
        [
            Loss::ResultWithoutCall {
                message: 2,
                id: "toolu_9".into()
            },
            Loss::UnansweredCall {
                message: 1,
                name: "lookup".into()
            },
        ]
    );
    let tool = &moved.messages[2];
    assert_eq!(tool["role"], "tool");
    assert_eq!(tool["tool_call_id"], "toolu_1");
    assert!(tool["content"]
        .as_str()
        .unwrap()
        .starts_with("Error: No result"));
    assert_eq!(
        moved.messages[3],
        json!({"role": "user", "content": "never mind"})
    );
    // Calls the conversation ends with are left for the host to answer.
    let open = Transcript::read(Dialect::Anthropic, &history[..2]).unwrap();
    let moved = open.render(Dialect::OpenAiChat);
    assert_eq!(moved.messages.len(), 2);
    assert!(moved.losses.is_empty());
}

#[test]
fn reasoning_goes_back_only_to_its_maker_or_as_text_when_asked() {
    let history = [
        json!({"role": "user", "content": "go"}),
        json!({"role": "assistant", "content": [
            {"type": "thinking", "thinking": "Look it up.", "signature": "sig"},
            {"type": "text", "text": "Looking."},
            {"type": "tool_use", "id": "toolu_1", "name": "lookup", "input": {"q": 1}}]}),
        json!({"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "found"}]}),
    ];
    let transcript = Transcript::read(Dialect::Anthropic, &history).unwrap();
    assert_eq!(transcript.render(Dialect::Anthropic).messages, history);
    let dropped = transcript.render(Dialect::Gemini);
    assert_eq!(
        dropped.losses[..],
        [Loss::ReasoningDropped {
            message: 1,
            from: Dialect::Anthropic
        }]
    );
    let model = &dropped.messages[1];
    assert_eq!(model["parts"][0], json!({"text": "Looking."}));
    assert_eq!(model["parts"][1]["functionCall"]["name"], "lookup");
    assert_eq!(
        model["parts"][1]["thoughtSignature"], "skip_thought_signature_validator",
        "a call another model made carries Gemini's documented stand-in signature"
    );
    let as_text = transcript.render_with(Dialect::OpenAiChat, Reasoning::AsText);
    assert_eq!(as_text.messages[1]["content"], "Look it up.Looking.");
    assert!(matches!(
        as_text.losses[0],
        Loss::ReasoningAsText { message: 1, .. }
    ));
}

#[test]
fn instructions_move_out_where_the_target_keeps_them_apart() {
    let history = [
        json!({"role": "system", "content": "Be brief."}),
        json!({"role": "user", "content": "hi"}),
    ];
    let transcript = Transcript::read(Dialect::OpenAiChat, &history).unwrap();
    for target in dialects::ALL {
        let to = target.dialect();
        let moved = transcript.render(to);
        match moved.system.as_deref() {
            Some(system) => {
                assert_eq!(system, "Be brief.", "{to}");
                assert_eq!(moved.losses, [Loss::SystemMovedOut { message: 0 }], "{to}");
                assert_eq!(moved.messages.len(), 1, "{to}");
            }
            None => {
                assert_eq!(moved.messages.len(), 2, "{to}");
                let back = Transcript::read(to, &moved.messages).unwrap();
                assert_eq!(back.messages, transcript.messages, "{to}");
            }
        }
    }
}

#[test]
fn a_history_that_is_not_its_dialect_is_refused_naming_the_message_and_field() {
    let history = [
        json!({"role": "user", "content": "hi"}),
        json!({"role": "assistant", "content": [{"type": "mystery_block", "id": "x"}]}),
    ];
    let error = Transcript::read(Dialect::Anthropic, &history).unwrap_err();
    assert_eq!(error.message, Some(1));
    assert_eq!(error.path, "content[0].type");
    assert!(error.to_string().contains("mystery_block"), "{error}");
    let gemini = [json!({"role": "user", "parts": [{"text": "hi"}]})];
    let error = Transcript::read(Dialect::OpenAiChat, &gemini).unwrap_err();
    assert_eq!((error.message, error.path.as_str()), (Some(0), "content"));
    // It names the dialect the history reads as, and only one that does.
    assert_eq!(error.looks_like, Some(Dialect::Gemini));
    assert!(
        error.to_string().contains("looks like a") && error.to_string().contains("Dialect::Gemini"),
        "{error}"
    );
    assert_eq!(
        Transcript::read(Dialect::Anthropic, &history)
            .unwrap_err()
            .looks_like,
        None,
        "no dialect writes a `mystery_block`"
    );
    // Each dialect's own history, read as every other dialect that refuses it, names its own
    // dialect or a dialect that reads it whole.
    for from in Dialect::ALL {
        let history = sample_history(from);
        for other in Dialect::ALL.into_iter().filter(|&d| d != from) {
            if let Err(error) = Transcript::read(other, &history) {
                let named = error.looks_like.expect("some dialect reads it");
                assert_ne!(named, other);
                assert!(
                    Transcript::read(named, &history).is_ok(),
                    "{from:?} as {other:?}"
                );
            }
        }
    }
}

#[test]
fn media_a_targets_user_messages_cannot_carry_become_a_note_each_reported() {
    let transcript = crate::common::transcript::with_user_media();
    let Message::User { media, .. } = &transcript.messages[0] else {
        panic!("a user message first")
    };
    let mut shown_anywhere = std::collections::BTreeSet::new();
    for to in Dialect::ALL {
        let support = to.accepted_user_media();
        let moved = transcript.render(to);
        let unshown: Vec<&str> = media
            .iter()
            .map(|m| m.mime_type())
            .filter(|mime| !support.accepts(mime))
            .collect();
        let expected: Vec<Loss> = unshown
            .iter()
            .map(|mime| Loss::MediaAsNote {
                message: 0,
                mime_type: (*mime).to_owned(),
            })
            .collect();
        assert_eq!(moved.losses, expected, "{to}");
        // Read back as the target: what it shows is there, the rest is named after the text.
        let back = Transcript::read(to, &moved.messages).unwrap();
        let Message::User { text, media: got } = &back.messages[0] else {
            panic!("{to}: {:?}", back.messages[0])
        };
        let got: Vec<&str> = got.iter().map(|m| m.mime_type()).collect();
        let kept: Vec<&str> = media
            .iter()
            .map(|m| m.mime_type())
            .filter(|mime| support.accepts(mime))
            .collect();
        assert_eq!(got, kept, "{to}");
        assert!(text.starts_with("What is in these?"), "{to}: {text}");
        for mime in &unshown {
            assert!(text.contains(&format!("{mime}, ")), "{to}: {text}");
        }
        shown_anywhere.extend(kept);
    }
    // Gemini alone takes audio; no dialect takes a zip archive; every image type here goes
    // somewhere.
    assert!(shown_anywhere.contains("audio/wav"));
    assert!(!shown_anywhere.contains("application/zip"));
    assert!(!Dialect::Anthropic
        .accepted_user_media()
        .accepts("audio/wav"));
}

/// A short history of `dialect` with a call and its result, written by the dialect itself.
fn sample_history(dialect: Dialect) -> Vec<Value> {
    let mut transcript = Transcript::new();
    transcript.messages = vec![
        Message::User {
            text: "Weather in Paris?".into(),
            media: vec![],
        },
        Message::Assistant {
            parts: vec![Part::Call {
                id: Some("call_1".into()),
                name: "get_weather".into(),
                arguments: json!({"city": "Paris"}),
            }],
            native: None,
        },
        Message::Results {
            results: vec![Answered {
                id: Some("call_1".into()),
                name: Some("get_weather".into()),
                result: ToolResult::ok("sunny"),
            }],
        },
    ];
    transcript.render(dialect).messages
}

#[test]
fn the_json_form_round_trips_and_another_version_is_refused() {
    let history = [
        json!({"role": "user", "content": "go"}),
        json!({"role": "assistant", "content": null, "tool_calls": [{"id": "c1",
            "type": "function", "function": {"name": "lookup", "arguments": "{\"q\":1}"}}]}),
        json!({"role": "tool", "tool_call_id": "c1", "content": "Error: not found"}),
    ];
    let transcript = Transcript::read(Dialect::OpenAiChat, &history).unwrap();
    let stored = serde_json::to_value(&transcript).unwrap();
    assert_eq!(stored["version"], 1);
    assert_eq!(stored["messages"][1]["role"], "assistant");
    assert_eq!(
        stored["messages"][1]["parts"][0],
        json!({"type": "call", "id": "c1", "name": "lookup", "arguments": {"q": 1}})
    );
    assert_eq!(
        stored["messages"][2],
        json!({"role": "tool", "results": [{"id": "c1", "result": {"output": "not found", "is_error": true}}]})
    );
    assert_eq!(Transcript::from_json(stored.clone()).unwrap(), transcript);
    let mut later = stored;
    later["version"] = json!(2);
    let error = Transcript::from_json(later).unwrap_err();
    assert!(error.to_string().contains("version 2"), "{error}");
}

/// A search the provider ran itself (Anthropic's tool search blocks, Responses' tool search
/// items) goes back unchanged in its own dialect and is left out, reported, elsewhere; the
/// call the model made after it keeps its result.
#[test]
fn a_providers_own_search_stays_in_its_dialect_and_is_reported_elsewhere() {
    let anthropic = [
        json!({"role": "user", "content": "Weather in Paris?"}),
        json!({"role": "assistant", "content": [
            {"type": "server_tool_use", "id": "srvtoolu_01", "name": "tool_search_tool_bm25",
             "input": {"query": "weather"}},
            {"type": "tool_search_tool_result", "tool_use_id": "srvtoolu_01", "content": {
                "type": "tool_search_tool_search_result",
                "tool_references": [{"type": "tool_reference", "tool_name": "get_weather"}]}},
            {"type": "tool_use", "id": "toolu_01", "name": "get_weather", "input": {"city": "Paris"}}]}),
        json!({"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "toolu_01", "content": "sunny"}]}),
    ];
    let responses = [
        json!({"role": "user", "content": "Weather in Paris?"}),
        json!({"type": "tool_search_call", "id": "tsc_1", "call_id": null, "execution": "server",
               "status": "completed", "arguments": {"query": "weather"}}),
        json!({"type": "tool_search_output", "id": "tso_1", "call_id": null, "execution": "server",
               "status": "completed", "tools": []}),
        json!({"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "get_weather",
               "arguments": "{\"city\":\"Paris\"}", "status": "completed"}),
        json!({"type": "function_call_output", "call_id": "call_1", "output": "sunny"}),
    ];
    for (dialect, history, dropped) in [
        (
            Dialect::Anthropic,
            &anthropic[..],
            ["server_tool_use", "tool_search_tool_result"],
        ),
        (
            Dialect::OpenAiResponses,
            &responses[..],
            ["tool_search_call", "tool_search_output"],
        ),
    ] {
        let transcript = Transcript::read(dialect, history).unwrap();
        let same = transcript.render(dialect);
        assert_eq!(same.messages, history, "{dialect}");
        assert!(same.losses.is_empty(), "{dialect}: {:?}", same.losses);
        let moved = transcript.render(Dialect::Gemini);
        let lost: Vec<&str> = moved
            .losses
            .iter()
            .filter_map(|l| match l {
                Loss::ProviderItemDropped { item, .. } => Some(item.as_str()),
                _ => None,
            })
            .collect();
        assert_eq!(lost, dropped, "{dialect}");
        let back = Transcript::read(Dialect::Gemini, &moved.messages).unwrap();
        let results: Vec<&str> = back
            .messages
            .iter()
            .filter_map(|m| match m {
                Message::Results { results } => Some(results[0].result.output.as_str()),
                _ => None,
            })
            .collect();
        assert_eq!(results, ["sunny"], "{dialect}");
    }
}
