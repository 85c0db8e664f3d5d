use toolnexus::tool;

#[derive(serde::Deserialize)]
struct City {
    name: String,
}

/// Current weather.
#[tool]
fn get_weather(days: u8, city: City) -> String {
    format!("{} {days}", city.name)
}

fn main() {}
