use std::rc::Rc;
use toolnexus::tool;

async fn tick() {}

/// Holds an `Rc` across an await point.
#[tool]
async fn not_send(city: String) -> String {
    let shared = Rc::new(city);
    tick().await;
    shared.to_string()
}

fn main() {}
