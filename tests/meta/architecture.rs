//! The runtime crate's module graph (ARCHITECTURE.md), checked from its source.
//!
//! Reads `toolnexus/src/**/*.rs`, lists the dependencies between top-level modules (every
//! `use crate::...` and `crate::x::` path outside comments; a name the crate root re-exports,
//! such as `crate::ToolResult`, counts as its defining module), and fails on:
//! - a module that is not in [`LAYERS`] (a new module must be placed, and documented);
//! - an edge from a module to one in a higher layer;
//! - a cycle (edges inside one layer are allowed, cycles are not).
//!
//! A file over [`MAX_LINES`] lines is a warning the test prints (a hint to look, not a reason
//! to split a file that reads best whole).
//!
//! `ARCH_SRC=/path/to/toolnexus/src cargo test --test meta architecture` checks another tree (what
//! showed that the layout before issue 11 fails: two cycles and edges running back up).

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

use crate::source::{files_over, rust_files};

/// The layers, lowest first. A module may depend on modules of its own layer or below.
/// ARCHITECTURE.md draws the same layers, top first (`the_drawing_in_architecture_md_is_these_layers`).
const LAYERS: &[&[&str]] = &[
    // The plain values every layer passes around: calls, results, media, dialects, errors, text.
    &["values"],
    // Argument decoding, the limits (and media held to them), the guard around one call (with
    // its optional span), reading a response.
    &["decode", "limits", "guard", "response"],
    // Schemas (no provider); a tool's questions to the user and their restricted form.
    &["schema", "ask"],
    // The Tool trait, several tools, `NativeTool`; a turn's calls run and answered; finding
    // tools among many.
    &["tool", "turn", "policy", "search"],
    // The `Wire` trait every provider implements, and what its stream reports with.
    &["wire"],
    // Providers, side by side: each owns its lowering, tools out, calls in, results out and
    // stream, and implements `Wire` in its own `wire.rs`. Every folder with a `wire.rs` is one:
    // a new provider is placed without touching this list.
    &[PROVIDERS],
    // Above the providers: `Dialect::wire` (the one place a dialect picks its implementation),
    // each provider's schema form, the tools arrays; and the support of `#[tool]`'s generated
    // code.
    &["dispatch", "codegen"],
    // The toolkit: tools by name, running calls, whole responses, subsets. Typed answers: a
    // type's request part per dialect, its output tool, the answer read out of a turn. A
    // conversation moved between dialects. Tools sent once a search found them.
    &["toolkit", "output", "approval", "transcript", "deferred"],
    // Streamed responses; MCP both ways (feature `mcp`: servers' tools as tools, a toolkit
    // served).
    &["stream", "mcp"],
];

/// In [`LAYERS`], the providers: every top-level folder holding a `wire.rs`.
const PROVIDERS: &str = "(providers)";

/// The length past which a source file of the runtime crate gets a warning.
const MAX_LINES: usize = 400;

#[test]
fn the_drawing_in_architecture_md_is_these_layers() {
    let doc = fs::read_to_string(crate::common::root().join("ARCHITECTURE.md")).unwrap();
    let drawing = doc
        .split("```text\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("ARCHITECTURE.md has a ```text drawing");
    let drawn: Vec<Vec<&str>> = drawing
        .lines()
        .map(|row| row.split_whitespace().collect())
        .collect();
    let listed: Vec<Vec<&str>> = LAYERS.iter().rev().map(|layer| layer.to_vec()).collect();
    assert_eq!(
        drawn, listed,
        "ARCHITECTURE.md's drawing, top row first, against LAYERS"
    );
}

#[test]
fn the_runtime_crate_follows_its_layers() {
    let src = std::env::var_os("ARCH_SRC")
        .map(PathBuf::from)
        .unwrap_or_else(|| crate::common::root().join("toolnexus/src"));
    let problems = check(&src);
    for warning in long_files(&src) {
        println!("warning: {warning}; consider whether it reads better as two");
    }
    assert!(
        problems.is_empty(),
        "{} architecture problem(s) in {}:\n{}",
        problems.len(),
        src.display(),
        problems.join("\n")
    );
}

/// The checker finds each kind of problem (so the test above can fail).
#[test]
fn the_check_finds_cycles_upward_edges_unplaced_modules_and_warns_on_long_files() {
    let dir = std::env::temp_dir().join(format!("toolnexus-arch-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(dir.join("openai")).unwrap();
    fs::create_dir_all(dir.join("schema")).unwrap();
    let write = |name: &str, text: &str| fs::write(dir.join(name), text).unwrap();
    write(
        "lib.rs",
        "mod values;\nmod decode;\nmod schema;\npub mod openai;\nmod gemini;\nmod extra;\npub use values::call::{ToolCall};\n",
    );
    // values -> openai runs up; openai -> values closes a cycle (through the root re-export).
    write(
        "values.rs",
        "use crate::openai::chat;\npub struct ToolCall;\n",
    );
    write("openai/mod.rs", "pub mod chat;\nmod wire;\n");
    write("openai/wire.rs", "// a provider: placed by its `wire.rs`\n");
    // A provider using another provider's folder.
    fs::create_dir_all(dir.join("gemini")).unwrap();
    write("gemini/wire.rs", "use crate::openai::chat;\n");
    write(
        "openai/chat.rs",
        "use crate::ToolCall;\n// use crate::schema::nothing; (a comment is no edge)\n",
    );
    // schema -> decode is fine (lower layer); decode -> schema runs up and closes a cycle.
    write(
        "schema/mod.rs",
        "mod walk;\nmod refs;\nuse crate::{decode::kind, values};\n",
    );
    // Inside the folder: walk -> refs -> walk is a circle; both may use the folder's face.
    write(
        "schema/walk.rs",
        "use super::refs::resolve;\nuse super::ANY;\n",
    );
    write("schema/refs.rs", "use crate::schema::walk::{self, push};\n");
    write("decode.rs", "fn f() { crate::schema::walk(); }\n");
    write("extra.rs", &"// long\n".repeat(MAX_LINES + 1));
    let problems = check(&dir).join("\n");
    let long = long_files(&dir);
    fs::remove_dir_all(&dir).unwrap();
    assert_eq!(long, ["extra.rs has 401 lines (over 400)"]);
    assert!(!problems.contains("extra.rs"), "{problems}");
    for expected in [
        "`values` -> `openai`: against the layer order",
        "`decode` -> `schema`: against the layer order",
        "cycle: values -> openai -> values",
        "cycle: decode -> schema -> decode",
        "cycle inside `schema/`: refs -> walk -> refs",
        "`extra` is in no layer",
        "`gemini` -> `openai`: a provider uses another provider's folder",
    ] {
        assert!(
            problems.contains(expected),
            "missing {expected:?} in:\n{problems}"
        );
    }
    assert!(!problems.contains("`schema` -> `decode`"), "{problems}");
    assert!(!problems.contains("`schema` -> `values`"), "{problems}");
    assert!(
        !problems.contains("-> `schema`: against") || problems.contains("`decode` -> `schema`")
    );
}

/// The files of the tree at `src` over [`MAX_LINES`] lines.
fn long_files(src: &Path) -> Vec<String> {
    files_over(src, MAX_LINES)
}

/// Every problem found in the tree at `src`.
fn check(src: &Path) -> Vec<String> {
    let mut problems = Vec::new();
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let lib = fs::read_to_string(src.join("lib.rs")).expect("lib.rs");
    let modules = declared_modules(&lib);
    let reexports = reexports(&lib, &modules);

    let mut layer_of: BTreeMap<&str, usize> = LAYERS
        .iter()
        .enumerate()
        .flat_map(|(i, layer)| layer.iter().map(move |m| (*m, i)))
        .collect();
    let providers = layer_of[PROVIDERS];
    for module in &modules {
        if src.join(module).join("wire.rs").is_file() {
            layer_of.insert(module.as_str(), providers);
        }
    }
    for module in &modules {
        if !layer_of.contains_key(module.as_str()) {
            problems.push(format!(
                "`{module}` is in no layer; place it in LAYERS and ARCHITECTURE.md"
            ));
        }
    }

    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in &files {
        let text = fs::read_to_string(file).unwrap();
        let relative = file.strip_prefix(src).unwrap();
        let Some(from) = top_module(relative) else {
            continue; // lib.rs: the root re-exports everything
        };
        for segment in crate_paths(&code_only(&text)) {
            let to = if modules.contains(&segment) {
                Some(segment)
            } else {
                reexports.get(&segment).cloned()
            };
            if let Some(to) = to.filter(|to| *to != from) {
                edges.entry(from.clone()).or_default().insert(to);
            }
        }
    }

    for (from, targets) in &edges {
        for to in targets {
            if let (Some(a), Some(b)) = (layer_of.get(from.as_str()), layer_of.get(to.as_str())) {
                if b > a {
                    problems.push(format!("`{from}` -> `{to}`: against the layer order"));
                } else if *a == providers && *b == providers {
                    problems.push(format!(
                        "`{from}` -> `{to}`: a provider uses another provider's folder; move \
                         what both need below them (`wire`, `schema`)"
                    ));
                }
            }
        }
    }
    problems.extend(
        cycles(&edges)
            .into_iter()
            .map(|c| format!("cycle: {}", c.join(" -> "))),
    );
    problems.extend(folder_cycles(src, &files));
    problems
}

/// Inside each folder, the files and subfolders must not import each other in a circle (the
/// folder's `mod.rs` is its face, which its parts may use): `crate::<folder>::x` and, from a
/// file directly in the folder, `super::x` are edges to its part `x`.
fn folder_cycles(src: &Path, files: &[PathBuf]) -> Vec<String> {
    let mut graphs: BTreeMap<PathBuf, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
    for file in files {
        let relative = file.strip_prefix(src).unwrap();
        let parts: Vec<String> = relative
            .components()
            .map(|c| {
                c.as_os_str()
                    .to_string_lossy()
                    .trim_end_matches(".rs")
                    .to_owned()
            })
            .collect();
        let code = code_only(&fs::read_to_string(file).unwrap());
        for depth in 1..parts.len() {
            let folder: PathBuf = parts[..depth].iter().collect();
            let node = &parts[depth];
            if depth + 1 == parts.len() && node == "mod" {
                continue;
            }
            let children = folder_parts(&src.join(&folder));
            let mut refs = paths_after(&code, &format!("crate::{}::", parts[..depth].join("::")));
            if depth + 1 == parts.len() {
                refs.extend(paths_after(&code, "super::"));
            }
            let graph = graphs.entry(folder).or_default();
            for to in refs {
                if children.contains(&to) && to != *node {
                    graph.entry(node.clone()).or_default().insert(to);
                }
            }
        }
    }
    graphs
        .iter()
        .flat_map(|(folder, edges)| {
            cycles(edges)
                .into_iter()
                .map(move |c| format!("cycle inside `{}/`: {}", folder.display(), c.join(" -> ")))
        })
        .collect()
}

/// A folder's parts: its files but `mod.rs` (by stem) and its subfolders.
fn folder_parts(folder: &Path) -> BTreeSet<String> {
    fs::read_dir(folder)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| {
            let name = entry.file_name().to_string_lossy().into_owned();
            let path = entry.path();
            if path.is_dir() {
                Some(name)
            } else {
                name.strip_suffix(".rs")
                    .filter(|s| *s != "mod")
                    .map(str::to_owned)
            }
        })
        .collect()
}

/// The top-level module a file belongs to: `call.rs` and `openai/chat.rs` give `call` and
/// `openai`; `lib.rs` gives none.
fn top_module(relative: &Path) -> Option<String> {
    let first = relative
        .components()
        .next()?
        .as_os_str()
        .to_str()?
        .to_owned();
    if relative.components().count() > 1 {
        return Some(first);
    }
    let stem = first.strip_suffix(".rs")?;
    (stem != "lib").then(|| stem.to_owned())
}

/// The modules `lib.rs` declares (`mod x;`, `pub mod x;`).
fn declared_modules(lib: &str) -> BTreeSet<String> {
    code_only(lib)
        .lines()
        .filter_map(|line| {
            let line = line.trim();
            let rest = line
                .strip_prefix("pub mod ")
                .or_else(|| line.strip_prefix("mod "))?;
            Some(rest.strip_suffix(';')?.trim().to_owned())
        })
        .collect()
}

/// Names the crate root re-exports from its modules (`pub use m::{A, B};`), by name.
fn reexports(lib: &str, modules: &BTreeSet<String>) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for statement in code_only(lib).split(';') {
        let statement = statement.trim();
        let Some(path) = statement.strip_prefix("pub use ") else {
            continue;
        };
        let path = path.trim_start_matches("crate::");
        let Some((module, items)) = path.split_once("::") else {
            continue;
        };
        if !modules.contains(module) {
            continue;
        }
        for item in items.trim_matches(|c| c == '{' || c == '}').split(',') {
            let name = item.split(" as ").last().unwrap().trim();
            let name = name.rsplit("::").next().unwrap().trim_start_matches('{');
            if !name.is_empty() && name != "*" {
                out.insert(name.to_owned(), module.to_owned());
            }
        }
    }
    out
}

/// The source without `//` comments (doc comments included: a doc link is no dependency).
fn code_only(text: &str) -> String {
    text.lines()
        .map(|line| match line.find("//") {
            // A `//` inside a string literal would cut code; the crate has none before a path.
            Some(at) => &line[..at],
            None => line,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The first segment of every `crate::` path: `crate::schema::walk` gives `schema`, and
/// `crate::{text::kind, error}` gives `text` and `error`.
fn crate_paths(code: &str) -> Vec<String> {
    paths_after(code, "crate::")
}

/// The first segment after every path starting with `prefix` (`crate::`, `crate::schema::`,
/// `super::`), group heads included.
fn paths_after(code: &str, prefix: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find(prefix) {
        let before = rest[..at].chars().next_back();
        rest = &rest[at + prefix.len()..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$' || c == ':') {
            continue; // `$crate::`, `my_crate::`, `super::super::`
        }
        if let Some(group) = rest.strip_prefix('{') {
            let end = matching_brace(group);
            out.extend(group_heads(&group[..end]));
        } else {
            out.push(ident(rest));
        }
    }
    out
}

/// The first segment of each item of a `{...}` use group (nested groups skipped over).
fn group_heads(group: &str) -> Vec<String> {
    let mut heads = Vec::new();
    let mut depth = 0;
    let mut start = true;
    for (i, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => start = true,
            c if start && (c.is_alphanumeric() || c == '_') => {
                heads.push(ident(&group[i..]));
                start = false;
            }
            _ => {}
        }
    }
    heads
}

fn matching_brace(text: &str) -> usize {
    let mut depth = 1;
    for (i, c) in text.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return i;
                }
            }
            _ => {}
        }
    }
    text.len()
}

fn ident(text: &str) -> String {
    text.chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect()
}

/// Each cycle of the graph once, as the path that closes it (`a -> b -> a`).
fn cycles(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    fn visit(
        node: &str,
        edges: &BTreeMap<String, BTreeSet<String>>,
        stack: &mut Vec<String>,
        done: &mut BTreeSet<String>,
        found: &mut Vec<Vec<String>>,
    ) {
        if let Some(at) = stack.iter().position(|n| n == node) {
            let mut cycle = stack[at..].to_vec();
            cycle.push(node.to_owned());
            found.push(cycle);
            return;
        }
        if done.contains(node) {
            return;
        }
        stack.push(node.to_owned());
        for next in edges.get(node).into_iter().flatten() {
            visit(next, edges, stack, done, found);
        }
        stack.pop();
        done.insert(node.to_owned());
    }
    let mut found = Vec::new();
    let mut done = BTreeSet::new();
    for node in edges.keys() {
        visit(node, edges, &mut Vec::new(), &mut done, &mut found);
    }
    found
}

/// The types whose inherent methods may be in more than one file (by defining module and name,
/// as [`inherent_impls`] keys them), each with the reason. Every other type's inherent `impl`
/// blocks are in one file, the one that defines it (issue 33); an entry that no longer spans
/// several files fails the test, so the list only shrinks.
const SPLIT_IMPLS: &[(&str, &str)] = &[
    // Empty since issue 40 moved each provider form of a schema down into `schema/forms/`:
    // `InputSchema`'s constructors sit beside its accessors.
];

#[test]
fn each_types_inherent_methods_are_in_one_file() {
    let src = std::env::var_os("ARCH_SRC")
        .map(PathBuf::from)
        .unwrap_or_else(|| crate::common::root().join("toolnexus/src"));
    let problems = split_impls(&src, SPLIT_IMPLS);
    assert!(
        problems.is_empty(),
        "{} type(s) with inherent methods in several files in {}:\n{}",
        problems.len(),
        src.display(),
        problems.join("\n")
    );
}

/// The check above finds a type split over files, tells same-named types of different modules
/// apart, ignores trait impls, and refuses a stale exception.
#[test]
fn the_impl_check_finds_a_type_split_over_files() {
    let dir = std::env::temp_dir().join(format!("toolnexus-impls-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(dir.join("stream")).unwrap();
    fs::create_dir_all(dir.join("gemini")).unwrap();
    let write = |name: &str, text: &str| fs::write(dir.join(name), text).unwrap();
    write("lib.rs", "mod stream;\nmod gemini;\nmod schema;\n");
    // Defined in the folder's face, methods in a part too (through `super::`).
    write(
        "stream/mod.rs",
        "mod calls;\npub struct StreamTurn<'a> { x: &'a u8 }\nimpl<'a> StreamTurn<'a> {\n    pub fn new() {}\n}\n",
    );
    write(
        "stream/calls.rs",
        "use super::StreamTurn;\nimpl StreamTurn<'_>\nwhere\n    Self: Sized,\n{\n    pub fn ready(&mut self) {}\n}\nimpl std::fmt::Debug for StreamTurn<'_> {}\n",
    );
    // A crate-private engine beside the type's page: no problem. One in another folder: split.
    fs::create_dir_all(dir.join("toolkit")).unwrap();
    fs::create_dir_all(dir.join("turn")).unwrap();
    write(
        "toolkit/tools.rs",
        "pub struct Toolkit;\nimpl Toolkit {\n    pub fn new() {}\n}\n",
    );
    write(
        "toolkit/engine.rs",
        "use super::tools::Toolkit;\nimpl Toolkit {\n    pub(crate) fn call(&self) {}\n}\n",
    );
    write(
        "turn/run.rs",
        "use crate::toolkit::tools::Toolkit;\nimpl Toolkit {\n    pub(crate) fn run(&self) {}\n}\n",
    );
    // Two private types named `Node`, each with its methods in its own file: no problem.
    write(
        "gemini/mod.rs",
        "mod keywords;\nstruct Node;\nimpl Node {\n    fn a() {}\n}\n",
    );
    write(
        "gemini/keywords.rs",
        "pub(super) struct Node;\nimpl Node {\n    fn b() {}\n}\n// impl Other {\n",
    );
    // Excepted, but in one file now: the exception is stale.
    write(
        "schema.rs",
        "pub struct InputSchema;\nimpl InputSchema {}\nimpl<T: Into<u8> + Copy> From<T> for InputSchema {}\n",
    );
    let problems = split_impls(&dir, &[("schema::InputSchema", "a seam")]).join("\n");
    fs::remove_dir_all(&dir).unwrap();
    assert!(
        problems.contains(
            "`stream::StreamTurn` has inherent methods in 2 files: stream/calls.rs, stream/mod.rs"
        ),
        "{problems}"
    );
    assert!(
        problems.contains("`schema::InputSchema` is excepted in SPLIT_IMPLS"),
        "{problems}"
    );
    assert!(
        problems.contains(
            "`toolkit::tools::Toolkit` has inherent methods in 3 files: toolkit/engine.rs, \
             toolkit/tools.rs, turn/run.rs"
        ),
        "{problems}"
    );
    assert!(!problems.contains("Node"), "{problems}");
    assert_eq!(problems.lines().count(), 3, "{problems}");
}

/// Each type split over files that `exceptions` does not list, and each exception that is no
/// longer split. A type's public methods are on one page, the file with its `pub fn`s; blocks
/// with no `pub fn` (a crate-private engine) may also sit in files beside the one that defines
/// the type, in the same folder.
fn split_impls(src: &Path, exceptions: &[(&str, &str)]) -> Vec<String> {
    let mut problems = Vec::new();
    let impls = inherent_impls(src);
    let folder = |file: &str| file.rsplit_once('/').map_or("", |(dir, _)| dir).to_owned();
    let split = |home: &str, files: &BTreeMap<String, bool>| {
        let public = files.values().filter(|public| **public).count();
        let astray = files
            .iter()
            .any(|(file, public)| !public && folder(file) != folder(home));
        public > 1 || astray
    };
    for (key, (home, files)) in &impls {
        let excepted = exceptions.iter().any(|(name, _)| name == key);
        if split(home, files) && !excepted {
            problems.push(format!(
                "`{key}` has inherent methods in {} files: {}; move them to the file that \
                 defines it (a block without `pub fn` may sit beside it, in the same folder; \
                 logic may stay in its concern's file as free functions)",
                files.len(),
                files.keys().cloned().collect::<Vec<_>>().join(", ")
            ));
        }
    }
    for (key, _) in exceptions {
        if impls
            .get(*key)
            .is_none_or(|(home, files)| !split(home, files))
        {
            problems.push(format!(
                "`{key}` is excepted in SPLIT_IMPLS but its inherent methods are in one file \
                 now: remove the entry"
            ));
        }
    }
    problems
}

/// Per type (its defining module and name): the file that defines it, and each file holding
/// inherent methods with whether one of them is a `pub fn`.
type Impls = BTreeMap<String, (String, BTreeMap<String, bool>)>;

/// For each type with an inherent `impl` block in the tree at `src`, keyed by its defining
/// module and name (`stream::StreamTurn`): the file that defines it, and the files holding those
/// blocks, each with whether a block there has a `pub fn`.
///
/// A type is found where a file defines it (`struct`, `enum`, `union` or `type`); an `impl`
/// names the type its file defines under that name, else the definition nearest in the module
/// tree (a part of a folder reaching the type of its face, `super::Node`). Trait impls (with
/// `for`) and macro-written ones (`impl $name`) are not inherent.
fn inherent_impls(src: &Path) -> Impls {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let mut defined: BTreeMap<String, Vec<(Vec<String>, String)>> = BTreeMap::new();
    let mut blocks: Vec<(Vec<String>, String, String, bool)> = Vec::new();
    for file in &files {
        let relative = file.strip_prefix(src).unwrap();
        let module = module_path(relative);
        let shown = relative.display().to_string().replace('\\', "/");
        let code = code_only(&fs::read_to_string(file).unwrap());
        for name in defined_types(&code) {
            defined
                .entry(name)
                .or_default()
                .push((module.clone(), shown.clone()));
        }
        for (name, public) in impl_self_types(&code) {
            blocks.push((module.clone(), name, shown.clone(), public));
        }
    }
    let mut out = Impls::new();
    for (module, name, file, public) in blocks {
        let Some(homes) = defined.get(&name) else {
            continue; // a type of another crate (an extension trait would need `for`)
        };
        let shared =
            |home: &Vec<String>| home.iter().zip(&module).take_while(|(a, b)| a == b).count();
        let (home, home_file) = homes
            .iter()
            .max_by_key(|(home, _)| (shared(home), std::cmp::Reverse(home.len())))
            .unwrap();
        let key = home
            .iter()
            .cloned()
            .chain([name])
            .collect::<Vec<_>>()
            .join("::");
        let entry = out
            .entry(key)
            .or_insert_with(|| (home_file.clone(), BTreeMap::new()));
        *entry.1.entry(file).or_default() |= public;
    }
    out
}

/// A file's module path: `stream/calls.rs` is `stream::calls`, `stream/mod.rs` is `stream`,
/// `lib.rs` the root (empty).
fn module_path(relative: &Path) -> Vec<String> {
    let mut parts: Vec<String> = relative
        .components()
        .map(|c| {
            c.as_os_str()
                .to_string_lossy()
                .trim_end_matches(".rs")
                .to_owned()
        })
        .collect();
    if parts
        .last()
        .is_some_and(|last| last == "mod" || last == "lib")
    {
        parts.pop();
    }
    parts
}

/// The names of the types `code` defines: `pub(super) struct Lowering<'a>` gives `Lowering`.
fn defined_types(code: &str) -> Vec<String> {
    code.lines()
        .filter_map(|line| {
            let mut rest = line.trim_start();
            if let Some(after) = rest.strip_prefix("pub") {
                rest = match after.strip_prefix('(') {
                    Some(scoped) => scoped.split_once(')')?.1,
                    None => after,
                }
                .trim_start();
            }
            ["struct ", "enum ", "union ", "type "]
                .iter()
                .find_map(|keyword| rest.strip_prefix(keyword))
                .map(ident)
                .filter(|name| !name.is_empty())
        })
        .collect()
}

/// The self type's last segment of each inherent `impl` block in `code` (the header read up to
/// its `{`, over several lines when it has a `where` clause), and whether the block has a
/// `pub fn` (its body read up to the `}` indented as the `impl` is).
fn impl_self_types(code: &str) -> Vec<(String, bool)> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find("impl") {
        let before = rest[..at].chars().next_back();
        rest = &rest[at + "impl".len()..];
        let starts_line = before.is_none_or(|c| c == '\n' || c == ' ');
        let line_start = code.len() - rest.len() - "impl".len();
        let indent_only = code[..line_start]
            .rsplit('\n')
            .next()
            .is_some_and(|head| head.trim().is_empty());
        if !starts_line || !indent_only || !(rest.starts_with('<') || rest.starts_with(' ')) {
            continue;
        }
        let Some(end) = rest.find('{') else { break };
        let header = &rest[..end];
        // The header with every `<...>` left out: `impl<'a> StreamTurn<'a>` reads `StreamTurn`.
        let mut depth = 0i32;
        let mut outside = String::new();
        for (i, c) in header.char_indices() {
            match c {
                '<' => depth += 1,
                '>' if header[..i].ends_with('-') => {} // `-> T` in a bound
                '>' => depth -= 1,
                _ if depth == 0 => outside.push(c),
                _ => {}
            }
        }
        if outside.split_whitespace().any(|word| word == "for") {
            continue; // a trait impl
        }
        let Some(self_type) = outside.split_whitespace().next() else {
            continue;
        };
        let name = ident(self_type.rsplit("::").next().unwrap_or(self_type));
        if !name.is_empty() && !self_type.starts_with('$') {
            let indent = &code[code[..line_start].rfind('\n').map_or(0, |n| n + 1)..line_start];
            let body = &rest[end..];
            let body = &body[..body.find(&format!("\n{indent}}}")).unwrap_or(body.len())];
            let public = body.lines().any(|line| {
                let line = line.trim_start();
                [
                    "pub fn ",
                    "pub async fn ",
                    "pub const fn ",
                    "pub unsafe fn ",
                ]
                .iter()
                .any(|head| line.starts_with(head))
            });
            out.push((name, public));
        }
    }
    out
}
