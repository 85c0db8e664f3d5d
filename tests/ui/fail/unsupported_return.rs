use toolnexus::tool;

struct Weather {
    celsius: f64,
}

/// Current weather.
#[tool]
async fn get_weather(city: String) -> Weather {
    let _ = city;
    Weather { celsius: 31.5 }
}

fn main() {}
