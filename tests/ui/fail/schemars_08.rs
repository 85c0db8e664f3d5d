// The user's crate derives `JsonSchema` from schemars 0.8 (here renamed `schemars08`; in a real
// crate, `schemars = "0.8"` in its Cargo.toml) while toolnexus uses schemars 1: two versions of
// the trait, and the error names that as the cause, with the fix.
use toolnexus::tool;

#[derive(serde::Deserialize, schemars08::JsonSchema)]
#[schemars(crate = "schemars08")]
struct Query {
    text: String,
}

/// Search the docs.
#[tool]
fn search(query: Query) -> String {
    query.text
}

fn main() {}
