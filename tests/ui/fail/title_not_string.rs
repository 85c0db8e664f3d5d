use toolnexus::tool;

/// Current weather.
#[tool(title = Weather)]
fn get_weather(city: String) -> String {
    city
}

/// Tomorrow's weather.
#[tool(title)]
fn get_forecast(city: String) -> String {
    city
}

fn main() {
    let _ = toolnexus::Toolkit::new().with((GetWeather, GetForecast));
}
