use std::sync::Arc;
use toolnexus::tool;

/// Find a user.
#[tool]
fn find_user(#[state(shared)] db: Arc<String>, id: u64) -> String {
    format!("{db}{id}")
}

fn main() {}
