//! Source hygiene (issue 6, point 6; SPEC §6): both crates forbid `unsafe`, and nothing in the
//! library or in the code `#[tool]` generates writes arguments or outputs anywhere. Lints do
//! what lints can (`[workspace.lints]`: `unsafe_code`, clippy's `print_stdout`, `print_stderr`,
//! `dbg_macro`; CI's clippy runs with `-D warnings`): this checks that both crates keep them,
//! and greps for what no lint covers (logging facades, direct stdout/stderr handles).

use std::fs;

use crate::common::root;
use crate::source::rust_files;

/// The crate-level attributes of a crate root: its leading `#![...]` lines.
fn inner_attributes(source: &str) -> Vec<&str> {
    source
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("#!["))
        .collect()
}

#[test]
fn both_crates_forbid_unsafe_code_and_keep_the_workspace_lints() {
    let workspace = fs::read_to_string(root().join("Cargo.toml")).unwrap();
    for lint in [
        "unsafe_code = \"forbid\"",
        "print_stdout = \"deny\"",
        "print_stderr = \"deny\"",
        "dbg_macro = \"deny\"",
    ] {
        assert!(workspace.contains(lint), "[workspace.lints] lost `{lint}`");
    }
    for krate in ["toolnexus", "toolnexus-macros"] {
        let path = root().join(krate).join("src/lib.rs");
        let source = fs::read_to_string(&path).unwrap();
        assert!(
            inner_attributes(&source).contains(&"#![forbid(unsafe_code)]"),
            "{} must start with #![forbid(unsafe_code)]",
            path.display()
        );
        let manifest = fs::read_to_string(root().join(krate).join("Cargo.toml")).unwrap();
        assert!(
            manifest.contains("[lints]\nworkspace = true"),
            "{krate} must opt in to the workspace lints"
        );
    }
}

/// What would write data somewhere: the print macros, the logging facades, the standard streams.
/// (The print macros and `dbg!` are clippy's `print_stdout`, `print_stderr` and `dbg_macro`.)
const FORBIDDEN: [&str; 7] = [
    "log::",
    "tracing::",
    "std::io::stdout",
    "std::io::stderr",
    "io::stdout",
    "io::stderr",
    "#[instrument",
];

/// `needle` in `line`, not as the tail of a longer identifier (`catalog::` is not `log::`).
fn contains_word(line: &str, needle: &str) -> bool {
    line.match_indices(needle).any(|(i, _)| {
        !line[..i]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_alphanumeric() || c == '_')
    })
}

#[test]
fn the_word_check_ignores_longer_identifiers() {
    assert!(contains_word("    log::info!(\"x\")", "log::"));
    assert!(contains_word("x;println!(\"{}\", args)", "println!"));
    assert!(!contains_word("use crate::catalog::Entry;", "log::"));
    assert!(!contains_word("fn my_dbg!()", "dbg!"));
}

#[test]
fn nothing_in_the_library_or_the_macro_logs_arguments_or_outputs() {
    let mut files = Vec::new();
    rust_files(&root().join("toolnexus/src"), &mut files);
    rust_files(&root().join("toolnexus-macros/src"), &mut files);
    assert!(files.len() > 10, "the sources were found: {files:?}");
    let mut found = Vec::new();
    for file in &files {
        let text = fs::read_to_string(file).unwrap();
        // The optional `tracing` feature's one span per call lives in guard/trace.rs, and only there
        // (its test checks that no argument or output reaches it).
        let tracing_allowed = file.ends_with("toolnexus/src/guard/trace.rs");
        for (n, line) in text.lines().enumerate() {
            for needle in FORBIDDEN {
                if contains_word(line, needle) && !(tracing_allowed && needle == "tracing::") {
                    found.push(format!("{}:{}: {}", file.display(), n + 1, line.trim()));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "logging or printing found:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_library_depends_on_no_logging_crate() {
    for krate in ["toolnexus", "toolnexus-macros"] {
        let manifest = fs::read_to_string(root().join(krate).join("Cargo.toml")).unwrap();
        for dep in ["log", "tracing", "env_logger", "slog", "defmt"] {
            let line_starts = manifest
                .lines()
                .map(str::trim)
                // The `tracing` feature, off by default, is the one exception.
                .filter(|l| {
                    *l != "tracing = { workspace = true, optional = true }"
                        && *l != r#"tracing = ["dep:tracing"]"#
                })
                .any(|l| l.starts_with(&format!("{dep} =")) || l.starts_with(&format!("{dep}.")));
            assert!(!line_starts, "{krate} depends on `{dep}`");
        }
        let on_by_default = manifest
            .lines()
            .any(|l| l.trim().starts_with("default =") && l.contains("tracing"));
        assert!(
            !on_by_default,
            "{krate}: `tracing` must stay off by default"
        );
    }
}
