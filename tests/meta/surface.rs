//! The public surface stays small enough to learn, and the files small enough to read (issue
//! 40): at most [`MAX_ROOT`] names at the crate root, at most [`MAX_TOOLKIT`] public methods on
//! `Toolkit`, and no file of the runtime crate over [`MAX_FILE_LINES`] lines. A name that leaves
//! the root goes to the module of its concern (`toolnexus::approval`, `toolnexus::logging`, ...),
//! and a method that leaves `Toolkit` has its replacement in the CHANGELOG.

use std::collections::BTreeSet;
use std::fs;
use std::path::Path;

use crate::source::{files_over, read};

/// The most names `lib.rs` re-exports at the crate root (modules not counted).
const MAX_ROOT: usize = 46;
/// The most public methods `Toolkit` has.
const MAX_TOOLKIT: usize = 28;
/// The most lines one file of the runtime crate has.
const MAX_FILE_LINES: usize = 600;
/// The most lines of a provider's `impl Format` (its `wire.rs`): what most providers write
/// alike has a default in `wire`, or comes from the folder's facts, reader and stream types.
const MAX_FORMAT_IMPL: usize = 60;

#[test]
fn the_root_names_at_most_46_items() {
    let lib = read(&crate::common::root().join("toolnexus/src/lib.rs"));
    let names = root_names(&lib);
    assert!(
        names.len() <= MAX_ROOT,
        "the crate root re-exports {} names, over {MAX_ROOT}; move the ones of one concern to \
         its module: {names:?}",
        names.len()
    );
}

#[test]
fn the_toolkit_has_at_most_28_public_methods() {
    let tools = read(&crate::common::root().join("toolnexus/src/toolkit/tools.rs"));
    let methods = public_methods(&tools);
    assert!(
        methods.len() <= MAX_TOOLKIT,
        "`Toolkit` has {} public methods, over {MAX_TOOLKIT}: {methods:?}",
        methods.len()
    );
}

#[test]
fn no_file_of_the_runtime_crate_is_over_600_lines() {
    let src = crate::common::root().join("toolnexus/src");
    let long = long_files(&src);
    assert!(
        long.is_empty(),
        "split by concern (a type's crate-private engine may sit beside its page; logic may \
         live as free functions in its concern's file):\n{}",
        long.join("\n")
    );
}

#[test]
fn every_format_impl_is_at_most_60_lines() {
    let src = crate::common::root().join("toolnexus/src");
    let mut long = Vec::new();
    let mut impls = 0;
    for entry in fs::read_dir(&src).unwrap() {
        let wire = entry.unwrap().path().join("wire.rs");
        if !wire.is_file() {
            continue;
        }
        for (name, lines) in format_impls(&read(&wire)) {
            impls += 1;
            if lines > MAX_FORMAT_IMPL {
                long.push(format!("{name}: {lines} lines"));
            }
        }
    }
    assert!(
        impls >= 6,
        "found {impls} `impl Format` blocks, expected one per dialect"
    );
    assert!(
        long.is_empty(),
        "over {MAX_FORMAT_IMPL} lines (move a long body into its folder's module, or give what \
         providers write alike a default in `wire::Format`): {long:?}"
    );
}

/// The counts above can fail: each counter sees what it should, and nothing else.
#[test]
fn the_counters_see_names_methods_and_long_files() {
    let lib = "mod a;\npub mod b;\n/// A module of its own: not counted.\npub mod c {\n    pub use crate::a::{X, Y};\n}\n\
               pub use a::{One, Two as Deux};\npub use b::Three;\n#[doc(hidden)]\npub use a::{Hidden, Private};\n\
               #[doc(inline)]\npub use macros::Three;\n// pub use a::Commented;\n";
    assert_eq!(
        root_names(lib).into_iter().collect::<Vec<_>>(),
        ["Deux", "One", "Three"]
    );

    let tools = "impl Toolkit {\n    /// Docs.\n    pub fn new() -> Self {}\n    pub(crate) fn hidden() {}\n    \
                 pub async fn respond(&self) {}\n    fn private() {}\n    // pub fn commented() {}\n}\n";
    assert_eq!(public_methods(tools), ["new", "respond"]);

    let dir = std::env::temp_dir().join(format!("toolnexus-surface-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(dir.join("toolkit")).unwrap();
    fs::write(
        dir.join("toolkit/tools.rs"),
        "//\n".repeat(MAX_FILE_LINES + 1),
    )
    .unwrap();
    fs::write(dir.join("short.rs"), "//\n".repeat(MAX_FILE_LINES)).unwrap();
    let long = long_files(&dir);
    fs::remove_dir_all(&dir).unwrap();
    assert_eq!(long, ["toolkit/tools.rs has 601 lines (over 600)"]);

    let wire = "impl Format for A {\n    const X: u8 = 1;\n}\n\nimpl Other for A {\n}\n\
                impl Format for B {\n    fn f() {\n    }\n}\n";
    assert_eq!(
        format_impls(wire),
        [("A".to_owned(), 3), ("B".to_owned(), 4)]
    );
}

/// Each `impl Format for X` block of `source` with its length in lines, from its first line to
/// its closing `}` at the start of a line.
fn format_impls(source: &str) -> Vec<(String, usize)> {
    let mut impls = Vec::new();
    let mut open: Option<(String, usize)> = None;
    for (i, line) in source.lines().enumerate() {
        if let Some(rest) = line.strip_prefix("impl Format for ") {
            open = Some((rest.trim_end_matches(" {").to_owned(), i));
        } else if line == "}" {
            if let Some((name, start)) = open.take() {
                impls.push((name, i - start + 1));
            }
        }
    }
    impls
}

/// The names `lib` re-exports at its top level with `pub use`, but for `#[doc(hidden)]` ones
/// (a name re-exported twice, as a trait and its derive, counts once).
fn root_names(lib: &str) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    let mut depth = 0usize;
    let mut hidden = false;
    let mut statement: Option<String> = None;
    for line in lib.lines() {
        let trimmed = line.trim();
        if let Some(text) = statement.as_mut() {
            text.push_str(trimmed);
        } else if depth == 0 && trimmed.starts_with("pub use ") {
            statement = Some(trimmed.to_owned());
        } else {
            if depth == 0 && !trimmed.starts_with("//") {
                if trimmed.starts_with("#[doc(hidden)]") {
                    hidden = true;
                } else if !trimmed.starts_with("#[") && !trimmed.is_empty() {
                    hidden = false;
                }
            }
            if !trimmed.starts_with("//") {
                depth += trimmed.matches('{').count();
                depth -= trimmed.matches('}').count().min(depth);
            }
            continue;
        }
        let text = statement.as_ref().unwrap();
        if !text.ends_with(';') {
            continue;
        }
        let path = text["pub use ".len()..text.len() - 1].to_owned();
        statement = None;
        if std::mem::take(&mut hidden) {
            continue;
        }
        let items = match path.split_once('{') {
            Some((_, items)) => items.trim_end_matches('}').to_owned(),
            None => path.rsplit("::").next().unwrap().to_owned(),
        };
        for item in items.split(',') {
            let name = item.split(" as ").last().unwrap().trim();
            if !name.is_empty() && name != "*" {
                names.insert(name.to_owned());
            }
        }
    }
    names
}

/// The names of the `pub fn` and `pub async fn` items of `source`'s `impl` blocks.
fn public_methods(source: &str) -> Vec<String> {
    source
        .lines()
        .filter_map(|line| {
            let rest = line
                .strip_prefix("    pub fn ")
                .or_else(|| line.strip_prefix("    pub async fn "))?;
            let end = rest.find(|c: char| !(c.is_alphanumeric() || c == '_'))?;
            Some(rest[..end].to_owned())
        })
        .collect()
}

/// The files under `src` over [`MAX_FILE_LINES`] lines, by path relative to `src`.
fn long_files(src: &Path) -> Vec<String> {
    files_over(src, MAX_FILE_LINES)
}
