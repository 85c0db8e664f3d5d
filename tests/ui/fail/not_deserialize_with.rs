use toolnexus::{tool, Toolkit};

#[derive(schemars::JsonSchema)]
struct City {
    name: String,
}

/// Current weather.
#[tool]
fn get_weather(city: City) -> String {
    city.name
}

fn main() {
    // One error, on the type above: the tool type still implements `Tool`.
    let _ = Toolkit::new().with(GetWeather);
}
