//! The Python interpreter of the repo's `.venv`, which holds the providers' official SDKs.
//!
//! `scripts/venv.sh` is idempotent and takes a lock, so every SDK test calls it: a plain
//! `cargo test --workspace` on a fresh machine installs the pinned SDKs once, then reuses them.
//!
//! Without Python or its `venv` module the SDK checks are skipped with one line on stderr, unless
//! `CI` is set: there they are required, and a missing Python fails the test. `TOOLNEXUS_PYTHON`
//! names the interpreter that creates the venv (default `python3`).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// The line printed when the SDK checks are skipped.
pub const SKIPPED: &str = "skipped: SDK checks need python3 with venv; see README";

/// The repository root.
pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// `.venv/bin/python`, after making sure the venv exists and matches the pins; `None` when the
/// SDK checks are skipped because Python or `venv` is missing (said once, on stderr).
///
/// # Panics
/// Under `CI` when Python or `venv` is missing, and whenever `scripts/venv.sh` fails.
pub fn python() -> Option<PathBuf> {
    static READY: OnceLock<Option<PathBuf>> = OnceLock::new();
    READY.get_or_init(prepare).clone()
}

fn prepare() -> Option<PathBuf> {
    let interpreter = std::env::var_os("TOOLNEXUS_PYTHON").unwrap_or_else(|| "python3".into());
    if let Err(why) = has_venv(Path::new(&interpreter)) {
        if required() {
            panic!(
                "the SDK checks are required under CI, but {why}. Install python3 with venv \
                 (Debian/Ubuntu: `apt-get install python3-venv`)"
            );
        }
        // Straight to stderr: libtest captures `eprintln!` of passing tests.
        let _ = writeln!(std::io::stderr(), "{SKIPPED}");
        return None;
    }
    let status = Command::new("bash")
        .arg(root().join("scripts/venv.sh"))
        .env("TOOLNEXUS_PYTHON", &interpreter)
        .status()
        .expect("bash runs scripts/venv.sh");
    assert!(
        status.success(),
        "scripts/venv.sh failed ({status}): it installs the SDKs pinned in \
         scripts/requirements-sdk.txt from PyPI"
    );
    Some(root().join(".venv/bin/python"))
}

/// `Ok` when `interpreter` runs and can create a venv with pip (Debian ships `ensurepip`
/// separately, in `python3-venv`).
fn has_venv(interpreter: &Path) -> Result<(), String> {
    let shown = interpreter.display();
    match Command::new(interpreter)
        .args(["-c", "import venv, ensurepip"])
        .output()
    {
        Err(e) => Err(format!("`{shown}` does not run ({e})")),
        Ok(out) if !out.status.success() => Err(format!(
            "`{shown}` has no working venv module ({})",
            String::from_utf8_lossy(&out.stderr)
                .lines()
                .last()
                .unwrap_or_default()
        )),
        Ok(_) => Ok(()),
    }
}

/// Whether missing SDK checks fail the run: under CI, where `CI` is set (not to `false`/`0`).
fn required() -> bool {
    std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0")
}
