use toolnexus::tool;

/// The user's own type, named like the tool type `#[tool] fn search` generates.
struct Search;

/// Search the docs.
#[tool]
fn search(query: String) -> String {
    query
}

fn main() {
    let _ = Search;
}
