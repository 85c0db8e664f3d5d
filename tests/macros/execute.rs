//! `#[tool]` at run time: the fn stays an ordinary fn, the tool decodes the model's arguments
//! (text or value) straight into the parameters, every return type becomes the right result,
//! state is shared without globals, and nothing the model sends can panic the host.

use std::borrow::Cow;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use serde::Serialize;
use serde_json::json;
use toolnexus::{tool, Json, Tool, ToolResult, Toolkit};

/// Current weather for a city.
#[tool]
async fn get_weather(
    /// The city.
    city: String,
    /// Days ahead.
    days: Option<u8>,
) -> String {
    format!("sunny in {city} for {} day(s)", days.unwrap_or(1))
}

/// All parameters optional.
#[tool]
fn settings(verbose: Option<bool>) -> String {
    format!("verbose={verbose:?}")
}

#[tokio::test]
async fn the_fn_stays_callable() {
    assert_eq!(
        get_weather("Chennai".into(), Some(2)).await,
        "sunny in Chennai for 2 day(s)"
    );
    assert_eq!(settings(None), "verbose=None");
}

#[tokio::test]
async fn text_and_value_arguments_through_a_toolkit() {
    let toolkit = Toolkit::new().with(GetWeather).unwrap();
    let from_text = toolkit
        .execute_json("get_weather", r#"{"city":"Chennai","days":3}"#)
        .await;
    assert_eq!(from_text, ToolResult::ok("sunny in Chennai for 3 day(s)"));
    let from_value = toolkit
        .execute("get_weather", json!({"city": "Oslo"}))
        .await;
    assert_eq!(from_value, ToolResult::ok("sunny in Oslo for 1 day(s)"));
}

#[tokio::test]
async fn bad_arguments_name_the_tool_the_field_and_the_expectation() {
    let wrong_type = GetWeather
        .execute_json(r#"{"city":"Chennai","days":"x"}"#)
        .await;
    assert_eq!(
        wrong_type,
        ToolResult::error(
            "invalid arguments for `get_weather`: `days`: invalid type: string \"x\", expected u8"
        )
    );
    let missing = GetWeather.execute(json!({"days": 1})).await;
    assert_eq!(
        missing,
        ToolResult::error("invalid arguments for `get_weather`: missing field `city`")
    );
    let not_object = GetWeather.execute_json("[1]").await;
    assert_eq!(
        not_object,
        ToolResult::error(
            "invalid arguments for `get_weather`: expected a JSON object, got an array"
        )
    );
}

#[tokio::test]
async fn unknown_fields_are_rejected() {
    let extra = GetWeather
        .execute_json(r#"{"city":"Chennai","country":"IN"}"#)
        .await;
    assert_eq!(
        extra,
        ToolResult::error(
            "invalid arguments for `get_weather`: `country`: unknown field `country`, expected `city` or `days`"
        )
    );
    let extra_value = GetWeather
        .execute(json!({"city": "Chennai", "country": "IN"}))
        .await;
    assert_eq!(extra_value, extra);
}

/// A seat on a flight: the user's own type, with serde's default for unknown fields (ignored).
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Seat {
    flight: String,
}

/// The same type, refusing unknown fields as the tool's own argument object does.
#[derive(serde::Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
struct StrictSeat {
    flight: String,
}

/// Books two seats.
#[tool]
fn book(seat: Seat, strict: StrictSeat) -> String {
    format!("{} {}", seat.flight, strict.flight)
}

/// README's promise, exactly: the argument object rejects unknown fields; a type of the user's
/// nested in it decides for its own fields, rejecting them (and saying so in the schema) only
/// with `#[serde(deny_unknown_fields)]`.
#[tokio::test]
async fn nested_types_reject_unknown_fields_only_with_deny_unknown_fields() {
    let top = Book
        .execute(json!({"seat": {"flight": "LH1"}, "strict": {"flight": "LH2"}, "row": 12}))
        .await;
    assert_eq!(
        top,
        ToolResult::error(
            "invalid arguments for `book`: `row`: unknown field `row`, expected `seat` or `strict`"
        )
    );
    let in_plain = Book
        .execute(json!({"seat": {"flight": "LH1", "row": 12}, "strict": {"flight": "LH2"}}))
        .await;
    assert_eq!(in_plain, ToolResult::ok("LH1 LH2"));
    let in_strict = Book
        .execute(json!({"seat": {"flight": "LH1"}, "strict": {"flight": "LH2", "row": 12}}))
        .await;
    assert_eq!(
        in_strict,
        ToolResult::error(
            "invalid arguments for `book`: `strict.row`: unknown field `row`, expected `flight`"
        )
    );

    let schema = Book.input_schema().as_value().clone();
    assert_eq!(schema["additionalProperties"], json!(false));
    assert_eq!(
        schema["properties"]["seat"].get("additionalProperties"),
        None
    );
    assert_eq!(
        schema["properties"]["strict"]["additionalProperties"],
        json!(false)
    );
}

#[tokio::test]
async fn absent_null_empty_or_blank_arguments_mean_an_empty_object() {
    for text in ["", "null", "  \n ", "{}"] {
        assert_eq!(
            Settings.execute_json(text).await,
            ToolResult::ok("verbose=None"),
            "{text:?}"
        );
    }
    assert_eq!(
        Settings.execute(serde_json::Value::Null).await,
        ToolResult::ok("verbose=None")
    );
}

/// Returns `&'static str`.
#[tool]
fn r_str() -> &'static str {
    "plain"
}

/// Returns `Cow`.
#[tool]
fn r_cow() -> Cow<'static, str> {
    Cow::Borrowed("cow")
}

/// Returns a `ToolResult`.
#[tool]
fn r_result() -> ToolResult {
    ToolResult::error("told to fail").with_metadata(json!({"code": 7}))
}

#[derive(Serialize)]
struct Reading {
    city: String,
    celsius: f64,
}

/// Returns a `Serialize` struct.
#[tool]
fn r_struct() -> Reading {
    Reading {
        city: "Chennai".into(),
        celsius: 31.5,
    }
}

/// Returns `Json<T>`.
#[tool]
fn r_json() -> Json<Vec<u8>> {
    Json(vec![1, 2])
}

/// Returns `Option<String>`, a `Serialize` value.
#[tool]
fn r_option(some: bool) -> Option<String> {
    some.then(|| "x".to_owned())
}

/// Returns `Result<String, String>`.
#[tool]
fn r_text_result(fail: bool) -> Result<String, String> {
    if fail {
        Err("no such city".into())
    } else {
        Ok("fine".into())
    }
}

/// Returns `std::io::Result<Vec<i32>>`: a `Serialize` value behind an alias.
#[tool]
async fn r_io(fail: bool) -> std::io::Result<Vec<i32>> {
    if fail {
        Err(std::io::Error::new(
            std::io::ErrorKind::NotFound,
            "disk gone",
        ))
    } else {
        Ok(vec![1, 2])
    }
}

/// Returns `anyhow::Result<Reading>`.
#[tool]
fn r_anyhow(fail: bool) -> anyhow::Result<Reading> {
    if fail {
        anyhow::bail!("sensor offline");
    }
    Ok(Reading {
        city: "Oslo".into(),
        celsius: -3.0,
    })
}

/// Returns nothing: `()` is `Serialize`, so the output is `null`.
#[tool]
fn r_unit() {}

#[tokio::test]
async fn every_return_type_kind() {
    assert_eq!(RStr.execute_json("").await, ToolResult::ok("plain"));
    assert_eq!(RCow.execute_json("").await, ToolResult::ok("cow"));
    assert_eq!(
        RResult.execute_json("").await,
        ToolResult::error("told to fail").with_metadata(json!({"code": 7}))
    );
    assert_eq!(
        RStruct.execute_json("").await,
        ToolResult::ok(r#"{"city":"Chennai","celsius":31.5}"#)
    );
    assert_eq!(RJson.execute_json("").await, ToolResult::ok("[1,2]"));
    assert_eq!(
        ROption.execute_json(r#"{"some":true}"#).await,
        ToolResult::ok(r#""x""#)
    );
    assert_eq!(
        ROption.execute_json(r#"{"some":false}"#).await,
        ToolResult::ok("null")
    );
    assert_eq!(
        RTextResult.execute_json(r#"{"fail":false}"#).await,
        ToolResult::ok("fine")
    );
    assert_eq!(
        RTextResult.execute_json(r#"{"fail":true}"#).await,
        ToolResult::error("no such city")
    );
    assert_eq!(
        RIo.execute_json(r#"{"fail":false}"#).await,
        ToolResult::ok("[1,2]")
    );
    assert_eq!(
        RIo.execute_json(r#"{"fail":true}"#).await,
        ToolResult::error("disk gone")
    );
    assert_eq!(
        RAnyhow.execute_json(r#"{"fail":false}"#).await,
        ToolResult::ok(r#"{"city":"Oslo","celsius":-3.0}"#)
    );
    assert_eq!(
        RAnyhow.execute_json(r#"{"fail":true}"#).await,
        ToolResult::error("sensor offline")
    );
    assert_eq!(RUnit.execute_json("").await, ToolResult::ok("null"));
}

/// Always panics.
#[tool]
async fn boom(secret: String) -> String {
    panic!("leaked {secret}")
}

/// Panics in a plain fn.
#[tool]
fn boom_sync() -> String {
    panic!("sync")
}

#[tokio::test]
async fn a_panic_becomes_an_error_result() {
    // The toolkit guards every call, decoding and the future included.
    let toolkit = Toolkit::new().with(Boom).unwrap().with(BoomSync).unwrap();
    let result = toolkit.execute_json("boom", r#"{"secret":"s3"}"#).await;
    assert_eq!(
        result.output,
        "tool `boom` panicked; it could not complete this call"
    );
    assert!(result.is_error);
    assert_eq!(
        result.metadata.as_deref(),
        Some(&json!({"panic": "leaked s3"}))
    );
    let result = toolkit.execute("boom_sync", json!({})).await;
    assert_eq!(
        result.output,
        "tool `boom_sync` panicked; it could not complete this call"
    );
}

/// Counts calls in a counter the caller also holds.
#[tool]
async fn count(
    #[state] calls: Arc<AtomicUsize>,
    /// How much to add.
    by: usize,
) -> String {
    let now = calls.fetch_add(by, Ordering::SeqCst) + by;
    now.to_string()
}

struct Directory {
    names: Vec<&'static str>,
}

/// Looks a user up in a directory held by the tool.
#[tool]
fn lookup(#[state] dir: &Directory, index: usize) -> Result<String, String> {
    dir.names
        .get(index)
        .map(|n| (*n).to_owned())
        .ok_or_else(|| format!("no user at {index}; there are {}", dir.names.len()))
}

#[tokio::test]
async fn state_without_globals() {
    let calls = Arc::new(AtomicUsize::new(0));
    let toolkit = Toolkit::new()
        .with(Count {
            calls: Arc::clone(&calls),
        })
        .unwrap()
        .with(Lookup {
            dir: Directory {
                names: vec!["ann", "bob"],
            },
        })
        .unwrap();
    assert_eq!(
        toolkit.execute_json("count", r#"{"by":2}"#).await.output,
        "2"
    );
    assert_eq!(toolkit.execute("count", json!({"by": 3})).await.output, "5");
    assert_eq!(calls.load(Ordering::SeqCst), 5);
    assert_eq!(
        toolkit.execute_json("lookup", r#"{"index":1}"#).await,
        ToolResult::ok("bob")
    );
    assert_eq!(
        toolkit.execute_json("lookup", r#"{"index":9}"#).await,
        ToolResult::error("no user at 9; there are 2")
    );
    // The fn itself still takes the state as an ordinary argument.
    assert_eq!(count(Arc::clone(&calls), 1).await, "6");
}

/// A renamed dependency: `crate = "..."` points the generated code at it.
mod renamed {
    use toolnexus as tn;

    /// Echo a word.
    #[tn::tool(crate = "tn")]
    pub fn echo(word: String) -> String {
        word
    }

    #[derive(serde::Deserialize, schemars::JsonSchema, tn::ToolArgs)]
    #[tool_args(crate = "tn")]
    pub struct ShoutArgs {
        pub text: String,
    }

    /// Shout a text.
    #[tn::tool(crate = "tn")]
    pub fn shout(#[args] shout: ShoutArgs) -> String {
        shout.text.to_uppercase()
    }
}

#[tokio::test]
async fn renamed_crate_path() {
    assert_eq!(
        renamed::Echo.execute_json(r#"{"word":"hi"}"#).await,
        ToolResult::ok("hi")
    );
    assert_eq!(
        renamed::Shout.execute_json(r#"{"text":"hi"}"#).await,
        ToolResult::ok("HI")
    );
}

/// An argument struct whose schema is not an object (`transparent` over a string).
#[derive(serde::Deserialize, schemars::JsonSchema, toolnexus::ToolArgs)]
#[serde(transparent)]
struct Wrapped {
    value: String,
}

/// Echo a wrapped value.
#[tool]
fn unwrap_it(#[args] wrapped: Wrapped) -> String {
    wrapped.value
}

#[test]
fn an_unusable_generated_schema_is_refused_at_registration_not_a_panic() {
    let err = Toolkit::new().with(UnwrapIt).unwrap_err();
    assert_eq!(
        err.to_string(),
        "the input schema of `unwrap_it` is invalid (at /type): the root must be `\"type\": \"object\"`, not `\"string\"`; wrap the value in an object property"
    );
    assert_eq!(
        serde_json::to_string(UnwrapIt.input_schema().as_value()).unwrap(),
        r#"{"type":"object","properties":{}}"#
    );
}

/// Issue 11: the free adapters cannot render a refused schema as `{}`. The tool is left out of
/// every `tools` array (the others stay, in order), its schema says why, and a toolkit refuses it.
#[test]
fn an_unusable_generated_schema_is_never_rendered() {
    use toolnexus::{to_anthropic, to_gemini, to_openai};

    let error = UnwrapIt
        .input_schema()
        .error()
        .expect("the schema carries its error");
    // The error the toolkit refuses the tool with.
    let refused = Toolkit::new().with(UnwrapIt).unwrap_err();
    assert_eq!(error.to_string(), refused.to_string());
    assert!(error
        .to_string()
        .starts_with("the input schema of `unwrap_it` is invalid (at /type)"));
    assert!(to_openai(&[UnwrapIt]).is_empty());
    assert!(to_anthropic(&[UnwrapIt]).is_empty());
    assert_eq!(
        to_gemini(&[UnwrapIt]),
        [json!({"functionDeclarations": []})]
    );

    let tools: [&dyn Tool; 3] = [&Settings, &UnwrapIt, &GetWeather];
    let names = |tools: Vec<serde_json::Value>, pointer: &str| -> Vec<String> {
        tools
            .iter()
            .map(|t| {
                t.pointer(pointer)
                    .and_then(|n| n.as_str())
                    .unwrap_or("?")
                    .to_owned()
            })
            .collect()
    };
    assert_eq!(
        names(to_openai(&tools), "/function/name"),
        ["settings", "get_weather"]
    );
    assert_eq!(
        names(to_anthropic(&tools), "/name"),
        ["settings", "get_weather"]
    );
    let gemini = to_gemini(&tools);
    assert_eq!(
        gemini[0]["functionDeclarations"].as_array().map(Vec::len),
        Some(2)
    );
    // A schema that can be used carries no error.
    assert!(Settings.input_schema().error().is_none());
}

/// What `#[tool]` generates sits next to the fn, under names made from the fn's (the argument
/// struct, the fn that builds the future): two tools of one module are told apart by them (this
/// file has several), and a tool one module down may reuse a fn name. A `#[cfg]` after
/// `#[tool]` reaches the macro only when it holds (a false one removes the fn first), and the
/// generated items carry it.
mod gated {
    /// Compiled out before `#[tool]` runs.
    #[toolnexus::tool]
    #[cfg(any())]
    pub fn gone(x: i64) -> i64 {
        x
    }

    /// Compiled in, with its `#[cfg]` copied onto every generated item.
    #[toolnexus::tool]
    #[cfg(test)]
    pub fn kept(x: i64) -> i64 {
        x + 1
    }

    /// The same fn name as the one above, one module down.
    pub mod nested {
        /// Compiled in, in a module of its own.
        #[toolnexus::tool]
        pub fn kept(x: i64) -> i64 {
            x + 2
        }
    }
}

#[tokio::test]
async fn tools_with_one_fn_name_in_two_modules_and_a_cfg_on_the_fn() {
    let outer = Toolkit::new().with(gated::Kept).unwrap();
    let inner = Toolkit::new().with(gated::nested::Kept).unwrap();
    assert_eq!(outer.execute_json("kept", r#"{"x":1}"#).await.output, "2");
    assert_eq!(inner.execute_json("kept", r#"{"x":1}"#).await.output, "3");
}

/// Parameters named like the locals of the generated `Deserialize` (`map`, `index`, `value`,
/// `deserializer`) and a raw identifier: each is its own field.
#[tool]
fn shadowing(
    map: String,
    index: u32,
    value: Option<bool>,
    deserializer: Vec<u8>,
    r#type: i64,
) -> String {
    format!("{map} {index} {value:?} {deserializer:?} {}", r#type)
}

/// No parameters at all.
#[tool]
fn nothing() -> &'static str {
    "nothing"
}

#[tokio::test]
async fn parameters_named_like_the_decoders_locals_and_no_parameters() {
    let toolkit = Toolkit::new()
        .with(Shadowing)
        .unwrap()
        .with(Nothing)
        .unwrap();
    let ok = toolkit
        .execute_json(
            "shadowing",
            r#"{"type":-1,"deserializer":[1,2],"value":true,"index":7,"map":"m"}"#,
        )
        .await;
    assert_eq!(ok.output, "m 7 Some(true) [1, 2] -1");
    let missing = toolkit
        .execute_json("shadowing", r#"{"map":"m","index":7,"deserializer":[]}"#)
        .await;
    assert_eq!(
        missing,
        ToolResult::error("invalid arguments for `shadowing`: missing field `type`")
    );
    assert_eq!(
        toolkit.execute_json("nothing", "{}").await.output,
        "nothing"
    );
    let unknown = toolkit.execute_json("nothing", r#"{"x":1}"#).await;
    assert_eq!(
        unknown,
        ToolResult::error(
            "invalid arguments for `nothing`: `x`: unknown field `x`, there are no fields"
        )
    );
}
