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
    // Per property: its schema, what was sent, what the tool gets.
    let rows = [
        ("a", json!({"type": "integer"}), json!(2.0), json!(2)),
        ("n", json!({"type": "number"}), json!(2.0), json!(2.0)),
        ("any", json!({}), json!(2.0), json!(2.0)),
        (
            "opt",
            json!({"type": ["integer", "null"]}),
            json!(3.0),
            json!(3),
        ),
        ("up", json!({"type": "INTEGER"}), json!(-4.0), json!(-4)),
        (
            "list",
            json!({"type": "array", "items": {"type": "integer"}}),
            json!([1.0, 2.5, "x", 3]),
            json!([1, 2.5, "x", 3]),
        ),
        (
            "tuple",
            json!({"type": "array", "prefixItems": [{"type": "number"}, {"type": "integer"}], "items": {"type": "integer"}}),
            json!([1.0, 2.0, 3.0]),
            json!([1.0, 2, 3]),
        ),
        (
            "old",
            json!({"type": "array", "items": [{"type": "integer"}, true], "additionalItems": {"type": "number"}}),
            json!([1.0, 2.0, 3.0]),
            json!([1, 2.0, 3.0]),
        ),
        (
            "inner",
            json!({"type": "object", "properties": {"x": {"type": "integer"}, "y": {"type": "number"}}}),
            json!({"x": 5.0, "y": 5.0, "z": 5.0}),
            json!({"x": 5, "y": 5.0, "z": 5.0}),
        ),
        (
            "map",
            json!({"type": "object", "additionalProperties": {"type": "integer"}}),
            json!({"k": 6.0, "l": [6.0]}),
            json!({"k": 6, "l": [6.0]}),
        ),
        (
            "ref",
            json!({"$ref": "#/$defs/Count"}),
            json!(7.0),
            json!(7),
        ),
        (
            "either",
            json!({"anyOf": [{"type": "string"}, {"type": "integer"}]}),
            json!(8.0),
            json!(8),
        ),
        (
            "mixed",
            json!({"anyOf": [{"properties": {"p": {"type": "integer"}}}, {"properties": {"q": {"type": "integer"}}, "additionalProperties": {"type": "integer"}}]}),
            json!({"p": 9.0, "q": 9.0, "r": 9.0}),
            json!({"p": 9, "q": 9, "r": 9}),
        ),
    ];
    // All in one schema, so each property is found among the others.
    let mut properties = Map::new();
    let (mut args, mut expected) = (Map::new(), Map::new());
    for (name, schema, sent, gets) in rows {
        properties.insert(name.into(), schema);
        args.insert(name.into(), sent);
        expected.insert(name.into(), gets);
    }
    // A member the schema does not name is left as sent.
    args.insert("extra".into(), json!(1.0));
    expected.insert("extra".into(), json!(1.0));
    let schema = json!({
        "type": "object",
        "properties": properties,
        "$defs": {"Count": {"type": "integer", "minimum": 0}},
    });
    // As text, so `2.0` and `2` differ.
    assert_eq!(
        applied(schema, Value::Object(args)).to_string(),
        Value::Object(expected).to_string()
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
