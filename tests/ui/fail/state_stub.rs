use std::sync::Arc;
use toolnexus::{tool, Toolkit};

/// Find a user, with a mistake in the name: the stub tool type keeps its state field and
/// implements `Tool`, so constructing and registering it adds no second error.
#[tool(name = "find user")]
fn find_user(#[state] db: Arc<String>, id: u64) -> String {
    format!("{db}{id}")
}

fn main() {
    let _ = Toolkit::new().with(FindUser { db: Arc::new(String::new()) });
}
