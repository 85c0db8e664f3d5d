use toolnexus::tool;

/// Current weather.
#[tool]
unsafe fn get_weather(city: String) -> String {
    city
}

fn main() {}
