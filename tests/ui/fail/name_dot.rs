use toolnexus::tool;

/// Current weather.
#[tool(name = "get.weather")]
fn get_weather(city: String) -> String {
    city
}

fn main() {}
