//! What a pending turn read without a key is checked against when it is read: its calls must be
//! the calls of its own model turn, read again as its dialect reads a response's. (A call stored
//! as done is checked at resume, against the resuming toolkit's policy.)

use std::borrow::Cow;

use serde_json::{Map, Value};

use super::PendingCall;
use crate::tool::validate_name;
use crate::values::approval::ApprovalError;
use crate::values::call::{Arguments, ToolCall};
use crate::values::dialect::Dialect;

/// Checks that `calls` are the calls of `model_turn`, read as `dialect`.
pub(super) fn check(
    dialect: Dialect,
    model_turn: &[Value],
    calls: &[PendingCall],
) -> Result<(), ApprovalError> {
    let forged = |call: &str, reason: String| ApprovalError::Forged {
        call: call.to_owned(),
        reason,
    };
    let derived = dialect.wire().turn_calls(model_turn).map_err(|error| {
        let why = format!(
            "the model turn does not read as {}: {error}",
            dialect.variant_name()
        );
        forged("modelTurn", why)
    })?;
    if derived.len() != calls.len() {
        let why = format!(
            "the model turn holds {} calls, the stored turn {}",
            derived.len(),
            calls.len()
        );
        return Err(forged("modelTurn", why));
    }
    for (stored, derived) in calls.iter().zip(&derived) {
        if let Some(what) = differs(&stored.call, derived) {
            return Err(forged(
                &stored.key,
                format!("its {what} is not the model turn's"),
            ));
        }
    }
    Ok(())
}

/// What of `stored` is not what the model turn says (`derived`), if anything.
fn differs(stored: &ToolCall, derived: &ToolCall) -> Option<&'static str> {
    if stored.id != derived.id {
        return Some("id");
    }
    if stored.kind != derived.kind {
        return Some("call type");
    }
    // Gemini's model turn renames a function name no function can have (see `wire_name`):
    // a call under such a name runs no tool either way.
    if stored.name != derived.name && validate_name(&stored.name).is_ok() {
        return Some("tool name");
    }
    (!same_arguments(&stored.arguments, &derived.arguments)).then_some("arguments")
}

/// Whether two argument forms say the same: equal as sent, equal as JSON values (a model turn
/// writes an argument object as text where a compatible server sent an object), or arguments
/// that are no object, which the model turn repeats as `{}`.
fn same_arguments(stored: &Arguments, derived: &Arguments) -> bool {
    if stored == derived {
        return true;
    }
    match (value_of(stored), value_of(derived)) {
        (Some(a), Some(b)) if a == b => true,
        (Some(a), Some(b)) => !a.is_object() && b.as_object().is_some_and(Map::is_empty),
        _ => false,
    }
}

/// The arguments as a JSON value: `{}` when absent, `None` for text that is not JSON.
fn value_of(arguments: &Arguments) -> Option<Cow<'_, Value>> {
    match arguments {
        Arguments::Absent => Some(Cow::Owned(Value::Object(Map::new()))),
        Arguments::Text(text) if text.trim().is_empty() => {
            Some(Cow::Owned(Value::Object(Map::new())))
        }
        Arguments::Text(text) => serde_json::from_str(text).ok().map(Cow::Owned),
        Arguments::Value(value) => Some(Cow::Borrowed(value)),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn arguments_agree_across_their_forms_and_differ_when_edited() {
        let text = |t: &str| Arguments::Text(t.to_owned());
        let value = Arguments::Value;
        assert!(same_arguments(&text(r#"{"a":1}"#), &text(r#"{"a":1}"#)));
        assert!(same_arguments(
            &value(json!({"a": 1})),
            &text(r#"{ "a": 1 }"#)
        ));
        assert!(same_arguments(&Arguments::Absent, &text("{}")));
        assert!(same_arguments(&value(json!([1])), &value(json!({}))));
        assert!(!same_arguments(&text(r#"{"a":1}"#), &text(r#"{"a":2}"#)));
        assert!(!same_arguments(&value(json!({"a": 1})), &value(json!({}))));
        assert!(!same_arguments(&text("not json"), &text("{}")));
    }
}
