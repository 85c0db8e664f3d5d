//! Streamed: a call the policy holds back never starts early, while the calls it lets run still
//! start as their arguments complete; at the end the held-back call is answered (not run).

use serde_json::json;
use toolnexus::{Dialect, Policy, RunOptions, StreamEvent, StreamTurn};

use crate::fixtures::{toolkit, Ran};

#[tokio::test]
async fn a_gated_call_never_starts_early_and_an_ungated_one_still_does() {
    let ran = Ran::default();
    let toolkit = toolkit(&ran).with_policy(Policy::new());
    let tool = |index: usize, id: &str, name: &str| {
        json!({"type": "content_block_start", "index": index,
               "content_block": {"type": "tool_use", "id": id, "name": name, "input": {}}})
    };
    let args = |index: usize, piece: &str| {
        json!({"type": "content_block_delta", "index": index,
               "delta": {"type": "input_json_delta", "partial_json": piece}})
    };
    let stop = |index: usize| json!({"type": "content_block_stop", "index": index});
    let events = [
        json!({"type": "message_start", "message": {"id": "msg_1", "type": "message",
            "role": "assistant", "model": "m", "content": [], "stop_reason": null,
            "usage": {"input_tokens": 1, "output_tokens": 1}}}),
        tool(0, "toolu_1", "rm"),
        args(0, r#"{"path": "/tmp/x"}"#),
        stop(0),
        tool(1, "toolu_2", "list"),
        args(1, r#"{"path": "/tmp"}"#),
        stop(1),
    ];
    let mut turn = StreamTurn::new(&toolkit, Dialect::Anthropic, RunOptions::default());
    let mut started = Vec::new();
    for event in events {
        for happened in turn.feed_event(event) {
            if let StreamEvent::CallStarted { call, .. } = happened {
                started.push(call.name);
            }
        }
    }
    // Both calls' arguments are complete: only the one the policy lets run has started.
    while let Some(happened) = turn.next_call_event().await {
        if let StreamEvent::CallStarted { call, .. } = happened {
            started.push(call.name);
        }
    }
    assert_eq!(started, ["list"]);
    assert_eq!((ran.list(), ran.rm()), (1, 0));

    let rest = [
        json!({"type": "message_delta", "delta": {"stop_reason": "tool_use"},
               "usage": {"output_tokens": 9}}),
        json!({"type": "message_stop"}),
    ];
    for event in rest {
        turn.feed_event(event).for_each(drop);
    }
    let turn = turn.finish().await.unwrap();
    assert_eq!(turn.results[1].output, "listed /tmp");
    assert!(turn.results[0].output.contains("needs the host's approval"));
    assert_eq!(ran.rm(), 0);
}
