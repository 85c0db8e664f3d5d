//! Anthropic's own tool search (issue 42), judged by the anthropic SDK's types
//! (`tests/sdk/validate_tool_search.py`): the tools array `Deferred::to_anthropic_native`
//! writes, a response in which the API searched and the model then called a found tool, and the
//! next request's messages that repeat those blocks; the same for the OpenAI Responses API's
//! hosted `tool_search` (`Deferred::to_responses_native`).

use serde_json::{json, Value};
use toolnexus::deferred::{AnthropicSearch, Deferred};
use toolnexus::{Dialect, NativeTool, Toolkit};

fn deferred() -> Deferred {
    let tool = |name: &str, description: &str| {
        NativeTool::of(
            name,
            description,
            json!({"type": "object", "properties": {"city": {"type": "string"}}}),
            |_| async { "sunny" },
        )
        .unwrap()
    };
    let toolkit = Toolkit::new()
        .with(tool("get_time", "The current time."))
        .unwrap()
        .with(tool("get_weather", "The weather in a city."))
        .unwrap();
    Deferred::new(toolkit, ["get_time"]).unwrap()
}

/// A response in which the API searched (its `server_tool_use` and `tool_search_tool_result`
/// blocks, as Anthropic's tool search documentation shows them) and the model called the tool
/// it found.
fn searched() -> Value {
    json!({"id": "msg_01", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
        "stop_reason": "tool_use", "stop_sequence": null,
        "usage": {"input_tokens": 10, "output_tokens": 20},
        "content": [
            {"type": "text", "text": "Let me find a weather tool."},
            {"type": "server_tool_use", "id": "srvtoolu_01", "name": "tool_search_tool_bm25",
             "input": {"query": "weather"}},
            {"type": "tool_search_tool_result", "tool_use_id": "srvtoolu_01", "content": {
                "type": "tool_search_tool_search_result",
                "tool_references": [{"type": "tool_reference", "tool_name": "get_weather"}]}},
            {"type": "tool_use", "id": "toolu_01", "name": "get_weather",
             "input": {"city": "Paris"}}]})
}

/// The turn of `response`, whose one run call is `get_weather`: the provider's own search is
/// never run here.
async fn only_the_found_tool_runs(
    deferred: &Deferred,
    response: &Value,
    dialect: Dialect,
) -> toolnexus::Turn {
    let turn = deferred.toolkit().respond(response, dialect).await.unwrap();
    let ran: Vec<&str> = turn.calls.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(
        ran,
        ["get_weather"],
        "{dialect}: the provider's search is never run here"
    );
    turn
}

#[tokio::test]
async fn anthropic_native_search_runs_only_the_found_tool_and_keeps_the_search_blocks() {
    let deferred = deferred();
    let response = searched();
    let turn = only_the_found_tool_runs(&deferred, &response, Dialect::Anthropic).await;
    assert_eq!(turn.model_turn[0]["content"], response["content"]);
    let tools = deferred.to_anthropic_native(AnthropicSearch::Regex);
    assert_eq!(tools[0]["type"], "tool_search_tool_regex_20251119");

    let anthropic = json!({"tools": deferred.to_anthropic_native(AnthropicSearch::Bm25),
        "response": response, "next": turn.into_messages()});

    // OpenAI Responses, hosted: the API's search items, then the call of the tool it found.
    let searched = json!({"id": "resp_1", "object": "response", "status": "completed", "output": [
        {"type": "tool_search_call", "id": "tsc_1", "call_id": null, "execution": "server",
         "status": "completed", "arguments": {"query": "weather"}},
        {"type": "tool_search_output", "id": "tso_1", "call_id": null, "execution": "server",
         "status": "completed", "tools": [{"type": "function", "name": "get_weather",
            "description": "The weather in a city.", "strict": false, "defer_loading": true,
            "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}]},
        {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "get_weather",
         "arguments": "{\"city\":\"Paris\"}", "status": "completed"}]});
    let turn = only_the_found_tool_runs(&deferred, &searched, Dialect::OpenAiResponses).await;
    assert_eq!(
        turn.model_turn[..],
        searched["output"].as_array().unwrap()[..]
    );
    let responses = json!({"tools": deferred.to_responses_native(),
        "output": searched["output"], "next": turn.into_messages()});
    let case = json!({"anthropic": anthropic, "responses": responses,
        "referencing": referencing().await, "responses_client": responses_client().await});
    let Some((ok, report)) = crate::venv::verdict(
        "tests/sdk/validate_tool_search.py",
        &case,
        "tool_search.json",
    ) else {
        return;
    };
    assert!(ok, "the anthropic SDK refused:\n{report}");
    assert!(
        report.contains("3 tools and 2 messages accepted"),
        "{report}"
    );
    assert!(report.contains("client search: 3 tools"), "{report}");
}

/// Our own search on Anthropic, answering with tool references (Anthropic's custom tool
/// search): the array is the same before and after the search, the search's result becomes a
/// `tool_reference` per tool found, and the conversation reads back with the tool found, so
/// `tools_for` (in any dialect) sends it too. The array and the messages go to the validator.
async fn referencing() -> Value {
    let deferred = deferred();
    let tools = deferred.to_anthropic_referencing();
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["search_tools", "get_time", "get_weather"]);
    assert_eq!(tools[0].get("defer_loading"), None);
    assert_eq!(tools[1].get("defer_loading"), None);
    assert_eq!(tools[2]["defer_loading"], true);

    let response = json!({"id": "msg_02", "type": "message", "role": "assistant",
        "model": "claude-sonnet-4-5", "stop_reason": "tool_use", "stop_sequence": null,
        "usage": {"input_tokens": 10, "output_tokens": 20},
        "content": [{"type": "tool_use", "id": "toolu_s", "name": "search_tools",
            "input": {"query": "weather in a city"}}]});
    let mut turn = deferred
        .toolkit()
        .respond(&response, Dialect::Anthropic)
        .await
        .unwrap();
    deferred.reference(&mut turn);
    let block = &turn.result_messages[0]["content"][0];
    assert_eq!(block["tool_use_id"], "toolu_s");
    assert_eq!(
        block["content"][0],
        json!({"type": "tool_reference", "tool_name": "get_weather"})
    );
    let mut history = vec![Dialect::Anthropic.user_message("Weather in Paris?")];
    history.extend(turn.into_messages());
    for dialect in [Dialect::Anthropic, Dialect::OpenAiChat] {
        let history = if dialect == Dialect::Anthropic {
            history.clone()
        } else {
            toolnexus::transcript::Transcript::read(Dialect::Anthropic, &history)
                .unwrap()
                .render(dialect)
                .messages
        };
        let sent = deferred.tools_for(dialect, &history).unwrap();
        assert_eq!(sent.len(), 3, "{dialect}: the tool found is sent: {sent:?}");
    }
    assert_eq!(
        deferred.to_anthropic_referencing(),
        tools,
        "the array never changes"
    );
    json!({"tools": tools, "next": history})
}

/// Our own search run on the client for the Responses API: the model's `tool_search_call`
/// (execution `client`) is answered with a `tool_search_output` holding the definitions of
/// the tools found, the array never changes, and the found tool's call runs next. The array,
/// the output items and the next input items go to the validator.
async fn responses_client() -> Value {
    let deferred = deferred();
    let tools = deferred.to_responses_client();
    assert_eq!(tools[0]["type"], "tool_search");
    assert_eq!(tools[0]["execution"], "client");
    assert_eq!(tools[0]["parameters"]["required"], json!(["query"]));
    assert_eq!(tools[2]["defer_loading"], true);

    let searched = json!({"id": "resp_2", "object": "response", "status": "completed", "output": [
        {"type": "tool_search_call", "id": "tsc_2", "call_id": "call_ts", "execution": "client",
         "status": "completed", "arguments": {"query": "weather in a city"}}]});
    let turn = deferred
        .toolkit()
        .respond(&searched, Dialect::OpenAiResponses)
        .await
        .unwrap();
    assert!(
        turn.calls.is_empty(),
        "the search is answered apart, not run as a call"
    );
    let answers = deferred.answer_searches(&turn.model_turn).await;
    assert_eq!(answers.len(), 1);
    assert_eq!(answers[0]["call_id"], "call_ts");
    assert_eq!(answers[0]["tools"][0]["name"], "get_weather");
    // A query the search cannot take loads no tool.
    let empty = json!([{"type": "tool_search_call", "id": "tsc_3", "call_id": "call_x",
        "execution": "client", "status": "completed", "arguments": {"query": " "}}]);
    let none = deferred.answer_searches(empty.as_array().unwrap()).await;
    assert_eq!(none[0]["tools"], json!([]));

    let called = json!({"id": "resp_3", "object": "response", "status": "completed", "output": [
        {"type": "function_call", "id": "fc_2", "call_id": "call_w", "name": "get_weather",
         "arguments": "{\"city\":\"Paris\"}", "status": "completed"}]});
    let ran = only_the_found_tool_runs(&deferred, &called, Dialect::OpenAiResponses).await;
    assert_eq!(
        deferred.to_responses_client(),
        tools,
        "the array never changes"
    );
    let mut next = turn.into_messages();
    next.extend(answers);
    next.extend(ran.into_messages());
    json!({"tools": tools, "output": searched["output"], "next": next})
}
