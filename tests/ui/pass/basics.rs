//! The forms the guide shows compile, and the fn stays callable as itself.
use std::sync::Arc;
use toolnexus::{tool, Tool, Toolkit};

/// Current weather for a city.
#[tool]
pub async fn get_weather(
    /// The city.
    city: String,
) -> String {
    format!("sunny in {city}")
}

/// Add two numbers.
#[doc(alias = "sum")]
#[tool(name = "add-numbers")]
#[must_use]
fn add(a: i64, b: i64) -> i64 {
    a + b
}

#[tool(description = "Find a user by id.")]
fn find_user(#[state] users: &Vec<String>, #[state] prefix: Arc<str>, id: usize) -> Option<String> {
    users.get(id).map(|u| format!("{prefix}{u}"))
}

/// Compiled out, with everything generated for it.
#[tool]
#[cfg(any())]
fn never(x: NoSuchType) -> String {
    x
}

fn main() -> Result<(), toolnexus::Error> {
    assert_eq!(add(1, 2), 3);
    let _future = get_weather("Chennai".into());
    let toolkit = Toolkit::new()
        .with(GetWeather)?
        .with(Add)?
        .with(FindUser { users: vec!["ann".into()], prefix: Arc::from("@") })?;
    assert_eq!(toolkit.names().collect::<Vec<_>>(), ["get_weather", "add-numbers", "find_user"]);
    assert_eq!(Add.description(), "Add two numbers.");
    Ok(())
}
