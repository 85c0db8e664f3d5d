//! The schemas typed answers and strict tools send, judged by each SDK's own rule for them
//! (`tests/sdk/check_strict_schemas.py`): Anthropic's `transform_schema` (structured outputs on
//! Anthropic, Bedrock and Cohere, strict tools) and OpenAI's strict helper (Chat and Responses)
//! must leave what we send unchanged, Gemini's `t_schema` must change nothing but the `propertyOrdering` it adds, for a
//! set of realistic answer types; Anthropic's and Bedrock's request types must take the strict
//! tools.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::ops::{Range, RangeInclusive};

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Map, Value};
use toolnexus::{Dialect, Output, Toolkit, ToolsOptions};

use crate::common::dialects;

/// Every integer width, and floats.
#[derive(Deserialize, JsonSchema)]
#[allow(dead_code)]
struct Widths {
    a: i8,
    b: i16,
    c: i32,
    d: i64,
    e: u8,
    f: u16,
    g: u32,
    h: u64,
    i: usize,
    j: isize,
    k: f32,
    l: f64,
}

/// Optional fields of every kind.
#[derive(Deserialize, JsonSchema)]
#[allow(dead_code)]
struct Optional {
    /// A note, if any.
    note: Option<String>,
    days: Option<u8>,
    when: Option<Inner>,
    sky: Option<Sky>,
    scores: Option<Vec<i32>>,
}

/// Bounds through schemars attributes.
#[derive(Deserialize, JsonSchema)]
#[allow(dead_code)]
struct Bounded {
    /// The name.
    #[schemars(length(min = 1, max = 40))]
    name: String,
    #[schemars(length(min = 2, max = 5))]
    tags: Vec<String>,
    #[schemars(length(min = 1))]
    one_or_more: Vec<u32>,
    #[schemars(range(min = 1, max = 10))]
    score: u32,
    #[schemars(range(min = -1.5, max = 2.5))]
    ratio: f64,
    #[schemars(regex(pattern = r"^[a-z]+$"))]
    slug: String,
    #[schemars(email)]
    email: String,
    unique: HashSet<String>,
    #[serde(default)]
    #[schemars(default = "three")]
    retries: u8,
}

fn three() -> u8 {
    3
}

/// Ranges.
#[derive(Deserialize, JsonSchema)]
#[allow(dead_code)]
struct Ranges {
    hours: Range<u32>,
    window: RangeInclusive<i64>,
}

#[derive(Deserialize, JsonSchema)]
#[allow(dead_code)]
enum Sky {
    Clear,
    Cloudy,
}

/// Enums: unit, data-carrying, internally tagged.
#[derive(Deserialize, JsonSchema)]
#[allow(dead_code)]
struct Enums {
    sky: Sky,
    shape: Shape,
    event: Event,
}

#[derive(Deserialize, JsonSchema)]
#[allow(dead_code)]
enum Shape {
    Circle { radius: f64 },
    Square(f64),
    Dot,
}

#[derive(Deserialize, JsonSchema)]
#[serde(tag = "kind")]
#[allow(dead_code)]
enum Event {
    Start { at: u64 },
    Stop { reason: String },
}

/// Nested structs and lists of them.
#[derive(Deserialize, JsonSchema)]
#[allow(dead_code)]
struct Nested {
    inner: Inner,
    list: Vec<Inner>,
    pair: (u8, String),
}

#[derive(Deserialize, JsonSchema)]
#[allow(dead_code)]
struct Inner {
    /// The label.
    label: String,
    weight: u16,
}

/// Maps, which no strict subset can keep.
#[derive(Deserialize, JsonSchema)]
#[allow(dead_code)]
struct Maps {
    labels: BTreeMap<String, String>,
    counts: HashMap<String, u32>,
}

/// A recursive type (`$defs` and `$ref`).
#[derive(Deserialize, JsonSchema)]
#[allow(dead_code)]
struct Tree {
    name: String,
    /// The subtrees.
    children: Vec<Tree>,
}

/// An answer type's request part in a dialect (`true`: Gemini's JSON Schema variant).
type Part = Box<dyn Fn(Dialect, bool) -> Value>;

/// Each answer type: its name, its request parts, and whether OpenAI strict mode takes it.
fn outputs() -> Vec<(&'static str, Part, bool)> {
    fn of<T: serde::de::DeserializeOwned + JsonSchema + 'static>(
        name: &'static str,
    ) -> (&'static str, Part, bool) {
        let output = Output::<T>::new().unwrap();
        let strict = output.strict_error().is_none();
        let part = move |dialect: Dialect, json_schema: bool| {
            let output = if json_schema {
                output.clone().with_gemini_json_schema()
            } else {
                output.clone()
            };
            Value::Object(output.request_part(dialect).clone())
        };
        (name, Box::new(part), strict)
    }
    vec![
        of::<Widths>("Widths"),
        of::<Optional>("Optional"),
        of::<Bounded>("Bounded"),
        of::<Ranges>("Ranges"),
        of::<Enums>("Enums"),
        of::<Nested>("Nested"),
        of::<Maps>("Maps"),
        of::<Tree>("Tree"),
    ]
}

fn case(name: &str, schema: &Value) -> Value {
    json!({"name": name, "schema": schema})
}

/// Hand-written schemas the SDK can read as they are (no type lists): what we send must be
/// exactly what it makes of them, description text included.
fn as_the_sdk_writes_them() -> Vec<Value> {
    let schemas = [
        json!({"type": "object", "properties": {
            "n": {"type": "integer", "minimum": 1, "maximum": 10, "description": "A number"},
            "r": {"type": "number", "exclusiveMinimum": 0.5, "multipleOf": 0.00001},
            "s": {"type": "string", "format": "uint8-ish", "minLength": 1, "pattern": "^[a-z']+$"},
            "d": {"type": "string", "format": "date-time"},
            "l": {"type": "array", "items": {"type": "boolean"}, "minItems": 3, "maxItems": 9},
            "m": {"type": "array", "items": {"type": "string", "enum": ["a", "b"]}, "minItems": 1},
            "c": {"const": "fixed", "default": "fixed", "examples": ["fixed", null, true]},
            "o": {"type": "object", "properties": {"x": {"type": "number", "default": 1e20}},
                  "required": ["x"], "minProperties": 1, "title": "O"}},
         "required": ["n"]}),
        json!({"type": "object", "properties": {
            "u": {"oneOf": [{"type": "string"}, {"type": "integer", "deprecated": true}]}}}),
    ];
    schemas
        .iter()
        .enumerate()
        .map(|(i, schema)| {
            let ours = toolnexus::InputSchema::new(schema.clone()).unwrap();
            json!({"name": format!("hand-written {i}"), "input": schema,
                   "schema": ours.for_anthropic_strict().unwrap()})
        })
        .collect()
}

fn cases() -> Value {
    let mut lists: BTreeMap<&str, Vec<Value>> = BTreeMap::new();
    for (name, part, strict) in outputs() {
        for fixture in dialects::ALL {
            let dialect = fixture.dialect();
            // Gemini's JSON Schema variant, where the option changes the part.
            for json_schema in [false, true] {
                if json_schema && part(dialect, true) == part(dialect, false) {
                    continue;
                }
                match fixture.answer_schema(&part(dialect, json_schema)) {
                    Some((list, schema)) => lists
                        .entry(list)
                        .or_default()
                        .push(case(&format!("{name} ({})", fixture.sdk().key), &schema)),
                    // Only OpenAI's non-strict parts have no rule to check; a strict type is
                    // always sent strict.
                    None => assert!(!strict, "{name} is not strict in {dialect:?}"),
                }
            }
        }
    }
    let toolkit = strict_toolkit();
    let tools = toolkit.tools_for(
        Dialect::Anthropic,
        ToolsOptions::default().with_strict(true),
    );
    let anthropic = lists.entry("anthropic").or_default();
    for tool in tools.iter().filter(|t| t["strict"] == true) {
        anthropic.push(case(
            &format!("tool {}", tool["name"]),
            &tool["input_schema"],
        ));
    }
    let tools = serde_json::to_value(tools).unwrap();
    let body = dialects::of(Dialect::Anthropic)
        .request(vec![Dialect::Anthropic.user_message("Go")], Some(tools));
    let mut cases: Map<String, Value> = lists
        .into_iter()
        .map(|(list, cases)| (list.to_owned(), Value::Array(cases)))
        .collect();
    cases.insert(
        "anthropic_same".into(),
        Value::Array(as_the_sdk_writes_them()),
    );
    cases.insert("anthropic_tools".into(), json!([body]));
    Value::Object(cases)
}

/// The answer types' output tools in one toolkit: strict tools where the subset allows.
fn strict_toolkit() -> Toolkit {
    Toolkit::new()
        .with(Output::<Widths>::new().unwrap().tool())
        .unwrap()
        .with(Output::<Optional>::new().unwrap().tool())
        .unwrap()
        .with(Output::<Bounded>::new().unwrap().tool())
        .unwrap()
        .with(Output::<Enums>::new().unwrap().tool())
        .unwrap()
        .with(Output::<Nested>::new().unwrap().tool())
        .unwrap()
        .with(Output::<Maps>::new().unwrap().tool())
        .unwrap()
        .with(Output::<Tree>::new().unwrap().tool())
        .unwrap()
}

#[test]
fn typed_answer_and_strict_tool_schemas_are_fixed_points_of_the_sdks_rules() {
    let cases = cases();
    let Some((ok, report)) = crate::venv::verdict(
        "tests/sdk/check_strict_schemas.py",
        &cases,
        "strict_schemas.json",
    ) else {
        return;
    };
    assert!(ok, "an SDK's rule changed what we send:\n{report}");
    assert!(
        report.contains(
            "29 anthropic, 2 anthropic_same, 0 anthropic_samples, 1 anthropic_tools, 12 openai"
        ) && report.contains("8 gemini, 8 gemini_json"),
        "{report}"
    );
}

#[test]
fn strict_tools_fall_back_where_the_subset_cannot_hold_the_schema() {
    let tools = strict_toolkit().tools_for(
        Dialect::Anthropic,
        ToolsOptions::default().with_strict(true),
    );
    let plain = strict_toolkit().to_anthropic();
    // `Maps` has free-form keys and `Tree` is recursive: each sent as `to_anthropic` sends it,
    // without a `strict` key; every other tool strict.
    for (tool, plain) in tools.iter().zip(plain.iter()) {
        if tool["name"] == "Maps" || tool["name"] == "Tree" {
            assert_eq!(tool, plain);
            assert!(tool.get("strict").is_none());
        } else {
            assert_eq!(tool["strict"], true, "{}", tool["name"]);
        }
    }
}

#[test]
fn bedrock_strict_tools_are_accepted_by_botocores_model() {
    let tools =
        strict_toolkit().tools_for(Dialect::Bedrock, ToolsOptions::default().with_strict(true));
    assert_eq!(tools[0]["toolSpec"]["strict"], true);
    let bedrock = dialects::of(Dialect::Bedrock);
    let request = bedrock.request(
        vec![Dialect::Bedrock.user_message("Go")],
        Some(serde_json::to_value(tools).unwrap()),
    );
    let Some((ok, report)) = crate::venv::validate_alone(
        bedrock,
        crate::venv::bodies(bedrock),
        &[request],
        None,
        "strict_tools_bedrock.json",
    ) else {
        return;
    };
    assert!(ok, "botocore refused a strict tool:\n{report}");
}

/// Every schema of the schema matrix (`schema_matrix.rs`): its Anthropic strict form is a fixed
/// point of `transform_schema`, equals what `transform_schema` makes of the schema wherever the
/// SDK can read it, and where it is not refused, every sample of valid arguments still validates
/// against it (the form never makes a valid answer invalid).
#[test]
fn every_matrix_schema_is_a_fixed_point_and_keeps_its_samples_valid() {
    let cases = crate::schema_matrix::matrix();
    let mut fixed = Vec::new();
    let mut samples = Vec::new();
    let mut readable = Vec::new();
    let mut refused = 0;
    for case in &cases {
        let schema = case.tool.input_schema();
        match schema.for_anthropic_strict() {
            Ok(strict) => {
                fixed.push(json!({"name": case.name, "schema": strict}));
                readable.push(json!({"name": case.name, "input": schema.for_anthropic(),
                                     "schema": strict}));
                samples.push(json!({"name": case.name, "schema": strict, "samples": case.samples}));
            }
            Err(_) => refused += 1,
        }
    }
    assert!(
        refused < cases.len() / 2,
        "{refused} of {} refused",
        cases.len()
    );
    let Some((ok, report)) = crate::venv::verdict(
        "tests/sdk/check_strict_schemas.py",
        &json!({"anthropic": &fixed, "anthropic_samples": &samples,
                "anthropic_readable": readable}),
        "strict_schemas_matrix.json",
    ) else {
        return;
    };
    assert!(ok, "{report}");
    let expected = format!(
        "{} anthropic, 0 anthropic_same, {} anthropic_samples",
        fixed.len(),
        samples.len()
    );
    assert!(report.contains(&expected), "{report}");
    // Where the SDK can read the schema as Anthropic gets it, it makes exactly our form of it.
    assert!(inputs_read_alike(&report) >= 10, "{report}");
}

/// How many inputs the SDK read as we do, as `check_strict_schemas.py` reports it.
pub(crate) fn inputs_read_alike(report: &str) -> usize {
    report
        .split("; ")
        .nth(1)
        .and_then(|s| s.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0)
}
