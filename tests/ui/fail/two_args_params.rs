use toolnexus::{tool, ToolArgs};

#[derive(serde::Deserialize, schemars::JsonSchema, ToolArgs)]
struct SearchRequest {
    query: String,
}

/// Search the docs.
#[tool]
fn search(#[args] a: SearchRequest, #[args] b: SearchRequest) -> String {
    format!("{}{}", a.query, b.query)
}

fn main() {}
