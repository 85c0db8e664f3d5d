//! Eager execution on Tokio's paused clock (issue 10, acceptance 3): three calls whose
//! arguments complete at t = 0, 100 and 200 ms, each tool taking 150 ms, the stream ending at
//! t = 300 ms. Eager, the results are ready at 150, 250 and 350 ms (all by 350, not 650);
//! with eager execution off, all at the stream's end + 150 ms = 450 ms. The paused clock makes
//! these instants exact, not measured.

use std::time::Duration;

use futures::StreamExt;
use serde_json::{json, Value};
use tokio::time::Instant;
use toolnexus::stream::{StreamEvent, StreamTurn};
use toolnexus::{Dialect, RunOptions};

use crate::common::stream::*;

/// Four groups of events: group k (k < 3) completes call k's arguments; group 3 ends the
/// stream. Group k is sent at t = 100·k ms.
fn groups(dialect: Dialect) -> [Vec<Value>; 4] {
    let args = |n: usize| format!("{{\"n\":{n}}}");
    match dialect {
        Dialect::OpenAiChat => {
            let delta = |delta: Value, finish: Value| {
                json!({"id": "c", "object": "chat.completion.chunk", "created": 1, "model": "m",
                       "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]})
            };
            let start = |n: usize, arguments: String| {
                delta(
                    json!({"tool_calls": [{"index": n, "id": format!("call_{n}"), "type": "function",
                    "function": {"name": "slow", "arguments": arguments}}]}),
                    Value::Null,
                )
            };
            // A call is complete when the next index starts; the last one at `finish_reason`.
            [
                vec![
                    delta(json!({"role": "assistant", "content": null}), Value::Null),
                    start(0, args(0)),
                    start(1, String::new()),
                ],
                vec![
                    delta(
                        json!({"tool_calls": [{"index": 1, "function": {"arguments": args(1)}}]}),
                        Value::Null,
                    ),
                    start(2, String::new()),
                ],
                vec![
                    delta(
                        json!({"tool_calls": [{"index": 2, "function": {"arguments": args(2)}}]}),
                        Value::Null,
                    ),
                    delta(json!({}), "tool_calls".into()),
                ],
                vec![
                    json!({"id": "c", "object": "chat.completion.chunk", "created": 1, "model": "m", "choices": [],
                            "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}}),
                ],
            ]
        }
        Dialect::OpenAiResponses => {
            let item = |n: usize, arguments: &str| {
                json!({"id": format!("fc_{n}"), "type": "function_call", "call_id": format!("call_{n}"),
                       "name": "slow", "arguments": arguments, "status": "completed"})
            };
            let call = |n: usize| {
                vec![
                    json!({"type": "response.output_item.added", "output_index": n, "item": item(n, "")}),
                    json!({"type": "response.function_call_arguments.delta", "output_index": n, "delta": args(n)}),
                    json!({"type": "response.function_call_arguments.done", "output_index": n, "arguments": args(n)}),
                    json!({"type": "response.output_item.done", "output_index": n, "item": item(n, &args(n))}),
                ]
            };
            let response = |status: &str, output: Value| json!({"id": "resp", "object": "response", "status": status, "output": output});
            let mut first = vec![
                json!({"type": "response.created", "response": response("in_progress", json!([]))}),
            ];
            first.extend(call(0));
            [
                first,
                call(1),
                call(2),
                vec![
                    json!({"type": "response.completed", "response": response("completed",
                    json!([item(0, &args(0)), item(1, &args(1)), item(2, &args(2))]))}),
                ],
            ]
        }
        Dialect::Anthropic => {
            let call = |n: usize| {
                vec![
                    json!({"type": "content_block_start", "index": n, "content_block":
                        {"type": "tool_use", "id": format!("toolu_{n}"), "name": "slow", "input": {}}}),
                    json!({"type": "content_block_delta", "index": n, "delta":
                        {"type": "input_json_delta", "partial_json": args(n)}}),
                    json!({"type": "content_block_stop", "index": n}),
                ]
            };
            let mut first = vec![
                json!({"type": "message_start", "message": {"id": "msg", "type": "message",
                "role": "assistant", "model": "m", "content": [], "stop_reason": null,
                "usage": {"input_tokens": 1, "output_tokens": 1}}}),
            ];
            first.extend(call(0));
            [
                first,
                call(1),
                call(2),
                vec![
                    json!({"type": "message_delta", "delta": {"stop_reason": "tool_use"}, "usage": {"output_tokens": 9}}),
                    json!({"type": "message_stop"}),
                ],
            ]
        }
        Dialect::Cohere => {
            let call = |n: usize| {
                vec![
                    json!({"type": "tool-call-start", "index": n, "delta": {"message": {"tool_calls":
                        {"id": format!("call_{n}"), "type": "function",
                         "function": {"name": "slow", "arguments": ""}}}}}),
                    json!({"type": "tool-call-delta", "index": n, "delta": {"message": {"tool_calls":
                        {"function": {"arguments": args(n)}}}}}),
                    json!({"type": "tool-call-end", "index": n}),
                ]
            };
            let mut first = vec![json!({"type": "message-start", "id": "r",
                "delta": {"message": {"role": "assistant"}}})];
            first.extend(call(0));
            [
                first,
                call(1),
                call(2),
                vec![json!({"type": "message-end", "delta": {"finish_reason": "TOOL_CALL"}})],
            ]
        }
        _ => {
            let chunk = |parts: Value, finish: Option<&str>| {
                let mut candidate = json!({"content": {"role": "model", "parts": parts}});
                if let Some(finish) = finish {
                    candidate["finishReason"] = finish.into();
                }
                json!({"candidates": [candidate]})
            };
            let call = |n: usize| {
                vec![chunk(
                    json!([{"functionCall": {"name": "slow", "args": {"n": n}}}]),
                    None,
                )]
            };
            [
                call(0),
                call(1),
                call(2),
                vec![chunk(json!([]), Some("STOP"))],
            ]
        }
    }
}

/// Streams the groups on the paused clock; returns when each call finished (ms after the start)
/// and checks the turn.
async fn finish_times(dialect: Dialect, eager: bool) -> Vec<u64> {
    let toolkit = slow_toolkit(Duration::from_millis(150));
    let start = Instant::now();
    let bodies: Vec<(u64, Vec<u8>)> = groups(dialect)
        .iter()
        .enumerate()
        .map(|(k, events)| (100 * k as u64, sse(dialect, events)))
        .collect();
    let body = futures::stream::iter(bodies).then(move |(at, bytes)| async move {
        tokio::time::sleep_until(start + Duration::from_millis(at)).await;
        Ok::<_, std::io::Error>(bytes)
    });
    let mut turn = StreamTurn::new(&toolkit, dialect, RunOptions::default()).with_eager(eager);
    let mut finished = Vec::new();
    let mut events = turn.read(body);
    while let Some(event) = events.next().await {
        if let StreamEvent::CallFinished { index, result, .. } = event.unwrap() {
            assert_eq!(result.output, format!("done {index}"));
            finished.push((index, (Instant::now() - start).as_millis() as u64));
        }
    }
    let turn = turn.finish().await.unwrap();
    assert_eq!(turn.results.len(), 3);
    assert_eq!(
        (Instant::now() - start).as_millis(),
        *finished.iter().map(|(_, t)| t).max().unwrap() as u128
    );
    finished.sort();
    finished.into_iter().map(|(_, t)| t).collect()
}

#[tokio::test(start_paused = true)]
async fn eager_calls_finish_150ms_after_their_arguments_complete() {
    for dialect in [
        Dialect::OpenAiChat,
        Dialect::OpenAiResponses,
        Dialect::Anthropic,
        Dialect::Gemini,
        Dialect::Cohere,
    ] {
        assert_eq!(
            finish_times(dialect, true).await,
            [150, 250, 350],
            "{dialect}"
        );
    }
}

#[tokio::test(start_paused = true)]
async fn without_eager_execution_calls_run_once_the_stream_has_ended() {
    for dialect in [
        Dialect::OpenAiChat,
        Dialect::OpenAiResponses,
        Dialect::Anthropic,
        Dialect::Gemini,
        Dialect::Cohere,
    ] {
        assert_eq!(
            finish_times(dialect, false).await,
            [450, 450, 450],
            "{dialect}"
        );
    }
}

#[tokio::test(start_paused = true)]
async fn the_concurrency_bound_holds_while_streaming() {
    // One call at a time: 150, then 300 (the second waited for the first), then 450.
    let toolkit = slow_toolkit(Duration::from_millis(150));
    let start = Instant::now();
    let dialect = Dialect::Anthropic;
    let bodies: Vec<(u64, Vec<u8>)> = groups(dialect)
        .iter()
        .enumerate()
        .map(|(k, events)| (100 * k as u64, sse(dialect, events)))
        .collect();
    let body = futures::stream::iter(bodies).then(move |(at, bytes)| async move {
        tokio::time::sleep_until(start + Duration::from_millis(at)).await;
        Ok::<_, std::io::Error>(bytes)
    });
    let options = RunOptions::default().with_concurrency(1);
    let mut turn = StreamTurn::new(&toolkit, dialect, options);
    let mut events = turn.read(body);
    let mut times = Vec::new();
    while let Some(event) = events.next().await {
        if let StreamEvent::CallFinished { .. } = event.unwrap() {
            times.push((Instant::now() - start).as_millis());
        }
    }
    assert_eq!(times, [150, 300, 450]);
    turn.finish().await.unwrap();
}
