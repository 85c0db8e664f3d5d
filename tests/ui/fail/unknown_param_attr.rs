use toolnexus::tool;

/// Current weather.
#[tool]
fn get_weather(#[serde(default)] days: u8) -> String {
    days.to_string()
}

fn main() {}
