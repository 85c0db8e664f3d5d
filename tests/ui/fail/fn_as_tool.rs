// A `#[tool] fn` passed where a tool is expected: the error says which type to pass instead.
use toolnexus::{tool, Toolkit};

/// Current weather for a city.
#[tool]
async fn get_weather(city: String) -> String {
    city
}

/// Adds two integers.
#[tool]
fn add(a: i64, b: i64) -> i64 {
    a + b
}

fn main() {
    let _ = Toolkit::new().with(get_weather);
    let _ = Toolkit::new().with((GetWeather, add));
    let _ = Toolkit::new().with(add);
}
