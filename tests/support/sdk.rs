//! The Python interpreter of the repo's `.venv`, which holds the providers' official SDKs.
//!
//! `scripts/venv.sh` is idempotent and takes a lock, so every SDK test calls it: a plain
//! `cargo test --workspace` on a fresh machine installs the pinned SDKs once, then reuses them.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// The repository root.
pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// `.venv/bin/python`, after making sure the venv exists and matches the pins.
pub fn python() -> PathBuf {
    static READY: OnceLock<PathBuf> = OnceLock::new();
    READY
        .get_or_init(|| {
            let status = Command::new("bash")
                .arg(root().join("scripts/venv.sh"))
                .status()
                .expect("bash runs scripts/venv.sh");
            assert!(
                status.success(),
                "scripts/venv.sh failed: it needs python3 with venv and access to PyPI ({status})"
            );
            root().join(".venv/bin/python")
        })
        .clone()
}
