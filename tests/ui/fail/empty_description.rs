use toolnexus::tool;

/// Current weather.
#[tool(description = "  ")]
fn get_weather(city: String) -> String {
    city
}

fn main() {}
