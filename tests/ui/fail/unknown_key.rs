use toolnexus::tool;

/// Current weather.
#[tool(title = "Weather")]
fn get_weather(city: String) -> String {
    city
}

fn main() {}
