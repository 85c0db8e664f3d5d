//! Docs checked against data: a table that lists the dialects lists every one of them.
//!
//! Reads every Markdown table in the runtime crate's doc comments, its guides, README.md and
//! ARCHITECTURE.md (the rows of consecutive lines starting with `|`, after a doc comment's
//! `//!` or `///`). A table whose rows name at least three dialects lists dialects, and must then
//! name all of `Dialect::ALL`: a new provider added to the code but not to a table fails here
//! (Cohere, the sixth, was missing from tables that listed the other five). A table that names
//! dialects without listing them (measurements of some, examples in a row) says so in the line
//! before it: `<!-- not a list of dialects: WHY -->`.

use std::path::{Path, PathBuf};

use toolnexus::Dialect;

use crate::common::root;
use crate::source::{read, rust_files};

/// How each dialect is named in prose and tables (any of these counts).
fn spellings(dialect: Dialect) -> &'static [&'static str] {
    match dialect {
        Dialect::OpenAiChat => &["OpenAI Chat", "OpenAiChat", "Chat Completions"],
        Dialect::OpenAiResponses => &["Responses"],
        Dialect::Anthropic => &["Anthropic"],
        Dialect::Gemini => &["Gemini"],
        Dialect::Bedrock => &["Bedrock"],
        Dialect::Cohere => &["Cohere"],
        // A dialect added later must be given its spellings here.
        #[allow(unreachable_patterns)]
        _ => &[],
    }
}

/// One Markdown table: where it starts, and its rows.
struct Table {
    file: PathBuf,
    line: usize,
    rows: Vec<String>,
    /// The line before it says it is not a list of dialects.
    exempt: bool,
}

/// What the line before a table says when the table names dialects without listing them.
const NOT_A_LIST: &str = "<!-- not a list of dialects:";

/// The tables of `text`, read from `file` (a doc comment's prefix stripped from each line).
fn tables(file: &Path, text: &str) -> Vec<Table> {
    let mut found = Vec::new();
    let mut current: Option<Table> = None;
    let mut previous = "";
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        let content = trimmed
            .strip_prefix("//!")
            .or_else(|| trimmed.strip_prefix("///"))
            .unwrap_or(trimmed)
            .trim();
        if content.starts_with('|') {
            current
                .get_or_insert_with(|| Table {
                    file: file.to_path_buf(),
                    line: i + 1,
                    rows: Vec::new(),
                    exempt: previous.contains(NOT_A_LIST),
                })
                .rows
                .push(content.to_owned());
        } else if let Some(table) = current.take() {
            found.push(table);
        }
        previous = line;
    }
    found.extend(current);
    found
}

/// The dialects `rows` name.
fn named(rows: &[String]) -> Vec<Dialect> {
    Dialect::ALL
        .iter()
        .copied()
        .filter(|&d| {
            spellings(d)
                .iter()
                .any(|s| rows.iter().any(|row| row.contains(s)))
        })
        .collect()
}

/// Every file whose tables are read.
fn documents() -> Vec<PathBuf> {
    let root = root();
    let mut files = Vec::new();
    rust_files(&root.join("toolnexus/src"), &mut files);
    let mut guides: Vec<PathBuf> = std::fs::read_dir(root.join("toolnexus/docs"))
        .expect("the guides")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    guides.sort();
    files.extend(guides);
    files.push(root.join("README.md"));
    files.push(root.join("ARCHITECTURE.md"));
    files
}

#[test]
fn every_spelling_is_known() {
    for dialect in Dialect::ALL {
        assert!(
            !spellings(dialect).is_empty(),
            "{dialect:?} has no spelling"
        );
    }
}

#[test]
fn a_table_that_lists_dialects_lists_every_one() {
    let mut stale = Vec::new();
    let mut checked = 0;
    for file in documents() {
        for table in tables(&file, &read(&file)) {
            let named = named(&table.rows);
            if named.len() < 3 || table.exempt {
                continue;
            }
            checked += 1;
            let missing: Vec<Dialect> = Dialect::ALL
                .iter()
                .copied()
                .filter(|d| !named.contains(d))
                .collect();
            if !missing.is_empty() {
                let file = table.file.strip_prefix(root()).unwrap_or(&table.file);
                stale.push(format!(
                    "{}:{}: a table of dialects without {missing:?}",
                    file.display(),
                    table.line
                ));
            }
        }
    }
    assert!(checked >= 5, "only {checked} tables of dialects found");
    assert!(stale.is_empty(), "{}", stale.join("\n"));
}

#[test]
fn the_reader_finds_tables_in_doc_comments_and_markdown() {
    let text = "//! | a | b |\n//! |---|---|\n//! | Gemini | x |\nfn f() {}\n| c |\n\
                <!-- not a list of dialects: examples -->\n| Cohere |\n";
    let found = tables(Path::new("x.rs"), text);
    assert_eq!(found.len(), 3);
    assert_eq!(found[0].rows.len(), 3);
    assert_eq!(found[0].line, 1);
    assert_eq!(named(&found[0].rows), [Dialect::Gemini]);
    assert_eq!(found[1].line, 5);
    assert!(!found[0].exempt && !found[1].exempt && found[2].exempt);
}
