//! The restricted form, both ways: what a question may hold, and what an answer must be.

use serde_json::{json, Value};

use super::{checked, AskError, Elicitation, Elicited};

fn form(schema: Value) -> Result<Elicitation, String> {
    Elicitation::form("?", schema).map_err(|e| e.to_string())
}

fn refused(schema: Value) -> String {
    form(schema).expect_err("refused")
}

/// Every kind of field the spec lists, in one form.
fn every_kind() -> Elicitation {
    form(json!({
        "type": "object",
        "title": "Sign up",
        "properties": {
            "name": {"type": "string", "title": "Name", "minLength": 1, "maxLength": 5},
            "email": {"type": "string", "format": "email", "default": "a@b.c"},
            "age": {"type": "integer", "minimum": 0, "maximum": 150},
            "score": {"type": "number", "minimum": 0.5},
            "ok": {"type": "boolean", "description": "Agree?", "default": false},
            "plan": {"type": "string", "enum": ["free", "pro"], "enumNames": ["Free", "Pro"]},
            "size": {"type": "string", "oneOf": [{"const": "s", "title": "Small"},
                                                 {"const": "l", "title": "Large"}]},
            "tags": {"type": "array", "minItems": 1, "maxItems": 2,
                     "items": {"type": "string", "enum": ["a", "b", "c"]}},
            "days": {"type": "array", "items": {"anyOf": [{"const": "mon", "title": "Monday"}]}}
        },
        "required": ["name", "age"]
    }))
    .expect("every kind the spec lists is a form")
}

fn answer(content: Value) -> Result<Elicited, AskError> {
    let Value::Object(content) = content else {
        panic!("an object")
    };
    checked(&every_kind(), Elicited::Accept(content))
}

fn bad_answer(content: Value) -> String {
    match answer(content) {
        Err(AskError::BadAnswer(why)) => why,
        other => panic!("refused as a bad answer: {other:?}"),
    }
}

#[test]
fn a_form_is_a_flat_object_of_the_kinds_the_spec_lists() {
    let question = every_kind();
    assert_eq!(question.schema()["required"], json!(["name", "age"]));
    assert_eq!(question.timeout(), super::DEFAULT_TIMEOUT);
    assert!(form(json!({"type": "object"})).is_ok());
}

#[test]
fn anything_outside_the_form_is_refused_naming_where() {
    assert_eq!(
        refused(json!([])),
        "the question's form cannot be sent: the form is a JSON object (`{\"type\": \"object\", \"properties\": …}`)"
    );
    assert!(refused(json!({"type": "array"})).ends_with("the form's `type` is `\"object\"`"));
    assert!(refused(json!({"type": "object", "$defs": {}}))
        .ends_with("`the form` has `$defs`, which a form does not take"));
    let one = |field: Value| refused(json!({"type": "object", "properties": {"f": field}}));
    assert!(one(json!({"type": "object"})).ends_with(
        "`properties.f`: a field is a string, a number, an integer, a boolean or an array of \
         choices, not `object`"
    ));
    assert!(one(json!({"type": ["string", "null"]})).ends_with("`properties.f` needs a `type`"));
    assert!(one(json!({"$ref": "#/x"})).ends_with("`properties.f` needs a `type`"));
    assert!(one(json!({"type": "string", "pattern": "a+"}))
        .ends_with("`properties.f` has `pattern`, which a form does not take"));
    assert!(one(json!({"type": "string", "format": "ipv4"}))
        .ends_with("`properties.f.format` is one of `email`, `uri`, `date`, `date-time`"));
    assert!(one(json!({"type": "string", "minLength": -1}))
        .ends_with("`properties.f.minLength` is a whole number"));
    assert!(one(json!({"type": "string", "enum": []}))
        .ends_with("`properties.f.enum` offers at least one choice"));
    assert!(
        one(json!({"type": "string", "enum": [1]})).ends_with("`properties.f.enum` lists strings")
    );
    assert!(one(json!({"type": "string", "oneOf": [{"title": "x"}]}))
        .ends_with("`properties.f.oneOf` lists `{\"const\": \"…\", \"title\": \"…\"}`"));
    assert!(one(json!({"type": "array", "items": {"type": "integer"}}))
        .ends_with("`properties.f.items` is a choice of strings"));
    assert!(one(json!({"type": "array"})).contains("is a multiple choice"));
    assert!(one(json!({"type": "boolean", "title": 3})).ends_with("`properties.f.title` is text"));
    assert!(
        refused(json!({"type": "object", "properties": {}, "required": ["x"]}))
            .ends_with("`required` names `x`, which is no field")
    );
}

#[test]
fn an_answer_that_fits_the_form_passes() {
    let fits = json!({"name": "Ada", "age": 36, "score": 0.5, "ok": true, "plan": "pro",
                      "size": "l", "tags": ["a", "c"], "days": ["mon"], "email": "a@b.c"});
    assert!(matches!(answer(fits), Ok(Elicited::Accept(_))));
    // A whole number written as a float is a whole number.
    assert!(answer(json!({"name": "Ada", "age": 36.0})).is_ok());
    // Decline and cancel carry no content to check.
    assert_eq!(
        checked(&every_kind(), Elicited::Decline),
        Ok(Elicited::Decline)
    );
    assert_eq!(
        checked(&every_kind(), Elicited::Cancel),
        Ok(Elicited::Cancel)
    );
}

#[test]
fn an_answer_that_does_not_fit_is_refused_without_repeating_it() {
    assert_eq!(
        bad_answer(json!({"name": "Ada"})),
        "the required field `age` is missing"
    );
    assert_eq!(
        bad_answer(json!({"name": "Ada", "age": 1, "password": "hunter2"})),
        "`password` is not a field of the form"
    );
    assert_eq!(bad_answer(json!({"name": 7, "age": 1})), "`name` is text");
    assert_eq!(
        bad_answer(json!({"name": "Adalbert", "age": 1})),
        "`name` has 8 characters, outside the form's bounds"
    );
    assert_eq!(
        bad_answer(json!({"name": "", "age": 1})),
        "`name` has 0 characters, outside the form's bounds"
    );
    assert_eq!(
        bad_answer(json!({"name": "A", "age": 1.5})),
        "`age` is a whole number"
    );
    assert_eq!(
        bad_answer(json!({"name": "A", "age": "36"})),
        "`age` is a number"
    );
    assert_eq!(
        bad_answer(json!({"name": "A", "age": 151})),
        "`age` is outside the form's bounds"
    );
    assert_eq!(
        bad_answer(json!({"name": "A", "age": 1, "score": 0.1})),
        "`score` is outside the form's bounds"
    );
    assert_eq!(
        bad_answer(json!({"name": "A", "age": 1, "ok": "yes"})),
        "`ok` is true or false"
    );
    assert_eq!(
        bad_answer(json!({"name": "A", "age": 1, "plan": "gold"})),
        "`plan` is one of `free`, `pro`"
    );
    assert_eq!(
        bad_answer(json!({"name": "A", "age": 1, "size": "m"})),
        "`size` is one of `s`, `l`"
    );
    assert_eq!(
        bad_answer(json!({"name": "A", "age": 1, "tags": ["a", "z"]})),
        "`tags` picks from `a`, `b`, `c`"
    );
    assert_eq!(
        bad_answer(json!({"name": "A", "age": 1, "tags": ["a", "b", "c"]})),
        "`tags` picks 3, outside the form's bounds"
    );
    assert_eq!(
        bad_answer(json!({"name": "A", "age": 1, "tags": "a"})),
        "`tags` is a list of choices"
    );
    // Never the value itself.
    let why = bad_answer(json!({"name": "A", "age": 1, "plan": "secret-plan"}));
    assert!(!why.contains("secret"), "{why}");
}

#[test]
fn errors_read_as_what_to_do() {
    assert_eq!(
        AskError::NotSupported {
            capability: "elicitation"
        }
        .to_string(),
        "the user cannot be asked here: the MCP client does not take questions (no \
         `elicitation` capability); go on without the answer or say what is needed"
    );
    assert_eq!(
        AskError::TimedOut(std::time::Duration::from_secs(2)).to_string(),
        "no answer came within 2s"
    );
}

#[test]
fn a_sampling_request_that_cannot_be_sent_says_why() {
    use super::{Sampling, SamplingRole};
    let why = |request: Sampling| request.check().unwrap_err().to_string();
    assert!(Sampling::new("hi", 10).check().is_ok());
    assert_eq!(
        why(Sampling::new("hi", 0)),
        "the sampling request cannot be sent: `max_tokens` is 0; the model needs room to answer"
    );
    assert_eq!(
        why(Sampling::new("hi", 10).with_priorities(None, Some(1.5), None)),
        "the sampling request cannot be sent: the speed priority is outside 0 to 1"
    );
    assert_eq!(
        why(Sampling::new("hi", 10).with_temperature(f32::NAN)),
        "the sampling request cannot be sent: the temperature is not a finite number"
    );
    let mut empty = Sampling::new("hi", 10).with_message(SamplingRole::Assistant, "ok");
    empty.messages.clear();
    assert_eq!(
        why(empty),
        "the sampling request cannot be sent: it has no messages"
    );
}
