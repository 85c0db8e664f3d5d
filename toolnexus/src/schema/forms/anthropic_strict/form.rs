//! The strict form as `InputSchema` keeps it (prepared once, in `InputSchema::new`).

use serde_json::Value;

use crate::schema::Form;

/// Anthropic strict mode's form of `anthropic` (Anthropic's form; `value`: the schema as
/// written), and, when it is refused, the form structured outputs get all the same.
pub(crate) fn form(anthropic: &Value, value: &Value) -> (Form, Option<Value>) {
    let strict = super::strict(anthropic);
    match strict.narrowed {
        Some(error) => (Err(error), Some(strict.schema)),
        None if same_in_order(&strict.schema, value) => (Ok(None), None),
        None => (Ok(Some(strict.schema)), None),
    }
}

/// `a == b` with the keys of every object in the same order (the SDK's order is part of its
/// fixed point; `Value`'s `==` ignores order).
fn same_in_order(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Object(a), Value::Object(b)) => {
            a.len() == b.len()
                && a.iter()
                    .zip(b)
                    .all(|((ka, va), (kb, vb))| ka == kb && same_in_order(va, vb))
        }
        (Value::Array(a), Value::Array(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(a, b)| same_in_order(a, b))
        }
        _ => a == b,
    }
}
