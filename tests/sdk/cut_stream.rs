//! A stream cut after some calls ran (issue 31): for every dialect, dropped and truncated, the
//! `StreamError` names exactly the calls that ran (in its own text and in the `ResponseError`
//! inside), and gives the messages a host appends to go on — the model's turn holding only those
//! calls, then their results — which the providers' SDK request types accept
//! (`validate_messages.py`; Bedrock: botocore's `Converse` input shape, `validate_bedrock.py`).

use serde_json::{json, Map, Value};
use toolnexus::stream::{StreamError, StreamEvent, StreamTurn};
use toolnexus::{Dialect, ResponseError, RunOptions};

use crate::common::stream::{self, toolkit, Transcript};

/// A Bedrock ConverseStream transcript: text, a call that completes, a second one cut short.
fn bedrock() -> Transcript {
    let events = vec![
        json!({"messageStart": {"role": "assistant"}}),
        json!({"contentBlockDelta": {"contentBlockIndex": 0, "delta": {"text": "Let me check."}}}),
        json!({"contentBlockStop": {"contentBlockIndex": 0}}),
        json!({"contentBlockStart": {"contentBlockIndex": 1,
            "start": {"toolUse": {"toolUseId": "tooluse_w", "name": "get_weather"}}}}),
        json!({"contentBlockDelta": {"contentBlockIndex": 1,
            "delta": {"toolUse": {"input": "{\"city\": \"Paris\"}"}}}}),
        json!({"contentBlockStop": {"contentBlockIndex": 1}}),
        json!({"contentBlockStart": {"contentBlockIndex": 2,
            "start": {"toolUse": {"toolUseId": "tooluse_a", "name": "add"}}}}),
        json!({"contentBlockDelta": {"contentBlockIndex": 2,
            "delta": {"toolUse": {"input": "{\"a\": 2, \"b\": 3}"}}}}),
        json!({"contentBlockStop": {"contentBlockIndex": 2}}),
        json!({"messageStop": {"stopReason": "tool_use"}}),
    ];
    Transcript {
        name: "bedrock",
        dialect: Dialect::Bedrock,
        events,
        whole: Value::Null,
    }
}

/// The event(s) that end a `dialect` stream at its output token limit.
fn truncation(dialect: Dialect) -> Vec<Value> {
    match dialect {
        Dialect::OpenAiChat => vec![json!({"choices": [{"index": 0, "delta": {},
            "finish_reason": "length"}]})],
        Dialect::OpenAiResponses => vec![json!({"type": "response.incomplete",
            "sequence_number": 999, "response": {"id": "resp_1", "object": "response",
            "status": "incomplete", "incomplete_details": {"reason": "max_output_tokens"}}})],
        Dialect::Anthropic => vec![
            json!({"type": "message_delta", "delta": {"stop_reason": "max_tokens",
                "stop_sequence": null}, "usage": {"output_tokens": 10}}),
            json!({"type": "message_stop"}),
        ],
        Dialect::Gemini => vec![
            json!({"candidates": [{"content": {"parts": [], "role": "model"},
            "finishReason": "MAX_TOKENS", "index": 0}]}),
        ],
        Dialect::Cohere => {
            vec![json!({"type": "message-end", "delta": {"finish_reason": "MAX_TOKENS"}})]
        }
        _ => vec![json!({"messageStop": {"stopReason": "max_tokens"}})],
    }
}

/// The transcripts that make calls, one per dialect.
fn transcripts() -> Vec<Transcript> {
    vec![
        stream::openai_chat(),
        stream::openai_responses(),
        stream::anthropic(),
        stream::gemini(),
        stream::cohere(),
        bedrock(),
    ]
}

/// Feeds `t` until the first event after which a call has started (so it ran), then the
/// `ending` events, and finishes: the error, and the calls that started.
async fn cut(t: &Transcript, ending: &[Value]) -> (StreamError, Vec<String>) {
    let toolkit = toolkit();
    let mut turn = StreamTurn::new(&toolkit, t.dialect, RunOptions::default());
    let mut started = Vec::new();
    for event in &t.events {
        for happened in turn.feed_event(event.clone()) {
            if let StreamEvent::CallStarted { call, .. } = happened {
                started.push(call.name);
            }
        }
        if !started.is_empty() {
            break;
        }
    }
    assert!(!started.is_empty(), "{}: no call started", t.name);
    for event in ending {
        turn.feed_event(event.clone()).for_each(drop);
    }
    (turn.finish().await.unwrap_err(), started)
}

/// The ids (or, for Gemini's id-less calls, the names) of the calls in a model turn.
fn calls_in_turn(dialect: Dialect, turn: &[Value]) -> Vec<String> {
    let mut out = Vec::new();
    for message in turn {
        let entries: Vec<&Value> = match dialect {
            Dialect::OpenAiChat | Dialect::Cohere => message["tool_calls"]
                .as_array()
                .into_iter()
                .flatten()
                .collect(),
            Dialect::OpenAiResponses => vec![message],
            Dialect::Gemini => message["parts"].as_array().into_iter().flatten().collect(),
            _ => message["content"]
                .as_array()
                .into_iter()
                .flatten()
                .collect(),
        };
        for entry in entries {
            let id = match dialect {
                Dialect::OpenAiChat | Dialect::Cohere => entry.get("id"),
                Dialect::OpenAiResponses => (entry["type"] == "function_call")
                    .then(|| entry.get("call_id"))
                    .flatten(),
                Dialect::Anthropic => (entry["type"] == "tool_use")
                    .then(|| entry.get("id"))
                    .flatten(),
                Dialect::Gemini => entry.pointer("/functionCall/name"),
                _ => entry.pointer("/toolUse/toolUseId"),
            };
            if let Some(Value::String(id)) = id {
                out.push(id.clone());
            }
        }
    }
    out
}

#[tokio::test]
async fn a_cut_stream_gives_the_turn_of_the_calls_that_ran_which_every_sdk_accepts() {
    let mut messages: Map<String, Value> = Map::new();
    let mut bedrock_requests = Vec::new();
    for t in transcripts() {
        for truncated in [false, true] {
            let ending = if truncated {
                truncation(t.dialect)
            } else {
                Vec::new()
            };
            let (err, started) = cut(&t, &ending).await;
            let case = format!(
                "{} ({})",
                t.name,
                if truncated { "truncated" } else { "dropped" }
            );
            match (&err.error, truncated) {
                (ResponseError::Truncated { .. }, true)
                | (ResponseError::Dropped { .. }, false) => {}
                (other, _) => panic!("{case}: {other:?}"),
            }
            // What ran is what started, each with its result; nothing else.
            let ran: Vec<&str> = err.calls.iter().map(|c| c.name.as_str()).collect();
            assert_eq!(ran, started, "{case}");
            assert_eq!(err.results.len(), err.calls.len(), "{case}");
            assert!(
                err.results.iter().all(|r| !r.is_error),
                "{case}: {:?}",
                err.results
            );
            // Every text says exactly which ran: the error's and the `ResponseError` inside.
            assert_eq!(err.error.ran().len(), err.calls.len(), "{case}");
            for text in [err.to_string(), err.error.to_string()] {
                assert!(
                    !text.contains("none were run") && !text.contains("no call was run"),
                    "{case}: {text}"
                );
                for call in &err.calls {
                    assert!(text.contains(&format!("`{}`", call.name)), "{case}: {text}");
                }
            }
            // The model's turn holds exactly the calls that ran.
            let expected: Vec<String> = err
                .calls
                .iter()
                .map(|c| match t.dialect {
                    Dialect::Gemini => c.name.clone(),
                    _ => c.id.clone().unwrap(),
                })
                .collect();
            assert_eq!(
                calls_in_turn(t.dialect, &err.model_turn),
                expected,
                "{case}: {:?}",
                err.model_turn
            );
            assert!(!err.result_messages.is_empty(), "{case}");
            let next = err.clone().into_messages();
            assert_eq!(next, err.messages().cloned().collect::<Vec<_>>());
            if t.dialect == Dialect::Bedrock {
                let mut all = vec![json!({"role": "user", "content": [{"text": "Weather?"}]})];
                all.extend(next);
                bedrock_requests.push(json!({"messages": all}));
            } else {
                let list = messages
                    .entry(crate::venv::key(t.dialect))
                    .or_insert_with(|| Value::Array(Vec::new()));
                list.as_array_mut().unwrap().extend(next);
            }
        }
    }
    let Some((ok, report)) =
        crate::venv::validate_messages(&Value::Object(messages), "cut_stream_messages.json")
    else {
        return; // skipped: no Python (never under CI)
    };
    assert!(
        ok,
        "the SDK types refused a cut stream's messages:\n{report}"
    );
    let (ok, report) = crate::venv::verdict(
        "tests/sdk/validate_bedrock.py",
        // The transcript's own events are checked too, and the validator wants a response.
        &json!({"requests": bedrock_requests, "stream_events": bedrock().events,
            "responses": [{"output": {"message": {"role": "assistant", "content": [{"text": "ok"}]}},
                "stopReason": "end_turn", "usage": {"inputTokens": 1, "outputTokens": 1,
                "totalTokens": 2}, "metrics": {"latencyMs": 1}}]}),
        "cut_stream_bedrock.json",
    )
    .expect("Python was there a moment ago");
    assert!(
        ok,
        "botocore refused a cut Bedrock stream's messages:\n{report}"
    );
}

#[tokio::test]
async fn a_cut_stream_before_any_call_completed_has_nothing_to_append() {
    for t in transcripts() {
        let toolkit = toolkit();
        let mut turn = StreamTurn::new(&toolkit, t.dialect, RunOptions::default());
        turn.feed_event(t.events[0].clone()).for_each(drop);
        let err = turn.finish().await.unwrap_err();
        assert!(
            err.calls.is_empty() && err.model_turn.is_empty(),
            "{}",
            t.name
        );
        assert_eq!(err.messages().count(), 0, "{}", t.name);
        assert!(err.error.ran().is_empty());
    }
}
