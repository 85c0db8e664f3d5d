use toolnexus::tool;

#[doc = concat!("Current ", "weather.")]
#[tool]
fn get_weather(city: String) -> String {
    city
}

fn main() {}
