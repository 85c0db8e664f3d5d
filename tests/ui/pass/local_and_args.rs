//! A tool declared inside a fn body, `pub(crate)` visibility, `#[args]` with `ToolArgs`, and
//! state by reference.
use toolnexus::{tool, Tool, ToolArgs, Toolkit};

#[derive(serde::Deserialize, schemars::JsonSchema, ToolArgs)]
struct Query {
    text: String,
}

/// Search.
#[tool]
pub(crate) fn search(#[args] query: Query) -> String {
    query.text
}

struct Db(Vec<String>);

fn main() -> Result<(), toolnexus::Error> {
    /// List the rows.
    #[tool]
    fn rows(#[state] db: &Db) -> Vec<String> {
        db.0.clone()
    }

    let toolkit = Toolkit::new()
        .with(Search)?
        .with(Rows { db: Db(vec!["a".into()]) })?;
    assert_eq!(toolkit.len(), 2);
    assert_eq!(Search.name(), "search");
    Ok(())
}
