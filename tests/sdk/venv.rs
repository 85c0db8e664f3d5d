//! The Python interpreter of the repo's `.venv`, which holds the providers' official SDKs, and
//! the one way the SDK tests run the scripts next to this file.
//!
//! Which script judges a dialect is its fixture's (`Fixture::sdk`): the shared scripts read
//! every dialect they know under its key ([`keyed`]); a dialect they do not know (Bedrock) goes
//! as whole requests to its own script ([`validated_alone`], [`validate_alone`]). [`Turns`]
//! gathers a test's next-request messages for both.
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

use serde_json::{Map, Value};
use toolnexus::{Toolkit, ToolsOptions};

use crate::common::dialects::{self, Fixture};
use crate::common::generate::Rng;
use crate::common::root;

/// The fixtures the shared scripts judge, each under its [`Sdk::key`](crate::common::dialects::Sdk)
/// (`validate_messages.py`, `stream_accumulate.py`, ...; Cohere's checks are in
/// `sdk_cohere.py`): every dialect without a validator of its own.
pub fn keyed() -> impl Iterator<Item = &'static dyn Fixture> {
    dialects::ALL.iter().copied().filter(|f| f.sdk().shared)
}

/// The fixtures with a validator of their own (Bedrock's `validate_bedrock.py`, botocore's
/// model), each with its script.
pub fn validated_alone() -> impl Iterator<Item = (&'static dyn Fixture, &'static str)> {
    dialects::ALL
        .iter()
        .copied()
        .filter(|f| !f.sdk().shared)
        .map(|f| (f, bodies(f)))
}

/// The script that judges `fixture`'s whole bodies. Panics for a dialect without one, which
/// only a dialect the shared scripts judge may be.
pub fn bodies(fixture: &dyn Fixture) -> &'static str {
    fixture
        .sdk()
        .bodies
        .unwrap_or_else(|| panic!("{:?} has no script for whole bodies", fixture.dialect()))
}

/// Runs a dialect's own validator `script` on whole request bodies, next to the fixture's
/// response without calls and `stream_events` (the fixture's stream without calls when `None`),
/// since it wants a case of every kind.
pub fn validate_alone(
    fixture: &dyn Fixture,
    script: &str,
    requests: &[Value],
    stream_events: Option<Vec<Value>>,
    file: &str,
) -> Option<(bool, String)> {
    let events = stream_events.unwrap_or_else(|| fixture.events(&mut Rng(1), &[]));
    let cases = serde_json::json!({"requests": requests,
        "responses": [fixture.response(&[])], "stream_events": events});
    verdict(script, &cases, file)
}

/// The messages a host appends after its turns, gathered per dialect to be judged in one run
/// of each script: under its key for the shared `validate_messages.py`, and as whole requests
/// for each dialect with a validator of its own.
#[derive(Default)]
pub struct Turns {
    keyed: Map<String, Value>,
    alone: Vec<Alone>,
}

/// What a dialect with a validator of its own gathered: its requests and stream events.
struct Alone {
    fixture: &'static dyn Fixture,
    script: &'static str,
    requests: Vec<Value>,
    events: Vec<Value>,
}

impl Turns {
    /// Adds `next`, what a host appends after a turn of `fixture` (the model's turn, then the
    /// results): to the dialect's list, or as a request of its own that opens with a user
    /// message and declares the tools of `toolkit` (Converse wants them while the messages
    /// hold calls or results).
    pub fn add(&mut self, fixture: &'static dyn Fixture, next: Vec<Value>, toolkit: &Toolkit) {
        let sdk = fixture.sdk();
        match sdk.shared {
            true => {
                let list = self
                    .keyed
                    .entry(sdk.key)
                    .or_insert_with(|| Value::Array(Vec::new()));
                list.as_array_mut().unwrap().extend(next);
            }
            false => {
                let script = bodies(fixture);
                let mut messages = vec![fixture.dialect().user_message("Go on.")];
                messages.extend(next);
                let tools = toolkit.tools_for(fixture.dialect(), ToolsOptions::default());
                let request = fixture.request(messages, Some(serde_json::to_value(tools).unwrap()));
                self.alone(fixture, script).requests.push(request);
            }
        }
    }

    /// Adds the stream `events` a turn of `fixture` came from, for a dialect whose own
    /// validator judges stream events too (the shared scripts judge none).
    pub fn add_events(&mut self, fixture: &'static dyn Fixture, events: &[Value]) {
        if !fixture.sdk().shared {
            self.alone(fixture, bodies(fixture))
                .events
                .extend_from_slice(events);
        }
    }

    fn alone(&mut self, fixture: &'static dyn Fixture, script: &'static str) -> &mut Alone {
        let at = match self
            .alone
            .iter()
            .position(|a| a.fixture.dialect() == fixture.dialect())
        {
            Some(at) => at,
            None => {
                self.alone.push(Alone {
                    fixture,
                    script,
                    requests: Vec::new(),
                    events: Vec::new(),
                });
                self.alone.len() - 1
            }
        };
        &mut self.alone[at]
    }

    /// Panics unless every script accepts what was added (`file` names the inputs written):
    /// `validate_messages.py` the messages of every dialect it knows, each own validator its
    /// dialect's requests. Nothing is checked when the SDK checks are skipped.
    pub fn assert_accepted(self, file: &str) {
        let Some((ok, report)) =
            validate_messages(&Value::Object(self.keyed), &format!("{file}_messages.json"))
        else {
            return; // skipped: no Python (never under CI)
        };
        assert!(ok, "the SDK types refused what we render:\n{report}");
        assert!(
            report.contains("accepted by the official SDK types"),
            "{report}"
        );
        for alone in self.alone {
            let file = format!("{file}_{}.json", alone.fixture.sdk().key);
            let events = (!alone.events.is_empty()).then_some(alone.events);
            let (ok, report) =
                validate_alone(alone.fixture, alone.script, &alone.requests, events, &file)
                    .expect("Python was there a moment ago");
            assert!(ok, "{} refused what we render:\n{report}", alone.script);
            assert!(
                report.contains(&format!("{} requests", alone.requests.len())),
                "{report}"
            );
        }
    }
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
