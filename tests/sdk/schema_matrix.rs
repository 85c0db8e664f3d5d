//! The conformance matrix (issue 4): 32 cases (30 argument types declared with `#[tool]`, 2
//! hand-written schemas), each checked for every provider.
//!
//! Every Rust-type case is a real `#[tool]` fn, and what is checked is that TOOL's schema
//! (`tool.input_schema()`), i.e. what `#[tool]` puts in front of the model. Two forms:
//! - one parameter per property (the usual `#[tool]`), with a sample struct `<Tool>Args` that
//!   has the same fields, types, `///` docs and order and `#[serde(deny_unknown_fields)]`, as
//!   the argument struct `#[tool]` generates; samples are built from it and serialized by serde;
//! - the whole argument object (`#[args]`, `#[derive(ToolArgs)]`) for what needs serde or
//!   schemars attributes on the struct or its fields (`rename`, `rename_all`, `default`,
//!   `flatten`, ranges, patterns): the struct is both the argument and the sample type.
//!
//! Each case first proves that the tool's schema equals `InputSchema::of::<Sample>()` (as a JSON
//! value, and byte for byte, so also in key order): what the samples are checked against is
//! what the tool sends. Then, for every case:
//! - Gemini: `to_gemini` passes google-genai's `types.Tool.model_validate` (exceptions, warnings
//!   and warning log records all count as failures) and the server rules of SPEC §4, checked
//!   here in Rust (`gemini_rules`);
//! - OpenAI: `to_openai` meets the non-strict rules and, where strict mode is possible, the
//!   strict schema meets the strict rules (`openai_rules`, `strict_rules`, both here); the tool
//!   shapes pass the openai SDK's models;
//! - Anthropic: valid JSON Schema 2020-12 (`Draft202012Validator.check_schema`), object root,
//!   no root combinator;
//! - lowering never refuses a valid call: every sample, serialized by serde, validates against
//!   every provider's schema (Python `jsonschema`; Gemini's `nullable` translated to a type
//!   list), and is executed by its tool through a `Toolkit` (`execute_json` with the JSON text,
//!   `execute` with the value): the call succeeds and the tool echoes the sample back.
//!
//! All Python checks run in ONE invocation of `tests/sdk/validate_tools.py` over a JSON file.
//! Two hand-written schemas (`hand`, as `NativeTool::of` takes them) cover what schemars never
//! writes; their tools echo their arguments too.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::Arc;

use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};
use toolnexus::{tool, Dialect, InputSchema, NativeTool, Tool, ToolArgs, Toolkit, ToolsOptions};

// ---------------------------------------------------------------------------------------------
// The argument types and their tools. Every tool returns its arguments (serialized by serde,
// as compact JSON text), so executing a sample must give the sample back.

#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct PrimitivesArgs {
    /// A flag.
    flag: bool,
    count: i64,
    ratio: f64,
    name: String,
    initial: char,
}

/// Echoes its primitive arguments.
#[tool]
fn primitives(
    /// A flag.
    flag: bool,
    count: i64,
    ratio: f64,
    name: String,
    initial: char,
) -> PrimitivesArgs {
    PrimitivesArgs {
        flag,
        count,
        ratio,
        name,
        initial,
    }
}

#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct OptionPrimitivesArgs {
    city: String,
    /// How many days ahead.
    days: Option<u8>,
    verbose: Option<bool>,
}

/// Echoes its optional primitives.
#[tool]
fn option_primitives(
    city: String,
    /// How many days ahead.
    days: Option<u8>,
    verbose: Option<bool>,
) -> OptionPrimitivesArgs {
    OptionPrimitivesArgs {
        city,
        days,
        verbose,
    }
}

#[derive(Serialize, Deserialize, JsonSchema, Clone)]
#[serde(deny_unknown_fields)]
struct Location {
    lat: f64,
    lon: f64,
}

#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct OptionStructArgs {
    /// Where, if anywhere.
    location: Option<Location>,
}

/// Echoes an optional struct.
#[tool]
fn option_struct(
    /// Where, if anywhere.
    location: Option<Location>,
) -> OptionStructArgs {
    OptionStructArgs { location }
}

#[derive(Serialize, Deserialize, JsonSchema, Clone, Copy)]
enum Unit {
    Celsius,
    Fahrenheit,
}

#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct OptionEnumArgs {
    unit: Option<Unit>,
}

/// Echoes an optional unit enum.
#[tool]
fn option_enum(unit: Option<Unit>) -> OptionEnumArgs {
    OptionEnumArgs { unit }
}

#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct UnitEnumArgs {
    unit: Unit,
}

/// Echoes a unit enum.
#[tool]
fn unit_enum(unit: Unit) -> UnitEnumArgs {
    UnitEnumArgs { unit }
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
struct UnitEnumWithDocsArgs {
    level: Level,
}

/// Echoes a unit enum whose variants have docs.
#[tool]
fn unit_enum_with_docs(level: Level) -> UnitEnumWithDocsArgs {
    UnitEnumWithDocsArgs { level }
}

#[derive(Serialize, Deserialize, JsonSchema)]
enum Shape {
    Circle { radius: f64 },
    Square(f64),
    Point,
}

#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct ExternallyTaggedArgs {
    shape: Shape,
}

/// Echoes an externally tagged enum.
#[tool]
fn externally_tagged(shape: Shape) -> ExternallyTaggedArgs {
    ExternallyTaggedArgs { shape }
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
struct InternallyTaggedArgs {
    event: Event,
}

/// Echoes an internally tagged enum.
#[tool]
fn internally_tagged(event: Event) -> InternallyTaggedArgs {
    InternallyTaggedArgs { event }
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
struct AdjacentlyTaggedArgs {
    message: Message,
}

/// Echoes an adjacently tagged enum.
#[tool]
fn adjacently_tagged(message: Message) -> AdjacentlyTaggedArgs {
    AdjacentlyTaggedArgs { message }
}

#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
enum Id {
    Number(u64),
    Name(String),
}

#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct UntaggedArgs {
    id: Id,
}

/// Echoes an untagged enum.
#[tool]
fn untagged(id: Id) -> UntaggedArgs {
    UntaggedArgs { id }
}

#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct VecsArgs {
    tags: Vec<String>,
    points: Vec<Location>,
}

/// Echoes two lists.
#[tool]
fn vecs(tags: Vec<String>, points: Vec<Location>) -> VecsArgs {
    VecsArgs { tags, points }
}

#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct MapsArgs {
    /// Score per player.
    scores: HashMap<String, i32>,
    places: BTreeMap<String, Location>,
}

/// Echoes two maps.
#[tool]
fn maps(
    /// Score per player.
    scores: HashMap<String, i32>,
    places: BTreeMap<String, Location>,
) -> MapsArgs {
    MapsArgs { scores, places }
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
struct NestedStructsArgs {
    customer: Customer,
    lines: Vec<Address>,
}

/// Echoes nested structs.
#[tool]
fn nested_structs(customer: Customer, lines: Vec<Address>) -> NestedStructsArgs {
    NestedStructsArgs { customer, lines }
}

#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Tree {
    name: String,
    children: Vec<Tree>,
}

#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct RecursiveArgs {
    tree: Tree,
}

/// Echoes a recursive struct.
#[tool]
fn recursive(tree: Tree) -> RecursiveArgs {
    RecursiveArgs { tree }
}

#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Node {
    value: i32,
    next: Option<Box<Node>>,
}

#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct RecursiveOptionBoxArgs {
    head: Option<Node>,
}

/// Echoes a linked list.
#[tool]
fn recursive_option_box(head: Option<Node>) -> RecursiveOptionBoxArgs {
    RecursiveOptionBoxArgs { head }
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
struct RecursiveEnumDocumentedArgs {
    /// The expression to evaluate.
    expr: Expr,
}

/// Echoes a recursive enum.
#[tool]
fn recursive_enum_documented(
    /// The expression to evaluate.
    expr: Expr,
) -> RecursiveEnumDocumentedArgs {
    RecursiveEnumDocumentedArgs { expr }
}

// A parameter takes only `///` docs, `#[state]` or `#[args]`: what needs serde or schemars
// attributes on fields or on the struct is the whole argument object.

#[derive(Serialize, Deserialize, JsonSchema, ToolArgs)]
#[serde(deny_unknown_fields)]
struct RangedU8 {
    /// From 1 to 10.
    #[schemars(range(min = 1, max = 10))]
    level: u8,
    plain: u8,
}

/// Echoes a `u8` with a range.
#[tool]
fn u8_with_range(#[args] args: RangedU8) -> RangedU8 {
    args
}

#[derive(Serialize, Deserialize, JsonSchema, ToolArgs)]
#[serde(deny_unknown_fields)]
struct Renamed {
    #[serde(rename = "userId")]
    user_id: u64,
}

/// Echoes a renamed field.
#[tool]
fn serde_rename(#[args] args: Renamed) -> Renamed {
    args
}

#[derive(Serialize, Deserialize, JsonSchema, ToolArgs)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct RenameAll {
    first_name: String,
    last_name: Option<String>,
}

/// Echoes camelCase fields.
#[tool]
fn serde_rename_all(#[args] args: RenameAll) -> RenameAll {
    args
}

fn default_limit() -> u32 {
    10
}

#[derive(Serialize, Deserialize, JsonSchema, ToolArgs)]
#[serde(deny_unknown_fields)]
struct Defaults {
    query: String,
    #[serde(default)]
    exact: bool,
    #[serde(default = "default_limit")]
    limit: u32,
}

/// Echoes fields with defaults.
#[tool]
fn serde_default(#[args] args: Defaults) -> Defaults {
    args
}

#[derive(Serialize, Deserialize, JsonSchema)]
struct Paging {
    page: u32,
    per_page: Option<u32>,
}

// serde does not support `deny_unknown_fields` together with `flatten`, so this one (alone)
// accepts unknown fields.
#[derive(Serialize, Deserialize, JsonSchema, ToolArgs)]
struct Flatten {
    query: String,
    #[serde(flatten)]
    paging: Paging,
}

/// Echoes a flattened struct.
#[tool]
fn serde_flatten(#[args] args: Flatten) -> Flatten {
    args
}

#[derive(Serialize, Deserialize, JsonSchema, ToolArgs)]
#[serde(deny_unknown_fields)]
struct Pattern {
    #[schemars(length(min = 2, max = 8), regex(pattern = r"^[a-z]+$"))]
    code: String,
    #[schemars(length(min = 1))]
    items: Vec<i32>,
}

/// Echoes a string with a length and a pattern, and a non-empty list.
#[tool]
fn length_and_pattern(#[args] args: Pattern) -> Pattern {
    args
}

// Back to one parameter per property.

#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct TuplesArgs {
    pair: (i32, String),
    same: (f64, f64),
}

/// Echoes two tuples.
#[tool]
fn tuples(pair: (i32, String), same: (f64, f64)) -> TuplesArgs {
    TuplesArgs { pair, same }
}

#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct SerdeJsonValueArgs {
    /// Anything at all.
    payload: Value,
}

/// Echoes any JSON value.
#[tool]
fn serde_json_value(
    /// Anything at all.
    payload: Value,
) -> SerdeJsonValueArgs {
    SerdeJsonValueArgs { payload }
}

#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct NoParametersArgs {}

/// Takes nothing; echoes the empty argument object.
#[tool]
fn no_parameters() -> NoParametersArgs {
    NoParametersArgs {}
}

#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct OptionVecAndVecOptionArgs {
    tags: Option<Vec<String>>,
    maybe: Vec<Option<i32>>,
}

/// Echoes an optional list and a list of optionals.
#[tool]
fn option_vec_and_vec_option(
    tags: Option<Vec<String>>,
    maybe: Vec<Option<i32>>,
) -> OptionVecAndVecOptionArgs {
    OptionVecAndVecOptionArgs { tags, maybe }
}

#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct NumbersArgs {
    a: i8,
    b: u64,
    c: f32,
    d: usize,
    e: i128,
}

/// Echoes numbers of every width.
#[tool]
fn numbers(a: i8, b: u64, c: f32, d: usize, e: i128) -> NumbersArgs {
    NumbersArgs { a, b, c, d, e }
}

#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct SetsAndArraysArgs {
    unique: HashSet<String>,
    fixed: [u8; 3],
}

/// Echoes a set and a fixed-size array.
#[tool]
fn sets_and_arrays(unique: HashSet<String>, fixed: [u8; 3]) -> SetsAndArraysArgs {
    SetsAndArraysArgs { unique, fixed }
}

#[derive(Serialize, Deserialize, JsonSchema)]
struct Meters(f64);

#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct NewtypeArgs {
    distance: Meters,
}

/// Echoes a newtype.
#[tool]
fn newtype(distance: Meters) -> NewtypeArgs {
    NewtypeArgs { distance }
}

#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct OptionExternallyTaggedArgs {
    shape: Option<Shape>,
}

/// Echoes an optional externally tagged enum.
#[tool]
fn option_externally_tagged(shape: Option<Shape>) -> OptionExternallyTaggedArgs {
    OptionExternallyTaggedArgs { shape }
}

// ---------------------------------------------------------------------------------------------
// The matrix.

pub(crate) struct Case {
    pub(crate) name: &'static str,
    /// The tool whose schema is checked and which executes the samples.
    pub(crate) tool: Arc<dyn Tool>,
    /// Valid arguments, as serde writes them; executing one returns it unchanged.
    pub(crate) samples: Vec<Value>,
    /// Whether OpenAI strict mode is expected to be possible.
    strict: bool,
    /// Declared with `#[tool]` (not a hand-written schema).
    macro_tool: bool,
}

/// A `#[tool]` case: `tool`'s parameters are the fields of `S` (or `S` is its whole argument
/// object), so its schema must be exactly `InputSchema::of::<S>()`.
fn case<T: Tool + 'static, S: JsonSchema + Serialize + DeserializeOwned>(
    name: &'static str,
    tool: T,
    strict: bool,
    samples: Vec<S>,
) -> Case {
    assert_eq!(tool.name(), name, "the tool is named after the case");
    let of_struct = InputSchema::of::<S>().unwrap_or_else(|e| panic!("{name}: {e}"));
    let of_tool = tool.input_schema();
    // Proven, not assumed: the tool's schema is the struct's. `Value` equality ignores key
    // order (see `value_equality_ignores_key_order`), so the compact texts are compared too:
    // the same keys, in the same order, byte for byte.
    assert_eq!(
        of_tool.as_value(),
        of_struct.as_value(),
        "{name}: the #[tool] schema differs from InputSchema::of::<{}>()",
        std::any::type_name::<S>()
    );
    assert_eq!(
        of_tool.as_value().to_string(),
        of_struct.as_value().to_string(),
        "{name}: the #[tool] schema's key order differs from the struct's"
    );
    let samples = samples
        .iter()
        .map(|s| serde_json::to_value(s).expect("sample serializes"))
        .collect::<Vec<_>>();
    for s in &samples {
        // The samples are what a model must be able to send: they deserialize back.
        serde_json::from_value::<S>(s.clone()).unwrap_or_else(|e| panic!("{name}: {s}: {e}"));
    }
    Case {
        name,
        tool: Arc::new(tool),
        samples,
        strict,
        macro_tool: true,
    }
}

/// A hand-written schema (as `NativeTool::of` takes one) with samples of valid arguments; the
/// tool echoes the arguments it is given.
fn hand(name: &'static str, strict: bool, schema: Value, samples: Vec<Value>) -> Case {
    let tool = NativeTool::of(
        name,
        format!("Matrix case {name}: echoes its arguments."),
        schema,
        |args: Value| async move { args.to_string() },
    )
    .unwrap_or_else(|e| panic!("{name}: {e}"));
    Case {
        name,
        tool: Arc::new(tool),
        samples,
        strict,
        macro_tool: false,
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

pub(crate) fn matrix() -> Vec<Case> {
    vec![
        case(
            "primitives",
            Primitives,
            true,
            vec![PrimitivesArgs {
                flag: true,
                count: -3,
                ratio: 0.5,
                name: "x".into(),
                initial: 'é',
            }],
        ),
        case(
            "option_primitives",
            OptionPrimitives,
            true,
            vec![
                OptionPrimitivesArgs {
                    city: "Oslo".into(),
                    days: Some(3),
                    verbose: None,
                },
                OptionPrimitivesArgs {
                    city: "Lima".into(),
                    days: None,
                    verbose: Some(false),
                },
            ],
        ),
        case(
            "option_struct",
            OptionStruct,
            true,
            vec![
                OptionStructArgs {
                    location: Some(loc(1.0, 2.0)),
                },
                OptionStructArgs { location: None },
            ],
        ),
        case(
            "option_enum",
            OptionEnum,
            true,
            vec![
                OptionEnumArgs {
                    unit: Some(Unit::Celsius),
                },
                OptionEnumArgs { unit: None },
            ],
        ),
        case(
            "unit_enum",
            UnitEnum,
            true,
            vec![UnitEnumArgs {
                unit: Unit::Fahrenheit,
            }],
        ),
        case(
            "unit_enum_with_docs",
            UnitEnumWithDocs,
            true,
            vec![
                UnitEnumWithDocsArgs {
                    level: Level::VeryLoud,
                },
                UnitEnumWithDocsArgs {
                    level: Level::Quiet,
                },
            ],
        ),
        case(
            "externally_tagged",
            ExternallyTagged,
            true,
            vec![
                ExternallyTaggedArgs {
                    shape: Shape::Circle { radius: 2.0 },
                },
                ExternallyTaggedArgs {
                    shape: Shape::Square(1.5),
                },
                ExternallyTaggedArgs {
                    shape: Shape::Point,
                },
            ],
        ),
        case(
            "internally_tagged",
            InternallyTagged,
            true,
            vec![
                InternallyTaggedArgs {
                    event: Event::Click { x: 1, y: 2 },
                },
                InternallyTaggedArgs {
                    event: Event::Key {
                        code: "Enter".into(),
                    },
                },
                InternallyTaggedArgs { event: Event::Blur },
            ],
        ),
        case(
            "adjacently_tagged",
            AdjacentlyTagged,
            true,
            vec![
                AdjacentlyTaggedArgs {
                    message: Message::Text("hi".into()),
                },
                AdjacentlyTaggedArgs {
                    message: Message::Number(7),
                },
                AdjacentlyTaggedArgs {
                    message: Message::Ping,
                },
            ],
        ),
        case(
            "untagged",
            Untagged,
            true,
            vec![
                UntaggedArgs { id: Id::Number(42) },
                UntaggedArgs {
                    id: Id::Name("ab".into()),
                },
            ],
        ),
        case(
            "vecs",
            Vecs,
            true,
            vec![
                VecsArgs {
                    tags: vec!["a".into(), "b".into()],
                    points: vec![loc(0.0, 1.0)],
                },
                VecsArgs {
                    tags: vec![],
                    points: vec![],
                },
            ],
        ),
        case(
            "maps",
            Maps,
            false,
            vec![MapsArgs {
                scores: HashMap::from([("ann".to_owned(), 3)]),
                places: BTreeMap::from([("home".to_owned(), loc(1.0, 1.0))]),
            }],
        ),
        case(
            "nested_structs",
            NestedStructs,
            true,
            vec![NestedStructsArgs {
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
            Recursive,
            true,
            vec![RecursiveArgs {
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
            RecursiveOptionBox,
            true,
            vec![
                RecursiveOptionBoxArgs {
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
                RecursiveOptionBoxArgs { head: None },
            ],
        ),
        case(
            "u8_with_range",
            U8WithRange,
            true,
            vec![
                RangedU8 { level: 1, plain: 0 },
                RangedU8 {
                    level: 10,
                    plain: 255,
                },
            ],
        ),
        case(
            "serde_rename",
            SerdeRename,
            true,
            vec![Renamed { user_id: 9 }],
        ),
        case(
            "serde_rename_all",
            SerdeRenameAll,
            true,
            vec![RenameAll {
                first_name: "A".into(),
                last_name: None,
            }],
        ),
        case(
            "serde_default",
            SerdeDefault,
            true,
            vec![Defaults {
                query: "q".into(),
                exact: false,
                limit: 10,
            }],
        ),
        case(
            "serde_flatten",
            SerdeFlatten,
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
            Tuples,
            false,
            vec![TuplesArgs {
                pair: (1, "one".into()),
                same: (0.5, 2.0),
            }],
        ),
        case(
            "serde_json_value",
            SerdeJsonValue,
            false,
            vec![
                SerdeJsonValueArgs {
                    payload: json!({"any": [1, "thing", null]}),
                },
                SerdeJsonValueArgs {
                    payload: json!(null),
                },
                SerdeJsonValueArgs { payload: json!(3) },
            ],
        ),
        case(
            "no_parameters",
            NoParameters,
            true,
            vec![NoParametersArgs {}],
        ),
        case(
            "option_vec_and_vec_option",
            OptionVecAndVecOption,
            true,
            vec![
                OptionVecAndVecOptionArgs {
                    tags: Some(vec!["x".into()]),
                    maybe: vec![Some(1), None],
                },
                OptionVecAndVecOptionArgs {
                    tags: None,
                    maybe: vec![],
                },
            ],
        ),
        case(
            "numbers",
            Numbers,
            true,
            vec![NumbersArgs {
                a: -128,
                b: u64::MAX,
                c: 1.5,
                d: 0,
                e: -5,
            }],
        ),
        case(
            "sets_and_arrays",
            SetsAndArrays,
            true,
            vec![SetsAndArraysArgs {
                unique: HashSet::from(["a".to_owned()]),
                fixed: [1, 2, 3],
            }],
        ),
        case(
            "newtype",
            Newtype,
            true,
            vec![NewtypeArgs {
                distance: Meters(3.5),
            }],
        ),
        case(
            "option_externally_tagged",
            OptionExternallyTagged,
            true,
            vec![
                OptionExternallyTaggedArgs {
                    shape: Some(Shape::Square(2.0)),
                },
                OptionExternallyTaggedArgs {
                    shape: Some(Shape::Point),
                },
                OptionExternallyTaggedArgs { shape: None },
            ],
        ),
        case(
            "length_and_pattern",
            LengthAndPattern,
            true,
            vec![Pattern {
                code: "ab".into(),
                items: vec![1],
            }],
        ),
        case(
            "recursive_enum_documented",
            RecursiveEnumDocumented,
            true,
            vec![RecursiveEnumDocumentedArgs {
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

/// OpenAI's "Supported schemas" for Structured Outputs (what strict function calling takes), in
/// the page's own arrangement rather than the implementation's flat list: what any schema may
/// carry, then the constraints it lists for each type. A constraint on a schema whose `type` does
/// not include that type is refused too. (`title`: an annotation the openai SDK's own pydantic
/// helper sends in strict schemas.)
const STRICT_ANY: &[&str] = &[
    "type",
    "description",
    "title",
    "enum",
    "const",
    "anyOf",
    "$ref",
    "$defs",
    "definitions",
];
const NUMBER_CONSTRAINTS: &[&str] = &[
    "multipleOf",
    "maximum",
    "exclusiveMaximum",
    "minimum",
    "exclusiveMinimum",
];
const STRICT_BY_TYPE: &[(&str, &[&str])] = &[
    (
        "object",
        &["properties", "required", "additionalProperties"],
    ),
    ("array", &["items", "minItems", "maxItems"]),
    ("string", &["pattern", "format"]),
    ("number", NUMBER_CONSTRAINTS),
    ("integer", NUMBER_CONSTRAINTS),
];

/// Whether strict mode takes keyword `k` on schema `map`.
fn strict_allows(map: &Map<String, Value>, k: &str) -> bool {
    STRICT_ANY.contains(&k)
        || STRICT_BY_TYPE
            .iter()
            .any(|(ty, keys)| keys.contains(&k) && is_type(map, ty))
}

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
            if !strict_allows(map, k) {
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

/// A toolkit holding every matrix tool, in matrix order.
fn toolkit(cases: &[Case]) -> Toolkit {
    let mut toolkit = Toolkit::new();
    for case in cases {
        toolkit
            .add([Arc::clone(&case.tool)])
            .unwrap_or_else(|e| panic!("{}: {e}", case.name));
    }
    toolkit
}

#[test]
fn every_matrix_type_is_accepted_by_every_provider() {
    let cases = matrix();
    let declared = cases.iter().filter(|c| c.macro_tool).count();
    assert!(
        declared >= 25,
        "only {declared} cases are declared with #[tool]"
    );
    let toolkit = toolkit(&cases);

    let mut failures = Vec::new();
    for case in &cases {
        let s = case.tool.input_schema();
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
        "gemini_tools": toolkit.to_gemini(),
        "openai_tools": toolkit.to_openai(),
        "openai_strict_tools": toolkit.tools_for(Dialect::OpenAiChat, ToolsOptions::default().with_strict(true)),
        "responses_tools": toolkit.tools_for(Dialect::OpenAiResponses, ToolsOptions::default()),
        "responses_strict_tools": toolkit.tools_for(Dialect::OpenAiResponses, ToolsOptions::default().with_strict(true)),
        "anthropic_tools": toolkit.to_anthropic(),
        "cases": cases.iter().map(|c| {
            let s = c.tool.input_schema();
            json!({
                "name": c.name,
                "schemas": {
                    "original": s.as_value(),
                    "openai": s.for_openai(),
                    "anthropic": s.for_anthropic(),
                    "gemini": s.for_gemini(),
                    "openai_strict": s.for_openai_strict().ok(),
                },
                "samples": c.samples,
            })
        }).collect::<Vec<_>>(),
    });
    // The SDKs' report, in one Python run. Without Python (outside CI) only the Rust-side rules
    // above are checked.
    let report = crate::venv::report(
        "tests/sdk/validate_tools.py",
        &input,
        "schema_matrix_cases.json",
    );
    if let Some(report) = report {
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
    }
    assert!(
        failures.is_empty(),
        "{} failures (cases in {}):\n{}",
        failures.len(),
        crate::venv::tmp("schema_matrix_cases.json").display(),
        failures.join("\n")
    );
}

/// Lowering never refuses a valid call, end to end: every sample goes through its tool in a
/// `Toolkit`, as JSON text (`execute_json`, how OpenAI sends arguments) and as a value
/// (`execute`, how Anthropic and Gemini do). The call succeeds, and since every matrix tool
/// returns its arguments, the output is the sample itself.
#[tokio::test]
async fn every_sample_is_executed_by_its_tool() {
    let cases = matrix();
    let toolkit = toolkit(&cases);
    let mut failures = Vec::new();
    let mut runs = 0;
    for case in &cases {
        assert!(!case.samples.is_empty(), "{}: no samples", case.name);
        for (i, sample) in case.samples.iter().enumerate() {
            let text = sample.to_string();
            for (how, result) in [
                ("execute_json", toolkit.execute_json(case.name, &text).await),
                ("execute", toolkit.execute(case.name, sample.clone()).await),
            ] {
                runs += 1;
                if result.is_error {
                    failures.push(format!(
                        "{}: sample {i} ({how}) refused: {} (sample {text})",
                        case.name, result.output
                    ));
                    continue;
                }
                match serde_json::from_str::<Value>(&result.output) {
                    Ok(echo) if echo == *sample => {}
                    _ => failures.push(format!(
                        "{}: sample {i} ({how}) gave {} (sample {text})",
                        case.name, result.output
                    )),
                }
            }
        }
    }
    let samples: usize = cases.iter().map(|c| c.samples.len()).sum();
    assert_eq!(runs, 2 * samples);
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// What `case` relies on: with `preserve_order`, `Value` equality still ignores the order of
/// an object's keys (so the text comparison next to it is what checks the order).
#[test]
fn value_equality_ignores_key_order() {
    let ab: Value = serde_json::from_str(r#"{"a":1,"b":{"c":2,"d":3}}"#).unwrap();
    let ba: Value = serde_json::from_str(r#"{"b":{"d":3,"c":2},"a":1}"#).unwrap();
    assert_eq!(ab, ba);
    assert_ne!(ab.to_string(), ba.to_string());
}
