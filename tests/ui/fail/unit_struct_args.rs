use toolnexus::ToolArgs;

#[derive(serde::Deserialize, schemars::JsonSchema, ToolArgs)]
struct Nothing;

fn main() {}
