use toolnexus::ToolArgs;

#[derive(serde::Deserialize, schemars::JsonSchema, ToolArgs)]
struct Point(i32, i32);

fn main() {}
