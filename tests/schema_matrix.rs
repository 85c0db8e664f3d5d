//! The conformance matrix (issue 4): 30 argument types, each checked for every provider.
//!
//! Each case is an argument struct shaped like the one `#[tool]` generates (one field per
//! parameter, `#[serde(deny_unknown_fields)]`), its schema built with `InputSchema::of`, and a
//! few sample values. For every case:
//! - Gemini: `to_gemini` passes google-genai's `types.Tool.model_validate` (exceptions, warnings
//!   and warning log records all count as failures) and the server rules of SPEC §4, checked
//!   here in Rust (`gemini_rules`);
//! - OpenAI: `to_openai` meets the non-strict rules and, where strict mode is possible, the
//!   strict schema meets the strict rules (`openai_rules`, `strict_rules`, both here); the tool
//!   shapes pass the openai SDK's models;
//! - Anthropic: valid JSON Schema 2020-12 (`Draft202012Validator.check_schema`), object root,
//!   no root combinator;
//! - lowering never refuses a valid call: every sample, serialized by serde, validates against
//!   every provider's schema (Python `jsonschema`; Gemini's `nullable` translated to a type list).
//!
//! All Python checks run in ONE invocation of `tests/sdk/validate_tools.py` over a JSON file.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::process::Command;

use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};
use toolnexus::{InputSchema, NativeTool, Tool};

mod support {
    pub mod sdk;
}

// ---------------------------------------------------------------------------------------------
// The argument types.

#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Primitives {
    /// A flag.
    flag: bool,
    count: i64,
    ratio: f64,
    name: String,
    initial: char,
}

#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct OptionPrimitives {
    city: String,
    /// How many days ahead.
    days: Option<u8>,
    verbose: Option<bool>,
}

#[derive(Serialize, Deserialize, JsonSchema, Clone)]
#[serde(deny_unknown_fields)]
struct Location {
    lat: f64,
    lon: f64,
}

#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct OptionStruct {
    /// Where, if anywhere.
    location: Option<Location>,
}

#[derive(Serialize, Deserialize, JsonSchema, Clone, Copy)]
enum Unit {
    Celsius,
    Fahrenheit,
}

#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct OptionEnum {
    unit: Option<Unit>,
}

#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct UnitEnum {
    unit: Unit,
}

/// How loud.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
enum Level {
    /// Barely audible.
    Quiet,
    /// The usual.
    Normal,
    /// Everyone hears it.
    VeryLoud,
}

#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct UnitEnumDocs {
    level: Level,
}

#[derive(Serialize, Deserialize, JsonSchema)]
enum Shape {
    Circle { radius: f64 },
    Square(f64),
    Point,
}

#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct ExternallyTagged {
    shape: Shape,
}

#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind")]
enum Event {
    Click { x: i32, y: i32 },
    Key { code: String },
    Blur,
}

#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct InternallyTagged {
    event: Event,
}

#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(tag = "t", content = "c")]
enum Message {
    Text(String),
    Number(i64),
    Ping,
}

#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct AdjacentlyTagged {
    message: Message,
}

#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
enum Id {
    Number(u64),
    Name(String),
}

#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Untagged {
    id: Id,
}

#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Vecs {
    tags: Vec<String>,
    points: Vec<Location>,
}

#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Maps {
    /// Score per player.
    scores: HashMap<String, i32>,
    places: BTreeMap<String, Location>,
}

#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Address {
    street: String,
    zip: Option<String>,
}

#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Customer {
    name: String,
    address: Address,
}

#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Nested {
    customer: Customer,
    lines: Vec<Address>,
}

#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Tree {
    name: String,
    children: Vec<Tree>,
}

#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Recursive {
    tree: Tree,
}

#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Node {
    value: i32,
    next: Option<Box<Node>>,
}

#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct LinkedList {
    head: Option<Node>,
}

#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Expr {
    Num {
        value: i64,
    },
    Neg {
        /// The operand.
        inner: Box<Expr>,
    },
}

#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct RecursiveEnum {
    /// The expression to evaluate.
    expr: Expr,
}

#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct RangedU8 {
    /// From 1 to 10.
    #[schemars(range(min = 1, max = 10))]
    level: u8,
    plain: u8,
}

#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Renamed {
    #[serde(rename = "userId")]
    user_id: u64,
}

#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct RenameAll {
    first_name: String,
    last_name: Option<String>,
}

fn default_limit() -> u32 {
    10
}

#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Defaults {
    query: String,
    #[serde(default)]
    exact: bool,
    #[serde(default = "default_limit")]
    limit: u32,
}

#[derive(Serialize, Deserialize, JsonSchema)]
struct Paging {
    page: u32,
    per_page: Option<u32>,
}

// serde does not support `deny_unknown_fields` together with `flatten`, so this one (alone)
// accepts unknown fields.
#[derive(Serialize, Deserialize, JsonSchema)]
struct Flatten {
    query: String,
    #[serde(flatten)]
    paging: Paging,
}

#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Tuples {
    pair: (i32, String),
    same: (f64, f64),
}

#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct AnyValue {
    /// Anything at all.
    payload: Value,
}

#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct NoParameters {}

#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct OptionVec {
    tags: Option<Vec<String>>,
    maybe: Vec<Option<i32>>,
}

#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Numbers {
    a: i8,
    b: u64,
    c: f32,
    d: usize,
    e: i128,
}

#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Sets {
    unique: HashSet<String>,
    fixed: [u8; 3],
}

#[derive(Serialize, Deserialize, JsonSchema)]
struct Meters(f64);

#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Newtype {
    distance: Meters,
}

#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct OptionExternal {
    shape: Option<Shape>,
}

#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Pattern {
    #[schemars(length(min = 2, max = 8), regex(pattern = r"^[a-z]+$"))]
    code: String,
    #[schemars(length(min = 1))]
    items: Vec<i32>,
}

// ---------------------------------------------------------------------------------------------
// The matrix.

struct Case {
    name: &'static str,
    schema: InputSchema,
    samples: Vec<Value>,
    /// Whether OpenAI strict mode is expected to be possible.
    strict: bool,
}

fn case<T: JsonSchema + Serialize + DeserializeOwned>(
    name: &'static str,
    strict: bool,
    samples: Vec<T>,
) -> Case {
    let schema = InputSchema::of::<T>().unwrap_or_else(|e| panic!("{name}: {e}"));
    let samples = samples
        .iter()
        .map(|s| serde_json::to_value(s).expect("sample serializes"))
        .collect::<Vec<_>>();
    for s in &samples {
        // The samples are what a model must be able to send: they deserialize back.
        serde_json::from_value::<T>(s.clone()).unwrap_or_else(|e| panic!("{name}: {s}: {e}"));
    }
    Case {
        name,
        schema,
        samples,
        strict,
    }
}

/// A hand-written schema (as `NativeTool::of` takes one) with samples of valid arguments.
fn hand(name: &'static str, strict: bool, schema: Value, samples: Vec<Value>) -> Case {
    let schema = InputSchema::new(schema).unwrap_or_else(|e| panic!("{name}: {e}"));
    Case {
        name,
        schema,
        samples,
        strict,
    }
}

fn loc(lat: f64, lon: f64) -> Location {
    Location { lat, lon }
}

fn tree(name: &str, children: Vec<Tree>) -> Tree {
    Tree {
        name: name.into(),
        children,
    }
}

fn matrix() -> Vec<Case> {
    vec![
        case(
            "primitives",
            true,
            vec![Primitives {
                flag: true,
                count: -3,
                ratio: 0.5,
                name: "x".into(),
                initial: 'é',
            }],
        ),
        case(
            "option_primitives",
            true,
            vec![
                OptionPrimitives {
                    city: "Oslo".into(),
                    days: Some(3),
                    verbose: None,
                },
                OptionPrimitives {
                    city: "Lima".into(),
                    days: None,
                    verbose: Some(false),
                },
            ],
        ),
        case(
            "option_struct",
            true,
            vec![
                OptionStruct {
                    location: Some(loc(1.0, 2.0)),
                },
                OptionStruct { location: None },
            ],
        ),
        case(
            "option_enum",
            true,
            vec![
                OptionEnum {
                    unit: Some(Unit::Celsius),
                },
                OptionEnum { unit: None },
            ],
        ),
        case(
            "unit_enum",
            true,
            vec![UnitEnum {
                unit: Unit::Fahrenheit,
            }],
        ),
        case(
            "unit_enum_with_docs",
            true,
            vec![
                UnitEnumDocs {
                    level: Level::VeryLoud,
                },
                UnitEnumDocs {
                    level: Level::Quiet,
                },
            ],
        ),
        case(
            "externally_tagged",
            true,
            vec![
                ExternallyTagged {
                    shape: Shape::Circle { radius: 2.0 },
                },
                ExternallyTagged {
                    shape: Shape::Square(1.5),
                },
                ExternallyTagged {
                    shape: Shape::Point,
                },
            ],
        ),
        case(
            "internally_tagged",
            true,
            vec![
                InternallyTagged {
                    event: Event::Click { x: 1, y: 2 },
                },
                InternallyTagged {
                    event: Event::Key {
                        code: "Enter".into(),
                    },
                },
                InternallyTagged { event: Event::Blur },
            ],
        ),
        case(
            "adjacently_tagged",
            true,
            vec![
                AdjacentlyTagged {
                    message: Message::Text("hi".into()),
                },
                AdjacentlyTagged {
                    message: Message::Number(7),
                },
                AdjacentlyTagged {
                    message: Message::Ping,
                },
            ],
        ),
        case(
            "untagged",
            true,
            vec![
                Untagged { id: Id::Number(42) },
                Untagged {
                    id: Id::Name("ab".into()),
                },
            ],
        ),
        case(
            "vecs",
            true,
            vec![
                Vecs {
                    tags: vec!["a".into(), "b".into()],
                    points: vec![loc(0.0, 1.0)],
                },
                Vecs {
                    tags: vec![],
                    points: vec![],
                },
            ],
        ),
        case(
            "maps",
            false,
            vec![Maps {
                scores: HashMap::from([("ann".to_owned(), 3)]),
                places: BTreeMap::from([("home".to_owned(), loc(1.0, 1.0))]),
            }],
        ),
        case(
            "nested_structs",
            true,
            vec![Nested {
                customer: Customer {
                    name: "Ann".into(),
                    address: Address {
                        street: "Main".into(),
                        zip: None,
                    },
                },
                lines: vec![Address {
                    street: "Side".into(),
                    zip: Some("0150".into()),
                }],
            }],
        ),
        case(
            "recursive",
            true,
            vec![Recursive {
                tree: tree(
                    "a",
                    vec![
                        tree(
                            "b",
                            vec![tree("c", vec![tree("d", vec![tree("e", vec![])])])],
                        ),
                        tree("f", vec![]),
                    ],
                ),
            }],
        ),
        case(
            "recursive_option_box",
            true,
            vec![
                LinkedList {
                    head: Some(Node {
                        value: 1,
                        next: Some(Box::new(Node {
                            value: 2,
                            next: Some(Box::new(Node {
                                value: 3,
                                next: Some(Box::new(Node {
                                    value: 4,
                                    next: None,
                                })),
                            })),
                        })),
                    }),
                },
                LinkedList { head: None },
            ],
        ),
        case(
            "u8_with_range",
            true,
            vec![
                RangedU8 { level: 1, plain: 0 },
                RangedU8 {
                    level: 10,
                    plain: 255,
                },
            ],
        ),
        case("serde_rename", true, vec![Renamed { user_id: 9 }]),
        case(
            "serde_rename_all",
            true,
            vec![RenameAll {
                first_name: "A".into(),
                last_name: None,
            }],
        ),
        case(
            "serde_default",
            true,
            vec![Defaults {
                query: "q".into(),
                exact: false,
                limit: 10,
            }],
        ),
        case(
            "serde_flatten",
            true,
            vec![Flatten {
                query: "q".into(),
                paging: Paging {
                    page: 2,
                    per_page: None,
                },
            }],
        ),
        case(
            "tuples",
            false,
            vec![Tuples {
                pair: (1, "one".into()),
                same: (0.5, 2.0),
            }],
        ),
        case(
            "serde_json_value",
            false,
            vec![
                AnyValue {
                    payload: json!({"any": [1, "thing", null]}),
                },
                AnyValue {
                    payload: json!(null),
                },
                AnyValue { payload: json!(3) },
            ],
        ),
        case("no_parameters", true, vec![NoParameters {}]),
        case(
            "option_vec_and_vec_option",
            true,
            vec![
                OptionVec {
                    tags: Some(vec!["x".into()]),
                    maybe: vec![Some(1), None],
                },
                OptionVec {
                    tags: None,
                    maybe: vec![],
                },
            ],
        ),
        case(
            "numbers",
            true,
            vec![Numbers {
                a: -128,
                b: u64::MAX,
                c: 1.5,
                d: 0,
                e: -5,
            }],
        ),
        case(
            "sets_and_arrays",
            true,
            vec![Sets {
                unique: HashSet::from(["a".to_owned()]),
                fixed: [1, 2, 3],
            }],
        ),
        case(
            "newtype",
            true,
            vec![Newtype {
                distance: Meters(3.5),
            }],
        ),
        case(
            "option_externally_tagged",
            true,
            vec![
                OptionExternal {
                    shape: Some(Shape::Square(2.0)),
                },
                OptionExternal {
                    shape: Some(Shape::Point),
                },
                OptionExternal { shape: None },
            ],
        ),
        case(
            "length_and_pattern",
            true,
            vec![Pattern {
                code: "ab".into(),
                items: vec![1],
            }],
        ),
        case(
            "recursive_enum_documented",
            true,
            vec![RecursiveEnum {
                expr: Expr::Neg {
                    inner: Box::new(Expr::Neg {
                        inner: Box::new(Expr::Neg {
                            inner: Box::new(Expr::Neg {
                                inner: Box::new(Expr::Num { value: 1 }),
                            }),
                        }),
                    }),
                },
            }],
        ),
        // Hand-written schemas using what schemars never writes.
        hand(
            "hand_older_drafts",
            false,
            json!({"$schema": "http://json-schema.org/draft-04/schema#", "type": "object", "properties": {
                "pair": {"type": "array", "items": [{"type": "integer"}, {"type": "string"}], "additionalItems": false},
                "n": {"type": "number", "minimum": 0, "exclusiveMinimum": true}
            }, "required": ["pair"]}),
            vec![
                json!({"pair": [1, "a"], "n": 0.5}),
                json!({"pair": [2, "b"]}),
            ],
        ),
        hand(
            "hand_keywords",
            false,
            json!({"type": "object", "properties": {
                "prio": {"type": "integer", "enum": [1, 2, 3], "description": "Priority"},
                "version": {"const": 2},
                "pct": {"type": "integer", "exclusiveMinimum": 0, "exclusiveMaximum": 100},
                "step": {"type": "number", "multipleOf": 0.5},
                "id": {"type": ["string", "integer"]},
                "mail": {"type": "string", "format": "email", "examples": ["a@b.c"]},
                "unit": {"$ref": "#/definitions/Unit"},
                "box": {"allOf": [{"$ref": "#/definitions/Size"}, {"properties": {"label": {"type": "string"}}}]},
                "any_list": {"type": "array"},
                "never_null": {"not": {"type": "null"}}
            }, "required": ["prio", "extra"], "definitions": {
                "Unit": {"type": "string", "enum": ["C", "F"]},
                "Size": {"type": "object", "properties": {"w": {"type": "integer"}}, "required": ["w"]}
            }}),
            vec![
                json!({"prio": 2, "extra": true, "version": 2, "pct": 50, "step": 1.5, "id": "x", "mail": "q@r.s",
                       "unit": "C", "box": {"w": 3, "label": "l"}, "any_list": [1, "a", null], "never_null": 0}),
                json!({"prio": 1, "extra": null, "id": 7, "pct": 1}),
            ],
        ),
    ]
}

// ---------------------------------------------------------------------------------------------
// Provider rules checked in Rust.

const GEMINI_KEYS: &[&str] = &[
    "type",
    "nullable",
    "description",
    "title",
    "enum",
    "format",
    "properties",
    "required",
    "items",
    "anyOf",
    "minimum",
    "maximum",
    "minLength",
    "maxLength",
    "pattern",
    "minItems",
    "maxItems",
    "minProperties",
    "maxProperties",
    "default",
    "example",
    "propertyOrdering",
];
const GEMINI_TYPES: &[&str] = &["string", "number", "integer", "boolean", "array", "object"];

/// SPEC §4 for Gemini, server side included: only the keys google-genai's `Schema` has (minus
/// `additionalProperties`, `$defs`/`$ref`, which the server refuses or we inline), one type,
/// string enums, arrays with `items`, `required` names among `properties`.
fn gemini_rules(s: &Value, path: &str, errors: &mut Vec<String>) {
    let Value::Object(map) = s else {
        errors.push(format!("{path}: not an object schema"));
        return;
    };
    for key in map.keys() {
        if !GEMINI_KEYS.contains(&key.as_str()) {
            errors.push(format!("{path}: key `{key}` is not accepted"));
        }
    }
    if let Some(t) = map.get("type") {
        if !t.as_str().is_some_and(|t| GEMINI_TYPES.contains(&t)) {
            errors.push(format!("{path}: type {t} is not one Gemini type"));
        }
    }
    if let Some(e) = map.get("enum") {
        if !e.as_array().is_some_and(|e| e.iter().all(Value::is_string))
            || map.get("type") != Some(&json!("string"))
        {
            errors.push(format!("{path}: enum must be strings on a string: {e}"));
        }
    }
    if map.get("type") == Some(&json!("array")) && !map.contains_key("items") {
        errors.push(format!("{path}: array without items"));
    }
    if let Some(Value::Array(req)) = map.get("required") {
        let props = map.get("properties").and_then(Value::as_object);
        for r in req {
            if !props.is_some_and(|p| r.as_str().is_some_and(|r| p.contains_key(r))) {
                errors.push(format!("{path}: required {r} is not in properties"));
            }
        }
    }
    if let Some(Value::Object(props)) = map.get("properties") {
        for (k, v) in props {
            gemini_rules(v, &format!("{path}/properties/{k}"), errors);
        }
    }
    if let Some(items) = map.get("items") {
        gemini_rules(items, &format!("{path}/items"), errors);
    }
    if let Some(Value::Array(any)) = map.get("anyOf") {
        for (i, b) in any.iter().enumerate() {
            gemini_rules(b, &format!("{path}/anyOf/{i}"), errors);
        }
    }
}

/// Every subschema of `s` (JSON Schema 2020-12 keywords), with its path.
fn subschemas<'a>(s: &'a Value, path: String, out: &mut Vec<(String, &'a Value)>) {
    out.push((path.clone(), s));
    let Value::Object(map) = s else { return };
    for (k, v) in map {
        match (k.as_str(), v) {
            ("properties" | "$defs" | "definitions" | "patternProperties", Value::Object(m)) => {
                for (n, sub) in m {
                    subschemas(sub, format!("{path}/{k}/{n}"), out);
                }
            }
            ("anyOf" | "oneOf" | "allOf" | "prefixItems", Value::Array(l)) => {
                for (i, sub) in l.iter().enumerate() {
                    subschemas(sub, format!("{path}/{k}/{i}"), out);
                }
            }
            ("items" | "additionalProperties" | "not", sub) if sub.is_object() => {
                subschemas(sub, format!("{path}/{k}"), out)
            }
            _ => {}
        }
    }
}

fn is_type(map: &Map<String, Value>, t: &str) -> bool {
    match map.get("type") {
        Some(Value::String(s)) => s == t,
        Some(Value::Array(l)) => l.contains(&json!(t)),
        _ => false,
    }
}

fn root_rules(s: &Value, forbidden: &[&str], errors: &mut Vec<String>) {
    if s.get("type") != Some(&json!("object")) || !s.get("properties").is_some_and(Value::is_object)
    {
        errors.push("root is not `type: object` with `properties`".into());
    }
    for k in forbidden {
        if s.get(k).is_some() {
            errors.push(format!("`{k}` at the root"));
        }
    }
    if s.get("$schema").is_some() {
        errors.push("`$schema` still there".into());
    }
}

/// SPEC §4 for OpenAI (non-strict).
fn openai_rules(s: &Value, errors: &mut Vec<String>) {
    root_rules(
        s,
        &["anyOf", "oneOf", "allOf", "enum", "const", "not"],
        errors,
    );
    let mut all = Vec::new();
    subschemas(s, String::new(), &mut all);
    for (path, sub) in all {
        if let Value::Object(map) = sub {
            if is_type(map, "array") && !map.contains_key("items") {
                errors.push(format!("{path}: array without items"));
            }
        }
    }
}

const STRICT_KEYS: &[&str] = &[
    "type",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "anyOf",
    "enum",
    "const",
    "$ref",
    "$defs",
    "definitions",
    "description",
    "title",
    "pattern",
    "format",
    "multipleOf",
    "maximum",
    "exclusiveMaximum",
    "minimum",
    "exclusiveMinimum",
    "minItems",
    "maxItems",
];

/// OpenAI strict mode, as documented: only the supported keywords, every object closed with
/// all its properties required, nothing untyped, no combinator at the root.
fn strict_rules(s: &Value, errors: &mut Vec<String>) {
    root_rules(
        s,
        &["anyOf", "oneOf", "allOf", "enum", "const", "not"],
        errors,
    );
    let mut all = Vec::new();
    subschemas(s, String::new(), &mut all);
    for (path, sub) in all {
        let Value::Object(map) = sub else {
            errors.push(format!("{path}: boolean schema"));
            continue;
        };
        if map.contains_key("$ref") && map.len() > 1 {
            errors.push(format!("{path}: `$ref` with other keywords"));
        }
        if path.ends_with("/additionalProperties") {
            errors.push(format!("{path}: additionalProperties is a schema"));
        }
        for k in map.keys() {
            if !STRICT_KEYS.contains(&k.as_str()) {
                errors.push(format!(
                    "{path}: keyword `{k}` is not supported in strict mode"
                ));
            }
        }
        if path.contains("/$defs/")
            && path.matches('/').count() == 2
            && !map.contains_key("type")
            && !map.contains_key("anyOf")
        {
            errors.push(format!("{path}: untyped definition"));
        }
        if !["type", "anyOf", "$ref", "enum", "const"]
            .iter()
            .any(|k| map.contains_key(*k))
            && !path.ends_with("$defs")
        {
            errors.push(format!("{path}: untyped schema"));
        }
        if is_type(map, "object") || map.contains_key("properties") {
            if map.get("additionalProperties") != Some(&json!(false)) {
                errors.push(format!(
                    "{path}: object without additionalProperties: false"
                ));
            }
            let props: Vec<&String> = map
                .get("properties")
                .and_then(Value::as_object)
                .map(|p| p.keys().collect())
                .unwrap_or_default();
            let req: Vec<&str> = map
                .get("required")
                .and_then(Value::as_array)
                .map(|r| r.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            if props.len() != req.len() || props.iter().any(|p| !req.contains(&p.as_str())) {
                errors.push(format!(
                    "{path}: required {req:?} is not every property {props:?}"
                ));
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The test.

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The venv's python (installed by `scripts/venv.sh` on first use).
fn python() -> PathBuf {
    support::sdk::python()
}

fn tool(case: &Case) -> NativeTool {
    NativeTool::of(
        case.name,
        format!("Matrix case {}", case.name),
        case.schema.as_value().clone(),
        |_| async { "ok" },
    )
    .unwrap_or_else(|e| panic!("{}: {e}", case.name))
}

fn run_python(input: &Path) -> Value {
    let out = Command::new(python())
        .arg(repo().join("tests/sdk/validate_tools.py"))
        .arg(input)
        .output()
        .expect("python runs");
    assert!(
        out.status.success(),
        "validate_tools.py failed: {}\n{}",
        String::from_utf8_lossy(&out.stderr),
        String::from_utf8_lossy(&out.stdout)
    );
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "validate_tools.py printed no JSON report ({e}): {}",
            String::from_utf8_lossy(&out.stdout)
        )
    })
}

#[test]
fn every_matrix_type_is_accepted_by_every_provider() {
    let cases = matrix();
    assert!(cases.len() >= 25, "the matrix has {} cases", cases.len());
    let tools: Vec<NativeTool> = cases.iter().map(tool).collect();

    let mut failures = Vec::new();
    for (case, tool) in cases.iter().zip(&tools) {
        let s = tool.input_schema();
        let mut errors = Vec::new();
        gemini_rules(s.for_gemini(), "", &mut errors);
        root_rules(s.for_gemini(), &["anyOf"], &mut errors);
        for e in errors.drain(..) {
            failures.push(format!("{}: gemini: {e}", case.name));
        }
        openai_rules(s.for_openai(), &mut errors);
        for e in errors.drain(..) {
            failures.push(format!("{}: openai: {e}", case.name));
        }
        root_rules(s.for_anthropic(), &["anyOf", "oneOf", "allOf"], &mut errors);
        for e in errors.drain(..) {
            failures.push(format!("{}: anthropic: {e}", case.name));
        }
        match (s.for_openai_strict(), case.strict) {
            (Ok(strict), true) => {
                strict_rules(strict, &mut errors);
                for e in errors.drain(..) {
                    failures.push(format!("{}: openai strict: {e}", case.name));
                }
            }
            (Err(e), true) => {
                failures.push(format!("{}: strict mode expected, refused: {e}", case.name))
            }
            (Ok(_), false) => {
                failures.push(format!("{}: strict mode unexpectedly possible", case.name))
            }
            (Err(_), false) => {}
        }
    }

    let input = json!({
        "gemini_tools": toolnexus::to_gemini(&tools),
        "openai_tools": toolnexus::to_openai(&tools),
        "openai_strict_tools": toolnexus::to_openai_strict(&tools),
        "responses_tools": toolnexus::to_openai_responses(&tools, false),
        "responses_strict_tools": toolnexus::to_openai_responses(&tools, true),
        "anthropic_tools": toolnexus::to_anthropic(&tools),
        "cases": cases.iter().map(|c| json!({
            "name": c.name,
            "schemas": {
                "original": c.schema.as_value(),
                "openai": c.schema.for_openai(),
                "anthropic": c.schema.for_anthropic(),
                "gemini": c.schema.for_gemini(),
                "openai_strict": c.schema.for_openai_strict().ok(),
            },
            "samples": c.samples,
        })).collect::<Vec<_>>(),
    });
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let file = dir.join("schema_matrix_cases.json");
    std::fs::write(&file, serde_json::to_vec_pretty(&input).unwrap()).unwrap();

    let report = run_python(&file);
    for f in report["failures"].as_array().expect("failures list") {
        failures.push(format!(
            "{}: {}: {}",
            f["case"].as_str().unwrap_or("?"),
            f["check"].as_str().unwrap_or("?"),
            f["error"].as_str().unwrap_or("?")
        ));
    }
    // One Python check per SDK call and sample: a report that checked nothing proves nothing.
    let checked = report["checked"].as_u64().unwrap_or(0);
    assert!(
        checked >= 7 * cases.len() as u64,
        "only {checked} checks ran"
    );
    assert!(
        failures.is_empty(),
        "{} failures (cases in {}):\n{}",
        failures.len(),
        file.display(),
        failures.join("\n")
    );
}
