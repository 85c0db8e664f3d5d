//! Provider conformance, round 2 (issue 12), the schema side: references that resolve in what is
//! sent (1), OpenAI strict mode's documented size limits (2), schemas as people hand-write them
//! (6) and Gemini's `parametersJsonSchema` (7).
//!
//! Every schema and request body built here is also judged in ONE Python run
//! (`tests/sdk/check_conformance.py`): a JSON Schema 2020-12 validator checks each schema and
//! follows every `$ref` through `referencing` (a reference to something that was not sent fails;
//! a control case proves it does), valid and invalid sample arguments are checked against every
//! provider's schema, and the openai, anthropic and google-genai SDK models check the bodies.

use serde_json::{json, Map, Value};
use toolnexus::{Dialect, InputSchema, NativeTool, Tool, Toolkit, ToolsOptions};

/// `tool` alone, as `dialect` declares it under `options`.
fn rendered(tool: &NativeTool, dialect: Dialect, options: ToolsOptions) -> Vec<Value> {
    let toolkit = Toolkit::new().with(tool.clone()).unwrap();
    toolkit.tools_for(dialect, options).into()
}

fn json_schema() -> ToolsOptions {
    ToolsOptions::default().with_json_schema(true)
}

fn strict_mode() -> ToolsOptions {
    ToolsOptions::default().with_strict(true)
}

fn schema(v: Value) -> InputSchema {
    InputSchema::new(v).unwrap_or_else(|e| panic!("{e}"))
}

fn tool(name: &str, v: Value) -> NativeTool {
    NativeTool::of(name, format!("The {name} tool"), v, |_| async { "ok" })
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// Every `$ref` at a subschema position, and whether it resolves as a JSON Pointer inside `root`.
fn dangling_refs(root: &Value) -> Vec<String> {
    fn walk(root: &Value, s: &Value, out: &mut Vec<String>) {
        let Value::Object(map) = s else { return };
        if let Some(Value::String(r)) = map.get("$ref") {
            let ok = r
                .strip_prefix('#')
                .is_some_and(|p| p.is_empty() || root.pointer(p).is_some());
            if !ok {
                out.push(r.clone());
            }
        }
        for (k, v) in map {
            match (k.as_str(), v) {
                (
                    "properties" | "$defs" | "definitions" | "patternProperties",
                    Value::Object(m),
                ) => m.values().for_each(|x| walk(root, x, out)),
                ("anyOf" | "oneOf" | "allOf" | "prefixItems" | "items", Value::Array(l)) => {
                    l.iter().for_each(|x| walk(root, x, out))
                }
                ("items" | "additionalProperties" | "not", x) => walk(root, x, out),
                _ => {}
            }
        }
    }
    let mut out = Vec::new();
    walk(root, root, &mut out);
    out
}

// ---------------------------------------------------------------------------------------------
// 1. A reference must resolve in what is sent.

/// The issue's case: a `$ref` into OpenAPI's `components`, which strict mode used to drop.
fn components_ref() -> Value {
    json!({"type": "object", "properties": {"p": {"$ref": "#/components/schemas/P"}},
           "required": ["p"], "components": {"schemas": {"P": {"type": "string"}}}})
}

/// A recursive type defined under `components`: strict mode must keep the recursion resolvable.
fn components_recursive() -> Value {
    json!({"type": "object", "properties": {"tree": {"$ref": "#/components/schemas/Node"}},
           "required": ["tree"],
           "components": {"schemas": {"Node": {"type": "object",
               "properties": {"name": {"type": "string"},
                              "children": {"type": "array", "items": {"$ref": "#/components/schemas/Node"}}},
               "required": ["name", "children"]}}}})
}

#[test]
fn strict_mode_moves_a_reference_into_components_under_defs() {
    let s = schema(components_ref());
    let strict = s.for_openai_strict().expect("strict mode is possible");
    assert_eq!(
        strict,
        &json!({"type": "object", "properties": {"p": {"$ref": "#/$defs/P"}}, "required": ["p"],
                "additionalProperties": false, "$defs": {"P": {"type": "string"}}})
    );
    assert!(dangling_refs(strict).is_empty());
    // Non-strict OpenAI and Anthropic get the schema as written: `components` is sent with it,
    // so the reference resolves there too.
    assert!(std::ptr::eq(s.for_openai(), s.as_value()));
    assert!(std::ptr::eq(s.for_anthropic(), s.as_value()));

    let t = tool("pick", components_ref());
    let chat = rendered(&t, Dialect::OpenAiChat, strict_mode());
    assert_eq!(chat[0]["function"]["strict"], true);
    assert!(dangling_refs(&chat[0]["function"]["parameters"]).is_empty());
    let responses = rendered(&t, Dialect::OpenAiResponses, strict_mode());
    assert_eq!(responses[0]["strict"], true);
    assert!(dangling_refs(&responses[0]["parameters"]).is_empty());
}

#[test]
fn strict_mode_keeps_a_recursive_reference_resolvable() {
    let s = schema(components_recursive());
    let strict = s.for_openai_strict().expect("strict mode is possible");
    assert_eq!(
        strict["properties"]["tree"],
        json!({"$ref": "#/$defs/Node"})
    );
    assert_eq!(
        strict["$defs"]["Node"]["properties"]["children"]["items"],
        json!({"$ref": "#/$defs/Node"})
    );
    assert_eq!(strict["$defs"]["Node"]["additionalProperties"], false);
    assert!(dangling_refs(strict).is_empty(), "{strict}");
}

#[test]
fn a_relocated_definition_does_not_overwrite_one_already_there() {
    let s = schema(json!({"type": "object",
        "properties": {"a": {"$ref": "#/$defs/P"}, "b": {"$ref": "#/components/schemas/P"}},
        "required": ["a", "b"],
        "$defs": {"P": {"type": "integer"}},
        "components": {"schemas": {"P": {"type": "string"}}}}));
    let strict = s.for_openai_strict().unwrap();
    assert_eq!(strict["$defs"]["P"], json!({"type": "integer"}));
    let moved = strict["properties"]["b"]["$ref"].as_str().unwrap();
    assert_ne!(moved, "#/$defs/P");
    assert_eq!(
        strict.pointer(&moved[1..]).unwrap(),
        &json!({"type": "string"})
    );
}

#[test]
fn a_reference_that_resolves_nowhere_is_refused_where_it_is() {
    let cases = [
        (
            json!({"type": "object", "properties": {"p": {"$ref": "#/$defs/Missing"}}}),
            "/properties/p/$ref",
            "`#/$defs/Missing` does not resolve: there is nothing at `/$defs/Missing` in this schema",
            // An invalid schema.
            None,
        ),
        (
            json!({"type": "object", "properties": {"p": {"type": "array", "items": {"$ref": "other.json#/P"}}}}),
            "/properties/p/items/$ref",
            "`other.json#/P` points outside this schema; providers do not fetch schemas: put it under `$defs` and refer to `#/$defs/...`",
            // Valid JSON Schema, but no provider fetches another document.
            Some("any provider"),
        ),
        (
            json!({"type": "object", "properties": {"p": {"$ref": "#/components/schemas/P"}},
                   "components": {"schemas": {"P": {"type": "array", "items": {"$ref": "#/components/schemas/Q"}}}}}),
            "/components/schemas/P/items/$ref",
            "`#/components/schemas/Q` does not resolve: there is nothing at `/components/schemas/Q` in this schema",
            None,
        ),
    ];
    for (v, path, reason, provider) in cases {
        let err = InputSchema::new(v).unwrap_err();
        assert_eq!(err.path, path);
        assert_eq!(err.reason, reason);
        assert_eq!(err.provider, provider, "{err}");
    }
}

// ---------------------------------------------------------------------------------------------
// 2. OpenAI strict mode's documented limits: past any, the tool is sent non-strict, with why.

/// `levels` objects nested through required property `n`; the innermost holds a string `leaf`.
fn nested(levels: usize) -> Value {
    let mut s =
        json!({"type": "object", "properties": {"leaf": {"type": "string"}}, "required": ["leaf"]});
    for _ in 1..levels {
        s = json!({"type": "object", "properties": {"n": s}, "required": ["n"]});
    }
    s
}

fn props(names: impl Iterator<Item = String>) -> Value {
    let mut p = Map::new();
    let mut r = Vec::new();
    for n in names {
        p.insert(n.clone(), json!({"type": "string"}));
        r.push(Value::from(n));
    }
    json!({"type": "object", "properties": p, "required": r})
}

fn strict_refusal(v: Value) -> String {
    let s = schema(v);
    let err = s.for_openai_strict().expect_err("past a limit");
    let t = NativeTool::of("big", "Big", s.as_value().clone(), |_| async { "" }).unwrap();
    let sent = rendered(&t, Dialect::OpenAiChat, strict_mode());
    assert_eq!(sent[0]["function"]["strict"], false, "sent non-strict");
    assert_eq!(&sent[0]["function"]["parameters"], s.for_openai());
    let sent = rendered(&t, Dialect::OpenAiResponses, strict_mode());
    assert_eq!(sent[0]["strict"], false, "responses: sent non-strict");
    err.to_string()
}

#[test]
fn ten_levels_of_nesting_are_strict_eleven_are_not() {
    assert!(schema(nested(10)).for_openai_strict().is_ok());
    let why = strict_refusal(nested(11));
    assert!(
        why.contains("more than 10 levels of nesting") && why.contains("sent non-strict"),
        "{why}"
    );
    // The path names where the 11th level is.
    assert!(
        why.contains(&format!("(at {}", "/properties/n".repeat(10))),
        "{why}"
    );
}

#[test]
fn more_than_5000_properties_are_not_strict() {
    assert!(schema(props((0..5000).map(|i| format!("p{i}"))))
        .for_openai_strict()
        .is_ok());
    let why = strict_refusal(props((0..5001).map(|i| format!("p{i}"))));
    assert!(
        why.contains("5001 object properties") && why.contains("at most 5000"),
        "{why}"
    );
}

#[test]
fn more_than_1000_enum_values_are_not_strict() {
    let enums = |total: usize| {
        // Required, so strict mode adds no `null` to the enums (it counts as a value).
        let mut p = Map::new();
        let mut required = Vec::new();
        for k in 0..total.div_ceil(100) {
            let n = (total - k * 100).min(100);
            let values: Vec<Value> = (0..n).map(|i| Value::from(format!("v{i}"))).collect();
            p.insert(format!("e{k}"), json!({"type": "string", "enum": values}));
            required.push(Value::from(format!("e{k}")));
        }
        json!({"type": "object", "properties": p, "required": required})
    };
    assert!(schema(enums(1000)).for_openai_strict().is_ok());
    let why = strict_refusal(enums(1001));
    assert!(
        why.contains("1001 enum values") && why.contains("at most 1000"),
        "{why}"
    );
}

#[test]
fn more_than_120000_characters_of_names_and_values_are_not_strict() {
    // 100 properties with names of 1,200 characters: exactly the limit; one more character is past it.
    let name = |i: usize, len: usize| format!("{i:03}{}", "x".repeat(len - 3));
    assert!(schema(props((0..100).map(|i| name(i, 1200))))
        .for_openai_strict()
        .is_ok());
    let why = strict_refusal(props(
        (0..100).map(|i| name(i, if i == 0 { 1201 } else { 1200 })),
    ));
    assert!(
        why.contains("120001 characters") && why.contains("at most 120000"),
        "{why}"
    );
}

#[test]
fn a_large_string_enum_is_limited_to_15000_characters() {
    let big = |count: usize, len: usize| {
        let values: Vec<Value> = (0..count)
            .map(|i| Value::from(format!("{i:04}{}", "y".repeat(len - 4))))
            .collect();
        json!({"type": "object", "properties": {"e": {"type": "string", "enum": values}}, "required": ["e"]})
    };
    // 250 values may be long; more than 250 may total at most 15,000 characters.
    assert!(schema(big(250, 70)).for_openai_strict().is_ok());
    assert!(schema(big(251, 59)).for_openai_strict().is_ok()); // 14,809 characters
    let why = strict_refusal(big(251, 60)); // 15,060 characters
    assert!(
        why.contains("(at /properties/e/enum)") && why.contains("15060 characters"),
        "{why}"
    );
}

// ---------------------------------------------------------------------------------------------
// 6. Schemas as people hand-write them.

#[test]
fn a_root_with_properties_but_no_type_is_an_object() {
    let s = schema(json!({"properties": {"q": {"type": "string"}}, "required": ["q"]}));
    let want =
        json!({"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]});
    assert_eq!(s.for_openai(), &want);
    assert_eq!(s.for_anthropic(), &want);
    assert_eq!(s.for_gemini(), &want);
    assert_eq!(
        serde_json::to_string(s.for_openai()).unwrap(),
        r#"{"type":"object","properties":{"q":{"type":"string"}},"required":["q"]}"#
    );
    assert!(s.for_openai_strict().is_ok());
}

#[test]
fn openapi_upper_case_types_are_lower_case_for_json_schema_and_kept_for_gemini() {
    let written = json!({"type": "OBJECT", "properties": {
        "q": {"type": "STRING", "description": "Query"},
        "n": {"type": "INTEGER", "nullable": true},
        "tags": {"type": "ARRAY", "items": {"type": "STRING"}}},
        "required": ["q"]});
    let s = schema(written.clone());
    let want = json!({"type": "object", "properties": {
        "q": {"type": "string", "description": "Query"},
        "n": {"type": ["integer", "null"]},
        "tags": {"type": "array", "items": {"type": "string"}}},
        "required": ["q"]});
    assert_eq!(s.for_openai(), &want);
    assert_eq!(s.for_anthropic(), &want);
    // Gemini takes its own spelling as it is: same bytes.
    assert!(std::ptr::eq(s.for_gemini(), s.as_value()));
    assert_eq!(
        s.for_openai_strict().unwrap()["properties"]["n"]["type"],
        json!(["integer", "null"])
    );
}

#[test]
fn nullable_true_allows_null_for_openai_and_anthropic() {
    let s = schema(json!({"type": "object", "properties": {
        "note": {"type": "string", "nullable": true},
        "unit": {"type": "string", "enum": ["C", "F"], "nullable": true},
        "either": {"anyOf": [{"type": "string"}, {"type": "integer"}], "nullable": true},
        "point": {"$ref": "#/$defs/Point", "nullable": true, "description": "Where"},
        "plain": {"type": "boolean", "nullable": false}},
        "$defs": {"Point": {"type": "object", "properties": {"x": {"type": "number"}}, "required": ["x"]}}}));
    let p = &s.for_openai()["properties"];
    assert_eq!(p["note"], json!({"type": ["string", "null"]}));
    assert_eq!(
        p["unit"],
        json!({"type": ["string", "null"], "enum": ["C", "F", null]})
    );
    assert_eq!(
        p["either"],
        json!({"anyOf": [{"type": "string"}, {"type": "integer"}, {"type": "null"}]})
    );
    assert_eq!(
        p["point"],
        json!({"description": "Where", "anyOf": [{"$ref": "#/$defs/Point"}, {"type": "null"}]})
    );
    assert_eq!(p["plain"], json!({"type": "boolean", "nullable": false}));
    assert_eq!(s.for_anthropic(), s.for_openai());
    // Gemini reads `nullable` itself.
    assert_eq!(
        s.for_gemini()["properties"]["note"],
        json!({"type": "string", "nullable": true})
    );
}

/// An OpenAPI document's schema: lower-case or not, `nullable` in `components` means what it
/// says wherever a reference takes it.
fn openapi_components() -> Value {
    json!({"type": "object", "properties": {"p": {"$ref": "#/components/schemas/P"}}, "required": ["p"],
           "components": {"schemas": {"P": {"type": "OBJECT",
               "properties": {"n": {"type": "string", "nullable": true}, "m": {"type": "INTEGER"}},
               "required": ["n"]}}}})
}

#[test]
fn nullable_and_upper_case_types_under_components_are_read_too() {
    let s = schema(openapi_components());
    let p = &s.for_openai()["components"]["schemas"]["P"];
    assert_eq!(
        p,
        &json!({"type": "object", "properties": {"n": {"type": ["string", "null"]}, "m": {"type": "integer"}},
                "required": ["n"]})
    );
    assert_eq!(s.for_anthropic(), s.for_openai());
    let strict = s.for_openai_strict().unwrap();
    assert_eq!(strict["properties"]["p"], json!({"$ref": "#/$defs/P"}));
    assert_eq!(
        strict["$defs"]["P"]["properties"],
        json!({"n": {"type": ["string", "null"]}, "m": {"type": ["integer", "null"]}})
    );
    // Gemini inlines it: its own `nullable` spelling.
    assert_eq!(
        s.for_gemini()["properties"]["p"]["properties"]["n"],
        json!({"type": "string", "nullable": true})
    );
}

#[test]
fn a_root_any_of_of_required_lists_becomes_optional_properties_and_a_rule() {
    let s = schema(json!({"type": "object", "description": "Find a customer.",
        "properties": {"email": {"type": "string"}, "phone": {"type": "string"}, "name": {"type": "string"}},
        "required": ["name"],
        "anyOf": [{"required": ["email"]}, {"required": ["phone", "name"]}]}));
    let want = json!({"type": "object",
        "description": "Find a customer. (At least one of these must be given: `email`; `phone` and `name`.)",
        "properties": {"email": {"type": "string"}, "phone": {"type": "string"}, "name": {"type": "string"}},
        "required": ["name"]});
    assert_eq!(s.for_openai(), &want);
    assert_eq!(s.for_anthropic(), &want);
    assert_eq!(s.for_gemini(), &want);
    assert!(s.for_openai_strict().is_ok());
}

#[test]
fn refusals_say_what_is_wrong_and_where() {
    let cases = [
        (
            json!({"type": "string"}),
            "/type",
            "the root must be `\"type\": \"object\"`, not `\"string\"`; wrap the value in an object property",
        ),
        (
            json!({"type": "object", "properties": {"a": {"type": "array", "items": {"type": "strng"}}}}),
            "/properties/a/items/type",
            "`strng` is not a JSON Schema type; use one of `string`, `number`, `integer`, `boolean`, `object`, `array`, `null`",
        ),
        (
            json!({"type": "object", "properties": {"a": {"type": "string"}},
                   "anyOf": [{"required": ["a"]}, {"required": ["b"]}]}),
            "/anyOf/1/required/0",
            "`b` is required by this `anyOf` branch but is not in `properties`; add it to `properties`",
        ),
    ];
    for (v, path, reason) in cases {
        let err = InputSchema::new(v).unwrap_err();
        assert_eq!(
            (err.path.as_str(), err.reason.as_str()),
            (path, reason),
            "{err}"
        );
    }
    // A root `anyOf` of shapes (not just required lists) is still refused, at the branch.
    let err = InputSchema::new(
        json!({"type": "object", "properties": {"a": {"type": "string"}},
        "anyOf": [{"required": ["a"]}, {"properties": {"b": {"type": "string"}}}]}),
    )
    .unwrap_err();
    assert_eq!(err.path, "/anyOf");
    assert!(err.reason.contains("branch 1"), "{err}");
}

// ---------------------------------------------------------------------------------------------
// 7. Gemini `parametersJsonSchema`.

#[test]
fn gemini_json_schema_sends_json_schema_as_is_in_parameters_json_schema() {
    let ping = tool("ping", json!({"type": "object", "properties": {}}));
    assert_eq!(
        serde_json::to_string(&rendered(&ping, Dialect::Gemini, json_schema())).unwrap(),
        r#"[{"functionDeclarations":[{"name":"ping","description":"The ping tool","parametersJsonSchema":{"type":"object","properties":{}}}]}]"#
    );
    assert_eq!(
        Toolkit::new().tools_for(Dialect::Gemini, json_schema()),
        vec![json!({"functionDeclarations": []})]
    );
    // What `parameters` cannot say, `parametersJsonSchema` keeps: `$ref`, `$defs`,
    // `additionalProperties`, `oneOf`, tuples.
    let rich = json!({"type": "object", "properties": {
        "tree": {"$ref": "#/$defs/Tree"},
        "tags": {"type": "object", "additionalProperties": {"type": "string"}},
        "unit": {"oneOf": [{"const": "C"}, {"const": "F"}]},
        "pair": {"type": "array", "prefixItems": [{"type": "integer"}, {"type": "string"}]}},
        "required": ["tree"],
        "$defs": {"Tree": {"type": "object", "properties": {"kids": {"type": "array", "items": {"$ref": "#/$defs/Tree"}}}}}});
    let s = schema(rich.clone());
    assert_eq!(s.for_gemini_json_schema(), &rich);
    let toolkit = Toolkit::new().with(tool("rich", rich.clone())).unwrap();
    assert_eq!(
        toolkit.tools_for(
            Dialect::Gemini,
            ToolsOptions::default().with_json_schema(true)
        )[0]["functionDeclarations"][0]["parametersJsonSchema"],
        rich
    );
    assert!(toolkit.to_gemini()[0]["functionDeclarations"][0]
        .get("parametersJsonSchema")
        .is_none());
}

// ---------------------------------------------------------------------------------------------
// The Python judges.

struct Case {
    name: &'static str,
    schema: Value,
    valid: Vec<Value>,
    invalid: Vec<Value>,
}

fn cases() -> Vec<Case> {
    vec![
        Case {
            name: "components_ref",
            schema: components_ref(),
            valid: vec![json!({"p": "x"})],
            invalid: vec![json!({"p": 1}), json!({})],
        },
        Case {
            name: "components_recursive",
            schema: components_recursive(),
            valid: vec![
                json!({"tree": {"name": "a", "children": [{"name": "b", "children": []}]}}),
            ],
            invalid: vec![
                json!({"tree": {"name": "a", "children": [{"name": 1, "children": []}]}}),
            ],
        },
        Case {
            name: "definitions_ref",
            schema: json!({"type": "object", "properties": {"p": {"$ref": "#/definitions/P"}},
                           "required": ["p"], "definitions": {"P": {"type": "string", "enum": ["a", "b"]}}}),
            valid: vec![json!({"p": "a"})],
            invalid: vec![json!({"p": "c"})],
        },
        Case {
            name: "ref_to_a_sibling_property",
            schema: json!({"type": "object", "properties": {"a": {"type": "string", "enum": ["x", "y"]},
                           "b": {"$ref": "#/properties/a"}}, "required": ["a", "b"]}),
            valid: vec![json!({"a": "x", "b": "y"})],
            invalid: vec![json!({"a": "x", "b": "z"})],
        },
        Case {
            name: "nested_10",
            schema: nested(10),
            valid: vec![],
            invalid: vec![],
        },
        Case {
            name: "nested_11",
            schema: nested(11),
            valid: vec![],
            invalid: vec![],
        },
        Case {
            name: "no_root_type",
            schema: json!({"properties": {"q": {"type": "string"}}, "required": ["q"]}),
            valid: vec![json!({"q": "x"})],
            invalid: vec![json!({}), json!({"q": 1})],
        },
        Case {
            name: "upper_case",
            schema: json!({"type": "OBJECT", "properties": {"q": {"type": "STRING"},
                           "n": {"type": "INTEGER", "nullable": true},
                           "tags": {"type": "ARRAY", "items": {"type": "STRING"}}}, "required": ["q"]}),
            valid: vec![
                json!({"q": "x", "n": null, "tags": ["a"]}),
                json!({"q": "x", "n": 3}),
            ],
            invalid: vec![json!({"q": "x", "n": "3"}), json!({"q": "x", "tags": [1]})],
        },
        Case {
            name: "nullable",
            schema: json!({"type": "object", "properties": {
                "note": {"type": "string", "nullable": true},
                "unit": {"type": "string", "enum": ["C", "F"], "nullable": true},
                "either": {"anyOf": [{"type": "string"}, {"type": "integer"}], "nullable": true},
                "point": {"$ref": "#/$defs/Point", "nullable": true}},
                "$defs": {"Point": {"type": "object", "properties": {"x": {"type": "number"}}, "required": ["x"]}}}),
            valid: vec![
                json!({"note": null, "unit": null, "either": null, "point": null}),
                json!({"note": "n", "unit": "C", "either": 2, "point": {"x": 1.5}}),
            ],
            invalid: vec![
                json!({"unit": "K"}),
                json!({"point": {}}),
                json!({"either": true}),
            ],
        },
        Case {
            name: "openapi_components",
            schema: openapi_components(),
            valid: vec![json!({"p": {"n": null}}), json!({"p": {"n": "x", "m": 2}})],
            invalid: vec![json!({"p": {"m": 2}}), json!({"p": {"n": 1}})],
        },
        Case {
            name: "root_any_of_required",
            schema: json!({"type": "object",
                "properties": {"email": {"type": "string"}, "phone": {"type": "string"}},
                "anyOf": [{"required": ["email"]}, {"required": ["phone"]}]}),
            // Lowered, the schema accepts more (the rule is in the description); the tool
            // itself still decides.
            valid: vec![json!({"email": "a@b.c"}), json!({"phone": "1"}), json!({})],
            invalid: vec![json!({"email": 1})],
        },
    ]
}

#[test]
fn every_schema_sent_resolves_its_references_and_passes_the_sdks() {
    let cases = cases();
    let mut toolkit = Toolkit::new();
    for c in &cases {
        toolkit.add(tool(c.name, c.schema.clone())).unwrap();
    }
    let input = json!({
        "tools": {
            "openai": toolkit.to_openai(),
            "openai_strict": toolkit.tools_for(Dialect::OpenAiChat, ToolsOptions::default().with_strict(true)),
            "responses_strict": toolkit.tools_for(Dialect::OpenAiResponses, ToolsOptions::default().with_strict(true)),
            "anthropic": toolkit.to_anthropic(),
            "gemini": toolkit.to_gemini(),
            "gemini_json_schema": toolkit.tools_for(Dialect::Gemini, ToolsOptions::default().with_json_schema(true)),
            "cohere": toolkit.tools_for(Dialect::Cohere, ToolsOptions::default()),
        },
        "cases": cases.iter().map(|c| {
            let s = toolkit.get(c.name).unwrap().input_schema();
            json!({
                "name": c.name,
                "schemas": {
                    "openai": s.for_openai(),
                    "anthropic": s.for_anthropic(),
                    "openai_strict": s.for_openai_strict().ok(),
                    "gemini_json_schema": s.for_gemini_json_schema(),
                },
                "valid": c.valid,
                "invalid": c.invalid,
            })
        }).collect::<Vec<_>>(),
        // What strict mode used to send for the issue's case: must FAIL the reference check.
        "controls": [{"name": "control_dangling", "schema": {"type": "object",
            "properties": {"p": {"$ref": "#/components/schemas/P"}}, "required": ["p"],
            "additionalProperties": false}}],
    });
    // The judges' report, or nothing when the SDK checks are skipped (no Python, outside CI).
    let Some(report) = crate::venv::report(
        "tests/sdk/check_conformance.py",
        &input,
        "conformance_schemas_cases.json",
    ) else {
        return;
    };
    let failures = report["failures"].as_array().expect("failures list");
    let (controls, real): (Vec<&Value>, Vec<&Value>) = failures
        .iter()
        .partition(|f| f["case"].as_str() == Some("control_dangling"));
    assert_eq!(
        controls.len(),
        1,
        "the dangling control must fail the reference check exactly once: {controls:?}"
    );
    assert!(controls[0]["error"]
        .as_str()
        .unwrap()
        .contains("#/components/schemas/P"));
    assert!(
        real.is_empty(),
        "{} failures:\n{}",
        real.len(),
        real.iter()
            .map(|f| f.to_string())
            .collect::<Vec<_>>()
            .join("\n")
    );
    let checked = report["checked"].as_u64().unwrap_or(0);
    assert!(
        checked >= 8 * cases.len() as u64,
        "only {checked} checks ran"
    );
    // A dialect check_conformance.py does not know (Bedrock): a whole request carrying the
    // tools, by its own validator.
    for (fixture, script) in crate::venv::validated_alone() {
        let dialect = fixture.dialect();
        let tools = serde_json::to_value(toolkit.tools_for(dialect, ToolsOptions::default()));
        let request = fixture.request(vec![dialect.user_message("Go")], Some(tools.unwrap()));
        let file = format!("conformance_schemas_{}.json", fixture.sdk().key);
        let (ok, said) = crate::venv::validate_alone(fixture, script, &[request], None, &file)
            .expect("Python was there a moment ago");
        assert!(ok, "{script} refused a conformance case's tools:\n{said}");
    }
}
