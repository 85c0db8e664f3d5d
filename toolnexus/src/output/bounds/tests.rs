use serde::Deserialize;
use serde_json::{json, Value};

use crate::output::{AnswerError, Output};
use crate::values::dialect::Dialect;

fn part<T: serde::de::DeserializeOwned>(output: &Output<T>, dialect: Dialect) -> Value {
    Value::Object(output.request_part(dialect).clone())
}

/// Bounds schemars writes from attributes, which serde does not check.
#[derive(Debug, PartialEq, Deserialize, schemars::JsonSchema)]
struct Rating {
    #[schemars(range(min = 1, max = 10))]
    score: u32,
    #[schemars(length(min = 1, max = 3))]
    tags: Vec<Tag>,
    hour: Option<u8>,
}

#[derive(Debug, PartialEq, Deserialize, schemars::JsonSchema)]
struct Tag {
    #[schemars(length(max = 5))]
    name: String,
}

#[test]
fn bounds_anthropic_moves_into_the_description_are_still_enforced_by_parse() {
    let output = Output::<Rating>::new().unwrap();
    let schema = &part(&output, Dialect::Anthropic)["output_config"]["format"]["schema"];
    // The provider is told the bounds in words only.
    assert_eq!(
        schema["properties"]["score"],
        json!({"type": "integer", "description": "{format: uint32, minimum: 1, maximum: 10}"})
    );
    assert!(schema["properties"]["tags"].get("maxItems").is_none());
    assert_eq!(
        output.parse_text(r#"{"score": 7, "tags": [{"name": "ok"}], "hour": null}"#),
        Ok(Rating {
            score: 7,
            tags: vec![Tag { name: "ok".into() }],
            hour: None
        })
    );
    let invalid = |text: &str| match output.parse_text(text) {
        Err(AnswerError::Invalid { path, message }) => (path, message),
        other => panic!("{other:?}"),
    };
    assert_eq!(
        invalid(r#"{"score": 11, "tags": [{"name": "a"}]}"#),
        (
            Some("score".into()),
            "11 is more than the maximum 10".into()
        )
    );
    assert_eq!(
        invalid(r#"{"score": 1, "tags": []}"#),
        (
            Some("tags".into()),
            "expected at least 1 item, got 0".into()
        )
    );
    assert_eq!(
        invalid(r#"{"score": 1, "tags": [{"name": "a"}, {"name": "toolong"}]}"#),
        (
            Some("tags[1].name".into()),
            "expected at most 5 characters, got 7".into()
        )
    );
    // `hour`'s `maximum: 255` (an `Option<u8>`, behind an `anyOf` on Anthropic): serde's own
    // check, with the path, as for every integer width.
    let (path, message) = invalid(r#"{"score": 1, "tags": [{"name": "a"}], "hour": 300}"#);
    assert_eq!(path.as_deref(), Some("hour"));
    assert!(message.contains("300"), "{message}");
    // The same through a whole Anthropic response.
    let response = json!({"stop_reason": "end_turn", "content": [
        {"type": "text", "text": "{\"score\": 0, \"tags\": [{\"name\": \"a\"}]}"}]});
    assert_eq!(
        output.parse_response(Dialect::Anthropic, &response),
        Err(AnswerError::Invalid {
            path: Some("score".into()),
            message: "0 is less than the minimum 1".into()
        })
    );
}

#[test]
fn each_bound_is_checked_where_the_value_is_of_its_type() {
    let root = json!({"type": "object", "properties": {
        "x": {"anyOf": [{"type": "number", "exclusiveMinimum": 0, "multipleOf": 0.5},
                        {"type": "string", "maxLength": 1}, {"type": "null"}]},
        "set": {"type": "array", "maxItems": 2, "items": {"$ref": "#/$defs/N"}},
        "map": {"type": "object", "maxProperties": 1, "additionalProperties": {"minimum": 2}}},
        "$defs": {"N": {"type": "integer", "maximum": 9}}});
    let check = |answer: Value| super::check(&root, &answer);
    assert_eq!(
        check(json!({"x": 1.5, "set": [1, 2], "map": {"a": 2}})),
        Ok(())
    );
    assert_eq!(check(json!({"x": null})), Ok(()));
    assert_eq!(check(json!({"x": "a"})), Ok(()));
    let broken = |answer: Value| check(answer).unwrap_err();
    assert_eq!(
        broken(json!({"x": 0})),
        (Some("x".into()), "0 must be more than 0".into())
    );
    assert_eq!(
        broken(json!({"x": 0.7})),
        (Some("x".into()), "0.7 is not a multiple of 0.5".into())
    );
    assert_eq!(
        broken(json!({"x": "ab"})),
        (
            Some("x".into()),
            "expected at most 1 character, got 2".into()
        )
    );
    assert_eq!(
        broken(json!({"set": [3, 3, 3]})),
        (Some("set".into()), "expected at most 2 items, got 3".into())
    );
    assert_eq!(
        broken(json!({"set": [10]})),
        (
            Some("set[0]".into()),
            "10 is more than the maximum 9".into()
        )
    );
    assert_eq!(
        broken(json!({"map": {"a": 1}})),
        (Some("map.a".into()), "1 is less than the minimum 2".into())
    );
    assert_eq!(
        broken(json!({"map": {"a": 2, "b": 3}})),
        (Some("map".into()), "expected at most 1 field, got 2".into())
    );
    assert!(super::has_bounds(&root));
    // An integer type's own range is decoding's to check: no second look at the answer.
    let widths = json!({"type": "object", "properties": {
        "a": {"type": "integer", "format": "uint8", "minimum": 0, "maximum": 255},
        "b": {"type": ["integer", "null"], "format": "int16", "minimum": -32768, "maximum": 32767},
        "c": {"type": "integer", "format": "uint64", "minimum": 0}}});
    assert!(!super::has_bounds(&widths));
    let narrower = json!({"type": "integer", "format": "uint32", "minimum": 1});
    assert!(super::has_bounds(&narrower));
    assert!(!super::has_bounds(
        &json!({"type": "object", "properties": {
        "e": {"enum": [{"minimum": 1}]}}})
    ));
}
