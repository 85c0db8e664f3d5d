use toolnexus::{tool, ToolArgs};

#[derive(serde::Deserialize, schemars::JsonSchema, ToolArgs)]
struct SearchRequest {
    query: String,
}

/// SearchRequest the docs.
#[tool]
fn search(#[args] request: SearchRequest, limit: u32) -> String {
    format!("{} {limit}", request.query)
}

fn main() {}
