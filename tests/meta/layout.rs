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
