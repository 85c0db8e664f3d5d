//! A piece of text is read straight from its bytes when the event has exactly the shape of a
//! text delta, and as JSON otherwise: both give the same turn. Each stream here mixes text
//! events of that shape with near misses (another member, a repeated one, an escaped `type`,
//! a choice not yet begun, a block that is no text block), read once from an SSE body and once
//! as parsed events (which never take the straight way).

use serde_json::Value;
use toolnexus::stream::{StreamEvent, StreamTurn};
use toolnexus::{Dialect, RunOptions};

use crate::common::stream::toolkit;

/// The turn (or error) and the text reported, for `events` (raw JSON) read from bytes or fed
/// as parsed events.
async fn outcome(dialect: Dialect, events: &[&str], from_bytes: bool) -> String {
    let toolkit = toolkit();
    let mut turn = StreamTurn::new(&toolkit, dialect, RunOptions::default());
    let mut seen = Vec::new();
    let mut take = |events: &mut dyn Iterator<Item = StreamEvent>| {
        seen.extend(events.filter_map(|e| match e {
            StreamEvent::Text(text) => Some(text),
            _ => None,
        }))
    };
    for event in events {
        if from_bytes {
            take(&mut turn.feed_bytes(format!("data: {event}\n\n").as_bytes()));
        } else {
            let value: Value = serde_json::from_str(event).unwrap();
            take(&mut turn.feed_event(value));
        }
    }
    let ended = match turn.finish().await {
        Ok(turn) => format!("{:?}\n{:?}", turn.calls, turn.model_turn),
        Err(e) => e.to_string(),
    };
    format!("{seen:?}\n{ended}")
}

async fn same_both_ways(dialect: Dialect, events: &[&str]) -> String {
    let bytes = outcome(dialect, events, true).await;
    assert_eq!(bytes, outcome(dialect, events, false).await, "{dialect:?}");
    bytes
}

#[tokio::test]
async fn chat_text_chunks_and_near_misses() {
    let got = same_both_ways(
        Dialect::OpenAiChat,
        &[
            r#"{"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"role":"assistant","content":""}}]}"#,
            r#"{"id":"c1","choices":[{"index":0,"delta":{"content":"a\"b\u00e9"},"finish_reason":null,"logprobs":null}],"system_fingerprint":null}"#,
            r#"{"choices":[{"index":0,"delta":{"content":"x","role":"assistant"}}]}"#,
            r#"{"choices":[{"index":0,"delta":{"content":"y"},"logprobs":{"content":[{"token":"y","logprob":0}]}}]}"#,
            r#"{"choices":[{"index":0,"delta":{"content":"z"}}],"usage":null,"error":null}"#,
            r#"{"choices":[{"index":0,"delta":{"content":"1"}}],"choices":[{"index":0,"delta":{"content":"2"}}]}"#,
            r#"{"choices":[{"index":1,"delta":{"content":"other"}}]}"#,
            r#"{"choices":[{"index":1,"delta":{"content":"more"}}]}"#,
            r#"{"choices":[{"delta":{"content":"!"}}],"system_fingerprint":"fp_1"}"#,
            r#"{"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}"#,
        ],
    )
    .await;
    assert!(
        got.starts_with(r#"["a\"bé", "x", "y", "z", "2", "!"]"#),
        "{got}"
    );
}

#[tokio::test]
async fn responses_text_deltas_and_near_misses() {
    let added = r#"{"type":"response.output_item.added","output_index":0,"item":{"id":"m","type":"message","status":"in_progress","role":"assistant","content":[]}}"#;
    let part = r#"{"type":"response.content_part.added","output_index":0,"content_index":0,"part":{"type":"output_text","text":"","annotations":[]}}"#;
    let events = [
        r#"{"type":"response.created","response":{"id":"r","status":"in_progress","output":[]}}"#,
        added,
        part,
        r#"{"type":"response.output_text.delta","output_index":0,"content_index":0,"delta":"one ","logprobs":[]}"#,
        r#"{"type":"response.output_text.delta","output_index":0,"delta":"two "}"#,
        r#"{"type":"response.output_text.delta","output_index":0,"content_index":"x","delta":"three "}"#,
        r#"{"type":"response.output_text.delt\u0061","output_index":0,"content_index":0,"delta":"four"}"#,
        r#"{"type":"response.output_text.delta","output_index":0,"content_index":0,"delta":"five","delta":"six"}"#,
        r#"{"type":"response.completed","response":{"id":"r","status":"completed"}}"#,
    ];
    let got = same_both_ways(Dialect::OpenAiResponses, &events).await;
    assert!(
        got.starts_with(r#"["one ", "two ", "three ", "four", "six"]"#),
        "{got}"
    );

    // A delta for an item that never began: the same error both ways.
    let stray = r#"{"type":"response.output_text.delta","output_index":7,"delta":"lost"}"#;
    let got = same_both_ways(Dialect::OpenAiResponses, &[events[0], added, stray]).await;
    assert!(got.contains("output[7]"), "{got}");
}

#[tokio::test]
async fn anthropic_text_deltas_and_near_misses() {
    let start = r#"{"type":"message_start","message":{"id":"m","type":"message","role":"assistant","content":[],"stop_reason":null}}"#;
    let events = [
        start,
        r#"{"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":""}}"#,
        r#"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"not shown"}}"#,
        r#"{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"hm"}}"#,
        r#"{"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"sig"}}"#,
        r#"{"type":"content_block_stop","index":0}"#,
        r#"{"type":"content_block_start","index":1,"content_block":{"type":"text","text":""}}"#,
        r#"{"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"Hello\n"}}"#,
        r#"{"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"there"},"extra":1}"#,
        r#"{"type":"content_block_delta","index":1,"delta":{"type":"text_delt\u0061","text":", you"}}"#,
        r#"{"type":"content_block_delta","index":1,"delta":{"type":"citations_delta","citation":{"type":"x"},"text":"!"}}"#,
        r#"{"type":"content_block_stop","index":1}"#,
        r#"{"type":"message_delta","delta":{"stop_reason":"end_turn"}}"#,
        r#"{"type":"message_stop"}"#,
    ];
    let got = same_both_ways(Dialect::Anthropic, &events).await;
    assert!(
        got.starts_with(r#"["Hello\n", "there", ", you", "!"]"#),
        "{got}"
    );

    // Text before `message_start`, or for a block that never began: the same error both ways.
    let early =
        r#"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a"}}"#;
    let got = same_both_ways(Dialect::Anthropic, &[early]).await;
    assert!(got.contains("message_start"), "{got}");
    let got = same_both_ways(Dialect::Anthropic, &[start, early]).await;
    assert!(got.contains("content[0]"), "{got}");
}

/// A Chat call's arguments as text pieces, and as an object (as some compatible servers send
/// them), in place of text before it: the streamed turn is the whole response's.
#[tokio::test]
async fn chat_arguments_as_pieces_and_as_an_object() {
    let call = |index: u64, id: &str, arguments: &str| {
        let (id, name) = match id {
            "" => (String::new(), ""),
            id => (
                format!(r#""id":"{id}","type":"function","#),
                r#""name":"add","#,
            ),
        };
        format!(
            r#"{{"choices":[{{"index":0,"delta":{{"tool_calls":[{{"index":{index},{id}"function":{{{name}"arguments":{arguments}}}}}]}}}}]}}"#
        )
    };
    let events = [
        call(0, "c0", r#""{\"a\": 2, ""#),
        call(0, "", r#""\"b\": 3}""#),
        call(1, "c1", r#""{\"a\"""#),
        call(1, "", r#"{"a": 4, "b": 5}"#),
        r#"{"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}"#.to_owned(),
    ];
    let events: Vec<&str> = events.iter().map(String::as_str).collect();
    let got = same_both_ways(Dialect::OpenAiChat, &events).await;
    assert!(got.contains(r#"Text("{\"a\": 2, \"b\": 3}")"#), "{got}");
    assert!(
        got.contains(r#"arguments: Value(Object {"a": Number(4), "b": Number(5)})"#),
        "{got}"
    );

    let toolkit = toolkit();
    let mut turn = StreamTurn::new(&toolkit, Dialect::OpenAiChat, RunOptions::default());
    for event in &events {
        turn.feed_bytes(format!("data: {event}\n\n").as_bytes())
            .for_each(drop);
    }
    let turn = turn.finish().await.unwrap();
    let outputs: Vec<&str> = turn.results.iter().map(|r| r.output.as_str()).collect();
    assert_eq!(outputs, ["5", "9"]);
}

#[tokio::test]
async fn gemini_text_chunks_and_near_misses() {
    let got = same_both_ways(
        Dialect::Gemini,
        &[
            r#"{"candidates":[{"content":{"parts":[{"text":"Hi "}],"role":"model"},"index":0}],"usageMetadata":{"promptTokenCount":1},"modelVersion":"m"}"#,
            r#"{"candidates":[{"content":{"parts":[{"text":"hm","thought":true}],"role":"model"}}]}"#,
            r#"{"candidates":[{"content":{"parts":[{"text":"there"}]},"index":0}],"error":null}"#,
            r#"{"candidates":[{"content":{"parts":[{"text":", a"},{"text":"nd"}]}}]}"#,
            r#"{"candidates":[{"content":{"parts":[{"text":" you"}],"role":"assistant"},"safetyRatings":[]}],"usageMetadata":{"promptTokenCount":2}}"#,
            r#"{"candidates":[{"content":{"parts":[{"text":"!"}]}},{"content":{"parts":[{"text":"other"}]}}]}"#,
            r#"{"candidates":[{"content":{"parts":[{"text":"?"}],"parts":[{"text":"!"}]}}]}"#,
            r#"{"candidates":[{"content":{"parts":[{"text":" Done"}]},"finishReason":"STOP"}],"usageMetadata":{"promptTokenCount":3}}"#,
        ],
    )
    .await;
    assert!(
        got.starts_with(r#"["Hi ", "there", ", a", "nd", " you", "!", "!", " Done"]"#),
        "{got}"
    );
    assert!(got.contains(r#""role": String("assistant")"#), "{got}");
}

#[tokio::test]
async fn cohere_text_deltas_and_near_misses() {
    let events = [
        r#"{"type":"message-start","id":"r","delta":{"message":{"role":"assistant"}}}"#,
        r#"{"type":"content-start","index":0,"delta":{"message":{"content":{"type":"thinking","thinking":""}}}}"#,
        r#"{"type":"content-delta","index":0,"delta":{"message":{"content":{"text":"not shown"}}}}"#,
        r#"{"type":"content-delta","index":0,"delta":{"message":{"content":{"thinking":"hm"}}}}"#,
        r#"{"type":"content-end","index":0}"#,
        r#"{"type":"content-start","index":1,"delta":{"message":{"content":{"type":"text","text":""}}}}"#,
        r#"{"type":"content-delta","index":1,"delta":{"message":{"content":{"text":"Hello\n"}}}}"#,
        r#"{"type":"content-delta","index":1,"delta":{"message":{"content":{"text":"there"}}},"logprobs":{"token_ids":[1]}}"#,
        r#"{"type":"content-delt\u0061","index":1,"delta":{"message":{"content":{"text":", you"}}}}"#,
        r#"{"type":"content-delta","index":2,"delta":{"message":{"content":{"text":"!"}}}}"#,
        r#"{"type":"content-end","index":1}"#,
        r#"{"type":"message-end","delta":{"finish_reason":"COMPLETE"}}"#,
    ];
    let got = same_both_ways(Dialect::Cohere, &events).await;
    assert!(
        got.starts_with(r#"["Hello\n", "there", ", you", "!"]"#),
        "{got}"
    );
    assert!(
        got.contains(r#""thinking": String("not shownhm")"#),
        "{got}"
    );
}
