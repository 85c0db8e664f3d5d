use toolnexus::tool;

/// Current weather.
#[tool(name = weather)]
fn get_weather(city: String) -> String {
    city
}

fn main() {}
