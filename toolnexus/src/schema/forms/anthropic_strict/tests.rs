use serde_json::{json, Value};

use super::strict;

/// The strict form of `schema`, which must hold every answer `schema` allows.
fn form(schema: Value) -> Value {
    let out = strict(&schema);
    assert!(out.narrowed.is_none(), "{:?}", out.narrowed);
    out.schema
}

/// Why `schema` cannot be strict, and where.
fn refused(schema: Value) -> (String, String) {
    let error = strict(&schema).narrowed.expect("refused");
    (error.path, error.reason)
}

#[test]
fn unsupported_keywords_go_into_the_description_as_the_sdk_writes_them() {
    // The SDK's own docstring example.
    let s = json!({"type": "integer", "minimum": 1, "maximum": 10, "description": "A number"});
    assert_eq!(
        form(s),
        json!({"type": "integer", "description": "A number\n\n{minimum: 1, maximum: 10}"})
    );
    // A kept `format`; an unknown one moved last, as the SDK re-adds it; `minItems` past 1.
    let s = json!({"type": "object", "properties": {
        "when": {"type": "string", "format": "date-time"},
        "code": {"type": "string", "format": "iso-4217", "maxLength": 3},
        "few": {"type": "array", "items": {"type": "string"}, "minItems": 2, "maxItems": 4},
        "some": {"type": "array", "items": {"type": "string"}, "minItems": 1}}});
    assert_eq!(
        form(s),
        json!({"type": "object", "properties": {
            "when": {"type": "string", "format": "date-time"},
            "code": {"type": "string", "description": "{maxLength: 3, format: iso-4217}"},
            "few": {"type": "array", "description": "{maxItems: 4, minItems: 2}",
                    "items": {"type": "string"}},
            "some": {"type": "array", "items": {"type": "string"}, "minItems": 1}},
         "additionalProperties": false})
    );
}

#[test]
fn a_type_list_becomes_an_any_of_with_a_null_branch() {
    let s = json!({"description": "Days.", "type": ["integer", "null"], "format": "uint8",
                   "minimum": 0, "maximum": 255});
    assert_eq!(
        form(s),
        json!({"anyOf": [
            {"type": "integer", "description": "{format: uint8, minimum: 0, maximum: 255}"},
            {"type": "null"}], "description": "Days."})
    );
    // Each type keeps its own keywords; the others stay outside.
    let s = json!({"type": ["string", "array"], "maxLength": 5, "items": {"type": "number"},
                   "deprecated": true});
    assert_eq!(
        form(s),
        json!({"anyOf": [{"type": "string", "description": "{maxLength: 5}"},
                         {"type": "array", "items": {"type": "number"}}],
               "description": "{deprecated: True}"})
    );
    // Literals drop the type, as the SDK drops it.
    let s = json!({"type": ["string", "null"], "enum": ["a", null]});
    assert_eq!(form(s), json!({"enum": ["a", null]}));
}

#[test]
fn combinators_are_merged_or_distributed_so_objects_stay_open_to_their_keys() {
    // `allOf` merged.
    let s = json!({"type": "object", "allOf": [
        {"properties": {"a": {"type": "string"}}, "required": ["a"]},
        {"properties": {"b": {"type": "integer"}}}]});
    assert_eq!(
        form(s),
        json!({"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "integer"}},
               "additionalProperties": false, "required": ["a"]})
    );
    // A `type` next to `oneOf` (a flattened enum) goes into each branch.
    let s = json!({"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"],
        "oneOf": [{"properties": {"x": {"type": "number"}}, "required": ["x"]},
                  {"properties": {"y": {"type": "number"}}, "required": ["y"]}]});
    let out = form(s);
    assert_eq!(
        out["anyOf"][0]["properties"],
        json!({"id": {"type": "string"}, "x": {"type": "number"}})
    );
    assert_eq!(out["anyOf"][1]["required"], json!(["id", "y"]));
    assert_eq!(out["anyOf"][1]["additionalProperties"], false);
}

#[test]
fn keywords_next_to_a_ref_stay_beside_it() {
    let s = json!({"type": "object", "properties": {
        "next": {"$ref": "#/$defs/Node", "description": "The next node."}},
        "$defs": {"Node": {"type": "object", "properties": {"v": {"type": "integer", "minimum": 0}}}}});
    assert_eq!(
        form(s),
        json!({"$defs": {"Node": {"type": "object", "properties": {
                   "v": {"type": "integer", "description": "{minimum: 0}"}},
                   "additionalProperties": false}},
               "type": "object", "properties": {
                   "next": {"anyOf": [{"$ref": "#/$defs/Node"}], "description": "The next node."}},
               "additionalProperties": false})
    );
}

#[test]
fn a_schema_without_a_type_gets_the_one_its_keywords_say() {
    let s = json!({"type": "object", "properties": {"p": {"properties": {"a": {"type": "string"}}},
                                                     "n": {"minimum": 2}}});
    assert_eq!(
        form(s),
        json!({"type": "object", "properties": {
            "p": {"type": "object", "properties": {"a": {"type": "string"}},
                  "additionalProperties": false},
            "n": {"type": "number", "description": "{minimum: 2}"}},
         "additionalProperties": false})
    );
}

#[test]
fn what_the_subset_cannot_hold_is_refused_with_its_path() {
    let map = json!({"type": "object", "properties": {
        "tags": {"type": "object", "additionalProperties": {"type": "string"}}}});
    assert_eq!(
        refused(map.clone()),
        (
            "/properties/tags/additionalProperties".into(),
            "an object with free-form keys (a map) cannot be kept; every key must be listed".into()
        )
    );
    // The form is made all the same: an empty object, what the SDK itself sends for a map.
    assert_eq!(
        strict(&map).schema["properties"]["tags"],
        json!({"type": "object", "properties": {}, "additionalProperties": false})
    );
    let any = json!({"type": "object", "properties": {"v": {"description": "anything"}}});
    assert_eq!(refused(any.clone()).0, "/properties/v");
    let any = strict(&any).schema;
    assert_eq!(any["properties"]["v"]["description"], "anything");
    assert_eq!(any["properties"]["v"]["anyOf"].as_array().unwrap().len(), 6);
    let open = json!({"type": "object", "properties": {"o": {"type": "object"}}});
    assert_eq!(refused(open).0, "/properties/o");
    let missing = json!({"type": "object", "properties": {}, "required": ["gone"]});
    assert_eq!(refused(missing).0, "/required");
}

#[test]
fn the_form_is_a_fixed_point() {
    let s = json!({"type": "object", "description": "Root.", "properties": {
        "a": {"type": ["number", "null"], "exclusiveMaximum": 1.5},
        "b": {"type": "array", "items": {"type": ["string", "integer"], "pattern": "x", "minimum": 1},
              "minItems": 3, "uniqueItems": true},
        "c": {"oneOf": [{"const": 1}, {"type": "object", "properties": {}, "title": "T"}]},
        "d": {"type": "string", "enum": ["x", "y"], "maxLength": 1}},
        "required": ["a"], "minProperties": 1});
    let once = form(s);
    assert_eq!(form(once.clone()), once);
    assert_eq!(
        serde_json::to_string(&form(once.clone())).unwrap(),
        serde_json::to_string(&once).unwrap()
    );
}

#[test]
fn a_recursive_schema_is_refused_as_anthropic_documents() {
    let tree = json!({"type": "object", "properties": {
        "name": {"type": "string"}, "children": {"type": "array", "items": {"$ref": "#"}}}});
    assert_eq!(refused(tree.clone()).0, "");
    assert!(refused(tree)
        .1
        .contains("`$ref: #` makes the schema recursive"));
    let defs = json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}},
        "$defs": {"A": {"type": "object", "properties": {"b": {"$ref": "#/$defs/B"}}},
                  "B": {"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}}}}});
    assert!(refused(defs).1.contains("makes the schema recursive"));
    // A definition used twice is no recursion.
    let shared = json!({"type": "object", "properties": {
        "a": {"$ref": "#/$defs/P"}, "b": {"$ref": "#/$defs/P"}},
        "$defs": {"P": {"type": "object", "properties": {"x": {"type": "number"}}}}});
    assert!(strict(&shared).narrowed.is_none());
}
