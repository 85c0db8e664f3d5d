use toolnexus::tool;

/// Current weather.
#[tool("get_weather")]
fn get_weather(city: String) -> String {
    city
}

fn main() {}
