use toolnexus::{tool, ToolArgs};

#[derive(serde::Deserialize, schemars::JsonSchema, ToolArgs)]
struct SearchRequest {
    query: String,
}

/// SearchRequest the docs.
#[tool]
fn search(
    /// The request.
    #[args]
    request: SearchRequest,
) -> String {
    request.query
}

fn main() {}
