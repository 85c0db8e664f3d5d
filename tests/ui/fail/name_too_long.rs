use toolnexus::tool;

/// Current weather.
#[tool(name = "a_name_that_is_far_too_long_for_any_provider_to_accept_as_a_tool_name")]
fn get_weather(city: String) -> String {
    city
}

fn main() {}
