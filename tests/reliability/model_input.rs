//! What a model sends, read under one rule (issue 16 points 1 and 3-7; issue 12 points 3-5): one
//! regression test per point, each of which failed on the `main` it was written against.
//!
//! | point | test |
//! |---|---|
//! | 16.1 strict-mode pruning is linear | `strict_mode_prunes_a_31_level_recursive_filter`, `strict_pruning_work_is_linear_in_the_arguments` |
//! | 16.3 / 12.4 one rule for stopped turns and unsupported calls | `a_turn_the_provider_stopped_runs_nothing_in_every_dialect`, `unsupported_call_types_are_answered_in_their_own_shape`, `a_stray_empty_error_field_does_not_refuse_a_response` |
//! | 12.5 OpenAI error results are marked | `openai_error_results_are_marked_once` |
//! | 16.4 echoed model input is cut | `error_texts_cut_every_echoed_piece_of_model_input` |
//! | 16.5 the size limit is measured as sent | `the_size_limit_is_measured_as_sent_on_every_path` (+ a property in `props`) |
//! | 16.6 / 12.3 numbers | `a_whole_number_float_reaches_an_integer_parameter_on_every_path`, `numbers_beyond_64_bits_follow_the_documented_rule` |
//! | 16.7 echoed names are neutralised | `unknown_tool_names_are_echoed_without_control_or_bidi_characters`, `gemini_never_echoes_a_huge_name_whole` |

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};
use toolnexus::{tool, Dialect, NativeTool, RunOptions, Tool, ToolResult, Toolkit};

use crate::common::dialects::Call;
use crate::fixtures::*;

// ---------------------------------------------------------------------------------------------
// Tools.

/// A recursive internally tagged filter, as search tools take them (`field` and `value` are only
/// decoded).
#[derive(Deserialize, JsonSchema)]
#[serde(tag = "op", rename_all = "snake_case")]
#[allow(dead_code)]
enum Filter {
    And { filters: Vec<Filter> },
    Or { filters: Vec<Filter> },
    Eq { field: String, value: String },
}

impl Filter {
    fn leaves(&self) -> usize {
        match self {
            Filter::And { filters } | Filter::Or { filters } => {
                filters.iter().map(Filter::leaves).sum()
            }
            Filter::Eq { .. } => 1,
        }
    }
}

/// Counts the filter's leaves.
#[tool]
fn search(
    /// What to match.
    filter: Filter,
    /// How many results at most.
    limit: Option<u32>,
) -> String {
    format!("{} leaves, limit {limit:?}", filter.leaves())
}

/// Adds two integers.
#[tool]
fn add(a: i64, b: i64) -> String {
    (a + b).to_string()
}

#[derive(Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum Shape {
    Square { side: u32 },
}

/// Integers in every position serde reaches them.
#[tool]
fn integers(bytes: Vec<u8>, maybe: Option<i32>, shape: Shape, ratio: f64) -> String {
    let Shape::Square { side } = shape;
    format!("{bytes:?} {maybe:?} {side} {ratio:?}")
}

/// The filter `{"op":"eq",...}` wrapped in `depth` `and`s.
fn nested_filter(depth: usize) -> Value {
    let mut filter = json!({"op": "eq", "field": "name", "value": "x"});
    for i in 0..depth {
        let op = if i % 2 == 0 { "and" } else { "or" };
        filter = json!({"op": op, "filters": [filter]});
    }
    filter
}

fn counter() -> (NativeTool, Arc<AtomicUsize>) {
    let runs = Arc::new(AtomicUsize::new(0));
    let seen = runs.clone();
    let tool = NativeTool::of(
        "count",
        "Counts the argument object's keys",
        json!({"type": "object", "properties": {}}),
        move |args| {
            seen.fetch_add(1, Ordering::SeqCst);
            async move { args.as_object().map_or(0, |m| m.len()).to_string() }
        },
    )
    .unwrap();
    (tool, runs)
}

fn toolkit() -> (Toolkit, Arc<AtomicUsize>) {
    let (count, runs) = counter();
    let fails =
        NativeTool::of(
            "fails",
            "Always fails with the message it is given",
            json!({"type": "object", "properties": {"message": {"type": "string"}}}),
            |args| async move {
                Err::<String, _>(args["message"].as_str().unwrap_or_default().to_owned())
            },
        )
        .unwrap();
    let toolkit = Toolkit::new()
        .with(Typed::new("get_weather", weather))
        .unwrap()
        .with(count)
        .unwrap()
        .with(fails)
        .unwrap()
        .with(Search)
        .unwrap()
        .with(Add)
        .unwrap()
        .with(Integers)
        .unwrap();
    (toolkit, runs)
}

const AVAILABLE: &str = "Available tools: get_weather, count, fails, search, add, integers";

/// Runs one call through `execute_json`, `execute` and every dialect's round trip (between two
/// healthy calls), and returns what each path answered: `(path, text, is_error)`, where the
/// OpenAI dialects' error flag is read from their error marking.
async fn every_path(
    toolkit: &Toolkit,
    name: &str,
    args: &Value,
    options: &RunOptions,
) -> Vec<(String, String, Option<bool>)> {
    let mut seen = Vec::new();
    let text = args.to_string();
    let r = toolkit.execute_json(name, &text).await;
    seen.push(("execute_json".to_owned(), r.output, Some(r.is_error)));
    let r = toolkit.execute(name, args.clone()).await;
    seen.push(("execute".to_owned(), r.output, Some(r.is_error)));
    for fixture in dialects::ALL {
        let dialect = fixture.dialect();
        let calls = [
            WireCall::json("call_1", "count", &json!({})),
            WireCall::json("call_2", name, args),
            WireCall::json("call_3", "count", &json!({"a": 1})),
        ];
        let answers = round_trip(toolkit, fixture, &fixture.body(&calls), options)
            .await
            .unwrap_or_else(|e| panic!("{dialect}: {e}"));
        assert_eq!(answers[0].text, "0", "{dialect}");
        assert_eq!(answers[2].text, "1", "{dialect}");
        let a = &answers[1];
        seen.push((format!("{dialect}"), a.text.clone(), a.error));
    }
    seen
}

/// Asserts that every path answered `want` with the error flag `error`.
fn all_say(seen: &[(String, String, Option<bool>)], want: &str, error: bool) {
    for (path, text, flag) in seen {
        let shown: String = text.chars().take(400).collect();
        assert!(
            text == want && *flag != Some(!error),
            "via {path}: expected {want:?} (error {error}), got {shown:?} (error {flag:?})"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// 16.1: strict-mode null pruning is linear in the arguments.

/// 31 levels of a recursive internally tagged enum (64 levels of JSON, the default limit) under
/// strict mode. Pruning used to take every flattened branch of every copy, doubling per level:
/// 20 levels took 2 s and 200 MB, 31 would take hours and hundreds of GB. This test used to
/// exhaust memory; now it answers at once, with the optional `null` turned back into "absent".
#[tokio::test]
async fn strict_mode_prunes_a_31_level_recursive_filter() {
    let (toolkit, _) = toolkit();
    let args = json!({"filter": nested_filter(31), "limit": null});
    let strict = RunOptions::default()
        .with_openai_strict(true)
        .with_timeout(std::time::Duration::from_secs(600));
    for fixture in dialects::ALL {
        let dialect = fixture.dialect();
        let calls = [WireCall::json("call_1", "search", &args)];
        let answers = round_trip(&toolkit, fixture, &fixture.body(&calls), &strict)
            .await
            .unwrap_or_else(|e| panic!("{dialect}: {e}"));
        assert_eq!(answers[0].text, "1 leaves, limit None", "{dialect}");
    }
    // One level more is beyond the 64-level limit, refused before any pruning.
    let deeper = json!({"filter": nested_filter(32)});
    let call = toolnexus::ToolCall::new(
        "c",
        "search",
        toolnexus::Arguments::Text(deeper.to_string()),
    );
    assert_eq!(
        toolkit.execute_call(&call, &strict).await,
        ToolResult::error(
            "invalid arguments for `search`: the arguments are nested deeper than 64 levels"
        )
    );
}

/// The pruning's work (schemas looked at, summed over the argument's nodes) grows linearly with
/// the arguments: at most one look per subschema of the tool's schema per node, whatever the
/// nesting. Counted, not timed.
#[test]
fn strict_pruning_work_is_linear_in_the_arguments() {
    let schema = Search.input_schema().clone();
    let subschemas = count_subschemas(schema.as_value());
    let mut per_node = Vec::new();
    for depth in [1, 2, 4, 8, 16, 31] {
        // The leaf's required `value` sent as null: strict mode's way of leaving it out.
        let text = json!({"filter": nested_filter(depth), "limit": null})
            .to_string()
            .replace(r#""value":"x""#, r#""value":null"#);
        let mut args: Value = serde_json::from_str(&text).unwrap();
        let nodes = count_nodes(&args);
        let work = toolnexus::__private::strict_prune_work(&schema, &mut args);
        assert!(
            !args.to_string().contains(r#""value":null"#),
            "the leaf's null became absent at depth {depth}"
        );
        assert_eq!(args["limit"], Value::Null, "an `Option`'s null is kept");
        assert!(
            work <= subschemas * count_containers(&args),
            "depth {depth}: {work} units for {nodes} nodes and {subschemas} subschemas"
        );
        per_node.push(work as f64 / nodes as f64);
    }
    // Not just bounded: the work per node does not grow with depth.
    let (first, last) = (per_node[0], per_node[per_node.len() - 1]);
    assert!(
        last <= first * 2.0,
        "work per node grew from {first} to {last}"
    );
}

fn count_containers(value: &Value) -> usize {
    match value {
        Value::Array(items) => 1 + items.iter().map(count_containers).sum::<usize>(),
        Value::Object(map) => 1 + map.values().map(count_containers).sum::<usize>(),
        _ => 0,
    }
}

fn count_nodes(value: &Value) -> usize {
    1 + match value {
        Value::Array(items) => items.iter().map(count_nodes).sum(),
        Value::Object(map) => map.values().map(count_nodes).sum(),
        _ => 0,
    }
}

/// Every object in a schema (each a subschema somewhere), `$defs` included.
fn count_subschemas(schema: &Value) -> usize {
    match schema {
        Value::Array(items) => items.iter().map(count_subschemas).sum(),
        Value::Object(map) => 1 + map.values().map(count_subschemas).sum::<usize>(),
        _ => 0,
    }
}

/// `cases` per property; the seeds of past failures are read from (and new ones written to)
/// `model_input.proptest-regressions` next to this file. (proptest's default would look for them in
/// `tests/proptest-regressions/`, beside the binary's `main.rs`.)
fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        failure_persistence: Some(Box::new(FileFailurePersistence::WithSource(
            "proptest-regressions",
        ))),
        ..ProptestConfig::default()
    }
}

/// A filter tree of any shape: `and`/`or` nodes of up to 3 filters, 31 levels at most, leaves
/// whose optional `value` may be `null`.
fn any_filter() -> impl Strategy<Value = Value> {
    let leaf = ("[a-z]{1,3}", proptest::option::of("[a-z]{0,3}")).prop_map(|(field, value)| {
        json!({"op": "eq", "field": field, "value": value.map_or(Value::Null, Value::from)})
    });
    leaf.prop_recursive(31, 256, 3, |inner| {
        (any::<bool>(), proptest::collection::vec(inner, 0..=3)).prop_map(
            |(and, filters)| json!({"op": if and { "and" } else { "or" }, "filters": filters}),
        )
    })
}

proptest! {
    #![proptest_config(config(200))]

    /// Whatever the shape, the work is at most one look at each subschema per object or array
    /// of the arguments (the old walk doubled it per level of nesting).
    #[test]
    fn strict_pruning_work_is_bounded_by_the_size_of_any_filter(filter in any_filter()) {
        let schema = Search.input_schema().clone();
        let subschemas = count_subschemas(schema.as_value());
        let mut args = json!({"filter": filter, "limit": null});
        let containers = count_containers(&args);
        let work = toolnexus::__private::strict_prune_work(&schema, &mut args);
        prop_assert!(
            work <= subschemas * containers,
            "{} units for {} containers and {} subschemas", work, containers, subschemas
        );
        prop_assert!(!args.to_string().contains(r#""value":null"#));
        prop_assert_eq!(&args["limit"], &Value::Null);
    }
}

// ---------------------------------------------------------------------------------------------
// 16.3 / 12.4: one rule for a turn the provider stopped, for an error object, and for call types
// this crate does not run.

/// A turn the provider stopped for safety (or for any reason other than finishing) runs none of
/// its calls in any dialect: `respond` and `model_turn` both give `ResponseError::Stopped`, so
/// the host drops the turn and no call is left without its result in the next request.
#[tokio::test]
async fn a_turn_the_provider_stopped_runs_nothing_in_every_dialect() {
    let (toolkit, runs) = toolkit();
    let call = [Call::new("call_1", "count", json!({}))];
    for fixture in dialects::ALL {
        let dialect = fixture.dialect();
        let mut response = fixture.response(&call);
        let reason = fixture.end(&mut response, Stop::Safety);
        let err = toolkit.respond(&response, dialect).await.unwrap_err();
        assert_eq!(
            err.to_string(),
            format!(
                "the {dialect} response was stopped by the provider; none of its tool calls \
                 were run ({reason})"
            ),
        );
        assert_eq!(dialect.model_turn(&response).unwrap_err(), err, "{dialect}");
    }
    for reason in [
        "RECITATION",
        "PROHIBITED_CONTENT",
        "BLOCKLIST",
        "SPII",
        "LANGUAGE",
        "IMAGE_SAFETY",
        "OTHER",
    ] {
        let response = json!({"candidates": [{"finishReason": reason, "content": {"role": "model",
            "parts": [{"functionCall": {"name": "count", "args": {}}}]}}]});
        let err = toolkit
            .respond(&response, Dialect::Gemini)
            .await
            .unwrap_err();
        assert!(
            err.to_string().starts_with("the Gemini generateContent response was stopped by the provider; none of its tool calls were run (`finishReason` is `"),
            "{reason}: {err}"
        );
    }
    // A prompt Gemini blocked has no candidate at all: the same rule.
    let blocked = json!({"promptFeedback": {"blockReason": "PROHIBITED_CONTENT"}});
    assert_eq!(
        Dialect::Gemini
            .parse_calls(&blocked)
            .unwrap_err()
            .to_string(),
        "the Gemini generateContent response was stopped by the provider; none of its tool calls \
         were run (the prompt was blocked: `blockReason` is `PROHIBITED_CONTENT`)"
    );
    assert_eq!(runs.load(Ordering::SeqCst), 0, "no stopped call ran");
}

/// security.md: a response the provider cut off, stopped for safety, or one that carries an
/// error runs none of its calls in every dialect, and is a `ResponseError` for the host. Each
/// ending is put on the same two-call response of every dialect; `respond` and
/// `model_turn` refuse it alike and the counting tool never runs.
#[tokio::test]
async fn a_response_cut_off_stopped_or_failed_runs_none_of_its_calls_in_any_dialect() {
    let (toolkit, runs) = toolkit();
    let calls = [
        WireCall::json("call_1", "count", &json!({})),
        WireCall::json("call_2", "count", &json!({"a": 1})),
    ];
    for fixture in dialects::ALL {
        let dialect = fixture.dialect();
        let whole = dialect.parse_body(&fixture.body(&calls)).unwrap();
        assert_eq!(dialect.parse_calls(&whole).unwrap().len(), 2, "{dialect}");
        for stop in [Stop::Length, Stop::Safety, Stop::Error] {
            let mut response = whole.clone();
            let said = fixture.end(&mut response, stop);
            let err = toolkit.respond(&response, dialect).await.unwrap_err();
            let (is, want) = match stop {
                Stop::Length => (
                    matches!(err, toolnexus::ResponseError::Truncated { .. }),
                    format!(
                        "the {dialect} response is incomplete ({said}); its tool calls may be \
                         cut off, so none were run"
                    ),
                ),
                Stop::Safety => (
                    matches!(err, toolnexus::ResponseError::Stopped { .. }),
                    format!(
                        "the {dialect} response was stopped by the provider; none of its tool \
                         calls were run ({said})"
                    ),
                ),
                Stop::Error => (
                    matches!(err, toolnexus::ResponseError::Provider { .. }),
                    format!("{dialect} returned an error instead of a response: {said}"),
                ),
            };
            assert!(is, "{dialect}, {stop:?}: {err:?}");
            assert_eq!(err.to_string(), want, "{dialect}, {stop:?}");
            assert_eq!(dialect.model_turn(&response).unwrap_err(), err, "{dialect}");
            let strict = RunOptions::default().with_openai_strict(true);
            assert!(toolkit
                .respond_with(&response, dialect, &strict)
                .await
                .is_err());
        }
    }
    assert_eq!(
        runs.load(Ordering::SeqCst),
        0,
        "no call of a refused response ran"
    );
}

/// A stop reason (or Responses' `status`) that is not a string is no reason to run the calls:
/// the response is malformed, naming the field, in every dialect, and nothing runs.
#[tokio::test]
async fn a_stop_reason_that_is_not_a_string_makes_the_response_malformed_in_every_dialect() {
    let (toolkit, runs) = toolkit();
    let calls = [WireCall::json("call_1", "count", &json!({}))];
    for fixture in dialects::ALL {
        let dialect = fixture.dialect();
        let path = fixture.stop_field();
        let whole = dialect.parse_body(&fixture.body(&calls)).unwrap();
        for odd in [
            json!(5),
            json!(true),
            json!(["length"]),
            json!({"r": "stop"}),
        ] {
            let mut response = whole.clone();
            fixture.set_stop(&mut response, odd.clone());
            let err = toolkit.respond(&response, dialect).await.unwrap_err();
            assert!(
                matches!(&err, toolnexus::ResponseError::Malformed { path: p, .. } if p == path),
                "{dialect}, {odd}: {err:?}"
            );
            assert_eq!(
                dialect.parse_calls(&response).unwrap_err(),
                err,
                "{dialect}"
            );
        }
        // `null` is no reason at all, as when the field is absent: the calls run.
        let mut response = whole.clone();
        fixture.set_stop(&mut response, Value::Null);
        let before = runs.load(Ordering::SeqCst);
        toolkit.respond(&response, dialect).await.unwrap();
        assert_eq!(runs.load(Ordering::SeqCst), before + 1, "{dialect}");
        runs.fetch_sub(1, Ordering::SeqCst);
    }
    assert_eq!(
        runs.load(Ordering::SeqCst),
        0,
        "no call of a malformed response ran"
    );
}

/// Every call that has an id is answered, also one of a type this crate does not run: an error
/// result naming the type, in the result shape of that call type, next to the function calls'
/// results, in call order.
#[tokio::test]
async fn unsupported_call_types_are_answered_in_their_own_shape() {
    let (toolkit, runs) = toolkit();
    let chat = json!({"choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
        "role": "assistant", "content": null, "tool_calls": [
            {"id": "call_1", "type": "function", "function": {"name": "count", "arguments": "{}"}},
            {"id": "call_2", "type": "custom", "custom": {"name": "sql", "input": "SELECT 1"}},
            {"id": "call_3", "type": "function", "function": {"name": "count", "arguments": "{\"a\":1}"}}]}}]});
    assert_eq!(
        toolkit
            .respond(&chat, Dialect::OpenAiChat)
            .await
            .unwrap()
            .result_messages,
        [
            json!({"role": "tool", "tool_call_id": "call_1", "content": "0"}),
            json!({"role": "tool", "tool_call_id": "call_2", "content":
                "Error: unsupported tool call type `custom`: `sql` was not run; only function tools run here"}),
            json!({"role": "tool", "tool_call_id": "call_3", "content": "1"}),
        ]
    );
    // The assistant message is repeated as sent, the custom call included.
    assert_eq!(
        Dialect::OpenAiChat.model_turn(&chat).unwrap()[0]["tool_calls"][1],
        chat["choices"][0]["message"]["tool_calls"][1]
    );
    let responses = json!({"object": "response", "status": "completed", "output": [
        {"type": "function_call", "call_id": "call_1", "name": "count", "arguments": "{}"},
        {"type": "custom_tool_call", "id": "ctc_1", "call_id": "call_2", "name": "sql", "input": "SELECT 1"},
        {"type": "web_search_call", "id": "ws_1", "status": "completed"}]});
    assert_eq!(
        toolkit
            .respond(&responses, Dialect::OpenAiResponses)
            .await
            .unwrap()
            .result_messages,
        [
            json!({"type": "function_call_output", "call_id": "call_1", "output": "0"}),
            json!({"type": "custom_tool_call_output", "call_id": "call_2", "output":
                "Error: unsupported tool call type `custom_tool_call`: `sql` was not run; only function tools run here"}),
        ]
    );
    assert_eq!(
        runs.load(Ordering::SeqCst),
        3,
        "the function calls ran, the custom ones did not"
    );
}

/// `"error": false`, `{}`, `null`, `""` beside a valid response carry no error: the response is
/// answered. An error with content still refuses it.
#[tokio::test]
async fn a_stray_empty_error_field_does_not_refuse_a_response() {
    let (toolkit, _) = toolkit();
    for fixture in dialects::ALL {
        let dialect = fixture.dialect();
        let body = fixture.body(&[WireCall::json("call_1", "count", &json!({"a": 1}))]);
        for stray in ["false", "{}", "null", "\"\"", "[]"] {
            let with = format!("{{\"error\":{stray},{}", &body[1..]);
            let answers = round_trip(&toolkit, fixture, &with, &RunOptions::default())
                .await
                .unwrap_or_else(|e| panic!("{dialect} with error {stray}: {e}"));
            assert_eq!(answers[0].text, "1", "{dialect} with error {stray}");
        }
        for real in [r#"{"message":"overloaded"}"#, r#""overloaded""#] {
            let with = format!("{{\"error\":{real},{}", &body[1..]);
            assert_eq!(
                round_trip(&toolkit, fixture, &with, &RunOptions::default()).await,
                Err(format!(
                    "{dialect} returned an error instead of a response: overloaded"
                )),
            );
        }
    }
}

// ---------------------------------------------------------------------------------------------
// 12.5: OpenAI has no error flag; error results are marked so the model tells them from output.

#[tokio::test]
async fn openai_error_results_are_marked_once() {
    let (toolkit, _) = toolkit();
    let cases = [
        (
            "weather service unavailable",
            "Error: weather service unavailable",
        ),
        ("Error: already marked", "Error: already marked"),
        ("error: lower case", "error: lower case"),
        ("ERROR: upper case", "ERROR: upper case"),
        ("Errors happen", "Error: Errors happen"),
    ];
    for (message, marked) in cases {
        let calls = [WireCall::json(
            "call_1",
            "fails",
            &json!({"message": message}),
        )];
        for fixture in dialects::ALL {
            let dialect = fixture.dialect();
            let response = dialect.parse_body(&fixture.body(&calls)).unwrap();
            let next = toolkit
                .respond(&response, dialect)
                .await
                .unwrap()
                .result_messages;
            let answer = &fixture.answers(&next)[0];
            // Only OpenAI marks the text: the others have an error flag or key.
            if fixture.marks_errors() {
                // The text as sent: the fixture reads a leading `Error: ` as the mark.
                let sent = match answer.error {
                    Some(true) => format!("Error: {}", answer.text),
                    _ => answer.text.clone(),
                };
                assert_eq!(sent, marked, "{dialect}");
            } else {
                assert_eq!(answer.text, message, "{dialect}");
                assert_eq!(answer.error, Some(true), "{dialect}");
            }
        }
    }
    // A successful output that happens to start with "Error" is not an error and is not marked.
    let ok = NativeTool::of(
        "echo",
        "Echo",
        json!({"type": "object", "properties": {}}),
        |_| async { "Error: this is the output" },
    )
    .unwrap();
    let toolkit = Toolkit::new().with(ok).unwrap();
    let calls = [WireCall::json("call_1", "echo", &json!({}))];
    let chat = Dialect::OpenAiChat
        .parse_body(&dialects::of(Dialect::OpenAiChat).body(&calls))
        .unwrap();
    assert_eq!(
        toolkit
            .respond(&chat, Dialect::OpenAiChat)
            .await
            .unwrap()
            .result_messages[0]["content"],
        "Error: this is the output"
    );
}

// ---------------------------------------------------------------------------------------------
// 16.4: every piece of model input echoed in an error text is cut.

#[tokio::test]
async fn error_texts_cut_every_echoed_piece_of_model_input() {
    let (toolkit, _) = toolkit();
    let key = "k".repeat(1_000_000);
    let cut = format!("{}…", "k".repeat(100));
    let seen = every_path(
        &toolkit,
        "get_weather",
        &json!({ key.clone(): 1 }),
        &RunOptions::default(),
    )
    .await;
    all_say(
        &seen,
        &format!(
            "invalid arguments for `get_weather`: `{cut}`: unknown field `{cut}`, expected one of `city`, `days`, `unit`"
        ),
        true,
    );
    let long = "x".repeat(1_000_000);
    let seen = every_path(
        &toolkit,
        "get_weather",
        &json!({"city": "Paris", "days": long}),
        &RunOptions::default(),
    )
    .await;
    all_say(
        &seen,
        &format!(
            "invalid arguments for `get_weather`: `days`: invalid type: string \"{}…\", expected u8",
            "x".repeat(100)
        ),
        true,
    );
    let seen = every_path(
        &toolkit,
        "get_weather",
        &json!({"city": "Paris", "days": 1, "unit": long}),
        &RunOptions::default(),
    )
    .await;
    all_say(
        &seen,
        &format!(
            "invalid arguments for `get_weather`: `unit`: unknown variant `{}…`, expected `celsius` or `fahrenheit`",
            "x".repeat(100)
        ),
        true,
    );
    // The same under strict mode, whose path reads the text into a value first.
    let strict = RunOptions::default().with_openai_strict(true);
    // Strict mode reads arguments sent as JSON text: the dialects that send text.
    for fixture in dialects::ALL.iter().filter(|f| f.sends_text()) {
        let dialect = fixture.dialect();
        let calls = [WireCall::json(
            "call_1",
            "get_weather",
            &json!({ key.clone(): 1 }),
        )];
        let answers = round_trip(&toolkit, *fixture, &fixture.body(&calls), &strict)
            .await
            .unwrap();
        assert!(
            answers[0].text.len() < 400,
            "{dialect}: {} bytes",
            answers[0].text.len()
        );
    }
}

/// security.md: keys and strings echoed back are cut to 100 characters. serde quotes an unknown
/// key or variant between backticks without escaping it, so a key holding a backtick ended its
/// piece early and the rest of it (here 800 KB) was echoed whole; found by this test.
#[tokio::test]
async fn a_key_or_variant_holding_backticks_is_cut_like_any_other() {
    let (toolkit, _) = toolkit();
    let long = "x".repeat(400_000);
    let key = format!("`{long}`, expected `{long}");
    let cut: String = key.chars().take(100).chain(['…']).collect();
    let seen = every_path(
        &toolkit,
        "get_weather",
        &json!({ key.clone(): 1 }),
        &RunOptions::default(),
    )
    .await;
    all_say(
        &seen,
        &format!(
            "invalid arguments for `get_weather`: `{cut}`: unknown field `{cut}`, expected one of `city`, `days`, `unit`"
        ),
        true,
    );
    for variant in [format!("`{long}"), format!("a`{long}`"), format!("{long}`")] {
        let cut: String = variant.chars().take(100).chain(['…']).collect();
        let seen = every_path(
            &toolkit,
            "get_weather",
            &json!({"city": "Paris", "days": 1, "unit": variant}),
            &RunOptions::default(),
        )
        .await;
        all_say(
            &seen,
            &format!(
                "invalid arguments for `get_weather`: `unit`: unknown variant `{cut}`, expected `celsius` or `fahrenheit`"
            ),
            true,
        );
    }
}

// ---------------------------------------------------------------------------------------------
// 16.5: the size limit counts a value's bytes as they would be sent, escapes included.

#[tokio::test]
async fn the_size_limit_is_measured_as_sent_on_every_path() {
    let (toolkit, runs) = toolkit();
    // 300,000 NULs: 300 KB in memory, 1.8 MB as JSON text (`\u0000` each).
    let args = json!({"s": "\u{0}".repeat(300_000)});
    let sent = args.to_string().len();
    assert_eq!(sent, 1_800_008);
    let seen = every_path(&toolkit, "count", &args, &RunOptions::default()).await;
    all_say(
        &seen,
        &format!(
            "invalid arguments for `count`: the arguments are larger than 1048576 bytes (at least {sent} bytes); send less data"
        ),
        true,
    );
    let strict = RunOptions::default().with_openai_strict(true);
    for fixture in dialects::ALL {
        let dialect = fixture.dialect();
        let calls = [WireCall::json("call_1", "count", &args)];
        let answers = round_trip(&toolkit, fixture, &fixture.body(&calls), &strict)
            .await
            .unwrap();
        assert!(
            answers[0].text.contains("larger than 1048576 bytes"),
            "{dialect}"
        );
    }
    assert_eq!(
        runs.load(Ordering::SeqCst),
        2 * dialects::ALL.len(),
        "only the healthy neighbours ran"
    );

    // At the limit exactly, every path takes it; one byte more, every path refuses it.
    let at_limit = json!({"k\"": "\"\\\u{1}é"});
    let max_bytes = at_limit.to_string().len();
    assert_eq!(max_bytes, 22);
    let over = json!({"k\"": "\"\\\u{1}é\n"});
    for (args, fits) in [(at_limit, true), (over, false)] {
        let (count, _) = counter();
        let small = Toolkit::new().with(count).unwrap().with_limits(
            toolnexus::Limits::default()
                .with_max_bytes(max_bytes)
                .with_max_depth(4),
        );
        let by_text = small.execute_json("count", &args.to_string()).await;
        let by_value = small.execute("count", args.clone()).await;
        assert_eq!(by_text, by_value, "{args}");
        assert_eq!(by_value.is_error, !fits, "{args}: {}", by_value.output);
    }
}

proptest! {
    #![proptest_config(config(300))]

    /// Any keys and strings (control characters, quotes, backslashes, any Unicode), any limit
    /// around their size: a value and the same arguments as text are taken or refused alike.
    #[test]
    fn a_value_meets_the_size_limit_exactly_as_its_text_does(
        entries in proptest::collection::vec(("\\PC{0,6}|[\"\\\\\u{0}-\u{1f}\u{7f}]{0,6}", "\\PC{0,12}|[\"\\\\\u{0}-\u{1f}é]{0,12}"), 0..5),
        slack in -3i64..3,
    ) {
        let args = Value::Object(entries.into_iter().map(|(k, v)| (k, Value::from(v))).collect());
        let text = args.to_string();
        let max_bytes = usize::try_from(text.len() as i64 + slack).unwrap_or(0);
        let (count, _) = counter();
        let small = Toolkit::new()
            .with(count)
            .unwrap()
            .with_limits(toolnexus::Limits::default().with_max_bytes(max_bytes).with_max_depth(4));
        let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
        let (by_text, by_value) = runtime.block_on(async {
            (small.execute_json("count", &text).await, small.execute("count", args.clone()).await)
        });
        prop_assert_eq!(by_value.is_error, text.len() > max_bytes);
        prop_assert_eq!(by_text.is_error, by_value.is_error);
        if by_value.is_error {
            // The size each one names is what it counted before it stopped ("at least").
            let refused = format!("invalid arguments for `count`: the arguments are larger than {max_bytes} bytes (at least ");
            prop_assert!(by_text.output.starts_with(&refused), "{}", by_text.output);
            prop_assert!(by_value.output.starts_with(&refused), "{}", by_value.output);
        } else {
            prop_assert_eq!(by_text, by_value);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// 16.6 / 12.3: numbers.

/// Gemini's `args` is a protobuf Struct, whose numbers are doubles: `2.0` for an `i64` must be
/// 2. The same holds on every path (harmless: a whole-number float is that integer); `2.5`,
/// and a whole number beyond the integer's range, are still refused.
#[tokio::test]
async fn a_whole_number_float_reaches_an_integer_parameter_on_every_path() {
    let (toolkit, _) = toolkit();
    let no = RunOptions::default();
    all_say(
        &every_path(&toolkit, "add", &json!({"a": 2.0, "b": 3.0}), &no).await,
        "5",
        false,
    );
    all_say(
        &every_path(&toolkit, "add", &json!({"a": -2.0, "b": 3}), &no).await,
        "1",
        false,
    );
    all_say(
        &every_path(&toolkit, "add", &json!({"a": 2.5, "b": 3.0}), &no).await,
        "invalid arguments for `add`: `a`: invalid type: floating point `2.5`, expected i64",
        true,
    );
    all_say(
        &every_path(&toolkit, "add", &json!({"a": 1e19, "b": 3.0}), &no).await,
        "invalid arguments for `add`: `a`: invalid value: integer `10000000000000000000`, expected i64",
        true,
    );
    let args = json!({"bytes": [1.0, 255.0], "maybe": 7.0, "shape": {"kind": "square", "side": 4.0}, "ratio": 2.0});
    all_say(
        &every_path(&toolkit, "integers", &args, &no).await,
        "[1, 255] Some(7) 4 2.0",
        false,
    );
    let args = json!({"bytes": [256.0], "maybe": null, "shape": {"kind": "square", "side": 1}, "ratio": 1});
    all_say(
        &every_path(&toolkit, "integers", &args, &no).await,
        "invalid arguments for `integers`: `bytes[0]`: invalid value: integer `256`, expected u8",
        true,
    );
}

/// Numbers beyond 64-bit integers and f64 follow serde_json's rule, as `docs/errors.md` states: an
/// integer beyond i64/u64 and any number with a fraction or exponent is the nearest f64; a
/// number beyond f64's range is refused; a tool that needs more digits takes a string.
#[tokio::test]
async fn numbers_beyond_64_bits_follow_the_documented_rule() {
    let (toolkit, _) = toolkit();
    let echo = NativeTool::of(
        "echo",
        "Echo",
        json!({"type": "object", "properties": {"n": {"type": "number"}}}),
        |args| async move { args["n"].to_string() },
    )
    .unwrap();
    let toolkit = toolkit.clone().with(echo).unwrap();
    for (text, seen) in [
        ("123456789012345678901234567890", "1.2345678901234568e+29"),
        ("18446744073709551615", "18446744073709551615"),
        ("-9223372036854775808", "-9223372036854775808"),
        ("1e-400", "0.0"),
        ("0.1", "0.1"),
    ] {
        let result = toolkit
            .execute_json("echo", &format!("{{\"n\":{text}}}"))
            .await;
        assert_eq!(result, ToolResult::ok(seen), "{text}");
    }
    let result = toolkit.execute_json("echo", r#"{"n":1e400}"#).await;
    assert!(result.is_error);
    assert!(
        result.output.contains("number out of range"),
        "{}",
        result.output
    );
}

// ---------------------------------------------------------------------------------------------
// 16.7: echoed names.

#[tokio::test]
async fn unknown_tool_names_are_echoed_without_control_or_bidi_characters() {
    let (toolkit, _) = toolkit();
    let name = "\u{1b}[31mred\u{202e}txt.exe\u{0}\n\u{2066}x\u{7f}";
    let shown = r"\u{1b}[31mred\u{202e}txt.exe\0\n\u{2066}x\u{7f}";
    let seen = every_path(&toolkit, name, &json!({}), &RunOptions::default()).await;
    all_say(&seen, &format!("Unknown tool: {shown}. {AVAILABLE}"), true);
    for (_, text, _) in &seen {
        assert!(
            !text
                .chars()
                .any(|c| c.is_control() || ('\u{202a}'..='\u{202e}').contains(&c)),
            "{text:?}"
        );
    }
    // A duplicate id and a timed-out name are neutralised the same way.
    let id = "id\u{1b}[2J";
    for fixture in dialects::ALL {
        let dialect = fixture.dialect();
        let calls = [
            WireCall::json(id, "count", &json!({})),
            WireCall::json(id, "count", &json!({})),
        ];
        let answers = round_trip(
            &toolkit,
            fixture,
            &fixture.body(&calls),
            &RunOptions::default(),
        )
        .await
        .unwrap();
        assert_eq!(
            answers[1].text,
            r"duplicate call id `id\u{1b}[2J`: an earlier call in this turn has it; this call was not run",
            "{dialect}"
        );
    }
}

/// security.md: invisible marks in echoed names, keys and strings are written as escapes. One
/// character of each invisible range Unicode defines (`Default_Ignorable_Code_Point`: the soft
/// hyphen, Hangul fillers, zero-width joiners, variation selectors, tag characters, ...) with
/// which text can be hidden in, or smuggled through, an error text; the soft hyphen, Hangul
/// fillers, joiners and variation selectors were echoed as they were.
#[tokio::test]
async fn invisible_marks_in_echoed_names_keys_and_strings_are_written_as_escapes() {
    let (toolkit, _) = toolkit();
    let marks = [
        '\u{ad}',
        '\u{34f}',
        '\u{61c}',
        '\u{115f}',
        '\u{1160}',
        '\u{17b4}',
        '\u{180b}',
        '\u{180e}',
        '\u{200b}',
        '\u{200c}',
        '\u{200d}',
        '\u{200e}',
        '\u{2028}',
        '\u{202e}',
        '\u{2060}',
        '\u{2065}',
        '\u{2066}',
        '\u{206f}',
        '\u{3164}',
        '\u{fe00}',
        '\u{fe0f}',
        '\u{feff}',
        '\u{ffa0}',
        '\u{fff0}',
        '\u{fff9}',
        '\u{1bca0}',
        '\u{1d173}',
        '\u{e0001}',
        '\u{e0041}',
        '\u{e0100}',
        '\u{e0fff}',
    ];
    let hidden: String = marks.iter().flat_map(|m| [*m, 'x']).collect();
    let shown: String = marks
        .iter()
        .flat_map(|m| [m.escape_unicode().to_string(), "x".to_owned()])
        .collect();
    let no_mark = |text: &str| !text.chars().any(|c| marks.contains(&c));
    let seen = every_path(&toolkit, &hidden, &json!({}), &RunOptions::default()).await;
    all_say(&seen, &format!("Unknown tool: {shown}. {AVAILABLE}"), true);
    let seen = every_path(
        &toolkit,
        "get_weather",
        &json!({ hidden.clone(): 1 }),
        &RunOptions::default(),
    )
    .await;
    all_say(
        &seen,
        &format!(
            "invalid arguments for `get_weather`: `{shown}`: unknown field `{shown}`, expected one of `city`, `days`, `unit`"
        ),
        true,
    );
    let seen = every_path(
        &toolkit,
        "get_weather",
        &json!({"city": "Paris", "days": 1, "unit": hidden}),
        &RunOptions::default(),
    )
    .await;
    all_say(
        &seen,
        &format!(
            "invalid arguments for `get_weather`: `unit`: unknown variant `{shown}`, expected `celsius` or `fahrenheit`"
        ),
        true,
    );
    for (_, text, _) in &seen {
        assert!(no_mark(text), "{text:?}");
    }
}

/// Gemini pairs a `functionResponse` with its `functionCall` by name: the name must be the
/// call's, yet a 41 KB name must not be echoed whole. A name no tool can have (Gemini's rule:
/// at most 64 characters of `[A-Za-z0-9_.:-]`) is replaced by the same short, safe name in the
/// repeated model turn and in the response, so the two still match.
#[tokio::test]
async fn gemini_never_echoes_a_huge_name_whole() {
    let (toolkit, _) = toolkit();
    for name in ["n".repeat(41_000), "bad name\u{202e}".to_owned()] {
        let calls = [
            WireCall::json("call_1", &name, &json!({})),
            WireCall::json("call_2", "count", &json!({})),
        ];
        let body = dialects::of(Dialect::Gemini).body(&calls);
        let response = Dialect::Gemini.parse_body(&body).unwrap();
        let next = toolkit
            .respond(&response, Dialect::Gemini)
            .await
            .unwrap()
            .result_messages;
        let turn = Dialect::Gemini.model_turn(&response).unwrap();
        let answered = next[0]["parts"][0]["functionResponse"]["name"]
            .as_str()
            .unwrap();
        let called = turn[0]["parts"][0]["functionCall"]["name"]
            .as_str()
            .unwrap();
        assert_eq!(answered, called);
        assert!(answered.len() <= 64, "{} bytes", answered.len());
        assert!(
            answered
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "_.:-".contains(c)),
            "{answered}"
        );
        // A name the toolkit has is never touched.
        assert_eq!(next[0]["parts"][1]["functionResponse"]["name"], "count");
        assert_eq!(turn[0]["parts"][1]["functionCall"]["name"], "count");
    }
}

// ---------------------------------------------------------------------------------------------
// Found by the `arguments` fuzz target (issue 16, acceptance 5).

/// Malformed argument text with a backslash before a multi-byte character: reading the field
/// path for the error message sliced the text inside that character and panicked. Now it is an
/// error result like any malformed text, on every path.
#[tokio::test]
async fn a_backslash_before_a_multibyte_character_in_malformed_text_is_an_error_result() {
    let (toolkit, _) = toolkit();
    for text in [
        "{\"sqtysqty),\\\u{742}vvvvvvvvv2vvvvvvvvvvvvvvvvvvv{(}},\\\"}}",
        "{\"a\\\u{e9}",
        "{\"city\":\"x\",\"days\\\u{20ac}:1}",
    ] {
        let refused = toolnexus::__private::decode_str::<WeatherArgs>("get_weather", text)
            .err()
            .unwrap_or_else(|| panic!("{text:?} decoded"));
        assert!(refused.is_error, "{text:?}");
        assert!(
            refused
                .output
                .starts_with("invalid arguments for `get_weather`: "),
            "{text:?}: {}",
            refused.output
        );
        let result = toolkit.execute_json("get_weather", text).await;
        assert_eq!(result, refused, "{text:?}");
    }
}
