//! README is a landing page (issue 26): short, its first screen two commands that work on a fresh
//! machine, an Install section that lists every crate its examples use, one loop shape for whole
//! and streamed responses, and links that lead to the guides, where the deep material lives.
//! The guides (`toolnexus/docs/*.md`) are included into rustdoc, so their examples run as
//! doctests and docs.rs shows them.

use std::collections::BTreeSet;
use std::fs;

use crate::common::root;
use crate::source::read;

/// The longest README may be.
const MAX_LINES: usize = 250;

/// The lines that end both README loops, in this order: the turn says whether the model
/// answered and what it wrote before the conversation takes its messages, so nothing is lost.
const LOOP_END: [&str; 4] = [
    "let answered = turn.is_final();",
    "let text = turn.text();",
    "history.extend(turn.into_messages());",
    "if answered {",
];

fn readme() -> String {
    read(&root().join("README.md"))
}

/// The fenced blocks of a Markdown text whose info string starts with `lang`, as text.
fn blocks(text: &str, lang: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current: Option<Vec<&str>> = None;
    for line in text.lines() {
        match (&mut current, line.starts_with("```")) {
            (None, true) if line.trim_start_matches('`').starts_with(lang) => {
                current = Some(Vec::new());
            }
            (None, true) => current = Some(vec!["\u{0}"]), // another language: skipped
            (Some(block), true) => {
                if block.first() != Some(&"\u{0}") {
                    out.push(block.join("\n"));
                }
                current = None;
            }
            (Some(block), false) => block.push(line),
            (None, false) => {}
        }
    }
    out
}

/// The text of the section that starts with the heading `heading`, up to the next heading of
/// its level or above.
fn section<'a>(text: &'a str, heading: &str) -> &'a str {
    let start = text
        .find(&format!("\n{heading}\n"))
        .unwrap_or_else(|| panic!("README has no `{heading}`"));
    let rest = &text[start + heading.len() + 2..];
    let level = heading.split(' ').next().unwrap();
    let end = rest
        .lines()
        .scan(0, |at, line| {
            let here = *at;
            *at += line.len() + 1;
            Some((here, line))
        })
        .find(|(_, line)| {
            let hashes = line.split(' ').next().unwrap_or("");
            !hashes.is_empty() && hashes.chars().all(|c| c == '#') && hashes.len() <= level.len()
        })
        .map_or(rest.len(), |(at, _)| at);
    &rest[..end]
}

#[test]
fn readme_is_a_landing_page_of_at_most_250_lines() {
    let lines = readme().lines().count();
    assert!(
        lines <= MAX_LINES,
        "README.md has {lines} lines (at most {MAX_LINES}); move the detail into a guide \
         under toolnexus/docs/ and link it"
    );
}

#[test]
fn the_first_screen_gives_the_two_commands() {
    let readme = readme();
    let first_screen: String = readme.lines().take(15).collect::<Vec<_>>().join("\n");
    let commands = blocks(&first_screen, "sh");
    let commands = commands
        .first()
        .expect("a ```sh block on README's first screen");
    assert!(
        commands.contains("cargo run --example quickstart"),
        "{commands}"
    );
    assert!(commands.contains("cargo test --workspace"), "{commands}");
}

/// The test command of README's first screen: the `cargo test` line without its comment, as the
/// commands it chains with `&&`.
fn readme_test_commands() -> Vec<String> {
    let readme = readme();
    let first_screen: String = readme.lines().take(15).collect::<Vec<_>>().join("\n");
    let block = blocks(&first_screen, "sh")
        .first()
        .cloned()
        .unwrap_or_default();
    let line = block
        .lines()
        .find(|l| l.starts_with("cargo test"))
        .expect("a `cargo test` line on README's first screen");
    let command = line.split_once('#').map_or(line, |(command, _)| command);
    command.split("&&").map(|c| c.trim().to_owned()).collect()
}

#[test]
fn ci_runs_exactly_the_readmes_test_command() {
    let commands = readme_test_commands();
    assert_eq!(
        commands,
        [
            "cargo test --workspace",
            "cargo test --workspace --test macro_ui"
        ],
        "README's test command runs every suite, then the compile-fail suite on its own, with \
         the same feature set (`--workspace`), so nothing compiles twice"
    );
    let ci = std::fs::read_to_string(crate::common::root().join(".ci/run")).unwrap();
    // CI's test steps, in order: every line that runs `cargo test`.
    let steps: Vec<&str> = ci
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("cargo test"))
        .collect();
    assert_eq!(
        steps, commands,
        ".ci/run runs README's test command, step by step, and no other test command"
    );
}

#[test]
fn install_lists_every_crate_the_readme_examples_use() {
    let readme = readme();
    let install = section(&readme, "## Install");
    let mut used = BTreeSet::new();
    for block in blocks(&readme, "rust") {
        for line in block.lines().map(str::trim) {
            let path = line
                .strip_prefix("use ")
                .or_else(|| line.strip_prefix("#["))
                .unwrap_or("");
            if let Some((krate, _)) = path.split_once("::") {
                used.insert(krate.to_owned());
            }
        }
    }
    assert!(
        used.contains("futures"),
        "the streamed loop reads events with futures: {used:?}"
    );
    // Listed too: what your own argument types derive with.
    used.extend(["serde".to_owned(), "schemars".to_owned()]);
    for krate in &used {
        if ["std", "core", "alloc", "crate", "self", "super"].contains(&krate.as_str()) {
            continue;
        }
        assert!(
            install.contains(&format!("\n{krate} = ")),
            "README's examples use `{krate}`, which Install does not list"
        );
    }
}

#[test]
fn both_readme_loops_end_the_same_way_and_keep_the_conversation() {
    let loops: Vec<String> = blocks(&readme(), "rust")
        .into_iter()
        .filter(|b| b.contains("loop {"))
        .collect();
    assert_eq!(
        loops.len(),
        2,
        "the whole-response loop and the streamed loop"
    );
    for block in &loops {
        let mut from = 0;
        for line in LOOP_END {
            let at = block[from..]
                .find(line)
                .unwrap_or_else(|| panic!("a README loop lacks `{line}` (in order):\n{block}"));
            from += at + line.len();
        }
        assert!(
            !block.contains("messages: Vec<Value>"),
            "takes the conversation by value"
        );
        assert!(!block.contains("turn.model_turn"), "{block}");
    }
    assert!(loops[1].contains("StreamTurn"), "the second loop streams");
}

#[test]
fn every_guide_is_included_into_rustdoc_and_linked_from_readme() {
    let lib = read(&root().join("toolnexus/src/lib.rs"));
    let readme = readme();
    let mut guides = Vec::new();
    for entry in fs::read_dir(root().join("toolnexus/docs")).expect("toolnexus/docs") {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        if name.ends_with(".md") {
            guides.push(name);
        }
    }
    assert!(guides.len() >= 6, "{guides:?}");
    for name in guides {
        assert!(
            lib.contains(&format!("include_str!(\"../docs/{name}\")")),
            "toolnexus/docs/{name} is not included into rustdoc, so its examples do not run"
        );
        assert!(
            readme.contains(&format!("(toolnexus/docs/{name}")),
            "README does not link toolnexus/docs/{name}"
        );
    }
}

/// GitHub's anchor for a heading: lower case, spaces as `-`, other punctuation dropped.
fn anchor(heading: &str) -> String {
    heading
        .trim_start_matches('#')
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

#[test]
fn readme_links_lead_somewhere() {
    assert_eq!(
        anchor("# Key order: serde_json's `preserve_order`"),
        "key-order-serde_jsons-preserve_order"
    );
    let readme = readme();
    let mut checked = 0;
    for piece in readme.split("](").skip(1) {
        let target = piece.split(')').next().unwrap();
        if target.starts_with("http") {
            continue;
        }
        let (path, fragment) = target.split_once('#').unwrap_or((target, ""));
        let text = fs::read_to_string(root().join(path))
            .unwrap_or_else(|_| panic!("README links `{target}`, which does not exist"));
        if !fragment.is_empty() {
            let mut in_code = false;
            let anchors: Vec<String> = text
                .lines()
                .filter(|l| {
                    in_code ^= l.starts_with("```");
                    !in_code && l.starts_with('#')
                })
                .map(anchor)
                .collect();
            assert!(
                anchors.iter().any(|a| a == fragment),
                "README links `{target}`, but {path} has no such heading: {anchors:?}"
            );
        }
        checked += 1;
    }
    assert!(checked >= 8, "{checked} links");
}
