//! Issue 24, point 5: a number must never change on its way to an integer parameter. An integer
//! literal outside i64/u64 is read by serde_json as the nearest f64, and every literal from
//! i64::MIN − 1 down to about i64::MIN − 1024 reads as exactly -2^63: the whole-number retry
//! used to turn that into i64::MIN, on every path. Now it is refused, naming the field. Point 6:
//! a `NativeTool` gets integers where its hand-written schema says `integer`.
//!
//! The rows on numbers in `toolnexus/docs/errors.md` (section "Whose mistake") and their tests:
//!
//! | row | test |
//! |---|---|
//! | a whole-number float reaches an integer parameter, in every dialect | `model_input::a_whole_number_float_reaches_an_integer_parameter_on_every_path`, `integers_at_the_edges_and_whole_floats_within_range_still_arrive_exact` |
//! | `2.5` or a whole number beyond the range is refused, naming the field; a literal beyond i64/u64 is never moved into range; i128/u128 | `model_input::a_whole_number_float_reaches_an_integer_parameter_on_every_path`, `an_integer_literal_beyond_64_bits_is_refused_never_moved_into_range`, `wide_integers_get_every_digit_from_text_and_are_refused_once_rounded` |
//! | integers within i64/u64 exact, any other number the nearest f64, beyond f64 not JSON | `integers_at_the_edges_and_whole_floats_within_range_still_arrive_exact`, `model_input::numbers_beyond_64_bits_follow_the_documented_rule` |
//! | a `NativeTool` gets integers where its schema says `integer` | `a_hand_written_integer_gets_an_integer_in_every_dialect` |
//! | a `Value` or `f64` parameter sees its number as sent (and the retry's limit) | `a_value_parameter_keeps_the_number_as_sent`, `model_input::a_whole_number_float_reaches_an_integer_parameter_on_every_path` (`ratio: f64`) |

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};
use toolnexus::{tool, Dialect, NativeTool, RunOptions, Toolkit};

use crate::fixtures::*;

#[derive(Deserialize, JsonSchema, Debug)]
struct Point {
    x: i64,
}

/// Echoes its integers, whichever were sent.
#[tool]
#[allow(clippy::too_many_arguments)]
fn ints(
    i: Option<i64>,
    u: Option<u64>,
    small: Option<i8>,
    byte: Option<u8>,
    wide: Option<i128>,
    uwide: Option<u128>,
    point: Option<Point>,
    list: Option<Vec<i64>>,
) -> String {
    let mut seen = Vec::new();
    let fields = [
        i.map(|n| n.to_string()),
        u.map(|n| n.to_string()),
        small.map(|n| n.to_string()),
        byte.map(|n| n.to_string()),
        wide.map(|n| n.to_string()),
        uwide.map(|n| n.to_string()),
        point.map(|p| format!("({})", p.x)),
        list.map(|l| format!("{l:?}")),
    ];
    seen.extend(fields.into_iter().flatten());
    seen.join(" ")
}

fn toolkit() -> Toolkit {
    Toolkit::new().with(Ints).unwrap()
}

/// What each path answers for the argument text `raw`, spliced into each body as written:
/// `execute_json`, `execute` (on the value serde_json reads), and each dialect's round trip.
async fn every_path(toolkit: &Toolkit, raw: &str) -> Vec<(String, String, Option<bool>)> {
    let mut seen = Vec::new();
    let r = toolkit.execute_json("ints", raw).await;
    seen.push(("execute_json".to_owned(), r.output, Some(r.is_error)));
    let value: Value = serde_json::from_str(raw).unwrap();
    let r = toolkit.execute("ints", value).await;
    seen.push(("execute".to_owned(), r.output, Some(r.is_error)));
    for fixture in dialects::ALL {
        let dialect = fixture.dialect();
        let call = WireCall {
            id: Some("call_1".to_owned()),
            name: "ints".to_owned(),
            text: Some(raw.to_owned()),
            object: Some(raw.to_owned()),
        };
        let body = fixture.body(&[call]);
        let answers = round_trip(toolkit, fixture, &body, &RunOptions::default())
            .await
            .unwrap_or_else(|e| panic!("{dialect}: {e}"));
        seen.push((
            dialect.to_string(),
            answers[0].text.clone(),
            answers[0].error,
        ));
    }
    seen
}

fn all_say(raw: &str, seen: &[(String, String, Option<bool>)], want: &str, error: bool) {
    for (path, text, flag) in seen {
        assert!(
            text == want && *flag != Some(!error),
            "{raw} via {path}: expected {want:?} (error {error}), got {text:?} (error {flag:?})"
        );
    }
}

/// Whether a path keeps the argument text as written (OpenAI's arguments are a JSON string);
/// on the others the host has already read the body, so a literal beyond 64 bits is an f64.
fn keeps_text(path: &str) -> bool {
    path == "execute_json"
        || dialects::ALL
            .iter()
            .any(|f| f.sends_text() && path == f.dialect().to_string())
}

#[tokio::test]
async fn an_integer_literal_beyond_64_bits_is_refused_never_moved_into_range() {
    let toolkit = toolkit();
    let min_f64 = "-9.223372036854776e+18";
    // i64::MIN − 1 and literals down to about i64::MIN − 1024 all read as -2^63.
    for below in [
        "-9223372036854775809",
        "-9223372036854775810",
        "-9223372036854776320",
        "-9223372036854776832",
    ] {
        for (field, raw, want) in [
            ("i", format!(r#"{{"i":{below}}}"#), "expected i64"),
            ("small", format!(r#"{{"small":{below}}}"#), "expected i8"),
            (
                "point.x",
                format!(r#"{{"point":{{"x":{below}}}}}"#),
                "expected i64",
            ),
            (
                "list[1]",
                format!(r#"{{"list":[1,{below}]}}"#),
                "expected i64",
            ),
        ] {
            let want = format!(
                "invalid arguments for `ints`: `{field}`: invalid type: floating point `{min_f64}`, {want}"
            );
            all_say(&raw, &every_path(&toolkit, &raw).await, &want, true);
        }
    }
    // Above u64::MAX (and so above i64::MAX) the nearest f64 is 2^64: refused too.
    for (field, want) in [
        ("u", "expected u64"),
        ("i", "expected i64"),
        ("byte", "expected u8"),
    ] {
        let raw = format!(r#"{{"{field}":18446744073709551616}}"#);
        let want = format!(
            "invalid arguments for `ints`: `{field}`: invalid type: floating point `1.8446744073709552e+19`, {want}"
        );
        all_say(&raw, &every_path(&toolkit, &raw).await, &want, true);
    }
    // i64::MAX + 1 is a u64: out of an i64's range, said as the integer it is.
    let raw = r#"{"i":9223372036854775808}"#;
    let want = "invalid arguments for `ints`: `i`: invalid value: integer `9223372036854775808`, expected i64";
    all_say(raw, &every_path(&toolkit, raw).await, want, true);
}

#[tokio::test]
async fn integers_at_the_edges_and_whole_floats_within_range_still_arrive_exact() {
    let toolkit = toolkit();
    for (raw, want) in [
        (r#"{"i":-9223372036854775808}"#, "-9223372036854775808"),
        (r#"{"u":18446744073709551615}"#, "18446744073709551615"),
        (r#"{"i":-9223372036854774784.0}"#, "-9223372036854774784"),
        (r#"{"u":1e19}"#, "10000000000000000000"),
        (r#"{"i":-0.0,"small":-128.0,"byte":255.0}"#, "0 -128 255"),
        (r#"{"point":{"x":2.0},"list":[1.0,-3e2]}"#, "(2) [1, -300]"),
        (r#"{"wide":-7.0,"uwide":7.0}"#, "-7 7"),
    ] {
        all_say(raw, &every_path(&toolkit, raw).await, want, false);
    }
}

/// i128 and u128 take every digit where the arguments arrive as text; where the host has read
/// the body first, a literal beyond 64 bits is already an f64, and is refused, never rounded.
#[tokio::test]
async fn wide_integers_get_every_digit_from_text_and_are_refused_once_rounded() {
    let toolkit = toolkit();
    for (raw, exact, rounded) in [
        (
            r#"{"wide":-9223372036854775809}"#,
            "-9223372036854775809",
            "`wide`: invalid type: floating point `-9.223372036854776e+18`, expected an integer",
        ),
        (
            r#"{"uwide":100000000000000000001,"i":2.0}"#,
            "2 100000000000000000001",
            "`uwide`: invalid type: floating point `1e+20`, expected an integer",
        ),
    ] {
        for (path, text, flag) in every_path(&toolkit, raw).await {
            if keeps_text(&path) {
                assert_eq!(
                    (text.as_str(), flag),
                    (exact, Some(false)),
                    "{raw} via {path}"
                );
            } else {
                let want = format!("invalid arguments for `ints`: {rounded}");
                assert_eq!((text, flag), (want, Some(true)), "{raw} via {path}");
            }
        }
    }
    // A fraction where a 128-bit integer goes says so (serde_json reads those digit by digit,
    // and its own message was "expected `,` or `}`").
    let raw = r#"{"wide":2.5}"#;
    let want = "invalid arguments for `ints`: `wide`: invalid type: floating point `2.5`, expected an integer";
    all_say(raw, &every_path(&toolkit, raw).await, want, true);
}

// ---------------------------------------------------------------------------------------------
// Issue 24, point 6: whole-number floats where a hand-written schema says `integer`.

/// A `NativeTool` over a hand-written schema that echoes its arguments as it receives them.
fn native_echo() -> NativeTool {
    NativeTool::of(
        "echo",
        "Echoes its arguments",
        json!({
            "type": "object",
            "properties": {
                "a": {"type": "integer"},
                "ratio": {"type": "number"},
                "opt": {"type": ["integer", "null"]},
                "ids": {"type": "array", "items": {"type": "integer"}},
                "page": {"$ref": "#/$defs/Page"},
                "size": {"anyOf": [{"type": "integer"}, {"type": "string"}]},
                "raw": {},
            },
            "$defs": {"Page": {"type": "object", "properties": {"n": {"type": "INTEGER"}}}},
        }),
        |args| async move { args.to_string() },
    )
    .unwrap()
}

#[tokio::test]
async fn a_hand_written_integer_gets_an_integer_in_every_dialect() {
    let toolkit = Toolkit::new().with(native_echo()).unwrap();
    // As Gemini sends them: every number a double.
    let sent = r#"{"a":2.0,"ratio":2.0,"opt":3.0,"ids":[1.0,2.5,-4.0],"page":{"n":5.0,"m":5.0},"size":6.0,"raw":7.0}"#;
    let want =
        r#"{"a":2,"ratio":2.0,"opt":3,"ids":[1,2.5,-4],"page":{"n":5,"m":5.0},"size":6,"raw":7.0}"#;
    let mut seen = Vec::new();
    let r = toolkit.execute_json("echo", sent).await;
    seen.push(("execute_json".to_owned(), r.output, Some(r.is_error)));
    let r = toolkit
        .execute("echo", serde_json::from_str(sent).unwrap())
        .await;
    seen.push(("execute".to_owned(), r.output, Some(r.is_error)));
    let strict = RunOptions::default().with_openai_strict(true);
    for (fixture, options) in dialects::ALL
        .into_iter()
        .map(|f| (f, RunOptions::default()))
        .chain([(dialects::of(Dialect::OpenAiChat), strict)])
    {
        let dialect = fixture.dialect();
        let call = WireCall {
            id: Some("call_1".to_owned()),
            name: "echo".to_owned(),
            text: Some(sent.to_owned()),
            object: Some(sent.to_owned()),
        };
        let body = fixture.body(&[call]);
        let answers = round_trip(&toolkit, fixture, &body, &options)
            .await
            .unwrap();
        seen.push((
            format!("{dialect} {options:?}"),
            answers[0].text.clone(),
            answers[0].error,
        ));
    }
    all_say(sent, &seen, want, false);
    // What `args["a"].as_i64()` in the closure now reads.
    let value: Value = serde_json::from_str(&seen[0].1).unwrap();
    assert_eq!(value["a"].as_i64(), Some(2));
    assert_eq!(value["ids"][2].as_i64(), Some(-4));
}

/// A `#[tool]` parameter of type `serde_json::Value` keeps the number as sent when the arguments
/// decode as sent. When another parameter needs its whole-number float read as an integer, the
/// retry rewrites every whole-number float of the arguments, the `Value`'s too: the limit
/// `toolnexus/docs/errors.md` states (the `#[tool]` decoder does not consult the schema).
#[tokio::test]
async fn a_value_parameter_keeps_the_number_as_sent() {
    /// Echoes the value it was given.
    #[tool]
    fn keep(raw: Value, n: Option<i64>) -> String {
        format!("{raw} {n:?}")
    }
    let toolkit = Toolkit::new().with(Keep).unwrap();
    for (sent, want) in [
        (r#"{"raw":2.0}"#, "2.0 None"),
        (r#"{"raw":[2.0],"n":3}"#, "[2.0] Some(3)"),
        (r#"{"raw":2.5,"n":3.0}"#, "2.5 Some(3)"),
        (r#"{"raw":2.0,"n":3.0}"#, "2 Some(3)"),
    ] {
        assert_eq!(toolkit.execute_json("keep", sent).await.output, want);
        let value = serde_json::from_str(sent).unwrap();
        assert_eq!(toolkit.execute("keep", value).await.output, want);
    }
}
