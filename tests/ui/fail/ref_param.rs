use toolnexus::tool;

/// Current weather.
#[tool]
fn get_weather(city: &str) -> String {
    city.to_owned()
}

fn main() {}
