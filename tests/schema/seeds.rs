//! Rust twins of every example in the family's Gemini adapter pages (`shared/seeds/`: three C#
//! with `NativeTool::of`, the twin of `NativeTool.Of`; three Python with `#[tool]`, the twin of
//! `define_tool` on a function), asserting the same facts, and the same three examples for
//! OpenAI and Anthropic.

use serde_json::{json, Value};
use toolnexus::{to_anthropic, to_gemini, to_openai, tool, NativeTool, Tool, ToolResult, Toolkit};

// The Python pages declare their tools with `define_tool` on a plain function; the Rust twin of
// that is `#[tool]` (the description given explicitly, as the pages do).

#[tool(description = "Current weather for a city")]
fn get_weather(city: String) -> String {
    format!("sunny in {city}")
}

#[tool(description = "Search the docs")]
fn search(q: String) -> String {
    format!("results for {q}")
}

#[tool(description = "Health check")]
fn ping() -> String {
    "pong".to_owned()
}

/// The seeds' `get_weather`: a hand-written schema and a closure over the argument object.
fn weather() -> NativeTool {
    NativeTool::of(
        "get_weather",
        "Current weather for a city",
        json!({
            "type": "object",
            "properties": {"city": {"type": "string"}},
            "required": ["city"],
        }),
        |a| async move { format!("sunny in {}", a["city"].as_str().unwrap_or_default()) },
    )
    .unwrap()
}

/// The seeds' `Mk(name, desc)`: a tool with no parameters that answers its own name.
fn mk(name: &'static str, desc: &str) -> NativeTool {
    NativeTool::of(
        name,
        desc,
        json!({"type": "object", "properties": {}}),
        move |_| async move { name },
    )
    .unwrap()
}

/// A `generateContent` request body around a tools array.
fn body(tools: Vec<Value>) -> Value {
    json!({
        "contents": [{"role": "user", "parts": [{"text": "search for adapters"}]}],
        "tools": tools,
    })
}

mod gemini {
    use super::*;

    // Python example 1: one tool to Gemini schema, the tool declared from a function.
    #[test]
    fn python_one_tool_to_gemini_schema() {
        let schema = to_gemini(&[GetWeather]);
        // ONE entry, whatever the number of tools.
        assert_eq!(schema.len(), 1);
        let keys: Vec<&String> = schema[0].as_object().unwrap().keys().collect();
        assert_eq!(keys, ["functionDeclarations"]);
        let decls = schema[0]["functionDeclarations"].as_array().unwrap();
        assert_eq!(decls.len(), 1);
        assert_eq!(decls[0]["name"], "get_weather");
        assert_eq!(decls[0]["description"], "Current weather for a city");
        // `input_schema` is renamed to `parameters`, as in the OpenAI adapter.
        assert_eq!(
            decls[0]["parameters"]["properties"]["city"],
            json!({"type": "string"})
        );
    }

    // Python example 2: many tools, still one entry, into a request body.
    #[test]
    fn python_many_tools_one_entry_in_a_request_body() {
        let tools: [&dyn Tool; 2] = [&Search, &Ping];
        let body = body(to_gemini(&tools));
        assert_eq!(body["tools"].as_array().unwrap().len(), 1);
        let decls = body["tools"][0]["functionDeclarations"].as_array().unwrap();
        let names: Vec<&str> = decls.iter().map(|d| d["name"].as_str().unwrap()).collect();
        assert_eq!(names, ["search", "ping"]);
        // Plain JSON: serializes with no custom encoder.
        assert!(!serde_json::to_string(&body).unwrap().is_empty());
        assert_eq!(search("adapters".into()), "results for adapters");
        assert_eq!(ping(), "pong");
    }

    // Python example 3: a functionCall round-tripped to the tool, and the empty-list trap.
    #[tokio::test]
    async fn python_function_call_round_trip() {
        let tools: [&dyn Tool; 1] = [&GetWeather];
        let schema = to_gemini(&tools);
        // What a model would send back for that schema.
        let part = json!({"functionCall": {"name": "get_weather", "args": {"city": "Chennai"}}});
        let call = &part["functionCall"];
        let called = tools
            .iter()
            .find(|t| t.name() == call["name"])
            .expect("resolves");
        let res = called.execute(call["args"].clone()).await;
        assert!(!res.is_error);
        // What goes back on the next turn, matched by name, not by an id.
        let response_part =
            json!({"functionResponse": {"name": call["name"], "response": {"output": res.output}}});
        assert_eq!(
            response_part["functionResponse"]["response"]["output"],
            "sunny in Chennai"
        );
        // The same reply, built by the crate from the model's response.
        let response = json!({"candidates": [{"content": {"role": "model", "parts": [part]}, "finishReason": "STOP"}]});
        let toolkit = Toolkit::new().with(GetWeather).unwrap();
        let next = toolkit
            .respond(&response, toolnexus::Dialect::Gemini)
            .await
            .unwrap()
            .result_messages;
        assert_eq!(
            next,
            vec![json!({"role": "user", "parts": [response_part]})]
        );
        // An empty tool list still produces the wrapper, with no declarations inside.
        assert_eq!(
            to_gemini::<GetWeather>(&[]),
            vec![json!({"functionDeclarations": []})]
        );
        assert_eq!(schema[0]["functionDeclarations"][0]["name"], "get_weather");
    }

    // C# example 1: one tool to Gemini schema.
    #[test]
    fn one_tool_to_gemini_schema() {
        let schema = to_gemini(&[weather()]);

        // ONE wrapper entry, always; the tools live inside it, under its only key.
        assert_eq!(schema.len(), 1, "expected 1 wrapper");
        let keys: Vec<&String> = schema[0].as_object().unwrap().keys().collect();
        assert_eq!(keys, ["functionDeclarations"]);

        let decls = schema[0]["functionDeclarations"].as_array().unwrap();
        assert_eq!(decls.len(), 1, "expected 1 declaration");
        let f = &decls[0];
        assert_eq!(f["name"], "get_weather");
        assert_eq!(f["description"], "Current weather for a city");
        // `input_schema` is renamed to `parameters`, one level shallower than OpenAI's.
        assert!(f.get("parameters").is_some());
        assert_eq!(
            f["parameters"]["properties"]["city"],
            json!({"type": "string"})
        );
        let keys: Vec<&String> = f.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["name", "description", "parameters"]);
    }

    // C# example 2: many tools, still one entry, into a request body.
    #[test]
    fn many_tools_one_wrapper_in_a_request_body() {
        let tools = [mk("search", "Search the docs"), mk("ping", "Health check")];
        let body = body(to_gemini(&tools));

        // Two tools still means ONE wrapper.
        let wrappers = body["tools"].as_array().unwrap();
        assert_eq!(wrappers.len(), 1, "expected 1 wrapper");
        // Order is preserved.
        let names: Vec<&str> = wrappers[0]["functionDeclarations"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d["name"].as_str().unwrap())
            .collect();
        assert_eq!(names, ["search", "ping"]);

        // Plain serde_json, no custom serializer; the wire has the key.
        let text = serde_json::to_string(&body).unwrap();
        assert!(text.contains("\"functionDeclarations\""));
        assert_eq!(serde_json::from_str::<Value>(&text).unwrap(), body);
    }

    // C# example 3: a functionCall back to the tool, and the empty-list trap.
    #[tokio::test]
    async fn function_call_round_trip_and_the_empty_list_trap() {
        let tools = [weather()];
        let schema = to_gemini(&tools);

        // What a model sends back: `args` is a real JSON object.
        let part: Value = serde_json::from_str(
            r#"{"functionCall":{"name":"get_weather","args":{"city":"Chennai"}}}"#,
        )
        .unwrap();
        let call = &part["functionCall"];
        let called_name = call["name"].as_str().unwrap();

        // The advertised name resolves back to the tool.
        let advertised = schema[0]["functionDeclarations"][0]["name"]
            .as_str()
            .unwrap();
        assert_eq!(advertised, called_name);
        let called = tools
            .iter()
            .find(|t| t.name() == called_name)
            .expect("resolves");

        let res = called.execute(call["args"].clone()).await;
        assert!(!res.is_error, "{}", res.output);
        assert_eq!(res.output, "sunny in Chennai");

        // What goes back on the next turn, matched by name (this call had no id).
        let response_part =
            json!({"functionResponse": {"name": called_name, "response": {"output": res.output}}});
        assert_eq!(
            response_part["functionResponse"]["response"]["output"],
            "sunny in Chennai"
        );

        // The trap: no tools still give one wrapper with an empty declaration list,
        // unlike to_openai/to_anthropic, which give an empty list.
        let empty = to_gemini::<NativeTool>(&[]);
        assert_eq!(empty.len(), 1, "expected 1 wrapper");
        assert_eq!(empty, vec![json!({"functionDeclarations": []})]);
        assert_eq!(Toolkit::new().to_gemini(), empty);
    }
}

mod openai {
    use super::*;

    #[test]
    fn one_tool_to_openai_schema() {
        let schema = to_openai(&[weather()]);
        assert_eq!(schema.len(), 1, "one entry per tool");
        let keys: Vec<&String> = schema[0].as_object().unwrap().keys().collect();
        assert_eq!(keys, ["type", "function"]);
        assert_eq!(schema[0]["type"], "function");
        let f = &schema[0]["function"];
        let keys: Vec<&String> = f.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["name", "description", "parameters"]);
        assert_eq!(f["name"], "get_weather");
        assert_eq!(f["description"], "Current weather for a city");
        assert_eq!(
            f["parameters"]["properties"]["city"],
            json!({"type": "string"})
        );
    }

    #[test]
    fn many_tools_one_entry_each_in_a_request_body() {
        let tools = [mk("search", "Search the docs"), mk("ping", "Health check")];
        let body = json!({"model": "gpt-4o", "messages": [], "tools": to_openai(&tools)});
        let names: Vec<&str> = body["tools"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["function"]["name"].as_str().unwrap())
            .collect();
        assert_eq!(names, ["search", "ping"]);
        assert!(serde_json::to_string(&body)
            .unwrap()
            .contains(r#""type":"function""#));
    }

    #[tokio::test]
    async fn tool_call_round_trip_and_the_empty_list() {
        let toolkit = Toolkit::new().with(weather()).unwrap();
        // OpenAI sends `arguments` as a JSON STRING, not an object.
        let message: Value = serde_json::from_str(
            r#"{"role":"assistant","content":null,"tool_calls":[{"id":"call_abc123","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Chennai\"}"}}]}"#,
        )
        .unwrap();
        let call = &message["tool_calls"][0];
        let arguments = call["function"]["arguments"].as_str().expect("a string");
        let res = toolkit
            .execute_json(call["function"]["name"].as_str().unwrap(), arguments)
            .await;
        assert_eq!(res, ToolResult::ok("sunny in Chennai"));

        let reply = json!({"role": "tool", "tool_call_id": call["id"], "content": res.output});
        assert_eq!(reply["tool_call_id"], "call_abc123");

        // No tools: an empty list (leave `tools` out of the request).
        assert!(to_openai::<NativeTool>(&[]).is_empty());
        assert!(Toolkit::new().to_openai().is_empty());
    }
}

mod anthropic {
    use super::*;

    #[test]
    fn one_tool_to_anthropic_schema() {
        let schema = to_anthropic(&[weather()]);
        assert_eq!(schema.len(), 1, "one entry per tool");
        let keys: Vec<&String> = schema[0].as_object().unwrap().keys().collect();
        assert_eq!(keys, ["name", "description", "input_schema"]);
        assert_eq!(schema[0]["name"], "get_weather");
        assert_eq!(schema[0]["description"], "Current weather for a city");
        assert_eq!(schema[0]["input_schema"]["required"], json!(["city"]));
    }

    #[test]
    fn many_tools_one_entry_each_in_a_request_body() {
        let tools = [mk("search", "Search the docs"), mk("ping", "Health check")];
        let body = json!({"model": "claude-sonnet-4-5", "max_tokens": 1024, "messages": [], "tools": to_anthropic(&tools)});
        let names: Vec<&str> = body["tools"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["name"].as_str().unwrap())
            .collect();
        assert_eq!(names, ["search", "ping"]);
        assert!(!serde_json::to_vec(&body).unwrap().is_empty());
    }

    #[tokio::test]
    async fn tool_use_round_trip_and_the_empty_list() {
        let toolkit = Toolkit::new().with(weather()).unwrap();
        // Anthropic sends `input` as an object.
        let block: Value = serde_json::from_str(
            r#"{"type":"tool_use","id":"toolu_01A09q90qw90lq917835lq9","name":"get_weather","input":{"city":"Chennai"}}"#,
        )
        .unwrap();
        let res = toolkit
            .execute(block["name"].as_str().unwrap(), block["input"].clone())
            .await;
        assert_eq!(res, ToolResult::ok("sunny in Chennai"));
        let reply = json!({"role": "user", "content": [{"type": "tool_result", "tool_use_id": block["id"], "content": res.output}]});
        assert_eq!(reply["content"][0]["content"], "sunny in Chennai");

        assert!(to_anthropic::<NativeTool>(&[]).is_empty());
        assert!(Toolkit::new().to_anthropic().is_empty());
    }
}
