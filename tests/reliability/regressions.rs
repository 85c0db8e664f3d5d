//! Regression tests for what the reliability suite found in the library (issue 6).

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};
use toolnexus::__private::{decode_str, decode_value};
use toolnexus::ToolResult;

#[derive(Debug, Deserialize, JsonSchema, PartialEq)]
#[serde(rename_all = "lowercase")]
enum Unit {
    Celsius,
}

#[derive(Debug, Deserialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
struct Args {
    #[serde(default)]
    unit: Option<Unit>,
    #[serde(default)]
    ratio: f64,
}

/// Found by `props::any_json_as_arguments_yields_one_result_on_every_path`:
/// serde_json reports a boolean where an enum goes as a syntax error ("expected value"), so valid
/// JSON text was answered with "the arguments are not valid JSON". Now the text path says what
/// the value path says.
#[test]
fn a_wrong_type_in_valid_json_text_is_not_called_invalid_json() {
    let want = ToolResult::error(
        "invalid arguments for `t`: `unit`: invalid type: boolean `false`, expected string or map",
    );
    assert_eq!(
        decode_str::<Args>("t", r#"{"unit":false}"#).unwrap_err(),
        want
    );
    assert_eq!(
        decode_value::<Args>("t", json!({"unit": false})).unwrap_err(),
        want
    );
    assert_eq!(
        decode_str::<Args>("t", r#"{"unit":[1]}"#).unwrap_err(),
        ToolResult::error(
            "invalid arguments for `t`: `unit`: invalid type: sequence, expected string or map"
        )
    );
    // Text that really is broken still says so, with the position of the real problem (not of
    // the type mismatch before it).
    assert_eq!(
        decode_str::<Args>("t", r#"{"unit":false, oops}"#).unwrap_err(),
        ToolResult::error(
            "invalid arguments for `t`: the arguments are not valid JSON (key must be a string at line 1 column 16); send one JSON object"
        )
    );
    assert_eq!(
        decode_str::<Args>("t", r#"{"unit":"celsius""#).unwrap_err(),
        ToolResult::error(
            "invalid arguments for `t`: the arguments are not valid JSON (EOF while parsing an object at line 1 column 17); send one JSON object"
        )
    );
    assert_eq!(
        decode_str::<Args>("t", r#"{"unit":"celsius"}"#),
        Ok(Args {
            unit: Some(Unit::Celsius),
            ratio: 0.0
        })
    );
}

/// Found by `props` (vecs, tuples, maps, ...): without serde_json's
/// `float_roundtrip`, a number could reach the tool one ulp away from what the model sent.
#[test]
fn a_float_reaches_the_tool_exactly_as_sent() {
    for (text, exact) in [
        ("2.188760544288758e+53", 2.188760544288758e53_f64),
        ("-7.482113685667082e-153", -7.482113685667082e-153),
        ("1.1285561133493705e-302", 1.1285561133493705e-302),
        ("-2.010641356242543e-308", -2.010641356242543e-308),
    ] {
        let args = format!(r#"{{"ratio":{text}}}"#);
        assert_eq!(
            decode_str::<Args>("t", &args).unwrap().ratio,
            exact,
            "{text}"
        );
        let value: Value = serde_json::from_str(&args).unwrap();
        assert_eq!(value["ratio"].as_f64(), Some(exact), "{text}");
        assert_eq!(serde_json::to_string(&exact).unwrap(), text);
    }
}

struct PanicsOnDrop;

impl Drop for PanicsOnDrop {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            panic!("clean-up failed: lock poisoned");
        }
    }
}

/// Found while writing `faults`: when the timeout cut a call off, its future was
/// dropped outside the panic guard, so a tool whose clean-up panics (a guard's `Drop`) took the
/// whole turn down. Now that call is answered "timed out", the payload in metadata, and the
/// other calls are answered as usual.
#[tokio::test(start_paused = true)]
async fn a_panic_while_a_timed_out_call_is_dropped_is_caught() {
    use std::time::Duration;
    use toolnexus::{Arguments, NativeTool, RunOptions, ToolCall, Toolkit};

    let stuck = NativeTool::of(
        "stuck",
        "Holds a guard and never finishes",
        json!({"type": "object", "properties": {}}),
        |_| async move {
            let _guard = PanicsOnDrop;
            std::future::pending::<String>().await
        },
    )
    .unwrap();
    let fine = NativeTool::of(
        "fine",
        "Answers",
        json!({"type": "object", "properties": {}}),
        |_| async move { "ok" },
    )
    .unwrap();
    let toolkit = Toolkit::new().with(stuck).unwrap().with(fine).unwrap();
    let calls = [
        ToolCall::new("a", "stuck", Arguments::Absent),
        ToolCall::new("b", "fine", Arguments::Absent),
        ToolCall::new("c", "stuck", Arguments::Absent),
    ];
    let options = RunOptions::default().with_timeout(Duration::from_secs(2));
    let results = toolkit.execute_calls(&calls, &options).await;
    let timed_out = ToolResult::error("tool `stuck` timed out after 2s")
        .with_metadata(json!({"panic": "clean-up failed: lock poisoned"}));
    assert_eq!(
        results,
        [timed_out.clone(), ToolResult::ok("ok"), timed_out]
    );
}

/// Found reading the strict-mode path for `catalog`: arguments sent as a value (as
/// some OpenAI-compatible servers do) were copied and pruned of nulls before the limits were
/// checked, so a value over the limit could pass once pruned, while the same arguments as text
/// were refused. Both are now measured as sent.
#[tokio::test]
async fn under_strict_mode_a_value_is_measured_as_sent_like_text() {
    use toolnexus::{Arguments, Limits, NativeTool, RunOptions, ToolCall, Toolkit};

    let tool = NativeTool::of(
        "t",
        "d",
        json!({"type": "object", "properties": {"a": {"type": "integer"}}}),
        |args| async move { args.to_string() },
    )
    .unwrap();
    let toolkit = Toolkit::new()
        .with(tool)
        .unwrap()
        .with_limits(Limits::default().with_max_bytes(10).with_max_depth(8));
    let options = RunOptions::default().with_openai_strict(true);
    let args = json!({"a": null, "b": 1}); // 16 bytes as sent, 7 once `a` is pruned
                                           // (A value is measured until it is known to be too large, so its count may stop early.)
    let refused = |at_least: usize| {
        ToolResult::error(format!(
            "invalid arguments for `t`: the arguments are larger than 10 bytes (at least {at_least} bytes); send less data"
        ))
    };
    let cases = [
        (Arguments::Text(args.to_string()), refused(16)),
        (Arguments::Value(args), refused(11)),
    ];
    for (arguments, want) in cases {
        let call = ToolCall::new("c", "t", arguments);
        assert_eq!(toolkit.execute_call(&call, &options).await, want);
    }
    // Within the limit, the null the schema forbids still becomes "absent".
    let call = ToolCall::new("c", "t", Arguments::Value(json!({"a": null})));
    assert_eq!(
        toolkit.execute_call(&call, &options).await,
        ToolResult::ok("{}")
    );
}
