//! Toolkit, NativeTool and ToolResult behaviour, and the exact error for every bad input a
//! caller or a model can give them (issue 2; SPEC §1 to §3).

use std::fmt;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use serde_json::{json, Value};
use toolnexus::name::sanitize;
use toolnexus::{
    Error, InputSchema, Json, NativeTool, SchemaError, Tool, ToolResult, ToolSource, Toolkit,
};

fn object() -> Value {
    json!({"type": "object", "properties": {}})
}

fn echo(name: &str) -> NativeTool {
    NativeTool::of(name, "Echo the arguments", object(), |a| async move {
        a.to_string()
    })
    .unwrap()
}

#[test]
fn invalid_names_are_refused_with_the_reason() {
    let cases = [
        ("", "invalid tool name ``: a tool name must not be empty"),
        (
            "get.weather",
            "invalid tool name `get.weather`: `.` is not allowed; use only A-Z, a-z, 0-9, `_` and `-` (see `toolnexus::name::sanitize`)",
        ),
        (
            "météo",
            "invalid tool name `météo`: `é` is not allowed; use only A-Z, a-z, 0-9, `_` and `-` (see `toolnexus::name::sanitize`)",
        ),
    ];
    for (name, message) in cases {
        let err = NativeTool::of(name, "d", object(), |_| async { "" }).unwrap_err();
        assert!(matches!(&err, Error::InvalidName { name: n, .. } if n == name));
        assert_eq!(err.to_string(), message);
    }
    let long = "a".repeat(65);
    let err = NativeTool::of(long.as_str(), "d", object(), |_| async { "" }).unwrap_err();
    assert_eq!(
        err.to_string(),
        format!("invalid tool name `{long}`: it has 65 characters; the limit is 64")
    );
    // 64 is fine.
    assert!(NativeTool::of("a".repeat(64), "d", object(), |_| async { "" }).is_ok());
}

#[test]
fn schemas_whose_root_is_not_an_object_are_refused() {
    let cases = [
        (json!({"type": "string"}), "/type", "the input schema of `t` is invalid (at /type): the root must be `\"type\": \"object\"`, not `\"string\"`; wrap the value in an object property"),
        // `{"properties": {}}` is an object (issue 12); with neither `type` nor `properties` it is not.
        (json!({"description": "d"}), "/type", "the input schema of `t` is invalid (at /type): the root must be `\"type\": \"object\"`; it has no `type` and no `properties` (either one makes it an object)"),
        (json!(["type", "object"]), "", "the input schema of `t` is invalid (at the root): the root must be a JSON object with `\"type\": \"object\"`, not an array"),
        (json!(true), "", "the input schema of `t` is invalid (at the root): the root must be a JSON object with `\"type\": \"object\"`, not a boolean"),
        (json!({"type": "object", "properties": []}), "/properties", "the input schema of `t` is invalid (at /properties): `properties` must be an object"),
    ];
    for (schema, path, message) in cases {
        let err = NativeTool::of("t", "d", schema, |_| async { "" }).unwrap_err();
        let Error::Schema(SchemaError { tool, path: p, .. }) = &err else {
            panic!("not a schema error: {err:?}")
        };
        assert_eq!(tool.as_deref(), Some("t"));
        assert_eq!(p, path);
        assert_eq!(err.to_string(), message);
    }
}

#[test]
fn registration_order_is_kept_and_get_finds_by_name() {
    let toolkit = Toolkit::new()
        .with(echo("b"))
        .unwrap()
        .with(echo("a"))
        .unwrap()
        .with(echo("c"))
        .unwrap();
    assert_eq!(toolkit.names().collect::<Vec<_>>(), ["b", "a", "c"]);
    assert_eq!(
        toolkit.tools().iter().map(|t| t.name()).collect::<Vec<_>>(),
        ["b", "a", "c"]
    );
    assert_eq!(toolkit.get("a").map(|t| t.name()), Some("a"));
    assert!(toolkit.get("d").is_none());
    assert_eq!(toolkit.len(), 3);
    assert_eq!(toolkit.get("a").unwrap().source(), ToolSource::Native);
}

#[test]
fn a_duplicate_name_is_refused_and_the_first_tool_stays() {
    let first = NativeTool::of("search", "first", object(), |_| async { "first" }).unwrap();
    let second = NativeTool::of("search", "second", object(), |_| async { "second" }).unwrap();
    let mut toolkit = Toolkit::new().with(first).unwrap();
    let err = toolkit.add(second).unwrap_err();
    assert_eq!(
        err,
        Error::DuplicateTool {
            name: "search".into()
        }
    );
    assert_eq!(
        err.to_string(),
        "duplicate tool name `search`: this toolkit already has a tool with that name; give one of them another name"
    );
    assert_eq!(toolkit.len(), 1);
    assert_eq!(toolkit.get("search").unwrap().description(), "first");
}

/// A hand-written tool whose name breaks the rule: the toolkit checks it too.
struct BadName(InputSchema);

#[toolnexus::async_trait]
impl Tool for BadName {
    fn name(&self) -> &str {
        "has space"
    }
    fn description(&self) -> &str {
        "d"
    }
    fn input_schema(&self) -> &InputSchema {
        &self.0
    }
    async fn call(&self, _: toolnexus::CallContext, _: toolnexus::CallArgs<'_>) -> ToolResult {
        ToolResult::ok("")
    }
}

#[test]
fn a_custom_tool_with_an_invalid_name_is_refused_by_the_toolkit() {
    let tool = BadName(InputSchema::empty());
    assert_eq!(tool.source(), ToolSource::Custom);
    let err = Toolkit::new().with(tool).unwrap_err();
    assert!(
        matches!(err, Error::InvalidName { ref name, .. } if name == "has space"),
        "{err}"
    );
}

#[tokio::test]
async fn an_unknown_tool_is_an_error_result_listing_the_available_names() {
    let toolkit = Toolkit::new()
        .with(echo("search"))
        .unwrap()
        .with(echo("ping"))
        .unwrap();
    let r = toolkit.execute("serach", json!({})).await;
    assert_eq!(
        r,
        ToolResult::error("Unknown tool: serach. Available tools: search, ping")
    );
    let r = toolkit.execute_json("", "{}").await;
    assert_eq!(
        r,
        ToolResult::error("Unknown tool: . Available tools: search, ping")
    );
    let r = Toolkit::new().execute("x", json!({})).await;
    assert_eq!(
        r,
        ToolResult::error("Unknown tool: x. No tools are available.")
    );
    // A hostile name is echoed back shortened, so the reply stays small.
    let r = toolkit.execute(&"x".repeat(10_000), json!({})).await;
    assert!(r.is_error);
    assert!(r.output.len() < 300, "{}", r.output.len());
    assert!(r
        .output
        .starts_with(&format!("Unknown tool: {}…", "x".repeat(100))));
}

#[derive(Debug)]
struct NotFound(String);

impl fmt::Display for NotFound {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "no weather station near {}", self.0)
    }
}

#[tokio::test]
async fn closures_may_return_string_tool_result_json_or_result() {
    let schema = json!({"type": "object", "properties": {"city": {"type": "string"}}});
    let text = NativeTool::of("text", "d", schema.clone(), |_| async {
        String::from("plain")
    })
    .unwrap();
    let passthrough = NativeTool::of("passthrough", "d", schema.clone(), |_| async {
        ToolResult::error("already a result").with_metadata(json!({"k": 1}))
    })
    .unwrap();
    let json_out = NativeTool::of("json_out", "d", schema.clone(), |_| async {
        Json(json!({"t": 31.5}))
    })
    .unwrap();
    let fallible = NativeTool::of("fallible", "d", schema.clone(), |a| async move {
        match a["city"].as_str() {
            Some("Atlantis") => Err(NotFound("Atlantis".into())),
            Some(city) => Ok(format!("sunny in {city}")),
            None => Err(NotFound("nowhere".into())),
        }
    })
    .unwrap();
    let empty_err = NativeTool::of("empty_err", "d", schema, |_| async {
        Err::<String, _>(NotFoundBlank)
    })
    .unwrap();
    let toolkit = Toolkit::new()
        .with(text)
        .unwrap()
        .with(passthrough)
        .unwrap()
        .with(json_out)
        .unwrap()
        .with(fallible)
        .unwrap()
        .with(empty_err)
        .unwrap();

    assert_eq!(
        toolkit.execute("text", json!({})).await,
        ToolResult::ok("plain")
    );
    assert_eq!(
        toolkit.execute("passthrough", json!({})).await,
        ToolResult::error("already a result").with_metadata(json!({"k": 1}))
    );
    assert_eq!(
        toolkit.execute("json_out", json!({})).await,
        ToolResult::ok(r#"{"t":31.5}"#)
    );
    assert_eq!(
        toolkit.execute("fallible", json!({"city": "Pune"})).await,
        ToolResult::ok("sunny in Pune")
    );
    assert_eq!(
        toolkit
            .execute("fallible", json!({"city": "Atlantis"}))
            .await,
        ToolResult::error("no weather station near Atlantis")
    );
    // An error with an empty message still tells the model something (providers reject empty error content).
    assert_eq!(
        toolkit.execute("empty_err", json!({})).await,
        ToolResult::error("the tool failed without a message")
    );
}

#[derive(Debug)]
struct NotFoundBlank;

impl fmt::Display for NotFoundBlank {
    fn fmt(&self, _: &mut fmt::Formatter<'_>) -> fmt::Result {
        Ok(())
    }
}

#[tokio::test]
async fn a_closure_can_capture_state_shared_with_the_caller() {
    let hits = Arc::new(AtomicUsize::new(0));
    let shared = Arc::clone(&hits);
    let counter = NativeTool::of("count", "Count calls", object(), move |_| {
        let hits = Arc::clone(&shared);
        async move { (hits.fetch_add(1, Ordering::SeqCst) + 1).to_string() }
    })
    .unwrap();
    let toolkit = Toolkit::new().with(counter).unwrap();
    assert_eq!(toolkit.execute("count", json!({})).await.output, "1");
    assert_eq!(toolkit.execute("count", Value::Null).await.output, "2");
    assert_eq!(
        hits.load(Ordering::SeqCst),
        2,
        "the caller sees the tool's state"
    );
}

#[tokio::test]
async fn argument_rules_absent_null_empty_mean_an_empty_object() {
    let toolkit = Toolkit::new().with(echo("echo")).unwrap();
    for text in ["", "   ", "null", " null\n", "{}"] {
        assert_eq!(
            toolkit.execute_json("echo", text).await,
            ToolResult::ok("{}"),
            "{text:?}"
        );
    }
    assert_eq!(
        toolkit.execute("echo", Value::Null).await,
        ToolResult::ok("{}")
    );
    assert_eq!(
        toolkit.execute_json("echo", r#"{"a":[1]}"#).await,
        ToolResult::ok(r#"{"a":[1]}"#)
    );
}

#[tokio::test]
async fn arguments_that_are_not_a_json_object_do_not_run_the_tool() {
    let runs = Arc::new(AtomicUsize::new(0));
    let seen = Arc::clone(&runs);
    let tool = NativeTool::of("t", "d", object(), move |_| {
        seen.fetch_add(1, Ordering::SeqCst);
        async { "ran" }
    })
    .unwrap();
    let toolkit = Toolkit::new().with(tool).unwrap();
    let cases = [
        ("[1,2]", "invalid arguments for `t`: expected a JSON object, got an array"),
        ("\"x\"", "invalid arguments for `t`: expected a JSON object, got a string"),
        ("42", "invalid arguments for `t`: expected a JSON object, got a number"),
        ("true", "invalid arguments for `t`: expected a JSON object, got a boolean"),
        (
            "{\"city\":",
            "invalid arguments for `t`: the arguments are not valid JSON (EOF while parsing a value at line 1 column 8); send one JSON object",
        ),
        (
            "{'city': 'x'}",
            "invalid arguments for `t`: the arguments are not valid JSON (key must be a string at line 1 column 2); send one JSON object",
        ),
        (
            "{} {}",
            "invalid arguments for `t`: the arguments are not valid JSON (trailing characters at line 1 column 4); send one JSON object",
        ),
    ];
    for (text, message) in cases {
        assert_eq!(
            toolkit.execute_json("t", text).await,
            ToolResult::error(message),
            "{text}"
        );
    }
    for (value, message) in [
        (
            json!([1]),
            "invalid arguments for `t`: expected a JSON object, got an array",
        ),
        (
            json!("s"),
            "invalid arguments for `t`: expected a JSON object, got a string",
        ),
    ] {
        assert_eq!(
            toolkit.execute("t", value).await,
            ToolResult::error(message)
        );
    }
    assert_eq!(runs.load(Ordering::SeqCst), 0, "the tool never ran");
}

#[tokio::test]
async fn a_panicking_closure_is_an_error_result_and_the_payload_stays_with_the_host() {
    let tool = NativeTool::of("boom", "d", object(), |_| async {
        if true {
            panic!("secret internals");
        }
        "unreachable"
    })
    .unwrap();
    // Only a toolkit guards a call (one guard per call, issue 11): directly on the tool the
    // panic unwinds into the caller, as any fn's would.
    let direct = tokio::spawn({
        let tool = tool.clone();
        async move { tool.execute(json!({})).await }
    })
    .await;
    assert!(direct.unwrap_err().is_panic());
    let toolkit = Toolkit::new().with(tool).unwrap();
    let via = toolkit.execute("boom", json!({})).await;
    let json_via = toolkit.execute_json("boom", "{}").await;
    for r in [via, json_via] {
        assert!(r.is_error);
        assert_eq!(
            r.output,
            "tool `boom` panicked; it could not complete this call"
        );
        assert!(!r.output.contains("secret"));
        assert_eq!(
            r.metadata.as_deref(),
            Some(&json!({"panic": "secret internals"}))
        );
    }
}

#[test]
fn sanitize_replaces_everything_outside_the_allowed_set() {
    assert_eq!(sanitize("mcp.server/tool name"), "mcp_server_tool_name");
    assert_eq!(sanitize("ok_name-1"), "ok_name-1");
    assert_eq!(sanitize("日本"), "__");
    assert_eq!(sanitize(""), "");
}

#[test]
fn tool_results_serialize_without_empty_metadata() {
    assert_eq!(
        serde_json::to_string(&ToolResult::ok("x")).unwrap(),
        r#"{"output":"x","is_error":false}"#
    );
    assert_eq!(
        serde_json::to_string(&ToolResult::error("x").with_metadata(json!(1))).unwrap(),
        r#"{"output":"x","is_error":true,"metadata":1}"#
    );
}
