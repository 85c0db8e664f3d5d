//! Fault injection (issue 6, point 3; SPEC §5): one turn of 8 calls where one tool panics, one
//! never finishes, one returns `Err` and one is unknown, next to four healthy calls. Every call
//! gets exactly one result in call order, the healthy four are right, and the turn ends when the
//! timeout fires. Time is Tokio's paused clock: the assertions are on the virtual clock, so they
//! hold however slow this machine is.

use std::time::Duration;

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};
use toolnexus::{Arguments, Dialect, NativeTool, RunOptions, ToolCall, ToolResult, Toolkit};

use crate::fixtures::*;

const TIMEOUT: Duration = Duration::from_secs(5);
/// How far past the timeout the turn may end: the timer's own granularity, nothing more.
const EPSILON: Duration = Duration::from_millis(1);

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct WeatherArgs {
    city: String,
}

fn toolkit() -> Toolkit {
    let schema = || json!({"type": "object", "properties": {}});
    let boom = NativeTool::of("boom", "Panics", schema(), |_| async move {
        if true {
            panic!("secret internals: api key sk-live-123");
        }
        String::new()
    })
    .unwrap();
    let hang = NativeTool::of("hang", "Never finishes", schema(), |_| {
        std::future::pending::<String>()
    })
    .unwrap();
    let fail = NativeTool::of("fail", "Always fails", schema(), |_| async move {
        Err::<String, _>("database unavailable: retry later")
    })
    .unwrap();
    let add = NativeTool::of(
        "add",
        "Adds after a second",
        json!({"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}}}),
        |args| async move {
            // Healthy but slow: the calls run concurrently, so this hides inside the timeout.
            tokio::time::sleep(Duration::from_secs(1)).await;
            (args["a"].as_i64().unwrap_or(0) + args["b"].as_i64().unwrap_or(0)).to_string()
        },
    )
    .unwrap();
    let echo = NativeTool::of("echo", "Echoes", schema(), |args| async move {
        args.to_string()
    })
    .unwrap();
    Toolkit::new()
        .with(boom)
        .unwrap()
        .with(hang)
        .unwrap()
        .with(fail)
        .unwrap()
        .with(add)
        .unwrap()
        .with(echo)
        .unwrap()
        .with(Typed::new("get_weather", |a: WeatherArgs| {
            ToolResult::ok(format!("{}: 18°C", a.city))
        }))
        .unwrap()
}

/// The turn: (id, tool, arguments) in call order.
fn turn() -> Vec<(&'static str, &'static str, Value)> {
    vec![
        ("call_1", "add", json!({"a": 2, "b": 3})),
        ("call_2", "boom", json!({})),
        ("call_3", "get_weather", json!({"city": "Paris"})),
        ("call_4", "hang", json!({})),
        ("call_5", "fail", json!({})),
        ("call_6", "echo", json!({"x": [1, null]})),
        ("call_7", "ghost", json!({"q": 1})),
        ("call_8", "add", json!({"a": 40, "b": 2})),
    ]
}

const PANICKED: &str = "tool `boom` panicked; it could not complete this call";
const UNKNOWN: &str =
    "Unknown tool: ghost. Available tools: boom, hang, fail, add, echo, get_weather";

/// The 8 expected (text, is_error) pairs, in call order.
fn expected() -> Vec<(String, bool)> {
    vec![
        ("5".into(), false),
        (PANICKED.into(), true),
        ("Paris: 18°C".into(), false),
        ("tool `hang` timed out after 5s".into(), true),
        ("database unavailable: retry later".into(), true),
        (r#"{"x":[1,null]}"#.into(), false),
        (UNKNOWN.into(), true),
        ("42".into(), false),
    ]
}

fn options() -> RunOptions {
    RunOptions::default().with_timeout(TIMEOUT)
}

fn assert_bounded(start: tokio::time::Instant) {
    let elapsed = start.elapsed();
    assert!(
        elapsed >= TIMEOUT && elapsed <= TIMEOUT + EPSILON,
        "the turn took {elapsed:?} on the virtual clock; the timeout is {TIMEOUT:?}"
    );
}

#[tokio::test(start_paused = true)]
async fn eight_calls_via_execute_calls_get_eight_results_in_order_within_the_timeout() {
    let toolkit = toolkit();
    for text in [false, true] {
        let calls: Vec<ToolCall> = turn()
            .into_iter()
            .map(|(id, name, args)| {
                let args = if text {
                    Arguments::Text(args.to_string())
                } else {
                    Arguments::Value(args)
                };
                ToolCall::new(id, name, args)
            })
            .collect();
        let start = tokio::time::Instant::now();
        let results = toolkit.execute_calls(&calls, &options()).await;
        assert_bounded(start);
        let got: Vec<(String, bool)> = results
            .iter()
            .map(|r| (r.output.clone(), r.is_error))
            .collect();
        assert_eq!(got, expected(), "arguments as text: {text}");
        // The panic's payload is for the host only.
        assert_eq!(
            results[1].metadata.as_deref(),
            Some(&json!({"panic": "secret internals: api key sk-live-123"}))
        );
        assert!(results
            .iter()
            .enumerate()
            .all(|(i, r)| i == 1 || r.metadata.is_none()));
    }
}

#[tokio::test(start_paused = true)]
async fn eight_calls_in_one_response_of_each_dialect_get_eight_answers_in_order() {
    let toolkit = toolkit();
    for fixture in dialects::ALL {
        let dialect = fixture.dialect();
        let calls: Vec<WireCall> = turn()
            .iter()
            .map(|(id, name, args)| WireCall::json(id, name, args))
            .collect();
        let body = fixture.body(&calls);
        let start = tokio::time::Instant::now();
        let answers = round_trip(&toolkit, fixture, &body, &options())
            .await
            .unwrap_or_else(|e| panic!("{dialect}: {e}"));
        assert_bounded(start);
        let want: Vec<Answer> = turn()
            .iter()
            .zip(expected())
            .map(|((id, _, _), (text, error))| Answer {
                id: Some((*id).to_owned()),
                text,
                error: Some(error),
            })
            .collect();
        assert_eq!(answers, want, "{dialect}");

        // Nothing the model reads holds the panic payload.
        let rendered = toolkit
            .respond_with(&dialect.parse_body(&body).unwrap(), dialect, &options())
            .await
            .unwrap()
            .result_messages;
        let text = Value::Array(rendered).to_string();
        assert!(!text.contains("sk-live"), "{dialect}: {text}");
    }
}

#[tokio::test(start_paused = true)]
async fn the_openai_chat_turn_renders_exactly_these_messages() {
    let toolkit = toolkit();
    let calls: Vec<WireCall> = turn()
        .iter()
        .map(|(id, name, args)| WireCall::json(id, name, args))
        .collect();
    let response = Dialect::OpenAiChat
        .parse_body(&dialects::of(Dialect::OpenAiChat).body(&calls))
        .unwrap();
    let start = tokio::time::Instant::now();
    let messages = toolkit
        .respond_with(&response, Dialect::OpenAiChat, &options())
        .await
        .unwrap()
        .result_messages;
    assert_bounded(start);
    let want: Vec<Value> = turn()
        .iter()
        .zip(expected())
        .map(|((id, _, _), (text, error))| {
            // No error flag in Chat Completions: an error's text is marked `Error: `.
            let text = if error {
                format!("Error: {text}")
            } else {
                text
            };
            json!({"role": "tool", "tool_call_id": id, "content": text})
        })
        .collect();
    assert_eq!(messages, want);
}

#[tokio::test(start_paused = true)]
async fn a_sequential_turn_is_bounded_by_the_timeout_plus_the_healthy_calls() {
    // With one call at a time, the hang still costs only the timeout.
    let toolkit = toolkit();
    let calls: Vec<ToolCall> = turn()
        .into_iter()
        .map(|(id, name, args)| ToolCall::new(id, name, Arguments::Value(args)))
        .collect();
    let start = tokio::time::Instant::now();
    let results = toolkit
        .execute_calls(&calls, &options().with_concurrency(1))
        .await;
    let elapsed = start.elapsed();
    let bound = TIMEOUT + Duration::from_secs(2); // two `add` calls of a second each
    assert!(
        elapsed >= bound && elapsed <= bound + EPSILON,
        "{elapsed:?}"
    );
    let got: Vec<(String, bool)> = results
        .iter()
        .map(|r| (r.output.clone(), r.is_error))
        .collect();
    assert_eq!(got, expected());
}

#[tokio::test(start_paused = true)]
async fn without_a_timeout_a_tool_that_never_finishes_holds_the_turn() {
    // What is NOT protected: the timeout only applies when configured. An hour of virtual time
    // passes and the turn has not answered.
    let toolkit = toolkit();
    let calls = [
        ToolCall::new("call_1", "echo", Arguments::Absent),
        ToolCall::new("call_2", "hang", Arguments::Absent),
    ];
    let options = RunOptions::default();
    let turn = toolkit.execute_calls(&calls, &options);
    assert!(tokio::time::timeout(Duration::from_secs(3600), turn)
        .await
        .is_err());
}

#[test]
fn a_panicking_tool_on_a_multithreaded_runtime_does_not_take_the_turn_down() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_time()
        .build()
        .unwrap();
    let results = runtime.block_on(async {
        let toolkit = toolkit();
        let calls: Vec<ToolCall> = (0..16)
            .map(|i| {
                let name = if i % 2 == 0 { "boom" } else { "echo" };
                ToolCall::new(format!("call_{i}"), name, Arguments::Absent)
            })
            .collect();
        tokio::spawn(async move { toolkit.execute_calls(&calls, &RunOptions::default()).await })
            .await
            .expect("the turn's task does not panic")
    });
    let outputs: Vec<&str> = results.iter().map(|r| r.output.as_str()).collect();
    let want: Vec<&str> = (0..16)
        .map(|i| if i % 2 == 0 { PANICKED } else { "{}" })
        .collect();
    assert_eq!(outputs, want);
}

#[tokio::test]
async fn empty_failures_and_odd_panics_still_give_the_model_a_readable_error() {
    let schema = || json!({"type": "object", "properties": {}});
    let toolkit = Toolkit::new()
        .with(
            NativeTool::of("empty_err", "Fails silently", schema(), |_| async move {
                Err::<String, _>("")
            })
            .unwrap(),
        )
        .unwrap()
        .with(
            NativeTool::of(
                "blank_error",
                "Blank error result",
                schema(),
                |_| async move { ToolResult::error("  \n") },
            )
            .unwrap(),
        )
        .unwrap()
        .with(
            NativeTool::of(
                "odd_panic",
                "Panics with a number",
                schema(),
                |_| async move {
                    if true {
                        std::panic::panic_any(42_u32);
                    }
                    String::new()
                },
            )
            .unwrap(),
        )
        .unwrap();
    let calls: Vec<WireCall> = ["empty_err", "blank_error", "odd_panic"]
        .iter()
        .enumerate()
        .map(|(i, name)| WireCall::json(&format!("call_{i}"), name, &json!({})))
        .collect();
    for fixture in dialects::ALL {
        let dialect = fixture.dialect();
        let answers = round_trip(
            &toolkit,
            fixture,
            &fixture.body(&calls),
            &RunOptions::default(),
        )
        .await
        .unwrap();
        let texts: Vec<_> = answers.iter().map(|a| a.text.as_str()).collect();
        assert_eq!(
            texts,
            [
                "the tool failed without a message",
                "the tool failed without a message",
                "tool `odd_panic` panicked; it could not complete this call",
            ],
            "{dialect}"
        );
        // An error flag, or OpenAI's `Error: ` mark (which the fixture reads as the flag).
        assert!(answers.iter().all(|a| a.error == Some(true)), "{dialect}");
    }
    let result = toolkit.execute("odd_panic", json!({})).await;
    assert_eq!(
        result.metadata.as_deref(),
        Some(&json!({"panic": "a non-string panic payload"}))
    );
}
