use toolnexus::tool;

/// Deletes a file: a hint takes `true` or `false`, not a string.
#[tool(read_only = "yes")]
fn delete_file(path: String) -> String {
    path
}

/// Lists files: a hint is not called like a fn; both mistakes of this attribute are reported.
#[tool(open_world(false), destructive = 0)]
fn list_files(dir: String) -> String {
    dir
}

fn main() {
    // The fns and stub tool types are still emitted: no follow-on errors here.
    let _ = delete_file("a.txt".into());
    let _ = toolnexus::Toolkit::new().with((DeleteFile, ListFiles));
}
