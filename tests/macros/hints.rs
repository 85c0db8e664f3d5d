//! `#[tool(title = "...", read_only, ...)]`: the generated type's `Tool::title()` and
//! `Tool::hints()` say exactly what the attribute gave, each hint as written (bare is `true`),
//! the others `None`; without them a tool keeps the trait's defaults.

use std::sync::Arc;

use toolnexus::{tool, Tool, ToolHints, Toolkit};

/// Looks a word up.
#[tool(title = "Dictionary lookup", read_only, open_world = false)]
fn lookup(word: String) -> String {
    word
}

/// Removes everything under the root.
#[tool(open_world, destructive = true, read_only = false, idempotent = false)]
async fn wipe(#[state] root: Arc<String>) -> String {
    root.to_string()
}

/// Creates the file if it is missing.
#[tool(idempotent, destructive = false, title = "Touch")]
fn touch(path: String) -> String {
    path
}

/// Adds two numbers.
#[tool]
fn add(a: i64, b: i64) -> i64 {
    a + b
}

#[test]
fn each_hint_is_what_the_attribute_says_and_the_others_are_none() {
    let lookup = Lookup.hints();
    assert_eq!(lookup.read_only, Some(true));
    assert_eq!(lookup.destructive, None);
    assert_eq!(lookup.idempotent, None);
    assert_eq!(lookup.open_world, Some(false));

    let wipe = Wipe {
        root: Arc::new("/tmp".into()),
    }
    .hints();
    assert_eq!(wipe.read_only, Some(false));
    assert_eq!(wipe.destructive, Some(true));
    assert_eq!(wipe.idempotent, Some(false));
    assert_eq!(wipe.open_world, Some(true));

    let touch = Touch.hints();
    assert_eq!(touch.read_only, None);
    assert_eq!(touch.destructive, Some(false));
    assert_eq!(touch.idempotent, Some(true));
    assert_eq!(touch.open_world, None);
}

#[test]
fn the_title_is_the_attributes() {
    assert_eq!(Lookup.title(), Some("Dictionary lookup"));
    assert_eq!(Touch.title(), Some("Touch"));
    assert_eq!(
        Wipe {
            root: Arc::new("/tmp".into())
        }
        .title(),
        None
    );
}

#[test]
fn without_them_a_tool_keeps_the_defaults() {
    assert_eq!(Add.title(), None);
    assert_eq!(Add.hints(), ToolHints::new());
}

#[test]
fn a_toolkit_hands_them_out_as_given() {
    let toolkit = Toolkit::new().with((Lookup, Touch, Add)).unwrap();
    let hints: Vec<(String, Option<String>, ToolHints)> = toolkit
        .tools()
        .iter()
        .map(|t| (t.name().to_owned(), t.title().map(str::to_owned), t.hints()))
        .collect();
    assert_eq!(
        hints,
        [
            (
                "lookup".to_owned(),
                Some("Dictionary lookup".to_owned()),
                ToolHints::new().with_read_only(true).with_open_world(false)
            ),
            (
                "touch".to_owned(),
                Some("Touch".to_owned()),
                ToolHints::new()
                    .with_idempotent(true)
                    .with_destructive(false)
            ),
            ("add".to_owned(), None, ToolHints::new()),
        ]
    );
}
