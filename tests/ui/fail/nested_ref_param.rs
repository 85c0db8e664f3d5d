use toolnexus::tool;

/// Current weather.
#[tool]
fn get_weather(cities: Vec<&str>) -> String {
    cities.join(", ")
}

fn main() {}
