use toolnexus::tool;

struct Db;

/// Find a user.
#[tool]
fn find_user(#[state] db: &mut Db, id: u64) -> String {
    let _ = db;
    id.to_string()
}

fn main() {}
