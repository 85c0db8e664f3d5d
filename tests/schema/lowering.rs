//! Per-provider lowering (SPEC §4), rule by rule, as exact JSON; schemas that already fit come
//! out unchanged; what cannot be expressed is an error naming the tool, provider and path.

use serde_json::{json, Value};
use toolnexus::{Error, InputSchema, NativeTool};

fn schema(v: Value) -> InputSchema {
    InputSchema::new(v).unwrap_or_else(|e| panic!("{e}"))
}

/// One property `p` with schema `prop`, lowered for Gemini: returns the lowered `p`.
fn gemini_prop(prop: Value) -> Value {
    let s = schema(json!({"type": "object", "properties": {"p": prop}}));
    s.for_gemini()["properties"]["p"].clone()
}

#[test]
fn fitting_schemas_come_out_byte_for_byte_unchanged() {
    // Hand-written, keys in an unusual order, meeting every provider's rules.
    let text = r#"{"required":["city"],"type":"object","properties":{"days":{"maximum":14,"type":"integer","description":"Days ahead, 1 to 14"},"city":{"type":"string","enum":["Oslo","Lima"]},"tags":{"items":{"type":"string"},"type":"array"},"when":{"type":"string","format":"date-time"}}}"#;
    let value: Value = serde_json::from_str(text).unwrap();
    let s = schema(value);
    for (provider, lowered) in [
        ("openai", s.for_openai()),
        ("anthropic", s.for_anthropic()),
        ("gemini", s.for_gemini()),
    ] {
        assert!(
            std::ptr::eq(lowered, s.as_value()),
            "{provider} made a copy"
        );
        assert_eq!(serde_json::to_string(lowered).unwrap(), text, "{provider}");
    }
    // The empty schema too.
    let empty = InputSchema::empty();
    assert!(std::ptr::eq(empty.for_gemini(), empty.as_value()));
}

#[test]
fn every_provider_drops_schema_and_adds_properties() {
    let s = schema(
        json!({"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object", "description": "d"}),
    );
    let want = r#"{"type":"object","properties":{},"description":"d"}"#;
    for lowered in [s.for_openai(), s.for_anthropic(), s.for_gemini()] {
        assert_eq!(serde_json::to_string(lowered).unwrap(), want);
    }
    assert_eq!(
        s.as_value()["$schema"],
        "https://json-schema.org/draft/2020-12/schema"
    );
}

#[test]
fn gemini_nullable_types_and_null_branches() {
    assert_eq!(
        gemini_prop(json!({"type": ["integer", "null"], "minimum": 0})),
        json!({"type": "integer", "nullable": true, "minimum": 0})
    );
    assert_eq!(
        gemini_prop(json!({"type": ["null", "string"]})),
        json!({"type": "string", "nullable": true})
    );
    // `Option<Struct>` the way schemars writes it with a `$ref`.
    let s = schema(json!({
        "type": "object",
        "properties": {"loc": {"anyOf": [{"$ref": "#/$defs/Loc"}, {"type": "null"}], "description": "Where"}},
        "$defs": {"Loc": {"type": "object", "properties": {"lat": {"type": "number"}}, "required": ["lat"], "description": "A place"}}
    }));
    assert_eq!(
        s.for_gemini(),
        &json!({"type": "object", "properties": {"loc": {
            "description": "Where", "type": "object", "properties": {"lat": {"type": "number"}}, "required": ["lat"], "nullable": true
        }}})
    );
    // Two types: a choice.
    assert_eq!(
        gemini_prop(json!({"type": ["string", "integer", "null"]})),
        json!({"anyOf": [{"type": "string"}, {"type": "integer"}], "nullable": true})
    );
    // Only null.
    assert_eq!(
        gemini_prop(json!({"type": "null"})),
        json!({"nullable": true})
    );
}

#[test]
fn gemini_enums_and_const() {
    assert_eq!(
        gemini_prop(json!({"const": "C"})),
        json!({"type": "string", "enum": ["C"]})
    );
    assert_eq!(
        gemini_prop(json!({"enum": ["a", "b", null]})),
        json!({"type": "string", "enum": ["a", "b"], "nullable": true})
    );
    assert_eq!(
        gemini_prop(json!({"type": "integer", "enum": [1, 2, 3], "description": "Priority"})),
        json!({"type": "integer", "description": "Priority (one of: 1, 2, 3)"})
    );
    assert_eq!(
        gemini_prop(json!({"const": 7})),
        json!({"type": "integer", "description": "(must be 7)"})
    );
    assert_eq!(
        gemini_prop(json!({"enum": [1, 2.5]})),
        json!({"type": "number", "description": "(one of: 1, 2.5)"})
    );
    assert_eq!(
        gemini_prop(json!({"enum": [true, null]})),
        json!({"type": "boolean", "nullable": true, "description": "(must be true)"})
    );
    assert_eq!(
        gemini_prop(json!({"enum": ["a", 1]})),
        json!({"description": "(one of: \"a\", 1)"})
    );
}

#[test]
fn gemini_keeps_its_own_nullable_and_merges_documented_unit_variants() {
    // Written for Gemini already: unchanged.
    let s = schema(
        json!({"type": "object", "properties": {"n": {"type": "string", "nullable": true}}}),
    );
    assert!(std::ptr::eq(s.for_gemini(), s.as_value()));
    // schemars' unit enum whose variants have docs.
    assert_eq!(
        gemini_prop(json!({"oneOf": [
            {"type": "string", "const": "quiet", "description": "Barely audible."},
            {"type": "string", "const": "loud", "description": "Everyone hears it."}
        ], "description": "How loud."})),
        json!({"type": "string", "enum": ["quiet", "loud"], "description": "How loud. (quiet: Barely audible; loud: Everyone hears it)"})
    );
}

#[test]
fn gemini_one_of_all_of_and_refs() {
    assert_eq!(
        gemini_prop(json!({"oneOf": [{"type": "string"}, {"type": "integer"}]})),
        json!({"anyOf": [{"type": "string"}, {"type": "integer"}]})
    );
    assert_eq!(
        gemini_prop(json!({"allOf": [
            {"type": "object", "properties": {"a": {"type": "integer", "minimum": 0}}, "required": ["a"]},
            {"properties": {"a": {"maximum": 9}, "b": {"type": "string"}}, "required": ["b"]}
        ]})),
        json!({"type": "object", "properties": {"a": {"type": "integer", "minimum": 0, "maximum": 9}, "b": {"type": "string"}}, "required": ["a", "b"]})
    );
    // `$ref` siblings win over the target's annotations.
    let s = schema(json!({
        "type": "object",
        "properties": {"u": {"$ref": "#/definitions/Unit", "description": "Which unit"}},
        "definitions": {"Unit": {"type": "string", "enum": ["C", "F"], "description": "A unit"}}
    }));
    assert_eq!(
        s.for_gemini()["properties"]["u"],
        json!({"description": "Which unit", "type": "string", "enum": ["C", "F"]})
    );
}

#[test]
fn gemini_recursion_is_expanded_three_levels_then_accepts_anything() {
    let s = schema(json!({
        "type": "object",
        "properties": {"n": {"$ref": "#/$defs/N"}},
        "$defs": {"N": {"type": "object", "properties": {"next": {"$ref": "#/$defs/N"}}}}
    }));
    let deepest = json!({"description": "(nested deeper than the schema describes: same shape as the level above)"});
    let level = |inner: Value| json!({"type": "object", "properties": {"next": inner}});
    assert_eq!(
        s.for_gemini()["properties"]["n"],
        level(level(level(deepest)))
    );
}

#[test]
fn gemini_bounds_tuples_maps_and_arrays() {
    assert_eq!(
        gemini_prop(json!({"type": "integer", "exclusiveMinimum": 0, "exclusiveMaximum": 10})),
        json!({"type": "integer", "minimum": 1, "maximum": 9})
    );
    assert_eq!(
        gemini_prop(json!({"type": "integer", "minimum": 5, "exclusiveMinimum": 0})),
        json!({"type": "integer", "minimum": 5})
    );
    assert_eq!(
        gemini_prop(json!({"type": "number", "exclusiveMinimum": 0.5})),
        json!({"type": "number", "description": "(greater than 0.5)"})
    );
    assert_eq!(
        gemini_prop(
            json!({"type": "array", "prefixItems": [{"type": "integer"}, {"type": "string"}], "items": false})
        ),
        json!({"type": "array", "items": {"anyOf": [{"type": "integer"}, {"type": "string"}]}, "maxItems": 2, "description": "(items in this order: [integer, string])"})
    );
    // Draft 7 tuples.
    assert_eq!(
        gemini_prop(
            json!({"type": "array", "items": [{"type": "integer"}, {"type": "integer"}], "additionalItems": false})
        ),
        json!({"type": "array", "items": {"type": "integer"}, "maxItems": 2, "description": "(items in this order: [integer, integer])"})
    );
    assert_eq!(
        gemini_prop(
            json!({"type": "object", "additionalProperties": {"type": "integer"}, "description": "Scores"})
        ),
        json!({"type": "object", "description": "Scores (any keys; each value: integer)"})
    );
    assert_eq!(
        gemini_prop(json!({"type": "array"})),
        json!({"type": "array", "items": {}})
    );
    assert_eq!(gemini_prop(json!(true)), json!({}));
    assert_eq!(
        gemini_prop(
            json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a", "b"], "additionalProperties": false})
        ),
        json!({"type": "object", "properties": {"a": {"type": "string"}, "b": {}}, "required": ["a", "b"]})
    );
}

#[test]
fn gemini_annotations_formats_and_unsupported_keywords() {
    assert_eq!(
        gemini_prop(
            json!({"type": "string", "format": "email", "examples": ["a@b.c", "d@e.f"], "$comment": "x", "title": "Mail"})
        ),
        json!({"type": "string", "example": "a@b.c", "title": "Mail"})
    );
    assert_eq!(
        gemini_prop(json!({"type": "integer", "format": "uint8"})),
        json!({"type": "integer"})
    );
    assert_eq!(
        gemini_prop(json!({"type": "integer", "format": "int32"})),
        json!({"type": "integer", "format": "int32"})
    );
    assert_eq!(
        gemini_prop(json!({"type": "integer", "multipleOf": 5, "description": "Step"})),
        json!({"type": "integer", "description": "Step (multipleOf: 5)"})
    );
    assert_eq!(
        gemini_prop(json!({"type": "array", "items": {"type": "string"}, "uniqueItems": true})),
        json!({"type": "array", "items": {"type": "string"}, "description": "(uniqueItems: true)"})
    );
}

#[test]
fn openai_and_anthropic_keep_what_they_accept() {
    let s = schema(json!({
        "type": "object",
        "properties": {"t": {"type": "array", "prefixItems": [{"type": "integer"}]}, "u": {"oneOf": [{"const": 1}, {"const": "a"}]}},
    }));
    assert_eq!(
        s.for_openai(),
        &json!({"type": "object", "properties": {"t": {"type": "array", "prefixItems": [{"type": "integer"}], "items": {}}, "u": {"oneOf": [{"const": 1}, {"const": "a"}]}}})
    );
    assert!(std::ptr::eq(s.for_anthropic(), s.as_value()));
}

#[test]
fn what_cannot_be_expressed_is_an_error_naming_tool_provider_and_path() {
    let cases = [
        (
            json!({"type": "object", "anyOf": [{"properties": {"a": {"type": "string"}}}, {"properties": {"b": {"type": "string"}}}]}),
            "the input schema of `pick` cannot be sent to any provider (at /anyOf): `anyOf` is not allowed at the root unless each branch only lists `required` properties (\"at least one of these\"), and branch 0 has `properties`; the arguments must be one object with `properties` (a choice of shapes as the whole argument object cannot be expressed: wrap it in a property)",
        ),
        (
            json!({"type": "object", "properties": {}, "enum": [{}]}),
            "the input schema of `pick` cannot be sent to openai (at /enum): `enum` is not allowed at the root; the arguments must be one object with `properties` (an enum or a choice of shapes as the whole argument object cannot be expressed: wrap it in a property)",
        ),
        (
            json!({"type": "object", "properties": {"never": false}}),
            "the input schema of `pick` cannot be sent to gemini (at /properties/never): `false` (no value is valid) cannot be expressed; remove the property",
        ),
        (
            json!({"type": "object", "properties": {"x": {"$ref": "https://example.com/s.json"}}}),
            "the input schema of `pick` cannot be sent to any provider (at /properties/x/$ref): `https://example.com/s.json` points outside this schema; providers do not fetch schemas: put it under `$defs` and refer to `#/$defs/...`",
        ),
        (
            json!({"type": "object", "properties": {"x": {"allOf": [{"type": "string"}, {"type": "integer"}]}}}),
            "the input schema of `pick` cannot be sent to gemini (at /properties/x/allOf): `allOf` branch 1: the branches' `type`s have nothing in common",
        ),
        (
            json!({"type": "object", "allOf": [{"type": "string"}]}),
            "the input schema of `pick` cannot be sent to openai (at /allOf): `allOf` branch 0: the branches' `type`s have nothing in common; a combinator at the root cannot be sent, so write the properties out",
        ),
    ];
    for (schema, message) in cases {
        let err = NativeTool::of("pick", "Pick", schema, |_| async { "" }).unwrap_err();
        assert!(matches!(err, Error::Schema(_)));
        assert_eq!(err.to_string(), message);
    }
}

#[test]
fn anthropic_refuses_a_root_one_of_and_merges_a_root_all_of() {
    let one_of = InputSchema::new(
        json!({"type": "object", "properties": {"a": {"type": "string"}}, "oneOf": [{"required": ["a"]}]}),
    );
    // OpenAI is checked first; Anthropic and Gemini refuse the same root.
    assert_eq!(one_of.unwrap_err().path, "/oneOf");
    let all_of = schema(
        json!({"type": "object", "allOf": [{"properties": {"a": {"type": "string"}}, "required": ["a"]}, {"properties": {"b": {"type": "integer"}}}]}),
    );
    let want = json!({"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "integer"}}, "required": ["a"]});
    assert_eq!(all_of.for_anthropic(), &want);
    assert_eq!(all_of.for_openai(), &want);
    assert_eq!(all_of.for_gemini(), &want);
}

#[test]
fn absurd_nesting_is_an_error_not_a_stack_overflow() {
    let mut deep = json!({"type": "string"});
    for _ in 0..200 {
        deep = json!({"type": "array", "items": deep});
    }
    let err = InputSchema::new(json!({"type": "object", "properties": {"d": deep}})).unwrap_err();
    assert_eq!(err.provider, Some("openai"));
    assert!(err.reason.contains("deeper than 64 levels"), "{err}");
}

#[test]
fn mutually_recursive_branching_types_cannot_blow_up_the_gemini_schema() {
    // Eight types, each holding two of the next: inlined naively, 2^24 copies.
    let mut defs = serde_json::Map::new();
    for i in 0..8 {
        let next = format!("#/$defs/T{}", (i + 1) % 8);
        defs.insert(
            format!("T{i}"),
            json!({"type": "object", "properties": {"a": {"$ref": next}, "b": {"$ref": next}}}),
        );
    }
    let err = InputSchema::new(
        json!({"type": "object", "properties": {"t": {"$ref": "#/$defs/T0"}}, "$defs": defs}),
    )
    .unwrap_err();
    assert_eq!(err.provider, Some("gemini"));
    assert!(
        err.reason
            .starts_with("inlining the `$ref`s gives more than 10000 subschemas"),
        "{err}"
    );
}

#[test]
fn a_reference_to_the_root_is_bounded_too() {
    let s = schema(
        json!({"type": "object", "properties": {"name": {"type": "string"}, "child": {"$ref": "#"}}}),
    );
    let mut level = &s.for_gemini()["properties"]["child"];
    for _ in 0..3 {
        assert_eq!(level["type"], "object");
        level = &level["properties"]["child"];
    }
    assert_eq!(
        level,
        &json!({"description": "(nested deeper than the schema describes: same shape as the level above)"})
    );
    // OpenAI and Anthropic take the reference as written.
    assert!(std::ptr::eq(s.for_anthropic(), s.as_value()));
    assert_eq!(
        s.for_openai_strict().unwrap()["properties"]["child"],
        json!({"anyOf": [{"$ref": "#"}, {"type": "null"}]})
    );
}
