use toolnexus::ToolArgs;

#[derive(serde::Deserialize, schemars::JsonSchema, ToolArgs)]
#[tool_args(krate = "toolnexus")]
struct SearchRequest {
    query: String,
}

fn main() {}
