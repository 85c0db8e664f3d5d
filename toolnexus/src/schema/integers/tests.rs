//! `Integers` on hand-written schemas: where a whole-number float becomes an integer.

use serde_json::json;

use super::*;

/// `args` after the schema's integers are applied.
fn applied(schema: Value, mut args: Value) -> Value {
    if let Some(integers) = Integers::of(&schema) {
        integers.apply(&mut args);
    }
    args
}

#[test]
fn a_schema_without_integers_compiles_to_nothing() {
    for schema in [
        json!({"type": "object", "properties": {"a": {"type": "number"}, "b": {"type": "array", "items": {"type": "string"}}}}),
        json!({"type": "object", "properties": {}}),
        // An integer nothing reaches: a definition no `$ref` uses.
        json!({"type": "object", "properties": {"a": {}}, "$defs": {"N": {"type": "integer"}}}),
    ] {
        assert_eq!(Integers::of(&schema), None, "{schema}");
    }
}

#[test]
fn whole_floats_become_integers_only_where_the_schema_says_integer() {
    let schema = json!({
        "type": "object",
        "properties": {
            "a": {"type": "integer"},
            "n": {"type": "number"},
            "any": {},
            "opt": {"type": ["integer", "null"]},
            "up": {"type": "INTEGER"},
            "list": {"type": "array", "items": {"type": "integer"}},
            "tuple": {"type": "array", "prefixItems": [{"type": "number"}, {"type": "integer"}], "items": {"type": "integer"}},
            "old": {"type": "array", "items": [{"type": "integer"}, true], "additionalItems": {"type": "number"}},
            "inner": {"type": "object", "properties": {"x": {"type": "integer"}, "y": {"type": "number"}}},
            "map": {"type": "object", "additionalProperties": {"type": "integer"}},
            "ref": {"$ref": "#/$defs/Count"},
            "either": {"anyOf": [{"type": "string"}, {"type": "integer"}]},
            "mixed": {"anyOf": [{"properties": {"p": {"type": "integer"}}}, {"properties": {"q": {"type": "integer"}}, "additionalProperties": {"type": "integer"}}]},
        },
        "$defs": {"Count": {"type": "integer", "minimum": 0}},
    });
    let args = json!({
        "a": 2.0, "n": 2.0, "any": 2.0, "opt": 3.0, "up": -4.0,
        "list": [1.0, 2.5, "x", 3],
        "tuple": [1.0, 2.0, 3.0], "old": [1.0, 2.0, 3.0],
        "inner": {"x": 5.0, "y": 5.0, "z": 5.0},
        "map": {"k": 6.0, "l": [6.0]},
        "ref": 7.0, "either": 8.0,
        "mixed": {"p": 9.0, "q": 9.0, "r": 9.0},
        "extra": 1.0,
    });
    assert_eq!(
        applied(schema, args).to_string(),
        json!({
            "a": 2, "n": 2.0, "any": 2.0, "opt": 3, "up": -4,
            "list": [1, 2.5, "x", 3],
            "tuple": [1.0, 2, 3], "old": [1, 2.0, 3.0],
            "inner": {"x": 5, "y": 5.0, "z": 5.0},
            "map": {"k": 6, "l": [6.0]},
            "ref": 7, "either": 8,
            "mixed": {"p": 9, "q": 9, "r": 9},
            "extra": 1.0,
        })
        .to_string()
    );
}

#[test]
fn recursive_schemas_and_out_of_range_floats() {
    let schema = json!({
        "$ref": "#/$defs/Tree",
        "$defs": {"Tree": {"type": "object", "properties": {
            "v": {"type": "integer"},
            "kids": {"type": "array", "items": {"$ref": "#/$defs/Tree"}},
        }}},
    });
    let args = json!({"v": 1.0, "kids": [{"v": 2.0, "kids": [{"v": -9.223372036854776e18}, {"v": 1e300}]}]});
    assert_eq!(
        applied(schema, args).to_string(),
        r#"{"v":1,"kids":[{"v":2,"kids":[{"v":-9.223372036854776e+18},{"v":1e+300}]}]}"#
    );
    // The root itself through a cycle of references without a type on the way.
    let looped = json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}},
        "$defs": {"A": {"anyOf": [{"$ref": "#/$defs/A"}, {"type": "integer"}]}}});
    assert_eq!(applied(looped, json!({"a": 4.0})), json!({"a": 4}));
}
