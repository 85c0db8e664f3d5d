use toolnexus::tool;

/// Current weather: a mistake found while parsing (an unknown parameter attribute) and one found
/// by validation (a borrowed parameter) are reported together.
#[tool]
fn get_weather(#[stat] days: u8, city: &str) -> String {
    format!("{city} {days}")
}

fn main() {
    let _ = get_weather(1, "Chennai");
    let _ = toolnexus::Toolkit::new().with(GetWeather);
}
