//! The merging rules of the SDK's `accumulate_delta` (strings appended, numbers added, objects
//! merged, list entries merged by their `index`), and of choice logprobs.

use serde_json::{Map, Value};

use super::READ;
use crate::ResponseError;

pub(super) fn merge_logprobs(snapshot: &mut Map<String, Value>, logprobs: &Value) {
    match snapshot.get_mut("logprobs") {
        Some(Value::Object(have)) => {
            for key in ["content", "refusal"] {
                if let Some(Value::Array(more)) = logprobs.get(key) {
                    match have.get_mut(key) {
                        Some(Value::Array(list)) => list.extend(more.iter().cloned()),
                        _ => {
                            have.insert(key.into(), Value::Array(more.clone()));
                        }
                    }
                }
            }
        }
        _ => {
            snapshot.insert("logprobs".into(), logprobs.clone());
        }
    }
}

/// The SDK's `accumulate_delta`: adds `delta` into `acc`.
pub(super) fn accumulate(
    acc: &mut Map<String, Value>,
    delta: Map<String, Value>,
) -> Result<(), ResponseError> {
    for (key, value) in delta {
        let slot = acc.get_mut(&key);
        if matches!(slot, None | Some(Value::Null)) {
            if has_indexed_entries(&value) {
                acc.insert(key.clone(), Value::Array(Vec::new()));
            } else {
                acc.insert(key, value);
                continue;
            }
        }
        let Some(have) = acc.get_mut(&key) else {
            continue;
        };
        if key == "index" || key == "type" {
            *have = value;
            continue;
        }
        match (have, value) {
            (Value::String(have), Value::String(more)) => have.push_str(&more),
            (Value::Number(have), Value::Number(more)) => {
                let sum = match (have.as_i64(), more.as_i64()) {
                    (Some(a), Some(b)) => a.checked_add(b).map(Value::from),
                    _ => None,
                };
                let sum = sum.or_else(|| {
                    let (a, b) = (have.as_f64()?, more.as_f64()?);
                    serde_json::Number::from_f64(a + b).map(Value::Number)
                });
                if let Some(Value::Number(sum)) = sum {
                    *have = sum;
                }
            }
            (Value::Object(have), Value::Object(more)) => accumulate(have, more)?,
            (Value::Array(have), Value::Array(more)) => {
                let scalars = have.iter().all(|v| v.is_string() || v.is_number());
                if scalars && (!have.is_empty() || !has_indexed_entries_in(&more)) {
                    have.extend(more);
                    continue;
                }
                for entry in more {
                    let Value::Object(entry) = entry else {
                        return Err(READ.malformed(
                            "choices[].delta",
                            "list entries that are objects",
                            Some(&entry),
                        ));
                    };
                    let Some(index) = entry.get("index").and_then(Value::as_u64) else {
                        return Err(READ.malformed(
                            "choices[].delta",
                            "list entries with an integer `index`",
                            entry.get("index"),
                        ));
                    };
                    let index = index as usize;
                    match have.get_mut(index) {
                        Some(Value::Object(existing)) => accumulate(existing, entry)?,
                        Some(other) => {
                            return Err(READ.malformed(
                                "choices[].delta",
                                "list entries that are objects",
                                Some(other),
                            ))
                        }
                        None => have.push(Value::Object(entry)),
                    }
                }
            }
            // Different kinds: the SDK keeps what it has.
            _ => {}
        }
    }
    Ok(())
}

fn has_indexed_entries(value: &Value) -> bool {
    matches!(value, Value::Array(items) if has_indexed_entries_in(items))
}

fn has_indexed_entries_in(items: &[Value]) -> bool {
    items
        .iter()
        .any(|e| e.as_object().is_some_and(|e| e.contains_key("index")))
}
