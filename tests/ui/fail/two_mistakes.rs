use toolnexus::tool;

/// Current weather, with two separate mistakes: both are reported, each once.
#[tool(name = "get weather")]
fn get_weather(city: &str) -> String {
    city.to_owned()
}

fn main() {
    // The fn and a stub tool type are still emitted: no follow-on errors here.
    let _ = get_weather("Chennai");
    let _ = toolnexus::Toolkit::new().with(GetWeather);
}
