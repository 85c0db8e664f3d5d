use toolnexus::tool;

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct SearchRequest {
    query: String,
}

/// SearchRequest the docs.
#[tool]
fn search(#[args] request: SearchRequest) -> String {
    request.query
}

fn main() {}
