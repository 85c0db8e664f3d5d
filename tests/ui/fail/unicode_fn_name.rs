use toolnexus::tool;

/// Current weather.
#[tool]
fn météo(city: String) -> String {
    city
}

fn main() {}
