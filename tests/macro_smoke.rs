use toolnexus::{tool, Tool};

/// Current weather for a city.
#[tool]
async fn get_weather(
    /// The city.
    city: String,
    days: Option<u8>,
) -> String {
    format!("sunny in {city} for {}", days.unwrap_or(1))
}

#[tokio::test]
async fn smoke() {
    println!("{}", serde_json::to_string(GetWeather.input_schema().as_value()).unwrap());
    println!("{:?}", GetWeather.execute_json(r#"{"city":"X"}"#).await);
    println!("{:?}", GetWeather.execute_json(r#"{"city":"X","z":1}"#).await);
}
