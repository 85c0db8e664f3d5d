//! Any history, however wrong, read as a transcript (issue 41's bad input): messages built from
//! the words every dialect uses (roles, part types, call and result members) with random
//! values, and valid histories of every dialect with one member replaced by any value or
//! removed. Reading never panics; a history read without error renders for every dialect
//! without panicking, and what is rendered reads back as the target.

use proptest::prelude::*;
use serde_json::{json, Map, Value};
use toolnexus::transcript::Transcript;
use toolnexus::Dialect;

use crate::common::block_on;
use crate::common::dialects;
use crate::common::generate::Rng;
use crate::common::transcript::conversation;

const ROLES: [&str; 7] = [
    "user",
    "assistant",
    "tool",
    "system",
    "model",
    "developer",
    "x",
];
const TYPES: [&str; 16] = [
    "text",
    "image_url",
    "file",
    "input_text",
    "output_text",
    "thinking",
    "redacted_thinking",
    "tool_use",
    "tool_result",
    "function_call",
    "function_call_output",
    "reasoning",
    "document",
    "message",
    "server_tool_use",
    "image",
];
const KEYS: [&str; 22] = [
    "role",
    "content",
    "type",
    "text",
    "id",
    "name",
    "arguments",
    "input",
    "tool_calls",
    "tool_call_id",
    "tool_use_id",
    "call_id",
    "output",
    "parts",
    "functionCall",
    "functionResponse",
    "toolUse",
    "toolResult",
    "function",
    "is_error",
    "args",
    "response",
];

fn leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i32>().prop_map(Value::from),
        prop::sample::select(&ROLES[..]).prop_map(Value::from),
        prop::sample::select(&TYPES[..]).prop_map(Value::from),
        "[a-z{}\":0-9 ]{0,12}".prop_map(Value::from),
        Just(Value::from("data:image/png;base64,AQID")),
    ]
}

fn tree() -> impl Strategy<Value = Value> {
    leaf().prop_recursive(4, 40, 5, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec((prop::sample::select(&KEYS[..]), inner), 0..5).prop_map(|kv| {
                Value::Object(kv.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())
            }),
        ]
    })
}

/// A message: a role, and some of the members messages have, with random values.
fn message() -> impl Strategy<Value = Value> {
    (
        prop::sample::select(&ROLES[..]),
        prop::collection::vec((prop::sample::select(&KEYS[..]), tree()), 0..4),
    )
        .prop_map(|(role, members)| {
            let mut message = Map::new();
            message.insert("role".into(), json!(role));
            for (key, value) in members {
                message.insert(key.to_owned(), value);
            }
            Value::Object(message)
        })
}

/// Every place in `value` (its JSON pointers), the root left out.
fn places(value: &Value, at: String, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (key, inner) in map {
                let here = format!("{at}/{}", key.replace('~', "~0").replace('/', "~1"));
                out.push(here.clone());
                places(inner, here, out);
            }
        }
        Value::Array(items) => {
            for (i, inner) in items.iter().enumerate() {
                let here = format!("{at}/{i}");
                out.push(here.clone());
                places(inner, here, out);
            }
        }
        _ => {}
    }
}

/// `history` with the place at `pick` (of all its places) replaced by `value`, or removed.
fn mutated(history: &[Value], pick: usize, value: Option<Value>) -> Vec<Value> {
    let mut history = history.to_vec();
    let whole = Value::Array(history.clone());
    let mut all = Vec::new();
    places(&whole, String::new(), &mut all);
    let Some(place) = all.get(pick % all.len().max(1)) else {
        return history;
    };
    let (parent, last) = place.rsplit_once('/').unwrap();
    let mut root = Value::Array(std::mem::take(&mut history));
    if let Some(holder) = root.pointer_mut(parent) {
        match (holder, value) {
            (Value::Object(map), Some(value)) => {
                map.insert(last.replace("~1", "/").replace("~0", "~"), value);
            }
            (Value::Object(map), None) => {
                map.remove(&last.replace("~1", "/").replace("~0", "~"));
            }
            (Value::Array(items), value) => {
                let i: usize = last.parse().unwrap();
                match value {
                    Some(value) => items[i] = value,
                    None => {
                        items.remove(i);
                    }
                }
            }
            _ => {}
        }
    }
    match root {
        Value::Array(items) => items,
        _ => Vec::new(),
    }
}

/// What is read renders for every dialect, and reads back as it.
fn renders_and_reads_back(dialect: Dialect, history: &[Value]) -> Result<(), TestCaseError> {
    let Ok(transcript) = Transcript::read(dialect, history) else {
        return Ok(());
    };
    for target in Dialect::ALL {
        let moved = transcript.render(target);
        let back = Transcript::read(target, &moved.messages);
        prop_assert!(
            back.is_ok(),
            "{dialect} -> {target}: {:?}\nread: {transcript:?}\nrendered: {:#?}",
            back.err(),
            moved.messages
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None,
        ..ProptestConfig::default() })]

    #[test]
    fn any_history_reads_without_panicking_and_what_is_read_renders_and_reads_back(
        history in prop::collection::vec(message(), 0..6),
    ) {
        for dialect in Dialect::ALL {
            renders_and_reads_back(dialect, &history)?;
        }
    }

    #[test]
    fn a_valid_history_with_one_member_replaced_or_removed_never_panics(
        source in 0usize..6,
        seed in 0u64..1000,
        pick in any::<usize>(),
        value in prop::option::of(tree()),
    ) {
        let fixture = dialects::ALL[source];
        let (history, _) = block_on(conversation(fixture, &mut Rng(seed), 2));
        let history = mutated(&history, pick, value);
        renders_and_reads_back(fixture.dialect(), &history)?;
    }
}
