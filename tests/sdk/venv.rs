//! The Python interpreter of the repo's `.venv`, which holds the providers' official SDKs, and
//! the one way the SDK tests run the scripts next to this file.
//!
//! `scripts/venv.sh` is idempotent and takes a lock, so every SDK test calls it: a plain
//! `cargo test --workspace` on a fresh machine installs the pinned SDKs once, then reuses them.
//!
//! Without Python or its `venv` module the SDK checks are skipped with one line on stderr, unless
//! `CI` is set: there they are required, and a missing Python fails the test. `TOOLNEXUS_PYTHON`
//! names the interpreter that creates the venv (default `python3`).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

use serde_json::Value;
use toolnexus::Dialect;

use crate::common::root;

/// The dialects under the names the scripts read them by (`validate_messages.py`,
/// `stream_accumulate.py`; Cohere's checks are in `sdk_cohere.py`). Bedrock has its own
/// validator (`validate_bedrock.py`, botocore's model).
pub const DIALECTS: [(&str, Dialect); 5] = [
    ("openai_chat", Dialect::OpenAiChat),
    ("openai_responses", Dialect::OpenAiResponses),
    ("anthropic", Dialect::Anthropic),
    ("gemini", Dialect::Gemini),
    ("cohere", Dialect::Cohere),
];

/// The name the scripts read `dialect` by.
pub fn key(dialect: Dialect) -> &'static str {
    DIALECTS
        .iter()
        .find(|(_, d)| *d == dialect)
        .map(|(key, _)| *key)
        .expect("a dialect the SDK scripts know")
}

/// Where a test's `file` goes in the tests' temporary directory (`target/tmp`).
pub fn tmp(file: &str) -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join(file)
}

/// Runs `script` (a path from the repository root) with the venv's Python on `input`, written as
/// JSON to [`tmp`]`(file)` (also when the checks are skipped, to be read by hand; `file` names
/// what one test writes, so tests running at once never share one); `None` when the SDK checks
/// are skipped.
pub fn run(script: &str, input: &Value, file: &str) -> Option<Output> {
    let path = tmp(file);
    std::fs::write(&path, serde_json::to_vec_pretty(input).unwrap()).unwrap();
    let python = python()?;
    let out = Command::new(python)
        .arg(root().join(script))
        .arg(&path)
        .output()
        .unwrap_or_else(|e| panic!("the venv's python does not run {script}: {e}"));
    Some(out)
}

/// [`run`] for a script that prints a JSON report (`check_conformance.py`,
/// `validate_tools.py`): the report. Panics when the script fails or prints no JSON.
pub fn report(script: &str, input: &Value, file: &str) -> Option<Value> {
    let out = run(script, input, file)?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{script} failed: {}\n{stdout}",
        String::from_utf8_lossy(&out.stderr),
    );
    Some(
        serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{script} printed no JSON report ({e}): {stdout}")),
    )
}

/// [`run`] for a validator script: whether it accepted `input`, and what it printed (stdout,
/// then stderr).
pub fn verdict(script: &str, input: &Value, file: &str) -> Option<(bool, String)> {
    let out = run(script, input, file)?;
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    Some((out.status.success(), text))
}

/// `validate_messages.py` on `messages` (dialect name to message list): whether the SDK types
/// accepted them all, and what the script printed.
pub fn validate_messages(messages: &Value, file: &str) -> Option<(bool, String)> {
    verdict("tests/sdk/validate_messages.py", messages, file)
}

/// The line printed when the SDK checks are skipped.
pub const SKIPPED: &str = "skipped: SDK checks need python3 with venv; see README";

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
