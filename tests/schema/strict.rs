//! OpenAI strict mode: the strict schema, the adapters (Chat Completions and Responses), the
//! fallback with its reason, and `null` meaning "absent" for calls made under strict mode.

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;
use toolnexus::{Dialect, InputSchema, NativeTool, Toolkit, ToolsOptions};

#[derive(Debug, PartialEq, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Inner {
    name: String,
    #[serde(default)]
    rank: u32,
    note: Option<String>,
}

fn three() -> u8 {
    3
}

#[derive(Debug, PartialEq, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Args {
    city: String,
    days: Option<u8>,
    #[serde(default = "three")]
    retries: u8,
    #[serde(default)]
    tags: Vec<String>,
    inner: Option<Inner>,
    list: Vec<Inner>,
}

#[test]
fn strict_schema_closes_every_object_and_makes_optional_properties_nullable() {
    let s = InputSchema::of::<Args>().unwrap();
    assert_eq!(
        s.for_openai_strict().unwrap(),
        &json!({
            "type": "object",
            "additionalProperties": false,
            "properties": {
                "city": {"type": "string"},
                "days": {"type": ["integer", "null"], "minimum": 0, "maximum": 255},
                "retries": {"type": ["integer", "null"], "minimum": 0, "maximum": 255},
                "tags": {"type": ["array", "null"], "items": {"type": "string"}},
                "inner": {
                    "type": ["object", "null"],
                    "additionalProperties": false,
                    "properties": {
                        "name": {"type": "string"},
                        "rank": {"type": ["integer", "null"], "minimum": 0},
                        "note": {"type": ["string", "null"]}
                    },
                    "required": ["name", "rank", "note"]
                },
                "list": {"type": "array", "items": {
                    "type": "object",
                    "additionalProperties": false,
                    "properties": {
                        "name": {"type": "string"},
                        "rank": {"type": ["integer", "null"], "minimum": 0},
                        "note": {"type": ["string", "null"]}
                    },
                    "required": ["name", "rank", "note"]
                }}
            },
            "required": ["city", "days", "retries", "tags", "inner", "list"]
        })
    );
}

#[test]
fn nulls_under_strict_mode_reach_option_and_default_fields_as_absent() {
    let s = InputSchema::of::<Args>().unwrap();
    // What a model sends under strict mode: every key, `null` for what it leaves out.
    let mut args = json!({
        "city": "Oslo", "days": null, "retries": null, "tags": null,
        "inner": {"name": "a", "rank": null, "note": null},
        "list": [{"name": "b", "rank": null, "note": "n"}, {"name": "c", "rank": 2, "note": null}]
    });
    // Without the rule, `#[serde(default)]` fields refuse `null`.
    let before = serde_json::from_value::<Args>(args.clone())
        .unwrap_err()
        .to_string();
    assert_eq!(before, "invalid type: null, expected u8");

    s.strict_nulls_to_absent(&mut args);
    assert_eq!(
        args,
        json!({
            "city": "Oslo", "days": null,
            "inner": {"name": "a", "note": null},
            "list": [{"name": "b", "note": "n"}, {"name": "c", "rank": 2, "note": null}]
        })
    );
    let parsed: Args = serde_json::from_value(args).unwrap();
    assert_eq!(
        parsed,
        Args {
            city: "Oslo".into(),
            days: None,
            retries: 3,
            tags: vec![],
            inner: Some(Inner {
                name: "a".into(),
                rank: 0,
                note: None
            }),
            list: vec![
                Inner {
                    name: "b".into(),
                    rank: 0,
                    note: Some("n".into())
                },
                Inner {
                    name: "c".into(),
                    rank: 2,
                    note: None
                },
            ],
        }
    );
}

#[derive(Debug, PartialEq, Deserialize, JsonSchema)]
#[serde(tag = "kind", deny_unknown_fields)]
enum Action {
    Move {
        #[serde(default)]
        speed: u32,
    },
    Stop,
}

#[derive(Debug, PartialEq, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct WithChoice {
    action: Action,
}

#[test]
fn nulls_inside_a_choice_of_shapes_and_unknown_keys_are_handled() {
    let s = InputSchema::of::<WithChoice>().unwrap();
    let mut args = json!({"action": {"kind": "Move", "speed": null}, "extra": null});
    s.strict_nulls_to_absent(&mut args);
    // `speed` is declared in a branch that does not take null; `extra` is not described: kept.
    assert_eq!(args, json!({"action": {"kind": "Move"}, "extra": null}));
    // Non-object arguments are left alone.
    let mut odd = json!([null, 1]);
    s.strict_nulls_to_absent(&mut odd);
    assert_eq!(odd, json!([null, 1]));
}

#[test]
fn what_cannot_be_strict_says_why() {
    let cases = [
        (
            json!({"type": "object", "properties": {"m": {"type": "object", "additionalProperties": {"type": "integer"}}}}),
            "the input schema cannot be sent to openai strict mode (at /properties/m/additionalProperties): an object with free-form keys (a map) cannot be strict; every key must be listed",
        ),
        (
            json!({"type": "object", "properties": {"v": {"description": "anything"}}}),
            "the input schema cannot be sent to openai strict mode (at /properties/v): this value may be anything (no `type`), which strict mode cannot describe",
        ),
        (
            json!({"type": "object", "properties": {"t": {"type": "array", "prefixItems": [{"type": "integer"}]}}}),
            "the input schema cannot be sent to openai strict mode (at /properties/t/prefixItems): `prefixItems` is not supported in strict mode",
        ),
        (
            json!({"type": "object", "properties": {"o": {"type": "object"}}}),
            "the input schema cannot be sent to openai strict mode (at /properties/o): an object without `properties` accepts any keys and cannot be strict",
        ),
    ];
    for (schema, message) in cases {
        let s = InputSchema::new(schema).unwrap();
        assert_eq!(s.for_openai_strict().unwrap_err().to_string(), message);
    }
}

fn tools() -> Vec<NativeTool> {
    vec![
        NativeTool::of(
            "search",
            "Search",
            json!({"type": "object", "properties": {"q": {"type": "string"}, "n": {"type": "integer"}}, "required": ["q"]}),
            |_| async { "" },
        )
        .unwrap(),
        NativeTool::of(
            "tag",
            "Tag",
            json!({"type": "object", "properties": {"tags": {"type": "object", "additionalProperties": {"type": "string"}}}}),
            |_| async { "" },
        )
        .unwrap(),
    ]
}

#[test]
fn chat_completions_strict_falls_back_per_tool() {
    let toolkit = tools()
        .into_iter()
        .try_fold(Toolkit::new(), |k, t| k.with(t))
        .unwrap();
    let strict = ToolsOptions::default().with_strict(true);
    assert_eq!(
        toolkit.tools_json_for(Dialect::OpenAiChat, strict).get(),
        concat!(
            r#"[{"type":"function","function":{"name":"search","description":"Search","parameters":{"type":"object","properties":{"q":{"type":"string"},"n":{"type":["integer","null"]}},"required":["q","n"],"additionalProperties":false},"strict":true}},"#,
            r#"{"type":"function","function":{"name":"tag","description":"Tag","parameters":{"type":"object","properties":{"tags":{"type":"object","additionalProperties":{"type":"string"}}}},"strict":false}}]"#
        )
    );
    assert_eq!(
        serde_json::to_string(&toolkit.tools_for(Dialect::OpenAiChat, strict)).unwrap(),
        toolkit.tools_json_for(Dialect::OpenAiChat, strict).get()
    );
}

#[test]
fn responses_shape_always_carries_strict() {
    let toolkit = tools()
        .into_iter()
        .try_fold(Toolkit::new(), |k, t| k.with(t))
        .unwrap();
    assert_eq!(
        toolkit
            .tools_json_for(Dialect::OpenAiResponses, ToolsOptions::default())
            .get(),
        concat!(
            r#"[{"type":"function","name":"search","description":"Search","parameters":{"type":"object","properties":{"q":{"type":"string"},"n":{"type":"integer"}},"required":["q"]},"strict":false},"#,
            r#"{"type":"function","name":"tag","description":"Tag","parameters":{"type":"object","properties":{"tags":{"type":"object","additionalProperties":{"type":"string"}}}},"strict":false}]"#
        )
    );
    let strict = toolkit.tools_for(
        Dialect::OpenAiResponses,
        ToolsOptions::default().with_strict(true),
    );
    assert_eq!(strict[0]["strict"], true);
    assert_eq!(strict[0]["parameters"]["required"], json!(["q", "n"]));
    assert_eq!(strict[1]["strict"], false);
    assert!(Toolkit::new()
        .tools_for(
            Dialect::OpenAiResponses,
            ToolsOptions::default().with_strict(true)
        )
        .is_empty());
}

#[test]
fn strict_optional_choice_is_one_flat_any_of() {
    let s = InputSchema::new(json!({
        "type": "object",
        "properties": {"p": {"oneOf": [{"type": "string"}, {"type": "integer"}], "description": "Id"}, "r": {"$ref": "#/$defs/R", "description": "Ref"}},
        "$defs": {"R": {"type": "object", "properties": {"a": {"type": "string", "format": "uint8", "default": "x"}}, "required": ["a"]}}
    }))
    .unwrap();
    assert_eq!(
        s.for_openai_strict().unwrap(),
        &json!({
            "type": "object",
            "properties": {
                "p": {"anyOf": [{"type": "string"}, {"type": "integer"}, {"type": "null"}], "description": "Id"},
                "r": {"description": "Ref", "anyOf": [{"$ref": "#/$defs/R"}, {"type": "null"}]}
            },
            "$defs": {"R": {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"], "additionalProperties": false}},
            "required": ["p", "r"],
            "additionalProperties": false
        })
    );
}

#[test]
fn strict_mode_drops_keywords_it_does_not_document() {
    let s = InputSchema::new(json!({
        "type": "object",
        "properties": {"a": {"type": "string", "nullable": true, "x-origin": 1, "$comment": "c", "default": "d", "format": "uint8"}},
        "required": ["a"]
    }))
    .unwrap();
    assert_eq!(
        s.for_openai_strict().unwrap(),
        // OpenAPI's `nullable: true` means null is allowed (issue 12), the JSON Schema way.
        &json!({"type": "object", "properties": {"a": {"type": ["string", "null"]}}, "required": ["a"], "additionalProperties": false})
    );
}

#[test]
fn strict_references_stand_alone() {
    // A recursive type with a documented field: `$ref` plus `description`, which strict mode
    // refuses; the reference goes into a one-branch `anyOf` with the description outside.
    let s = InputSchema::new(json!({
        "type": "object",
        "properties": {"root": {"$ref": "#/$defs/T", "description": "The root"}, "opt": {"$ref": "#/$defs/T"}},
        "required": ["root"],
        "$defs": {"T": {"type": "object", "properties": {"kids": {"type": "array", "items": {"$ref": "#/$defs/T"}}}, "required": ["kids"]}}
    }))
    .unwrap();
    let t = json!({"type": "object", "properties": {"kids": {"type": "array", "items": {"$ref": "#/$defs/T"}}}, "required": ["kids"], "additionalProperties": false});
    let root = json!({"description": "The root", "anyOf": [{"$ref": "#/$defs/T"}]});
    assert_eq!(
        s.for_openai_strict().unwrap(),
        &json!({
            "type": "object",
            "properties": {"root": root, "opt": {"anyOf": [{"$ref": "#/$defs/T"}, {"type": "null"}]}},
            "required": ["root", "opt"],
            "$defs": {"T": t},
            "additionalProperties": false
        })
    );
}

/// A definition that refers to itself through `allOf` is read without end of stack (it
/// overflowed once): refused where a provider must merge it, said why where a strict mode cannot.
#[test]
fn a_definition_that_refers_to_itself_through_all_of_is_prepared_without_overflowing() {
    let d = json!({"allOf": [{"$ref": "#/$defs/D"}, {"type": "integer"}]});
    // Used: Gemini inlines it, and cannot.
    let used = InputSchema::new(json!({"type": "object",
        "properties": {"v": {"$ref": "#/$defs/D"}}, "$defs": {"D": d}}))
    .unwrap_err();
    assert_eq!(used.provider, Some("gemini"));
    assert!(
        used.reason.contains("refers to itself through `allOf`"),
        "{used}"
    );
    // Unused: every provider's form is made; the strict modes say why they are not possible.
    let unused = InputSchema::new(json!({"type": "object",
        "properties": {"v": {"type": "string"}}, "$defs": {"D": d}}))
    .unwrap();
    let openai = unused.for_openai_strict().unwrap_err().to_string();
    assert!(
        openai.contains("refers to itself through `allOf`"),
        "{openai}"
    );
    let anthropic = unused.for_anthropic_strict().unwrap_err().to_string();
    assert!(anthropic.contains("recursive"), "{anthropic}");
}
