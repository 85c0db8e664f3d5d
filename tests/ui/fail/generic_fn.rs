use toolnexus::tool;

/// Echo a value.
#[tool]
fn echo<T: serde::de::DeserializeOwned + ToString>(value: T) -> String {
    value.to_string()
}

fn main() {}
