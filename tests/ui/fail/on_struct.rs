use toolnexus::tool;

/// Current weather.
#[tool]
struct GetWeather {
    city: String,
}

fn main() {}
