//! Tool search over the tools of real MCP servers (issue 42): the reference server
//! `@modelcontextprotocol/server-everything` (npm) and `mcp-server-time` (PyPI), as they list
//! them, indexed by `Bm25`; a labeled query set, written the way a user or a model asks, must
//! find the wanted tool among the first five at least nine times in ten. And a gateway of three
//! servers behind a `LiveToolkit`, all deferred but one tool, searched and called through.

use toolnexus::mcp::McpSource;
use toolnexus::search::{Bm25, ToolSearch};
use toolnexus::Toolkit;
use toolnexus_mcp_tests::{everything, python};

/// Queries and the tool each wants.
const LABELED: &[(&str, &str)] = &[
    ("echo this text back to me", "echo"),
    ("what is the sum of 2 and 3", "get-sum"),
    ("show the environment variables", "get-env"),
    ("give me the tiny logo image", "get-tiny-image"),
    ("compress a file with gzip", "gzip-file-as-resource"),
    (
        "start a long running operation that reports progress",
        "trigger-long-running-operation",
    ),
    ("turn on simulated logging", "toggle-simulated-logging"),
    (
        "research a question in depth and synthesize the findings",
        "simulate-research-query",
    ),
    (
        "return structured content with an output schema",
        "get-structured-content",
    ),
    (
        "links to resources of different types",
        "get-resource-links",
    ),
    ("what time is it in Tokyo", "get_current_time"),
    ("convert 9am London time to New York", "convert_time"),
];

#[tokio::test]
async fn bm25_finds_the_wanted_tool_of_real_servers_in_its_first_five() {
    let (Some(everything), Some(python)) = (everything(), python()) else {
        return;
    };
    let mut toolkit = Toolkit::new();
    McpSource::stdio("everything", everything)
        .arg("stdio")
        .connect()
        .await
        .expect("server-everything connects")
        .add_to(&mut toolkit)
        .unwrap();
    McpSource::stdio("time", python.with_file_name("mcp-server-time"))
        .arg("--local-timezone=UTC")
        .connect()
        .await
        .expect("mcp-server-time connects")
        .add_to(&mut toolkit)
        .unwrap();
    let index = Bm25::index(toolkit.tools());
    let ranks: Vec<Option<usize>> = LABELED
        .iter()
        .map(|(query, wanted)| {
            index
                .search(query, 5)
                .iter()
                .position(|found| found.name == *wanted)
        })
        .collect();
    let at = |k: usize| {
        ranks.iter().filter(|r| r.is_some_and(|r| r < k)).count() as f64 / ranks.len() as f64
    };
    let misses: Vec<&str> = LABELED
        .iter()
        .zip(&ranks)
        .filter(|(_, r)| r.is_none())
        .map(|((q, _), _)| *q)
        .collect();
    eprintln!(
        "real servers: recall@1 {:.2}, recall@5 {:.2} over {} tools",
        at(1),
        at(5),
        toolkit.len()
    );
    assert!(
        at(5) >= 0.9,
        "recall@1 {:.2}, recall@5 {:.2} over {} tools; missed: {misses:?}",
        at(1),
        at(5),
        toolkit.len()
    );
}

/// A gateway of three MCP servers behind one `LiveToolkit` (the reference server, the time
/// server, and ours), every tool deferred but one: a scripted model searches, the tool of the
/// third server it needs joins the next request, and its call reaches that server. When a
/// server's list changes, a `Deferred` made again from the live toolkit's current toolkit finds
/// the new tool too.
#[tokio::test]
async fn a_gateway_of_three_servers_defers_all_but_one_and_finds_the_third_servers_tool() {
    use serde_json::{json, Value};
    use std::time::Duration;
    use toolnexus::deferred::{Deferred, SEARCH_TOOL};
    use toolnexus::mcp::LiveToolkit;
    use toolnexus::Dialect;
    let (Some(everything), Some(python)) = (everything(), python()) else {
        return;
    };
    let live = LiveToolkit::new(Toolkit::new());
    let servers = [
        McpSource::stdio("everything", everything).arg("stdio"),
        McpSource::stdio("time", python.with_file_name("mcp-server-time"))
            .arg("--local-timezone=UTC"),
        McpSource::stdio("changing", env!("CARGO_BIN_EXE_hostile_server"))
            .arg("changing")
            .env(
                "HOSTILE_LOG",
                toolnexus_mcp_tests::log_file("gateway-search.log"),
            ),
    ];
    let mut connections = Vec::new();
    for server in servers {
        let connection = server.connect().await.expect("each server connects");
        live.attach(&connection).unwrap();
        connections.push(connection);
    }
    let names = |tools: &[Value]| -> Vec<String> {
        tools
            .iter()
            .map(|t| t["function"]["name"].as_str().unwrap().to_owned())
            .collect()
    };
    let deferred = Deferred::new(Toolkit::clone(&live.current()), ["echo"]).unwrap();
    let mut history = vec![Dialect::OpenAiChat.user_message("What time is it in Tokyo?")];
    let first = deferred.tools_for(Dialect::OpenAiChat, &history).unwrap();
    assert_eq!(names(&first), [SEARCH_TOOL, "echo"]);

    let call = |id: &str, name: &str, arguments: Value| {
        json!({"choices": [{"finish_reason": "tool_calls", "message": {"role": "assistant",
            "content": null, "tool_calls": [{"id": id, "type": "function", "function": {
            "name": name, "arguments": arguments.to_string()}}]}}]})
    };
    let searched = deferred
        .toolkit()
        .respond(
            &call(
                "c1",
                SEARCH_TOOL,
                json!({"query": "current time in a timezone"}),
            ),
            Dialect::OpenAiChat,
        )
        .await
        .unwrap();
    history.extend(searched.into_messages());
    let next = names(&deferred.tools_for(Dialect::OpenAiChat, &history).unwrap());
    assert!(next.contains(&"get_current_time".to_owned()), "{next:?}");
    assert_eq!(next[..2], [SEARCH_TOOL, "echo"]);

    let answered = deferred
        .toolkit()
        .respond(
            &call("c2", "get_current_time", json!({"timezone": "Asia/Tokyo"})),
            Dialect::OpenAiChat,
        )
        .await
        .unwrap();
    assert!(!answered.results[0].is_error, "{:?}", answered.results[0]);
    assert!(
        answered.results[0].output.contains("Asia/Tokyo"),
        "{:?}",
        answered.results[0]
    );

    // The third server's list grows; a Deferred made again from the live toolkit finds it.
    let generation = live.generation();
    assert_eq!(
        live.current().execute("add_tool", json!({})).await.output,
        "added"
    );
    tokio::time::timeout(Duration::from_secs(10), live.changed(generation))
        .await
        .expect("the live toolkit follows the third server");
    let again = Deferred::new(Toolkit::clone(&live.current()), ["echo"]).unwrap();
    let found = again
        .toolkit()
        .execute(SEARCH_TOOL, json!({"query": "new tool"}))
        .await;
    assert!(found.output.contains("new_tool"), "{found:?}");
    drop(connections);
}
