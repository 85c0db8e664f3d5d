use toolnexus::tool;

/// Deletes a file.
#[tool(destructive, idempotent, destructive = false)]
fn delete_file(path: String) -> String {
    path
}

fn main() {
    let _ = toolnexus::Toolkit::new().with(DeleteFile);
}
