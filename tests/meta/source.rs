//! Reading the repository's sources.

use std::fs;
use std::path::{Path, PathBuf};

/// The text of `path`; panics naming the file.
pub fn read(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// Every `.rs` file under `dir`, in path order, appended to `out`.
pub fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|e| e.expect("a directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|x| x == "rs") {
            out.push(path);
        }
    }
}

/// The files of the tree at `src` over `max` lines, each as `PATH has N lines (over MAX)` with
/// its path relative to `src`.
pub fn files_over(src: &Path, max: usize) -> Vec<String> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    files
        .iter()
        .filter_map(|file| {
            let lines = read(file).lines().count();
            (lines > max).then(|| {
                let relative = file.strip_prefix(src).unwrap().display();
                format!("{relative} has {lines} lines (over {max})")
            })
        })
        .collect()
}
