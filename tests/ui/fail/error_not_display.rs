use toolnexus::tool;

#[derive(Debug)]
struct Oops;

/// Current weather.
#[tool]
fn get_weather(city: String) -> Result<String, Oops> {
    Ok(city)
}

fn main() {}
