//! BM25 over tools: what it ranks first, and its recall on a labeled query set over tools
//! written after those of the MCP reference servers (filesystem, memory, git, time,
//! everything), alone and among 10,000 generated ones.

use std::sync::Arc;

use serde_json::{json, Value};

use super::Bm25;
use crate::search::ToolSearch;
use crate::tool::native::NativeTool;
use crate::tool::Tool;

fn tool(name: &str, description: &str, properties: Value) -> Arc<dyn Tool> {
    let schema = json!({"type": "object", "properties": properties});
    Arc::new(NativeTool::of(name, description, schema, |_| async { "ok" }).unwrap())
}

fn names(index: &Bm25, query: &str, limit: usize) -> Vec<String> {
    index
        .search(query, limit)
        .into_iter()
        .map(|f| f.name)
        .collect()
}

#[test]
fn the_name_counts_most_and_parameters_are_read() {
    let tools = [
        tool(
            "send_email",
            "Sends a message.",
            json!({"to": {"type": "string"}}),
        ),
        tool(
            "notify",
            "Sends an email notification to the team.",
            json!({}),
        ),
        tool(
            "convert",
            "Converts a value.",
            json!({"timezone": {"type": "string", "description": "An IANA zone"}}),
        ),
    ];
    let index = Bm25::index(&tools);
    assert_eq!(index.len(), 3);
    assert_eq!(names(&index, "email", 2), ["send_email", "notify"]);
    assert_eq!(names(&index, "timezone", 3), ["convert"]);
    assert_eq!(names(&index, "IANA", 3), ["convert"]);
    assert_eq!(names(&index, "sendEmail", 1), ["send_email"]);
    // Nothing matches: nothing found; a limit of 0 finds nothing.
    assert!(index.search("weather", 5).is_empty());
    assert!(index.search("email", 0).is_empty());
    assert!(Bm25::index(&[]).search("email", 5).is_empty());
}

#[test]
fn equal_scores_keep_the_toolkits_order() {
    let tools = [
        tool("b_tool", "Does it.", json!({})),
        tool("a_tool", "Does it.", json!({})),
    ];
    let index = Bm25::index(&tools);
    assert_eq!(names(&index, "does", 2), ["b_tool", "a_tool"]);
}

/// Tools written after those of the MCP reference servers.
fn catalog() -> Vec<Arc<dyn Tool>> {
    let path = json!({"path": {"type": "string", "description": "The file's path"}});
    vec![
        tool(
            "read_file",
            "Read the complete contents of a file from the file system.",
            path.clone(),
        ),
        tool(
            "read_multiple_files",
            "Read the contents of several files at once.",
            json!({"paths": {"type": "array"}}),
        ),
        tool(
            "write_file",
            "Create a new file or overwrite an existing file with new content.",
            path.clone(),
        ),
        tool(
            "edit_file",
            "Make line-based edits to a text file, replacing exact sequences of lines.",
            path.clone(),
        ),
        tool(
            "create_directory",
            "Create a new directory, or make sure it exists.",
            path.clone(),
        ),
        tool(
            "list_directory",
            "Get a detailed listing of all files and directories in a path.",
            path.clone(),
        ),
        tool(
            "directory_tree",
            "Get a recursive tree view of files and directories as JSON.",
            path.clone(),
        ),
        tool(
            "move_file",
            "Move or rename files and directories.",
            json!({"source": {"type": "string"}, "destination": {"type": "string"}}),
        ),
        tool(
            "search_files",
            "Recursively search for files and directories matching a pattern.",
            json!({"pattern": {"type": "string"}}),
        ),
        tool(
            "get_file_info",
            "Retrieve metadata about a file: size, creation time, last modified time, permissions.",
            path,
        ),
        tool(
            "create_entities",
            "Create multiple new entities in the knowledge graph.",
            json!({"entities": {"type": "array"}}),
        ),
        tool(
            "create_relations",
            "Create relations between entities in the knowledge graph.",
            json!({"relations": {"type": "array"}}),
        ),
        tool(
            "add_observations",
            "Add new observations to existing entities in the knowledge graph.",
            json!({"observations": {"type": "array"}}),
        ),
        tool(
            "delete_entities",
            "Delete entities and their relations from the knowledge graph.",
            json!({"entityNames": {"type": "array"}}),
        ),
        tool("read_graph", "Read the entire knowledge graph.", json!({})),
        tool(
            "search_nodes",
            "Search for nodes in the knowledge graph by a query.",
            json!({"query": {"type": "string"}}),
        ),
        tool(
            "git_status",
            "Shows the working tree status of a git repository.",
            json!({"repo_path": {"type": "string"}}),
        ),
        tool(
            "git_diff_unstaged",
            "Shows changes in the working directory that are not yet staged.",
            json!({"repo_path": {"type": "string"}}),
        ),
        tool(
            "git_diff_staged",
            "Shows changes that are staged for commit.",
            json!({"repo_path": {"type": "string"}}),
        ),
        tool(
            "git_commit",
            "Records changes to the repository with a commit message.",
            json!({"message": {"type": "string"}}),
        ),
        tool(
            "git_add",
            "Adds file contents to the staging area.",
            json!({"files": {"type": "array"}}),
        ),
        tool(
            "git_log",
            "Shows the commit logs of a repository.",
            json!({"max_count": {"type": "integer"}}),
        ),
        tool(
            "git_create_branch",
            "Creates a new branch from an optional base branch.",
            json!({"branch_name": {"type": "string"}}),
        ),
        tool(
            "git_checkout",
            "Switches branches.",
            json!({"branch_name": {"type": "string"}}),
        ),
        tool(
            "get_current_time",
            "Get the current time in a specific timezone.",
            json!({"timezone": {"type": "string", "description": "IANA timezone name"}}),
        ),
        tool(
            "convert_time",
            "Convert time between timezones.",
            json!({"source_timezone": {"type": "string"}, "time": {"type": "string"}, "target_timezone": {"type": "string"}}),
        ),
        tool(
            "echo",
            "Echoes back the input.",
            json!({"message": {"type": "string"}}),
        ),
        tool(
            "add",
            "Adds two numbers.",
            json!({"a": {"type": "number"}, "b": {"type": "number"}}),
        ),
        tool(
            "printEnv",
            "Prints all environment variables, helpful for debugging MCP server configuration.",
            json!({}),
        ),
        tool("getTinyImage", "Returns the MCP tiny image.", json!({})),
    ]
}

/// Queries as a model or a user would put them, and the tool each wants.
const LABELED: &[(&str, &str)] = &[
    ("show me what's inside config.toml", "read_file"),
    ("read several files at the same time", "read_multiple_files"),
    ("save this text to a new file", "write_file"),
    ("replace a few lines in a source file", "edit_file"),
    ("make a folder called build", "create_directory"),
    ("which files are in this directory", "list_directory"),
    ("recursive tree of the project", "directory_tree"),
    ("rename notes.txt to todo.txt", "move_file"),
    ("find files matching *.rs", "search_files"),
    (
        "when was this file last modified and how big is it",
        "get_file_info",
    ),
    ("remember these people as new entities", "create_entities"),
    ("link two entities with a relation", "create_relations"),
    ("add an observation about Alice", "add_observations"),
    ("forget the entity Bob", "delete_entities"),
    ("dump the whole knowledge graph", "read_graph"),
    ("search memory for nodes about rust", "search_nodes"),
    ("what is the git status of the repo", "git_status"),
    ("diff of unstaged changes", "git_diff_unstaged"),
    ("what is staged for commit", "git_diff_staged"),
    ("commit the changes with a message", "git_commit"),
    ("stage these files", "git_add"),
    ("show the last ten commits log", "git_log"),
    ("create a feature branch", "git_create_branch"),
    ("switch to the main branch", "git_checkout"),
    ("what time is it in Tokyo timezone", "get_current_time"),
    ("convert 3pm from New York to Berlin time", "convert_time"),
    ("echo hello back", "echo"),
    ("add 2 and 3", "add"),
    ("print the environment variables", "printEnv"),
    ("give me the tiny image", "getTinyImage"),
];

/// Recall@k over [`LABELED`]: how often the wanted tool is among the first `k`.
fn recall(index: &Bm25, k: usize) -> f32 {
    let hits = LABELED
        .iter()
        .filter(|(query, wanted)| names(index, query, k).iter().any(|n| n == wanted))
        .count();
    hits as f32 / LABELED.len() as f32
}

/// 10,000 tools whose words are those of real APIs, none of them about files, graphs, git or
/// time zones.
fn distractors() -> Vec<Arc<dyn Tool>> {
    const VERBS: &[&str] = &[
        "fetch",
        "update",
        "sync",
        "publish",
        "archive",
        "approve",
        "refund",
        "schedule",
        "translate",
        "score",
    ];
    const NOUNS: &[&str] = &[
        "invoice", "customer", "ticket", "order", "campaign", "payment", "shipment", "lead",
        "survey", "playlist",
    ];
    const PLACES: &[&str] = &[
        "crm",
        "billing",
        "helpdesk",
        "shop",
        "ads",
        "bank",
        "logistics",
        "sales",
        "forms",
        "music",
    ];
    (0..10_000)
        .map(|i| {
            let (verb, noun, place) = (VERBS[i % 10], NOUNS[(i / 10) % 10], PLACES[(i / 100) % 10]);
            tool(
                &format!("{place}_{verb}_{noun}_{i}"),
                &format!("{verb} a {noun} in the {place} system (variant {i})."),
                json!({"id": {"type": "string", "description": format!("The {noun}'s id")}}),
            )
        })
        .collect()
}

#[test]
fn recall_at_5_on_the_labeled_queries_is_at_least_0_9_alone_and_among_10000_tools() {
    let alone = Bm25::index(&catalog());
    let (r1, r5) = (recall(&alone, 1), recall(&alone, 5));
    assert!(r5 >= 0.9, "recall@1 {r1}, recall@5 {r5}");

    let mut crowd = distractors();
    crowd.extend(catalog());
    let crowded = Bm25::index(&crowd);
    let (c1, c5) = (recall(&crowded, 1), recall(&crowded, 5));
    assert!(c5 >= 0.9, "among 10,000: recall@1 {c1}, recall@5 {c5}");
}
