use toolnexus::tool;

trait Weather {
    /// Current weather.
    #[tool]
    fn get_weather(city: String) -> String;
}

fn main() {}
