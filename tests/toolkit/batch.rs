//! Registering several tools at once: `Toolkit::with` / `add` over a tuple of tools of any
//! types, or a `Vec` or array of `Arc<dyn Tool>`. All or nothing: a batch that would refuse
//! one tool adds none.

use std::sync::Arc;

use serde_json::json;
use toolnexus::{tool, Error, InputSchema, NativeTool, Tool, ToolResult, Toolkit};

/// Current weather for a city.
#[tool]
fn get_weather(city: String) -> String {
    format!("sunny in {city}")
}

/// Adds two integers.
#[tool]
fn add(a: i64, b: i64) -> i64 {
    a + b
}

fn native(name: &str, answer: &'static str) -> NativeTool {
    let schema = json!({"type": "object", "properties": {}});
    NativeTool::of(
        name,
        "A native tool",
        schema,
        move |_| async move { answer },
    )
    .unwrap()
}

/// A hand-written tool whose name breaks the naming rule.
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

fn names(toolkit: &Toolkit) -> Vec<&str> {
    toolkit.names().collect()
}

#[tokio::test]
async fn a_tuple_of_tools_of_different_types_is_added_in_order_and_runs() {
    let toolkit = Toolkit::new()
        .with((GetWeather, Add, native("ping", "pong")))
        .unwrap();
    assert_eq!(names(&toolkit), ["get_weather", "add", "ping"]);
    assert_eq!(
        toolkit.execute_json("add", r#"{"a":2,"b":3}"#).await.output,
        "5"
    );
    assert_eq!(toolkit.execute("ping", json!({})).await.output, "pong");
    // Rendered like tools added one by one.
    let one_by_one = Toolkit::new()
        .with(GetWeather)
        .unwrap()
        .with(Add)
        .unwrap()
        .with(native("ping", "pong"))
        .unwrap();
    assert_eq!(toolkit.to_gemini(), one_by_one.to_gemini());
    assert_eq!(
        toolkit.to_openai_json().get(),
        one_by_one.to_openai_json().get()
    );
}

#[test]
fn tools_chosen_at_run_time_come_as_a_vec_or_an_array_of_arcs() {
    let dynamic: Vec<Arc<dyn Tool>> = ["a", "b", "c"]
        .into_iter()
        .map(|n| Arc::new(native(n, "x")) as Arc<dyn Tool>)
        .collect();
    let mut toolkit = Toolkit::new().with(Add).unwrap();
    toolkit.add(dynamic).unwrap();
    toolkit
        .add([Arc::new(GetWeather) as Arc<dyn Tool>])
        .unwrap();
    assert_eq!(names(&toolkit), ["add", "a", "b", "c", "get_weather"]);
    // A one-tool tuple works too.
    assert_eq!(names(&Toolkit::new().with((Add,)).unwrap()), ["add"]);
}

#[test]
fn a_shared_tool_in_an_array_is_the_same_tool_not_a_wrapper() {
    let shared: Arc<dyn Tool> = Arc::new(native("shared", "x"));
    let toolkit = Toolkit::new().with([Arc::clone(&shared)]).unwrap();
    assert!(Arc::ptr_eq(&toolkit.tools()[0], &shared));
    assert_eq!(Arc::strong_count(&shared), 2);
}

#[test]
fn a_name_taken_twice_within_the_batch_refuses_the_whole_batch() {
    let mut toolkit = Toolkit::new().with(native("first", "1")).unwrap();
    let before = toolkit.to_openai_json().get().to_owned();
    let err = toolkit
        .add((GetWeather, native("add", "native"), Add))
        .unwrap_err();
    assert_eq!(err, Error::DuplicateTool { name: "add".into() });
    assert!(err.to_string().contains("`add`"), "{err}");
    // Nothing half-added: not even the tools before the duplicate.
    assert_eq!(names(&toolkit), ["first"]);
    assert!(toolkit.get("get_weather").is_none());
    assert_eq!(toolkit.to_openai_json().get(), before);
}

#[test]
fn a_name_already_in_the_toolkit_refuses_the_whole_batch() {
    let mut toolkit = Toolkit::new().with(Add).unwrap();
    let err = toolkit
        .add((native("x", "x"), GetWeather, Add))
        .unwrap_err();
    assert_eq!(err, Error::DuplicateTool { name: "add".into() });
    assert_eq!(names(&toolkit), ["add"]);
    let err = Toolkit::new()
        .with(GetWeather)
        .unwrap()
        .with(vec![
            Arc::new(native("y", "y")) as Arc<dyn Tool>,
            Arc::new(GetWeather),
        ])
        .unwrap_err();
    assert_eq!(
        err,
        Error::DuplicateTool {
            name: "get_weather".into()
        }
    );
}

#[test]
fn an_invalid_tool_in_the_batch_refuses_the_whole_batch() {
    let mut toolkit = Toolkit::new();
    let err = toolkit
        .add((Add, BadName(InputSchema::empty())))
        .unwrap_err();
    assert!(
        matches!(err, Error::InvalidName { ref name, .. } if name == "has space"),
        "{err}"
    );
    assert!(toolkit.is_empty());
    // The same toolkit takes a good batch afterwards.
    toolkit.add((Add, GetWeather)).unwrap();
    assert_eq!(names(&toolkit), ["add", "get_weather"]);
}
