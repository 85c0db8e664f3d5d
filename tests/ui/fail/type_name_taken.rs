use toolnexus::{tool, ToolArgs};

/// The user's own type, named like the tool type `#[tool] fn search` generates.
#[derive(serde::Deserialize, schemars::JsonSchema, ToolArgs)]
struct Search {
    query: String,
}

/// Search the docs.
#[tool]
fn search(#[args] request: Search) -> String {
    request.query
}

fn main() {}
