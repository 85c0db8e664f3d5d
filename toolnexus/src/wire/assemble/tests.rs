//! The assembler's rules: the byte bound, ready once by key and by place.

use super::*;
use crate::values::call::{Arguments, CallKind};

fn call(name: &str) -> Result<Option<ToolCall>, ResponseError> {
    Ok(Some(ToolCall {
        id: Some(name.to_owned()),
        name: name.to_owned(),
        arguments: Arguments::Absent,
        kind: CallKind::Function,
    }))
}

#[test]
fn pieces_past_the_bound_are_dropped_and_counted() {
    let mut calls = Assembly::new(8);
    calls.push(0, "{\"a\":");
    calls.push(0, "1}");
    assert_eq!(calls.arguments(0), Some("{\"a\":1}"));
    assert_eq!(calls.oversize(0), None);
    calls.push(0, "  ");
    assert_eq!(
        calls.arguments(0),
        Some(""),
        "past the bound nothing is kept"
    );
    calls.push(0, "more");
    assert_eq!(
        calls.oversize(0),
        Some(13),
        "every byte received is counted"
    );
    calls.ready(0, 0, || call("a"));
    assert!(matches!(
        calls.signals[..],
        [Signal::Ready {
            oversize: Some(13),
            ..
        }]
    ));
}

#[test]
fn whole_text_is_bounded_too() {
    let mut calls = Assembly::new(4);
    calls.replace(1, "{}".into());
    assert_eq!(calls.arguments(1), Some("{}"));
    calls.replace(1, "{\"ab\":1}".into());
    assert_eq!((calls.arguments(1), calls.oversize(1)), (Some(""), Some(8)));
    assert_eq!(calls.oversized().collect::<Vec<_>>(), [1]);
}

#[test]
fn a_call_is_ready_once_by_key_and_by_place() {
    let mut calls = Assembly::new(64);
    calls.ready(3, 0, || call("a"));
    calls.ready(3, 0, || call("again"));
    calls.ready(4, 0, || call("same place"));
    calls.ready(5, 1, || Ok(None));
    assert!(calls.is_ready(5), "said ready, though not a call");
    calls.ready(6, 1, || call("b"));
    let names: Vec<_> = calls
        .signals
        .iter()
        .map(|s| match s {
            Signal::Ready { call, position, .. } => (call.name.clone(), *position),
            _ => unreachable!(),
        })
        .collect();
    assert_eq!(names, [("a".to_owned(), 0), ("b".to_owned(), 1)]);
}

#[test]
fn an_indexed_delta_is_read_only_in_its_exact_shape() {
    let read = |data: &str| indexed_delta::<Value>(data.as_bytes(), "content-delta");
    let (index, delta) = read(r#"{"type":"content-delta","index":2,"delta":{"t":"hi"}}"#).unwrap();
    assert_eq!((index, delta), (2, serde_json::json!({"t": "hi"})));
    // Another kind, another member, a repeated member, a missing one: read as JSON instead.
    for data in [
        r#"{"type":"content-start","index":2,"delta":{}}"#,
        r#"{"type":"content-delta","index":2,"delta":{},"id":"x"}"#,
        r#"{"type":"content-delta","index":2,"index":3,"delta":{}}"#,
        r#"{"type":"content-delta","delta":{}}"#,
        r#"{"type":"content-delta","index":-1,"delta":{}}"#,
    ] {
        assert!(read(data).is_none(), "{data}");
    }
}
