//! Tool search over the tools of real MCP servers (issue 42): the reference server
//! `@modelcontextprotocol/server-everything` (npm) and `mcp-server-time` (PyPI), as they list
//! them, indexed by `Bm25`; a labeled query set, written the way a user or a model asks, must
//! find the wanted tool among the first five at least nine times in ten.

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
