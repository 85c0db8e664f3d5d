//! The bad-input catalog (issue 6, point 1; SPEC §5-§6): everything a model can send, each case
//! run through `Toolkit::execute_json` (text), `Toolkit::execute` (value) and the round trip of
//! every dialect (the same arguments wrapped in a realistic response body, parsed with
//! `Dialect::parse_body`, answered with `Toolkit::respond_with`, read back from the rendered
//! messages).
//!
//! The OpenAI dialects run the catalog once more under strict mode, which reads the text into a
//! value before the tool decodes it; the two cases where that changes the answer say why.
//!
//! Every case states the exact result (or, where serde_json embeds a position, a precise prefix)
//! and the test checks: no panic, exactly one answer per call in call order (each bad call sits
//! between two healthy ones), the documented text and error flag. Sizes are bounded by the limits
//! before anything is decoded, which the error texts show.

use std::fmt;

use serde_json::{json, Value};
use toolnexus::{Dialect, NativeTool, RunOptions, ToolResult, Toolkit};

use crate::fixtures::*;

// ---------------------------------------------------------------------------------------------
// The toolkit: a typed tool (as `#[tool]` generates it: `deny_unknown_fields`) and an untyped one.

fn toolkit() -> Toolkit {
    let count = NativeTool::of(
        "count",
        "Counts the argument object's keys",
        json!({"type": "object", "properties": {}}),
        |args| async move { args.as_object().map_or(0, |m| m.len()).to_string() },
    )
    .unwrap();
    Toolkit::new()
        .with(Typed::new("get_weather", weather))
        .unwrap()
        .with(count)
        .unwrap()
}

const AVAILABLE: &str = "Available tools: get_weather, count";

// ---------------------------------------------------------------------------------------------
// The table.

/// What a result must be.
#[derive(Clone)]
enum Expect {
    /// A successful result with exactly this output.
    Ok(String),
    /// An error result with exactly this text.
    Err(String),
    /// An error result starting with this text (serde_json's position follows).
    ErrPrefix(String),
    /// The object dialects cannot even parse the response body (the arguments are not JSON, so
    /// the body is not): `Dialect::parse_body` fails with a text starting with this.
    BodyRefused(String),
}

impl fmt::Debug for Expect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let short = |s: &String| s.chars().take(200).collect::<String>();
        match self {
            Expect::Ok(s) => write!(f, "Ok({:?})", short(s)),
            Expect::Err(s) => write!(f, "Err({:?})", short(s)),
            Expect::ErrPrefix(s) => write!(f, "ErrPrefix({:?})", short(s)),
            Expect::BodyRefused(s) => write!(f, "BodyRefused({:?})", short(s)),
        }
    }
}

impl Expect {
    fn check(&self, case: &str, path: &str, text: &str, error: Option<bool>) {
        let shown: String = text.chars().take(300).collect();
        let ok = match self {
            Expect::Ok(want) => text == want && error != Some(true),
            Expect::Err(want) => text == want && error != Some(false),
            Expect::ErrPrefix(want) => text.starts_with(want.as_str()) && error != Some(false),
            Expect::BodyRefused(_) => false,
        };
        assert!(
            ok,
            "case `{case}` via {path}: expected {self:?}, got {shown:?} (is_error {error:?})"
        );
    }

    fn check_result(&self, case: &str, path: &str, result: &ToolResult) {
        self.check(case, path, &result.output, Some(result.is_error));
    }
}

struct Case {
    name: &'static str,
    tool: String,
    /// OpenAI's `arguments` text (`None`: the field is left out).
    text: Option<String>,
    /// Anthropic's `input` / Gemini's `args` as raw JSON (`None`: left out).
    object: Option<String>,
    /// The result for the text (`execute_json`, OpenAI Chat and Responses).
    on_text: Expect,
    /// The result for the object (`execute`, Anthropic and Gemini).
    on_object: Expect,
}

fn w(s: &str) -> String {
    format!("invalid arguments for `get_weather`: {s}")
}

fn c(s: &str) -> String {
    format!("invalid arguments for `count`: {s}")
}

fn ok(s: &str) -> Expect {
    Expect::Ok(s.to_owned())
}

fn err(s: String) -> Expect {
    Expect::Err(s)
}

fn prefix(s: String) -> Expect {
    Expect::ErrPrefix(s)
}

/// A case whose text is JSON: the object dialects send the same JSON as the object.
fn same(name: &'static str, tool: &str, text: &str, expect: Expect) -> Case {
    Case {
        name,
        tool: tool.to_owned(),
        text: Some(text.to_owned()),
        object: Some(text.to_owned()),
        on_text: expect.clone(),
        on_object: expect,
    }
}

/// A case whose text is not JSON: the object dialects can only carry it as a JSON string, which
/// is refused as "not an object" (a string in `input` is never parsed as JSON).
fn text_only(name: &'static str, tool: &str, text: &str, on_text: Expect) -> Case {
    let on_object = if tool == "get_weather" || tool == "count" {
        err(format!(
            "invalid arguments for `{tool}`: expected a JSON object, got a string"
        ))
    } else {
        err(format!("Unknown tool: {tool}. {AVAILABLE}"))
    };
    Case {
        name,
        tool: tool.to_owned(),
        text: Some(text.to_owned()),
        object: Some(serde_json::to_string(text).unwrap()),
        on_text,
        on_object,
    }
}

fn nested_objects(depth: usize) -> String {
    format!("{}1{}", "{\"a\":".repeat(depth), "}".repeat(depth))
}

fn catalog() -> Vec<Case> {
    let paris = r#"{"city":"Paris","days":3}"#;
    let ten_mb = format!(r#"{{"city":"{}","days":1}}"#, "x".repeat(10 * 1024 * 1024));
    let ten_mb_len = ten_mb.len();
    let keys: serde_json::Map<String, Value> =
        (0..10_000).map(|i| (format!("k{i}"), json!(i))).collect();
    let keys = Value::Object(keys).to_string();
    let wide = format!(r#"{{"a":[{}0]}}"#, "0,".repeat(100_000));
    let long_name = "a".repeat(10_000);
    let unknown_long = format!("Unknown tool: {}…. {AVAILABLE}", "a".repeat(100));
    let not_json = |s: &str| w(&format!("the arguments are not valid JSON ({s}")); // + position
    let deep = nested_objects(100_000);
    let deep_arrays = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));

    vec![
        // -- controls: what a healthy call looks like
        same("valid", "get_weather", paris, ok("Paris: 3 days")),
        same(
            "valid with optional enum",
            "get_weather",
            r#"{"city":"Oslo","days":1,"unit":"celsius"}"#,
            ok("Oslo: 1 days in celsius"),
        ),
        same(
            "non-ASCII values",
            "get_weather",
            r#"{"city":"東京 🌧","days":2}"#,
            ok("東京 🌧: 2 days"),
        ),
        same(
            "escaped control characters in a value",
            "get_weather",
            r#"{"city":"a\u0000b\n","days":2}"#,
            ok("a\u{0}b\n: 2 days"),
        ),
        // -- not JSON at all
        text_only(
            "truncated object",
            "get_weather",
            r#"{"city":"Paris","#,
            prefix(not_json("EOF while parsing a value at line 1 column 16")),
        ),
        text_only(
            "unquoted keys",
            "get_weather",
            "{city: Paris}",
            prefix(not_json("key must be a string at line 1 column 2")),
        ),
        text_only(
            "single quotes",
            "get_weather",
            "{'city':'Paris','days':1}",
            prefix(not_json("key must be a string at line 1 column 2")),
        ),
        text_only(
            "trailing comma",
            "get_weather",
            r#"{"city":"Paris","days":1,}"#,
            prefix(not_json("trailing comma at line 1 column 26")),
        ),
        text_only(
            "text after the object",
            "get_weather",
            r#"{"city":"Paris","days":1} thanks!"#,
            prefix(not_json("trailing characters at line 1 column 27")),
        ),
        text_only(
            "two objects",
            "get_weather",
            r#"{"city":"Paris","days":1}{"city":"Oslo","days":2}"#,
            prefix(not_json("trailing characters at line 1 column 26")),
        ),
        text_only(
            "prose instead of JSON",
            "get_weather",
            "Sure! Here is the weather in Paris.",
            prefix(not_json("expected value at line 1 column 1")),
        ),
        text_only(
            "JSON in a markdown fence",
            "get_weather",
            "```json\n{\"city\":\"Paris\",\"days\":1}\n```",
            prefix(not_json("expected value at line 1 column 1")),
        ),
        text_only(
            "a byte order mark before the object",
            "get_weather",
            "\u{feff}{\"city\":\"Paris\",\"days\":1}",
            prefix(not_json("expected value at line 1 column 1")),
        ),
        text_only(
            "NaN",
            "get_weather",
            r#"{"city":"Paris","days":NaN}"#,
            prefix(not_json("expected value at line 1 column 24")),
        ),
        text_only(
            "a raw newline inside a string",
            "get_weather",
            "{\"city\":\"Par\nis\",\"days\":1}",
            prefix(not_json(
                "control character (\\u0000-\\u001F) found while parsing a string at line 2 column 0",
            )),
        ),
        // Not JSON, so no object dialect can even carry it: the body is refused.
        Case {
            name: "a lone surrogate escape",
            tool: "get_weather".into(),
            text: Some(r#"{"city":"\ud800","days":1}"#.into()),
            object: Some(r#"{"city":"\ud800","days":1}"#.into()),
            on_text: prefix(not_json("unexpected end of hex escape at line 1 column 16")),
            on_object: Expect::BodyRefused("unexpected end of hex escape".into()),
        },
        Case {
            name: "a number beyond f64",
            tool: "get_weather".into(),
            text: Some(r#"{"city":"Paris","days":1e400}"#.into()),
            object: Some(r#"{"city":"Paris","days":1e400}"#.into()),
            on_text: prefix(not_json("number out of range at line 1 column 28")),
            on_object: Expect::BodyRefused("number out of range".into()),
        },
        // -- JSON, but not an object
        same(
            "an array",
            "get_weather",
            r#"["Paris",3]"#,
            err(w("expected a JSON object, got an array")),
        ),
        same(
            "an empty array",
            "count",
            "[]",
            err(c("expected a JSON object, got an array")),
        ),
        same(
            "a string",
            "get_weather",
            r#""Paris""#,
            err(w("expected a JSON object, got a string")),
        ),
        same(
            "a JSON string holding an object (double-encoded)",
            "get_weather",
            r#""{\"city\":\"Paris\",\"days\":3}""#,
            err(w("expected a JSON object, got a string that holds the JSON text of one; send the object itself, not a string")),
        ),
        same(
            "an integer",
            "get_weather",
            "42",
            err(w("expected a JSON object, got a number")),
        ),
        same(
            "a float",
            "count",
            "-1.5e300",
            err(c("expected a JSON object, got a number")),
        ),
        same(
            "true",
            "get_weather",
            "true",
            err(w("expected a JSON object, got a boolean")),
        ),
        same(
            "false",
            "count",
            "false",
            err(c("expected a JSON object, got a boolean")),
        ),
        // -- nothing: absent, null, "" and whitespace are all `{}`
        same(
            "null",
            "get_weather",
            "null",
            err(w("missing field `city`")),
        ),
        same("null (untyped)", "count", "null", ok("0")),
        Case {
            name: "empty text / absent object",
            tool: "get_weather".into(),
            text: Some(String::new()),
            object: None,
            on_text: err(w("missing field `city`")),
            on_object: err(w("missing field `city`")),
        },
        Case {
            name: "whitespace text / absent object",
            tool: "count".into(),
            text: Some(" \n\t ".into()),
            object: None,
            on_text: ok("0"),
            on_object: ok("0"),
        },
        Case {
            name: "arguments field left out",
            tool: "count".into(),
            text: None,
            object: None,
            on_text: ok("0"),
            on_object: ok("0"),
        },
        same("{}", "get_weather", "{}", err(w("missing field `city`"))),
        // -- wrong fields
        same(
            "missing required field",
            "get_weather",
            r#"{"city":"Paris"}"#,
            err(w("missing field `days`")),
        ),
        same(
            "wrong type",
            "get_weather",
            r#"{"city":"Paris","days":"x"}"#,
            err(w("`days`: invalid type: string \"x\", expected u8")),
        ),
        same(
            "out of range",
            "get_weather",
            r#"{"city":"Paris","days":300}"#,
            err(w("`days`: invalid value: integer `300`, expected u8")),
        ),
        same(
            "negative",
            "get_weather",
            r#"{"city":"Paris","days":-1}"#,
            err(w("`days`: invalid value: integer `-1`, expected u8")),
        ),
        same(
            "float for an integer",
            "get_weather",
            r#"{"city":"Paris","days":2.5}"#,
            err(w("`days`: invalid type: floating point `2.5`, expected u8")),
        ),
        same(
            "integer beyond u64",
            "get_weather",
            r#"{"city":"Paris","days":18446744073709551616}"#,
            err(w(
                "`days`: invalid type: floating point `1.8446744073709552e+19`, expected u8",
            )),
        ),
        same(
            "number for a string",
            "get_weather",
            r#"{"city":7,"days":1}"#,
            err(w("`city`: invalid type: integer `7`, expected a string")),
        ),
        same(
            "object for a string",
            "get_weather",
            r#"{"city":{"name":"Paris"},"days":1}"#,
            err(w("`city`: invalid type: map, expected a string")),
        ),
        same(
            "null for a required field",
            "get_weather",
            r#"{"city":null,"days":1}"#,
            err(w("`city`: invalid type: null, expected a string")),
        ),
        same(
            "null for an optional field",
            "get_weather",
            r#"{"city":"Paris","days":1,"unit":null}"#,
            ok("Paris: 1 days"),
        ),
        same(
            "unknown enum variant",
            "get_weather",
            r#"{"city":"Paris","days":1,"unit":"kelvin"}"#,
            err(w(
                "`unit`: unknown variant `kelvin`, expected `celsius` or `fahrenheit`",
            )),
        ),
        same(
            "enum variant in the wrong case",
            "get_weather",
            r#"{"city":"Paris","days":1,"unit":"Celsius"}"#,
            err(w(
                "`unit`: unknown variant `Celsius`, expected `celsius` or `fahrenheit`",
            )),
        ),
        same(
            "extra field",
            "get_weather",
            r#"{"city":"Paris","days":1,"extra":true}"#,
            err(w(
                "`extra`: unknown field `extra`, expected one of `city`, `days`, `unit`",
            )),
        ),
        same(
            "extra field (untyped tool takes it)",
            "count",
            r#"{"city":"Paris","extra":true}"#,
            ok("2"),
        ),
        // A duplicate key: serde's derive refuses it in text; in an object dialect the response
        // body was already parsed into a map, where the last one won.
        Case {
            name: "duplicate key",
            tool: "get_weather".into(),
            text: Some(r#"{"city":"Paris","city":"Oslo","days":1}"#.into()),
            object: Some(r#"{"city":"Paris","city":"Oslo","days":1}"#.into()),
            on_text: err(w("duplicate field `city`")),
            on_object: ok("Oslo: 1 days"),
        },
        same(
            "duplicate key (untyped: the last one wins)",
            "count",
            r#"{"a":1,"a":2}"#,
            ok("1"),
        ),
        // -- size and shape: refused by the limits before anything is decoded
        same(
            "a 10 MB string",
            "get_weather",
            &ten_mb,
            err(w(&format!(
                "the arguments are larger than 1048576 bytes (at least {ten_mb_len} bytes); send less data"
            ))),
        ),
        // As a JSON string in an object dialect, it is still too large (two quotes more).
        Case {
            name: "10 MB that is not JSON",
            tool: "count".into(),
            text: Some("{".repeat(10 * 1024 * 1024)),
            object: Some(format!("\"{}\"", "{".repeat(10 * 1024 * 1024))),
            on_text: err(c(&format!(
                "the arguments are larger than 1048576 bytes (at least {} bytes); send less data",
                10 * 1024 * 1024
            ))),
            on_object: err(c(&format!(
                "the arguments are larger than 1048576 bytes (at least {} bytes); send less data",
                10 * 1024 * 1024 + 2
            ))),
        },
        // Nesting no JSON parser here accepts: the text is refused by the limit before parsing;
        // an object dialect's body cannot be parsed at all (serde_json's recursion limit, 128).
        Case {
            name: "objects nested 100,000 levels deep",
            tool: "count".into(),
            text: Some(deep.clone()),
            object: Some(deep),
            on_text: err(c("the arguments are nested deeper than 64 levels")),
            on_object: Expect::BodyRefused("recursion limit exceeded".into()),
        },
        Case {
            name: "arrays nested 100,000 levels deep",
            tool: "get_weather".into(),
            text: Some(deep_arrays.clone()),
            object: Some(deep_arrays),
            on_text: err(w("the arguments are nested deeper than 64 levels")),
            on_object: Expect::BodyRefused("recursion limit exceeded".into()),
        },
        same("64 levels are fine", "count", &nested_objects(64), ok("1")),
        same(
            "65 levels are not",
            "count",
            &nested_objects(65),
            err(c("the arguments are nested deeper than 64 levels")),
        ),
        same("10,000 keys", "count", &keys, ok("10000")),
        same(
            "10,000 keys to a typed tool",
            "get_weather",
            &keys,
            err(w(
                "`k0`: unknown field `k0`, expected one of `city`, `days`, `unit`",
            )),
        ),
        same("an array of 100,000 items", "count", &wide, ok("1")),
        // -- names
        same(
            "unknown tool",
            "get_wether",
            paris,
            err(format!("Unknown tool: get_wether. {AVAILABLE}")),
        ),
        same(
            "empty name",
            "",
            paris,
            err(format!("Unknown tool: . {AVAILABLE}")),
        ),
        same(
            "non-ASCII name",
            "météo",
            paris,
            err(format!("Unknown tool: météo. {AVAILABLE}")),
        ),
        same(
            "name in another case",
            "GET_WEATHER",
            paris,
            err(format!("Unknown tool: GET_WEATHER. {AVAILABLE}")),
        ),
        same(
            "name with a trailing newline",
            "get_weather\n",
            paris,
            // Echoed with its control character written as an escape.
            err(format!("Unknown tool: get_weather\\n. {AVAILABLE}")),
        ),
        same(
            "a 10,000-character name is cut in the message",
            &long_name,
            paris,
            err(unknown_long),
        ),
        // An unknown tool's arguments are never looked at, whatever they are.
        text_only(
            "unknown tool with invalid JSON",
            "nope",
            "{{{",
            err(format!("Unknown tool: nope. {AVAILABLE}")),
        ),
    ]
}

// ---------------------------------------------------------------------------------------------
// The runner.

const HEALTHY: &str = "Oslo: 2 days";

fn healthy(id: &str) -> WireCall {
    WireCall::json(id, "get_weather", &json!({"city": "Oslo", "days": 2}))
}

async fn run_case(toolkit: &Toolkit, case: &Case) {
    // Direct: the text through execute_json (absent text is `""`, which means `{}`).
    let text = case.text.as_deref().unwrap_or("");
    let result = toolkit.execute_json(&case.tool, text).await;
    case.on_text
        .check_result(case.name, "Toolkit::execute_json", &result);

    // Direct: the object through execute (absent is `null`, which means `{}`). An object no
    // parser accepts cannot reach `execute`; the deep-value test below builds one by hand.
    let value = match case.object.as_deref() {
        None => Some(Value::Null),
        Some(raw) => serde_json::from_str::<Value>(raw).ok(),
    };
    match (&case.on_object, value) {
        (Expect::BodyRefused(_), Some(_)) => {
            panic!(
                "case `{}`: the object parses, but a refusal is expected",
                case.name
            )
        }
        (Expect::BodyRefused(_), None) => {}
        (expect, Some(value)) => {
            let result = toolkit.execute(&case.tool, value).await;
            expect.check_result(case.name, "Toolkit::execute", &result);
        }
        (_, None) => panic!("case `{}`: its object is not JSON", case.name),
    }

    // Every dialect: the bad call between two healthy ones.
    for fixture in dialects::ALL {
        let dialect = fixture.dialect();
        let bad = WireCall {
            id: Some("call_bad".into()),
            name: case.tool.clone(),
            text: case.text.clone(),
            object: case.object.clone(),
        };
        let body = fixture.body(&[healthy("call_1"), bad, healthy("call_3")]);
        let expect = if fixture.sends_text() {
            &case.on_text
        } else {
            &case.on_object
        };
        let path = format!("{dialect}");
        match (
            round_trip(toolkit, fixture, &body, &RunOptions::default()).await,
            expect,
        ) {
            (Err(e), Expect::BodyRefused(want)) => {
                let head = format!("the {dialect} response is not valid JSON: {want}");
                assert!(
                    e.starts_with(&head),
                    "case `{}` via {path}: expected {head:?}, got {e:?}",
                    case.name
                );
            }
            (Err(e), _) => panic!(
                "case `{}` via {path}: the response was refused: {e}",
                case.name
            ),
            (Ok(answers), expect) => {
                let ids: Vec<_> = answers.iter().map(|a| a.id.as_deref()).collect();
                assert_eq!(
                    ids,
                    [Some("call_1"), Some("call_bad"), Some("call_3")],
                    "case `{}` via {path}",
                    case.name
                );
                for i in [0, 2] {
                    assert_eq!(answers[i].text, HEALTHY, "case `{}` via {path}", case.name);
                    assert_ne!(answers[i].error, Some(true));
                }
                expect.check(case.name, &path, &answers[1].text, answers[1].error);
            }
        }
    }
}

/// Runs `check` on every case, each on its own task so one failure does not hide the others, and
/// fails with all of them.
async fn all_cases<F, Fut>(check: F)
where
    F: Fn(Toolkit, Case) -> Fut,
    Fut: std::future::Future<Output = ()> + Send + 'static,
{
    let toolkit = toolkit();
    let cases = catalog();
    assert!(cases.len() >= 40, "{} cases", cases.len());
    let mut names = std::collections::HashSet::new();
    let mut failures = Vec::new();
    for case in cases {
        let name = case.name;
        assert!(names.insert(name), "case names are unique: {name}");
        if let Err(e) = tokio::spawn(check(toolkit.clone(), case)).await {
            let message = e.into_panic();
            let message = message
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| message.downcast_ref::<&str>().map(|s| (*s).to_owned()))
                .unwrap_or_default();
            failures.push(format!("{name}: {message}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} failing cases:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[tokio::test]
async fn every_bad_input_gets_its_documented_result_on_every_path() {
    all_cases(|toolkit, case| async move { run_case(&toolkit, &case).await }).await;
}

/// A value 100,000 levels deep cannot come out of a response body (serde_json stops at 128), but
/// a host may build one: `execute` measures it without recursion and refuses it. (Dropping such a
/// value recurses in serde_json itself, so this test runs on a thread with a large stack.)
#[test]
fn a_value_nested_100000_levels_deep_is_refused_without_recursion() {
    let handle = std::thread::Builder::new()
        .stack_size(512 * 1024 * 1024)
        .spawn(|| {
            let mut value = json!(1);
            for _ in 0..100_000 {
                let mut map = serde_json::Map::new();
                map.insert("a".into(), value);
                value = Value::Object(map);
            }
            let runtime = tokio::runtime::Builder::new_current_thread()
                .build()
                .unwrap();
            runtime.block_on(toolkit().execute("count", value))
        })
        .unwrap();
    assert_eq!(
        handle.join().unwrap(),
        ToolResult::error(c("the arguments are nested deeper than 64 levels"))
    );
}

// ---------------------------------------------------------------------------------------------
// Response-level cases: the calls themselves, not their arguments.

#[tokio::test]
async fn a_response_with_zero_calls_gives_zero_results_and_runs_nothing() {
    let toolkit = toolkit();
    for fixture in dialects::ALL {
        let dialect = fixture.dialect();
        let answers = round_trip(
            &toolkit,
            fixture,
            &fixture.body(&[]),
            &RunOptions::default(),
        )
        .await
        .unwrap_or_else(|e| panic!("{dialect}: {e}"));
        assert_eq!(answers, [], "{dialect}");
        // The same when the model answered in text, as each API shapes it.
        let text = fixture.text_only("Sunny.").to_string();
        let answers = round_trip(&toolkit, fixture, &text, &RunOptions::default())
            .await
            .unwrap_or_else(|e| panic!("{dialect}: {e}"));
        assert_eq!(answers, [], "{dialect}");
    }
}

#[tokio::test]
async fn a_truncated_response_is_an_error_value_and_nothing_runs() {
    let toolkit = toolkit();
    for fixture in dialects::ALL {
        let dialect = fixture.dialect();
        let full = fixture.body(&[healthy("call_1"), healthy("call_2")]);
        // Cut in the middle of the second call, as a dropped connection would.
        let cut = &full[..full.rfind("Oslo").unwrap()];
        let e = round_trip(&toolkit, fixture, cut, &RunOptions::default())
            .await
            .unwrap_err();
        assert!(
            e.starts_with(&format!(
                "the {dialect} response is not valid JSON: EOF while parsing a string at line 1 column "
            )),
            "{dialect}: {e}"
        );
        // Cut off by the provider at the token limit: valid JSON, but the calls may be
        // incomplete.
        let mut cut_off: Value = serde_json::from_str(&full).unwrap();
        let reason = fixture.end(&mut cut_off, Stop::Length);
        assert_eq!(
            round_trip(
                &toolkit,
                fixture,
                &cut_off.to_string(),
                &RunOptions::default()
            )
            .await,
            Err(format!(
                "the {dialect} response is incomplete ({reason}); its tool calls may be cut off, \
                 so none were run"
            ))
        );
    }
}

#[tokio::test]
async fn a_body_that_is_no_response_is_an_error_value() {
    let toolkit = toolkit();
    for fixture in dialects::ALL {
        let dialect = fixture.dialect();
        let refused = |body: &str| {
            let toolkit = &toolkit;
            let body = body.to_owned();
            async move {
                round_trip(toolkit, fixture, &body, &RunOptions::default())
                    .await
                    .unwrap_err()
            }
        };
        assert_eq!(
            refused("").await,
            format!("the {dialect} response is not valid JSON: EOF while parsing a value at line 1 column 0")
        );
        assert_eq!(
            refused("<html>502 Bad Gateway</html>").await,
            format!("the {dialect} response is not valid JSON: expected value at line 1 column 1")
        );
        assert_eq!(
            refused("[]").await,
            format!(
                "unexpected {dialect} response: expected a JSON object at `(root)`, found an array"
            )
        );
        assert_eq!(
            refused("null").await,
            format!(
                "unexpected {dialect} response: expected a JSON object at `(root)`, found null"
            )
        );
        assert_eq!(
            refused(r#"{"error":{"message":"The server is overloaded.","type":"server_error"}}"#)
                .await,
            format!("{dialect} returned an error instead of a response: The server is overloaded.")
        );
        // A provider error message is echoed, but never more than 300 characters of it.
        let long = format!(r#"{{"error":{{"message":"{}"}}}}"#, "e".repeat(100_000));
        assert_eq!(
            refused(&long).await,
            format!(
                "{dialect} returned an error instead of a response: {}…",
                "e".repeat(300)
            )
        );
        // Nor can it recolour a terminal or reorder a log line (security.md): its control,
        // bidi and invisible characters, and its code's, are written as escapes.
        let disguised =
            r#"{"error":{"message":"\u001b[2Jok\u202etxt.exe\u00ad","code":"x\u001b[31m"}}"#;
        assert_eq!(
            refused(disguised).await,
            format!(
                r"{dialect} returned an error instead of a response: \u{{1b}}[2Jok\u{{202e}}txt.exe\u{{ad}}"
            )
        );
        let response = dialect.parse_body(disguised).unwrap();
        let Err(toolnexus::ResponseError::Provider { code, .. }) = dialect.parse_calls(&response)
        else {
            panic!("{dialect}: a provider error");
        };
        assert_eq!(code.as_deref(), Some(r"x\u{1b}[31m"), "{dialect}");
        // Deep nesting anywhere in a body stops at serde_json's recursion limit, with no stack
        // overflow.
        let deep = format!(r#"{{"x":{}}}"#, nested_objects(100_000));
        let e = refused(&deep).await;
        assert!(
            e.starts_with(&format!(
                "the {dialect} response is not valid JSON: recursion limit exceeded at line 1 column "
            )),
            "{e}"
        );
    }
}

#[tokio::test]
async fn malformed_calls_are_an_error_value_naming_the_path() {
    let toolkit = toolkit();
    let cases = [
        (
            Dialect::OpenAiChat,
            r#"{"choices":[{"message":{"role":"assistant","tool_calls":[{"type":"function","function":{"name":"count"}}]}}]}"#,
            "unexpected OpenAI Chat Completions response: expected a string at `choices[0].message.tool_calls[0].id`, found nothing",
        ),
        (
            Dialect::OpenAiChat,
            r#"{"choices":[{"message":{"role":"assistant","tool_calls":[{"id":"c","type":"function","function":{"name":7}}]}}]}"#,
            "unexpected OpenAI Chat Completions response: expected a string at `choices[0].message.tool_calls[0].function.name`, found a number",
        ),
        (
            Dialect::OpenAiChat,
            r#"{"choices":[{"message":{"role":"assistant","tool_calls":{"id":"c"}}}]}"#,
            "unexpected OpenAI Chat Completions response: expected an array at `choices[0].message.tool_calls`, found an object",
        ),
        (
            Dialect::OpenAiResponses,
            r#"{"status":"completed","output":[{"type":"function_call","name":"count","arguments":"{}"}]}"#,
            "unexpected OpenAI Responses response: expected a string at `output[0].call_id`, found nothing",
        ),
        (
            Dialect::Anthropic,
            r#"{"type":"message","content":[{"type":"tool_use","id":"t","input":{}}]}"#,
            "unexpected Anthropic Messages response: expected a string at `content[0].name`, found nothing",
        ),
        (
            Dialect::Anthropic,
            r#"{"type":"message","content":"hello"}"#,
            "unexpected Anthropic Messages response: expected an array at `content`, found a string",
        ),
        (
            Dialect::Gemini,
            r#"{"candidates":[{"content":{"parts":[{"functionCall":{"name":"count","id":5}}]}}]}"#,
            "unexpected Gemini generateContent response: expected a string at `candidates[0].content.parts[0].functionCall.id`, found a number",
        ),
        (
            Dialect::Gemini,
            r#"{"candidates":[]}"#,
            "unexpected Gemini generateContent response: expected a non-empty array at `candidates`, found an empty array",
        ),
        (
            Dialect::Bedrock,
            r#"{"stopReason":"tool_use","output":{"message":{"role":"assistant","content":[{"toolUse":{"toolUseId":"t","input":{}}}]}}}"#,
            "unexpected Amazon Bedrock Converse response: expected a string at `output.message.content[0].toolUse.name`, found nothing",
        ),
        (
            Dialect::Bedrock,
            r#"{"stopReason":"tool_use","output":{"message":{"role":"assistant","content":{}}}}"#,
            "unexpected Amazon Bedrock Converse response: expected an array at `output.message.content`, found an object",
        ),
        (
            Dialect::Cohere,
            r#"{"finish_reason":"TOOL_CALL","message":{"role":"assistant","tool_calls":[{"type":"function","function":{"name":"count","arguments":"{}"}}]}}"#,
            "unexpected Cohere v2 Chat response: expected a string at `message.tool_calls[0].id`, found nothing",
        ),
        (
            Dialect::Cohere,
            r#"{"finish_reason":"TOOL_CALL","message":{"role":"assistant","tool_calls":[{"id":"c","type":"function","function":{"arguments":"{}"}}]}}"#,
            "unexpected Cohere v2 Chat response: expected a string at `message.tool_calls[0].function.name`, found nothing",
        ),
    ];
    for (dialect, text, want) in cases {
        assert_eq!(
            round_trip(
                &toolkit,
                dialects::of(dialect),
                text,
                &RunOptions::default()
            )
            .await,
            Err(want.to_owned()),
            "{text}"
        );
    }
}

#[tokio::test]
async fn duplicate_call_ids_are_answered_once_each_and_run_once() {
    let toolkit = toolkit();
    let dup =
        "duplicate call id `call_x`: an earlier call in this turn has it; this call was not run";
    for fixture in dialects::ALL {
        let dialect = fixture.dialect();
        let calls = [
            WireCall::json("call_x", "count", &json!({"a": 1})),
            WireCall::json("call_x", "count", &json!({"a": 1, "b": 2})),
            WireCall::json("call_y", "count", &json!({})),
        ];
        let answers = round_trip(
            &toolkit,
            fixture,
            &fixture.body(&calls),
            &RunOptions::default(),
        )
        .await
        .unwrap_or_else(|e| panic!("{dialect}: {e}"));
        let flag = Some;
        assert_eq!(
            answers,
            [
                Answer {
                    id: Some("call_x".into()),
                    text: "1".into(),
                    error: flag(false)
                },
                Answer {
                    id: Some("call_x".into()),
                    text: dup.into(),
                    error: flag(true)
                },
                Answer {
                    id: Some("call_y".into()),
                    text: "0".into(),
                    error: flag(false)
                },
            ],
            "{dialect}"
        );
    }
    // A hostile id is echoed in the message, but never more than 300 characters of it; an empty
    // id is an id like any other.
    let long = "i".repeat(100_000);
    for fixture in dialects::ALL {
        let dialect = fixture.dialect();
        let calls = [
            WireCall::json(&long, "count", &json!({})),
            WireCall::json(&long, "count", &json!({})),
            WireCall::json("", "count", &json!({})),
            WireCall::json("", "count", &json!({})),
        ];
        let answers = round_trip(
            &toolkit,
            fixture,
            &fixture.body(&calls),
            &RunOptions::default(),
        )
        .await
        .unwrap_or_else(|e| panic!("{dialect}: {e}"));
        let texts: Vec<_> = answers.iter().map(|a| a.text.as_str()).collect();
        let cut = format!(
            "duplicate call id `{}…`: an earlier call in this turn has it; this call was not run",
            "i".repeat(300)
        );
        assert_eq!(
            texts,
            [
                "0",
                cut.as_str(),
                "0",
                "duplicate call id ``: an earlier call in this turn has it; this call was not run"
            ],
            "{dialect}"
        );
    }
    // Gemini calls without ids are told apart by position, never duplicates.
    let calls = [
        WireCall {
            id: None,
            ..WireCall::json("", "count", &json!({"a": 1}))
        },
        WireCall {
            id: None,
            ..WireCall::json("", "count", &json!({"a": 1}))
        },
    ];
    let gemini = dialects::of(Dialect::Gemini);
    let answers = round_trip(
        &toolkit,
        gemini,
        &gemini.body(&calls),
        &RunOptions::default(),
    )
    .await
    .unwrap();
    let texts: Vec<_> = answers
        .iter()
        .map(|a| (a.id.clone(), a.text.as_str()))
        .collect();
    assert_eq!(texts, [(None, "1"), (None, "1")]);
}

#[tokio::test]
async fn a_thousand_calls_in_one_response_get_a_thousand_answers_in_order() {
    let toolkit = toolkit();
    for fixture in dialects::ALL {
        let dialect = fixture.dialect();
        let calls: Vec<WireCall> = (0..1000)
            .map(|i| match i % 4 {
                0 => WireCall::json(&format!("call_{i}"), "count", &json!({"i": i})),
                1 => WireCall::json(&format!("call_{i}"), "nope", &json!({})),
                2 => WireCall::json(&format!("call_{i}"), "get_weather", &json!([i])),
                _ => healthy(&format!("call_{i}")),
            })
            .collect();
        let answers = round_trip(
            &toolkit,
            fixture,
            &fixture.body(&calls),
            &RunOptions::default(),
        )
        .await
        .unwrap_or_else(|e| panic!("{dialect}: {e}"));
        assert_eq!(answers.len(), 1000);
        for (i, answer) in answers.iter().enumerate() {
            assert_eq!(answer.id.as_deref(), Some(format!("call_{i}").as_str()));
            let want = match i % 4 {
                0 => "1".to_owned(),
                1 => format!("Unknown tool: nope. {AVAILABLE}"),
                2 => w("expected a JSON object, got an array"),
                _ => HEALTHY.to_owned(),
            };
            assert_eq!(answer.text, want, "{dialect} call {i}");
        }
    }
}

#[tokio::test]
async fn openai_arguments_that_are_not_a_string_are_read_as_a_value() {
    // Some OpenAI-compatible servers send `arguments` as an object; anything else non-string is
    // refused as "not an object" when the call runs, and the repeated turn carries JSON text.
    // (Only the dialects whose arguments are JSON text have a string to replace.)
    let toolkit = toolkit();
    for fixture in dialects::ALL.iter().filter(|f| f.sends_text()) {
        let dialect = fixture.dialect();
        for (raw, want) in [
            (r#"{"city":"Paris","days":3}"#, ok("Paris: 3 days")),
            ("[1]", err(w("expected a JSON object, got an array"))),
            ("12", err(w("expected a JSON object, got a number"))),
            ("true", err(w("expected a JSON object, got a boolean"))),
            ("null", err(w("missing field `city`"))),
        ] {
            let text = fixture
                .body(&[WireCall::json("call_1", "get_weather", &json!(null))])
                .replace(r#""arguments":"null""#, &format!(r#""arguments":{raw}"#));
            assert!(text.contains(raw), "{text}");
            let answers = round_trip(&toolkit, *fixture, &text, &RunOptions::default())
                .await
                .unwrap();
            want.check(raw, &format!("{dialect}"), &answers[0].text, None);
            let turn = dialect
                .model_turn(&dialect.parse_body(&text).unwrap())
                .unwrap();
            let turn = Value::Array(turn).to_string();
            let expected_text = if raw == "null" {
                "{}".to_owned()
            } else {
                raw.to_owned()
            };
            assert!(
                turn.contains(&format!(
                    r#""arguments":{}"#,
                    serde_json::to_string(&expected_text).unwrap()
                )),
                "{turn}"
            );
        }
    }
}

// ---------------------------------------------------------------------------------------------
// OpenAI strict mode reads the text into a value before the tool decodes it (so the nulls strict
// mode makes the model send can become "absent"): the same catalog, through that path.

/// Where strict mode answers differently from the plain text path, and why.
fn under_strict(case: &Case) -> Expect {
    match case.name {
        // A null the schema does not allow becomes "absent" (SPEC §4, strict mode), so the
        // tool reports the field as missing.
        "null for a required field" => err(w("missing field `city`")),
        // The text is read into a value first, where the last of two equal keys wins, as in the
        // object dialects.
        "duplicate key" => ok("Oslo: 1 days"),
        _ => case.on_text.clone(),
    }
}

async fn run_strict_case(toolkit: &Toolkit, case: &Case) {
    let expect = under_strict(case);
    let options = RunOptions::default().with_openai_strict(true);
    let arguments = match &case.text {
        Some(text) => toolnexus::Arguments::Text(text.clone()),
        None => toolnexus::Arguments::Absent,
    };
    let call = toolnexus::ToolCall::new("call_bad", case.tool.as_str(), arguments);
    let result = toolkit.execute_call(&call, &options).await;
    expect.check_result(case.name, "execute_call (strict)", &result);
    // The bad call as JSON text, so only the dialects that send text.
    for fixture in dialects::ALL.iter().filter(|f| f.sends_text()) {
        let dialect = fixture.dialect();
        let bad = WireCall {
            id: Some("call_bad".into()),
            name: case.tool.clone(),
            text: case.text.clone(),
            object: None,
        };
        let body = fixture.body(&[healthy("call_1"), bad, healthy("call_3")]);
        let path = format!("{dialect} (strict)");
        let answers = round_trip(toolkit, *fixture, &body, &options)
            .await
            .unwrap_or_else(|e| panic!("case `{}` via {path}: {e}", case.name));
        let ids: Vec<_> = answers.iter().map(|a| a.id.as_deref()).collect();
        assert_eq!(ids, [Some("call_1"), Some("call_bad"), Some("call_3")]);
        assert_eq!(answers[0].text, HEALTHY);
        assert_eq!(answers[2].text, HEALTHY);
        expect.check(case.name, &path, &answers[1].text, answers[1].error);
    }
}

#[tokio::test]
async fn every_bad_input_under_openai_strict_mode() {
    all_cases(|toolkit, case| async move { run_strict_case(&toolkit, &case).await }).await;
}
