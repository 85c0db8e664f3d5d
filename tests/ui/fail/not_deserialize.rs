use toolnexus::tool;

#[derive(schemars::JsonSchema)]
struct City {
    name: String,
}

/// Current weather.
#[tool]
fn get_weather(city: City) -> String {
    city.name
}

fn main() {}
