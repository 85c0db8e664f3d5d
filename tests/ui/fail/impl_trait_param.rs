use toolnexus::tool;

/// Shout a text.
#[tool]
fn shout(text: impl Into<String>) -> String {
    text.into().to_uppercase()
}

fn main() {}
