use toolnexus::ToolArgs;

#[derive(serde::Deserialize, schemars::JsonSchema, ToolArgs)]
enum Unit {
    Celsius,
    Fahrenheit,
}

fn main() {}
