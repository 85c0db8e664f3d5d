//! The test tree's layout (issue 11): one test binary per topic, each a directory with a
//! `main.rs`, so the suite links toolnexus once per topic; and the SDK checks in one binary, so a
//! machine without Python prints the skip line once.

use std::fs;

use crate::common::root;
use crate::source::rust_files;

/// The test files at the top of `tests/` (each its own binary) that may stay there.
const TOP_LEVEL: [&str; 1] = [
    // trybuild compiles `tests/ui/` itself, slowly: kept apart from the quick binaries.
    "macro_ui.rs",
];

#[test]
fn tests_are_grouped_in_one_binary_per_topic() {
    let mut loose = Vec::new();
    for entry in fs::read_dir(root().join("tests")).expect("the tests directory") {
        let path = entry.expect("a directory entry").path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if path.extension().is_some_and(|x| x == "rs") && !TOP_LEVEL.contains(&name.as_str()) {
            loose.push(name);
        }
    }
    assert!(
        loose.is_empty(),
        "tests/{loose:?}: each is a binary of its own; make it a module of its topic's \
         tests/<topic>/main.rs (or start a topic there)"
    );
}

#[test]
fn only_the_sdk_binary_runs_the_sdk_checks() {
    let mut files = Vec::new();
    rust_files(&root().join("tests"), &mut files);
    let sdk = root().join("tests/sdk");
    // The MCP tests are a package of their own (feature `mcp`), whose one `python()` prints its
    // own skip line once.
    let mcp = root().join("tests/mcp");
    let elsewhere: Vec<String> = files
        .iter()
        .filter(|f| !f.starts_with(&sdk) && !f.starts_with(&mcp) && **f != root().join(file!()))
        .filter(|f| {
            let text = fs::read_to_string(f).unwrap();
            text.contains("venv.rs") || text.contains("venv::") || text.contains("scripts/venv.sh")
        })
        .map(|f| f.display().to_string())
        .collect();
    assert!(
        elsewhere.is_empty(),
        "{elsewhere:?} use the SDK checks: put those tests in tests/sdk/, whose one `python()` \
         prints the skip line once for the whole run"
    );
    assert!(fs::read_to_string(sdk.join("main.rs"))
        .unwrap()
        .contains("\nmod venv;"));
}

/// ARCHITECTURE.md for a newcomer (issue 40): every table row short enough to read (at most
/// 400 characters), and every guide, test binary, MCP test program and examples package
/// named, so one added without a word there fails here.
#[test]
fn architecture_md_has_short_rows_and_names_every_guide_binary_and_example() {
    let text = fs::read_to_string(root().join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    let long: Vec<String> = text
        .lines()
        .enumerate()
        .filter(|(_, line)| line.starts_with('|') && line.chars().count() > 400)
        .map(|(n, line)| format!("line {}: {} characters", n + 1, line.chars().count()))
        .collect();
    assert!(
        long.is_empty(),
        "ARCHITECTURE.md rows over 400 characters: {long:?}"
    );

    let stems = |dir: &str, ext: &str| -> Vec<String> {
        let mut found: Vec<String> = fs::read_dir(root().join(dir))
            .unwrap_or_else(|e| panic!("{dir}: {e}"))
            .filter_map(|entry| {
                let path = entry.ok()?.path();
                let stem = path.file_stem()?.to_string_lossy().into_owned();
                (path.extension()? == ext).then_some(stem)
            })
            .collect();
        found.sort();
        found
    };
    let mut named = Vec::new();
    named.extend(stems("toolnexus/docs", "md"));
    named.extend(stems("tests/mcp/src/bin", "rs"));
    for entry in fs::read_dir(root().join("tests")).expect("tests/") {
        let path = entry.expect("an entry").path();
        if path.join("main.rs").is_file() {
            named.push(path.file_name().unwrap().to_string_lossy().into_owned());
        }
    }
    for package in ["examples", "examples/http", "examples/mcp"] {
        named.extend(stems(package, "rs").into_iter().filter(|s| s != "main"));
    }
    let missing: Vec<&String> = named
        .iter()
        .filter(|name| !text.contains(&format!("`{name}`")))
        .collect();
    assert!(
        missing.is_empty(),
        "ARCHITECTURE.md does not name these guides, test binaries, MCP test programs or \
         examples (write each in backticks where it belongs): {missing:?}"
    );
}
