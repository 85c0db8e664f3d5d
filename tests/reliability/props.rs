//! Property tests (issue 6, point 2; SPEC §5-§6).
//!
//! 1. Any JSON value as a call's arguments, to a typed tool, an untyped tool or an unknown one,
//!    never panics and always yields exactly one result: through `Toolkit::execute`,
//!    `Toolkit::execute_json` (the value's text) and every dialect's round trip, where the answer
//!    equals the direct call's result; text and value agree on the outcome, and valid JSON text
//!    is never called malformed.
//! 2. For 22 of the conformance matrix's argument types (tests/sdk/schema_matrix.rs), a value
//!    made by proptest, serialized by serde and executed through a tool that decodes it
//!    (`decode_str` / `decode_value`, as `#[tool]` does) and serializes it again, arrives
//!    unchanged: through `execute_json`, `execute`, OpenAI strict mode and every dialect's round
//!    trip.
//! 3. Any part of a valid response of any dialect replaced by any JSON value, or removed, gives
//!    either one answer per call the dialect reads, or a `ResponseError` (the same from
//!    `respond`, `parse_calls` and `model_turn`), never a panic.
//!
//! Case counts are modest (64 to 128) so `cargo test` stays quick on two cores.

use std::collections::{BTreeMap, HashMap};
use std::fmt::Debug;

use proptest::prelude::*;
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Number, Value};
use toolnexus::{Arguments, NativeTool, RunOptions, ToolCall, ToolResult, Toolkit};

use crate::common::block_on;
use crate::fixtures::*;

/// `cases` per property unless `PROPTEST_CASES` asks for more (a longer local run); failures
/// are reported with their minimal input, not persisted into the source tree.
fn config(cases: u32) -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(cases);
    ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

// ---------------------------------------------------------------------------------------------
// 1. Arbitrary JSON as arguments.

fn finite() -> impl Strategy<Value = f64> {
    any::<f64>().prop_filter("JSON numbers are finite", |f| f.is_finite())
}

fn leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        finite().prop_map(|f| Value::Number(Number::from_f64(f).unwrap())),
        any::<String>().prop_map(Value::String),
        // Names the typed tool knows, so some values come close to valid.
        prop_oneof![Just("city"), Just("days"), Just("unit"), Just("celsius")]
            .prop_map(Value::from),
    ]
}

fn key() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => prop_oneof![Just("city"), Just("days"), Just("unit")].prop_map(str::to_owned),
        1 => any::<String>(),
    ]
}

/// Any JSON value: a random tree, sometimes wrapped in up to 100 more levels (past the nesting
/// limit of 64, below serde_json's recursion limit for the response body around it).
fn arb_json() -> impl Strategy<Value = Value> {
    let tree = leaf().prop_recursive(6, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec((key(), inner), 0..6)
                .prop_map(|kv| Value::Object(kv.into_iter().collect())),
        ]
    });
    (
        tree,
        prop_oneof![3 => Just(0usize), 1 => 0usize..100],
        any::<bool>(),
    )
        .prop_map(|(mut value, wraps, arrays)| {
            for _ in 0..wraps {
                value = if arrays {
                    Value::Array(vec![value])
                } else {
                    Value::Object(Map::from_iter([("a".to_owned(), value)]))
                };
            }
            value
        })
}

fn any_toolkit() -> Toolkit {
    let count = NativeTool::of(
        "count",
        "Counts keys",
        json!({"type": "object", "properties": {}}),
        |args| async move { args.as_object().map_or(0, |m| m.len()).to_string() },
    )
    .unwrap();
    Toolkit::new()
        .with(Typed::new("get_weather", |a: WeatherArgs| {
            let unit = match a.unit {
                None => "",
                Some(crate::fixtures::Unit::Celsius) => " C",
                Some(crate::fixtures::Unit::Fahrenheit) => " F",
            };
            ToolResult::ok(format!("{}:{}{unit}", a.city, a.days))
        }))
        .unwrap()
        .with(count)
        .unwrap()
}

fn tool_name() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("get_weather".to_owned()),
        Just("count".to_owned()),
        Just("nope".to_owned()),
        any::<String>(),
    ]
}

proptest! {
    #![proptest_config(config(128))]

    #[test]
    fn any_json_as_arguments_yields_one_result_on_every_path(args in arb_json(), tool in tool_name()) {
        let toolkit = any_toolkit();
        let text = args.to_string();
        let (by_value, by_text) = block_on(async {
            (toolkit.execute(&tool, args.clone()).await, toolkit.execute_json(&tool, &text).await)
        });
        // Both paths agree on the outcome (a `null` object and `"null"` text both mean `{}`).
        // Error texts may differ in wording: serde_json's streaming decoder and its value decoder
        // describe some mismatches differently (an enum given a two-key map: "unknown variant"
        // against "expected map with a single key").
        prop_assert_eq!(by_value.is_error, by_text.is_error, "{:?} / {:?}", by_value, by_text);
        if !by_value.is_error {
            prop_assert_eq!(&by_value.output, &by_text.output);
        }
        let head = |r: &ToolResult| r.output.split(':').next().map(str::to_owned);
        prop_assert_eq!(head(&by_value), head(&by_text));
        // The text is valid JSON: it is never called malformed (regression, see
        // tests/reliability/regressions.rs).
        prop_assert!(!by_text.output.contains("not valid JSON"), "{}", by_text.output);
        // Whatever the input, a failure says what to fix, never an empty text.
        prop_assert!(!by_value.is_error || !by_value.output.trim().is_empty());
        // Every dialect: the call between two others, answered like the direct call.
        for fixture in dialects::ALL {
            let dialect = fixture.dialect();
            let calls = [
                WireCall::json("call_0", "count", &json!({})),
                WireCall::json("call_1", &tool, &args),
                WireCall::json("call_2", "count", &json!({"a": 1})),
            ];
            let body = fixture.body(&calls);
            let answers = block_on(round_trip(&toolkit, fixture, &body, &RunOptions::default()))
                .map_err(|e| TestCaseError::fail(format!("{dialect}: {e}")))?;
            prop_assert_eq!(answers.len(), 3);
            prop_assert_eq!(&answers[0].text, "0");
            prop_assert_eq!(&answers[2].text, "1");
            let direct = if fixture.sends_text() { &by_text } else { &by_value };
            prop_assert_eq!(&answers[1].text, &direct.output, "{}", dialect);
            if let Some(error) = answers[1].error {
                prop_assert_eq!(error, direct.is_error);
            }
        }
        // Strict mode reads text into a value first; it answers too.
        let call = ToolCall::new("c", tool.as_str(), Arguments::Text(text.clone()));
        let options = RunOptions::default().with_openai_strict(true);
        let strict = block_on(toolkit.execute_call(&call, &options));
        prop_assert!(!strict.is_error || !strict.output.is_empty());
    }

    #[test]
    fn any_text_as_arguments_yields_one_result(text in any::<String>(), tool in tool_name()) {
        let toolkit = any_toolkit();
        let result = block_on(toolkit.execute_json(&tool, &text));
        prop_assert!(!result.is_error || !result.output.is_empty());
        // Any text can only be sent as text.
        for fixture in dialects::ALL.iter().filter(|f| f.sends_text()) {
            let dialect = fixture.dialect();
            let call = WireCall { id: Some("c".into()), name: tool.clone(), text: Some(text.clone()), object: None };
            let body = fixture.body(&[call]);
            let answers = block_on(round_trip(&toolkit, *fixture, &body, &RunOptions::default()))
                .map_err(|e| TestCaseError::fail(format!("{dialect}: {e}")))?;
            prop_assert_eq!(answers.len(), 1);
            prop_assert_eq!(&answers[0].text, &result.output);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// 2. Typed values arrive unchanged. The types are copies of tests/sdk/schema_matrix.rs's.

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Primitives {
    flag: bool,
    count: i64,
    ratio: f64,
    name: String,
    initial: char,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct OptionPrimitives {
    city: String,
    days: Option<u8>,
    verbose: Option<bool>,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Location {
    lat: f64,
    lon: f64,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct OptionStruct {
    location: Option<Location>,
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize, JsonSchema)]
enum Unit {
    Celsius,
    Fahrenheit,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct UnitEnum {
    unit: Unit,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
enum Shape {
    Circle { radius: f64 },
    Square(f64),
    Point,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct ExternallyTagged {
    shape: Shape,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct OptionExternal {
    shape: Option<Shape>,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind")]
enum Event {
    Click { x: i32, y: i32 },
    Key { code: String },
    Blur,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct InternallyTagged {
    event: Event,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "t", content = "c")]
enum Message {
    Text(String),
    Number(i64),
    Ping,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct AdjacentlyTagged {
    message: Message,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
enum Id {
    Number(u64),
    Name(String),
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Untagged {
    id: Id,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Vecs {
    tags: Vec<String>,
    points: Vec<Location>,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Maps {
    scores: HashMap<String, i32>,
    places: BTreeMap<String, Location>,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Address {
    street: String,
    zip: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Customer {
    name: String,
    address: Address,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Nested {
    customer: Customer,
    lines: Vec<Address>,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Tree {
    name: String,
    children: Vec<Tree>,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Recursive {
    tree: Tree,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Node {
    value: i32,
    next: Option<Box<Node>>,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct LinkedList {
    head: Option<Node>,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Expr {
    Num { value: i64 },
    Neg { inner: Box<Expr> },
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct RecursiveEnum {
    expr: Expr,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Renamed {
    #[serde(rename = "userId")]
    user_id: u64,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct RenameAll {
    first_name: String,
    last_name: Option<String>,
}

fn default_limit() -> u32 {
    10
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Defaults {
    query: String,
    #[serde(default)]
    exact: bool,
    #[serde(default = "default_limit")]
    limit: u32,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Tuples {
    pair: (i32, String),
    same: (f64, f64),
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct AnyValue {
    payload: Value,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct OptionVec {
    tags: Option<Vec<String>>,
    maybe: Vec<Option<i32>>,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
struct Meters(f64);

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Newtype {
    distance: Meters,
}

// Strategies.

fn text() -> impl Strategy<Value = String> {
    any::<String>()
}

fn location() -> impl Strategy<Value = Location> {
    (finite(), finite()).prop_map(|(lat, lon)| Location { lat, lon })
}

fn shape() -> impl Strategy<Value = Shape> {
    prop_oneof![
        finite().prop_map(|radius| Shape::Circle { radius }),
        finite().prop_map(Shape::Square),
        Just(Shape::Point),
    ]
}

fn address() -> impl Strategy<Value = Address> {
    (text(), proptest::option::of(text())).prop_map(|(street, zip)| Address { street, zip })
}

fn tree() -> impl Strategy<Value = Tree> {
    text()
        .prop_map(|name| Tree {
            name,
            children: Vec::new(),
        })
        .prop_recursive(4, 24, 4, |inner| {
            (text(), prop::collection::vec(inner, 0..4))
                .prop_map(|(name, children)| Tree { name, children })
        })
}

fn node() -> impl Strategy<Value = Node> {
    prop::collection::vec(any::<i32>(), 1..20).prop_map(|values| {
        let mut next = None;
        for value in values.into_iter().rev() {
            next = Some(Box::new(Node { value, next }));
        }
        *next.expect("at least one node")
    })
}

fn expr() -> impl Strategy<Value = Expr> {
    (any::<i64>(), 0usize..30).prop_map(|(value, negations)| {
        let mut e = Expr::Num { value };
        for _ in 0..negations {
            e = Expr::Neg { inner: Box::new(e) };
        }
        e
    })
}

/// The tool for `T`: decodes, then serializes what it decoded.
fn echo_toolkit<T: JsonSchema + DeserializeOwned + Serialize + 'static>() -> Toolkit {
    fn back<T: Serialize>(value: T) -> ToolResult {
        match serde_json::to_string(&value) {
            Ok(text) => ToolResult::ok(text),
            Err(e) => ToolResult::error(e.to_string()),
        }
    }
    Toolkit::new().with(Typed::new("echo", back::<T>)).unwrap()
}

/// `value` through every path; each output must parse to exactly the value serde produced.
fn arrives_unchanged<T>(value: &T) -> Result<(), TestCaseError>
where
    T: JsonSchema + DeserializeOwned + Serialize + Debug + 'static,
{
    let toolkit = echo_toolkit::<T>();
    let expected = serde_json::to_value(value).unwrap();
    let text = serde_json::to_string(value).unwrap();
    let check = |path: &str, output: &str, is_error: Option<bool>| -> Result<(), TestCaseError> {
        prop_assert_ne!(is_error, Some(true), "{} refused: {}", path, output);
        let got: Value = serde_json::from_str(output).map_err(|e| {
            TestCaseError::fail(format!("{path}: output is not JSON: {e}: {output}"))
        })?;
        prop_assert_eq!(&got, &expected, "{} changed the value; sent {}", path, text);
        Ok(())
    };
    let (by_text, by_value, strict) = block_on(async {
        let strict_call = ToolCall::new("c", "echo", Arguments::Text(text.clone()));
        (
            toolkit.execute_json("echo", &text).await,
            toolkit.execute("echo", expected.clone()).await,
            toolkit
                .execute_call(
                    &strict_call,
                    &RunOptions::default().with_openai_strict(true),
                )
                .await,
        )
    });
    check("execute_json", &by_text.output, Some(by_text.is_error))?;
    check("execute", &by_value.output, Some(by_value.is_error))?;
    check("OpenAI strict mode", &strict.output, Some(strict.is_error))?;
    for fixture in dialects::ALL {
        let dialect = fixture.dialect();
        let body = fixture.body(&[WireCall::json("call_1", "echo", &expected)]);
        let answers = block_on(round_trip(&toolkit, fixture, &body, &RunOptions::default()))
            .map_err(|e| TestCaseError::fail(format!("{dialect}: {e}")))?;
        prop_assert_eq!(answers.len(), 1);
        check(&dialect.to_string(), &answers[0].text, answers[0].error)?;
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(64))]

    #[test]
    fn primitives(v in (any::<bool>(), any::<i64>(), finite(), text(), any::<char>())
        .prop_map(|(flag, count, ratio, name, initial)| Primitives { flag, count, ratio, name, initial })) {
        arrives_unchanged(&v)?;
    }

    #[test]
    fn option_primitives(v in (text(), proptest::option::of(any::<u8>()), proptest::option::of(any::<bool>()))
        .prop_map(|(city, days, verbose)| OptionPrimitives { city, days, verbose })) {
        arrives_unchanged(&v)?;
    }

    #[test]
    fn option_struct(v in proptest::option::of(location()).prop_map(|location| OptionStruct { location })) {
        arrives_unchanged(&v)?;
    }

    #[test]
    fn unit_enum(v in prop_oneof![Just(Unit::Celsius), Just(Unit::Fahrenheit)].prop_map(|unit| UnitEnum { unit })) {
        arrives_unchanged(&v)?;
    }

    #[test]
    fn externally_tagged(v in shape().prop_map(|shape| ExternallyTagged { shape })) {
        arrives_unchanged(&v)?;
    }

    #[test]
    fn option_externally_tagged(v in proptest::option::of(shape()).prop_map(|shape| OptionExternal { shape })) {
        arrives_unchanged(&v)?;
    }

    #[test]
    fn internally_tagged(v in prop_oneof![
        (any::<i32>(), any::<i32>()).prop_map(|(x, y)| Event::Click { x, y }),
        text().prop_map(|code| Event::Key { code }),
        Just(Event::Blur),
    ].prop_map(|event| InternallyTagged { event })) {
        arrives_unchanged(&v)?;
    }

    #[test]
    fn adjacently_tagged(v in prop_oneof![
        text().prop_map(Message::Text),
        any::<i64>().prop_map(Message::Number),
        Just(Message::Ping),
    ].prop_map(|message| AdjacentlyTagged { message })) {
        arrives_unchanged(&v)?;
    }

    #[test]
    fn untagged(v in prop_oneof![any::<u64>().prop_map(Id::Number), text().prop_map(Id::Name)]
        .prop_map(|id| Untagged { id })) {
        arrives_unchanged(&v)?;
    }

    #[test]
    fn vecs(v in (prop::collection::vec(text(), 0..6), prop::collection::vec(location(), 0..6))
        .prop_map(|(tags, points)| Vecs { tags, points })) {
        arrives_unchanged(&v)?;
    }

    #[test]
    fn maps(v in (prop::collection::hash_map(text(), any::<i32>(), 0..6),
                  prop::collection::btree_map(text(), location(), 0..6))
        .prop_map(|(scores, places)| Maps { scores, places })) {
        arrives_unchanged(&v)?;
    }

    #[test]
    fn nested(v in ((text(), address()), prop::collection::vec(address(), 0..4))
        .prop_map(|((name, address), lines)| Nested { customer: Customer { name, address }, lines })) {
        arrives_unchanged(&v)?;
    }

    #[test]
    fn recursive(v in tree().prop_map(|tree| Recursive { tree })) {
        arrives_unchanged(&v)?;
    }

    #[test]
    fn linked_list(v in proptest::option::of(node()).prop_map(|head| LinkedList { head })) {
        arrives_unchanged(&v)?;
    }

    #[test]
    fn recursive_enum(v in expr().prop_map(|expr| RecursiveEnum { expr })) {
        arrives_unchanged(&v)?;
    }

    #[test]
    fn renamed(v in any::<u64>().prop_map(|user_id| Renamed { user_id })) {
        arrives_unchanged(&v)?;
    }

    #[test]
    fn rename_all(v in (text(), proptest::option::of(text()))
        .prop_map(|(first_name, last_name)| RenameAll { first_name, last_name })) {
        arrives_unchanged(&v)?;
    }

    #[test]
    fn defaults(v in (text(), any::<bool>(), any::<u32>())
        .prop_map(|(query, exact, limit)| Defaults { query, exact, limit })) {
        arrives_unchanged(&v)?;
    }

    #[test]
    fn tuples(v in ((any::<i32>(), text()), (finite(), finite()))
        .prop_map(|(pair, same)| Tuples { pair, same })) {
        arrives_unchanged(&v)?;
    }

    #[test]
    fn any_value(payload in leaf().prop_recursive(4, 32, 6, |inner| prop_oneof![
        prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
        prop::collection::vec((key(), inner), 0..6).prop_map(|kv| Value::Object(kv.into_iter().collect())),
    ])) {
        arrives_unchanged(&AnyValue { payload })?;
    }

    #[test]
    fn option_vec(v in (proptest::option::of(prop::collection::vec(text(), 0..5)),
                        prop::collection::vec(proptest::option::of(any::<i32>()), 0..6))
        .prop_map(|(tags, maybe)| OptionVec { tags, maybe })) {
        arrives_unchanged(&v)?;
    }

    #[test]
    fn newtype(v in finite().prop_map(|d| Newtype { distance: Meters(d) })) {
        arrives_unchanged(&v)?;
    }
}

// ---------------------------------------------------------------------------------------------
// 3. Damaged responses: any part of a valid response replaced by any JSON value, or removed.

/// Every JSON pointer inside `value` (the root excluded).
fn pointers(value: &Value, here: String, out: &mut Vec<String>) {
    let escape = |k: &str| k.replace('~', "~0").replace('/', "~1");
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                let p = format!("{here}/{}", escape(k));
                out.push(p.clone());
                pointers(v, p, out);
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                let p = format!("{here}/{i}");
                out.push(p.clone());
                pointers(v, p, out);
            }
        }
        _ => {}
    }
}

/// Removes the value at pointer `p` from its parent.
fn remove_at(root: &mut Value, p: &str) {
    let (parent, last) = p.rsplit_once('/').expect("a pointer below the root");
    let last = last.replace("~1", "/").replace("~0", "~");
    match root.pointer_mut(parent) {
        Some(Value::Object(map)) => {
            map.shift_remove(&last);
        }
        Some(Value::Array(items)) => {
            if let Ok(i) = last.parse::<usize>() {
                if i < items.len() {
                    items.remove(i);
                }
            }
        }
        _ => {}
    }
}

proptest! {
    #![proptest_config(config(128))]

    #[test]
    fn a_damaged_response_is_answered_call_for_call_or_refused(
        dialect in prop::sample::select(toolnexus::Dialect::ALL.to_vec()),
        at in any::<prop::sample::Index>(),
        replacement in proptest::option::of(arb_json()),
    ) {
        let toolkit = any_toolkit();
        let calls = [
            WireCall::json("call_0", "count", &json!({"a": 1})),
            WireCall::json("call_1", "get_weather", &json!({"city": "Oslo", "days": 2})),
            WireCall::json("call_2", "nope", &json!({})),
        ];
        let fixture = dialects::of(dialect);
        let mut response: Value = serde_json::from_str(&fixture.body(&calls)).unwrap();
        let mut all = Vec::new();
        pointers(&response, String::new(), &mut all);
        let p = at.get(&all).clone();
        match replacement {
            Some(value) => *response.pointer_mut(&p).unwrap() = value,
            None => remove_at(&mut response, &p),
        }
        // Through the text too, as a response arrives.
        let body = response.to_string();
        let parsed = dialect.parse_body(&body);
        prop_assume!(parsed.is_ok()); // beyond serde_json's recursion limit
        let outcome = block_on(toolkit.respond(&response, dialect)).map(|turn| turn.result_messages);
        match dialect.parse_calls(&response) {
            Ok(found) => {
                let rendered = outcome.map_err(|e| TestCaseError::fail(e.to_string()))?;
                let answers = fixture.answers(&rendered);
                prop_assert_eq!(answers.len(), found.len());
                for (call, answer) in found.iter().zip(&answers) {
                    prop_assert_eq!(answer.id.as_deref().unwrap_or(""), call.id.as_deref().unwrap_or(""));
                    prop_assert!(!answer.text.is_empty() || answer.error != Some(true));
                }
                prop_assert!(dialect.model_turn(&response).is_ok());
            }
            Err(e) => {
                prop_assert_eq!(outcome, Err(e.clone()));
                prop_assert_eq!(dialect.model_turn(&response), Err(e.clone()));
                // The message says what went wrong, and never echoes much of what was sent.
                prop_assert!(e.to_string().len() < 1_000, "{}", e);
            }
        }
    }
}
