use toolnexus::tool;

struct Weather;

impl Weather {
    /// Current weather.
    #[tool]
    fn get_weather(&self, city: String) -> String {
        city
    }
}

fn main() {}
