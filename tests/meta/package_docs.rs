//! What a user sees of the published crates: the docs.rs front page, the rustdoc of every item,
//! the crates.io READMEs and the manifests' metadata. Greps over the sources, so a regression
//! fails `cargo test` before review (`cargo publish --dry-run` in CI checks the packages build).

use crate::common::root;
use crate::source::{read, rust_files};

const CRATES: [&str; 2] = ["toolnexus", "toolnexus-macros"];

/// The text of every doc comment (`///`, `//!`, `#[doc = "..."]`) of a file, with line numbers.
fn doc_lines(source: &str) -> Vec<(usize, &str)> {
    source
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim_start()))
        .filter_map(|(n, l)| {
            l.strip_prefix("///")
                .or_else(|| l.strip_prefix("//!"))
                .or_else(|| l.strip_prefix("#[doc = \""))
                .map(|text| (n, text))
        })
        .collect()
}

/// Words that point at the project's internal documents rather than at the API.
const INTERNAL: [&str; 5] = ["SPEC", "§", "family's rule", "issue ", "the brief"];

#[test]
fn the_front_page_leads_with_tool_a_gemini_body_and_one_respond() {
    let lib = read(&root().join("toolnexus/src/lib.rs"));
    let front: Vec<&str> = lib
        .lines()
        .take_while(|l| l.starts_with("//!"))
        .map(|l| l.trim_start_matches("//!").trim_start())
        .collect();
    let start = front
        .iter()
        .position(|l| l.starts_with("```"))
        .expect("the crate docs have an example");
    let len = front[start + 1..]
        .iter()
        .position(|l| l.starts_with("```"))
        .expect("the first example ends");
    let example = front[start + 1..start + 1 + len].join("\n");
    assert!(example.contains("#[tool]"), "{example}");
    assert!(example.contains("toolkit.to_gemini()"), "{example}");
    assert_eq!(example.matches(".respond(").count(), 1, "{example}");
    assert!(!example.contains("NativeTool"), "{example}");
    let before = front[..start].join("\n");
    assert!(before.contains("#[tool]"), "{before}");
    assert!(!before.contains("NativeTool"), "{before}");
}

#[test]
fn no_public_doc_points_at_internal_documents() {
    let mut found = Vec::new();
    for krate in CRATES {
        let mut files = Vec::new();
        rust_files(&root().join(krate).join("src"), &mut files);
        for file in files {
            let source = read(&file);
            for (n, text) in doc_lines(&source) {
                for word in INTERNAL {
                    if text.contains(word) {
                        found.push(format!("{}:{n}: {word:?} in {text}", file.display()));
                    }
                }
            }
        }
        // The guides that rustdoc includes (`toolnexus/docs/*.md`) are public docs too.
        let mut texts = vec![
            root().join(krate).join("README.md"),
            root().join(krate).join("Cargo.toml"),
        ];
        if let Ok(guides) = std::fs::read_dir(root().join(krate).join("docs")) {
            texts.extend(guides.map(|e| e.expect("a directory entry").path()));
        }
        for path in texts {
            for (n, line) in read(&path).lines().enumerate() {
                for word in INTERNAL {
                    if line.contains(word) {
                        found.push(format!("{}:{}: {word:?} in {line}", path.display(), n + 1));
                    }
                }
            }
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn the_crate_readmes_read_right_on_crates_io() {
    for krate in CRATES {
        let path = root().join(krate).join("README.md");
        let readme = read(&path);
        let mut in_rust = false;
        for (n, line) in readme.lines().enumerate() {
            let at = format!("{}:{}", path.display(), n + 1);
            if line.starts_with("```") {
                in_rust = !in_rust && line.trim_start_matches('`').starts_with("rust");
                continue;
            }
            // rustdoc hides `# ` lines; crates.io shows them as they are.
            assert!(
                !(in_rust && (line == "#" || line.starts_with("# "))),
                "{at}: {line}"
            );
            // Nothing that only works inside this repository.
            for repo_only in [
                "cargo run --example",
                "cargo test --workspace",
                "scripts/",
                "tests/",
                "examples/",
                ".venv",
                "| path |",
            ] {
                assert!(!line.contains(repo_only), "{at}: {line}");
            }
        }
        assert!(
            readme.contains("[dependencies]\ntoolnexus = \"0.1\""),
            "{} shows no install lines",
            path.display()
        );
    }
}

#[test]
fn the_manifests_are_ready_to_publish() {
    let workspace = read(&root().join("Cargo.toml"));
    assert!(
        !workspace.contains("example.invalid"),
        "a placeholder URL is left"
    );
    // Generated code names `toolnexus::__private`, which only the same release provides.
    assert!(
        workspace
            .contains(r#"toolnexus-macros = { path = "toolnexus-macros", version = "=0.1.0" }"#),
        "toolnexus must require exactly its own toolnexus-macros"
    );
    for krate in CRATES {
        let manifest = read(&root().join(krate).join("Cargo.toml"));
        for key in [
            "description = \"",
            "readme = \"README.md\"",
            "keywords = [",
            "categories = [",
            "license.workspace = true",
            "documentation = \"https://docs.rs/",
        ] {
            assert!(manifest.contains(key), "{krate}/Cargo.toml lacks `{key}`");
        }
        assert!(
            !manifest.contains("example.invalid"),
            "{krate}: placeholder URL"
        );
        for file in ["LICENSE-MIT", "LICENSE-APACHE", "README.md"] {
            let path = root().join(krate).join(file);
            assert!(
                read(&path).len() > 200,
                "{} is missing or empty (crates.io packages only the crate's own directory)",
                path.display()
            );
        }
    }
    assert!(read(&root().join("CHANGELOG.md")).contains("## [0.1.0]"));
}

/// Everything public that only `mcp-http` builds says so on docs.rs (issue 43: a missing feature
/// read as "no method named `http_service`"): each top-level public item of a module behind
/// `mcp-http`, and each `pub fn` behind `#[cfg(feature = "mcp-http")]` elsewhere in `mcp/`,
/// carries `#[cfg_attr(docsrs, doc(cfg(feature = "mcp-http")))]`.
#[test]
fn every_item_behind_mcp_http_is_marked_for_docs_rs() {
    const GATE: &str = "#[cfg(feature = \"mcp-http\")]";
    const MARK: &str = "doc(cfg(feature = \"mcp-http\"))";
    let mcp = root().join("toolnexus/src/mcp");
    let mut unmarked = Vec::new();
    for folder in ["", "client", "server"] {
        let dir = mcp.join(folder);
        let module = std::fs::read_to_string(dir.join("mod.rs")).unwrap();
        let lines: Vec<&str> = module.lines().collect();
        // The modules only `mcp-http` builds: every top-level public item marked.
        for (i, line) in lines.iter().enumerate() {
            let Some(name) = line.strip_prefix("mod ").and_then(|m| m.strip_suffix(';')) else {
                continue;
            };
            if i == 0 || lines[i - 1].trim() != GATE {
                continue;
            }
            let path = dir.join(format!("{name}.rs"));
            let text = std::fs::read_to_string(&path).unwrap();
            let items: Vec<&str> = text.lines().collect();
            for (n, item) in items.iter().enumerate() {
                let public = [
                    "pub struct ",
                    "pub enum ",
                    "pub fn ",
                    "pub async fn ",
                    "pub const ",
                    "pub type ",
                    "pub trait ",
                ]
                .iter()
                .any(|p| item.starts_with(p));
                if public && !marked(&items[..n], MARK) {
                    unmarked.push(format!("{}:{}", path.display(), n + 1));
                }
            }
        }
        // Elsewhere: a gated `pub fn`.
        for (n, line) in lines.iter().enumerate() {
            let trimmed = line.trim_start();
            let public_fn = trimmed.starts_with("pub fn ") || trimmed.starts_with("pub async fn ");
            if public_fn
                && lines[..n]
                    .iter()
                    .rev()
                    .take_while(|l| l.trim_start().starts_with("#["))
                    .any(|l| l.trim() == GATE)
                && !marked(&lines[..n], MARK)
            {
                unmarked.push(format!("{}:{}", dir.join("mod.rs").display(), n + 1));
            }
        }
    }
    assert!(
        unmarked.is_empty(),
        "public items behind `mcp-http` without `#[cfg_attr(docsrs, doc(cfg(feature = \
         \"mcp-http\")))]`: {unmarked:?}"
    );
}

/// Whether the attributes just above the item that follows `before` hold `mark`.
fn marked(before: &[&str], mark: &str) -> bool {
    before
        .iter()
        .rev()
        .take_while(|l| l.trim_start().starts_with("#[") || l.trim_start().starts_with("///"))
        .any(|l| l.contains(mark))
}
