use toolnexus::tool;

/// Current weather.
#[tool(label = "Weather")]
fn get_weather(city: String) -> String {
    city
}

fn main() {}
