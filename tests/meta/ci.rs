//! CI leaves nothing behind (issue 48): under `CI`, `.ci/run` removes everything it created in
//! its clone when it exits, whether it passed, failed or was interrupted; in a developer's own
//! tree it keeps all of it, so builds stay warm.
//!
//! Each test runs the real `.ci/run` and `scripts/ci_clean.sh` in a copy of the tree's shape,
//! with a `cargo` on `PATH` that records its arguments and passes, fails or hangs as told, and
//! setup scripts that make what the real ones make (the venv, the npm peers, the nginx scratch).

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::common::root;

/// What a CI run makes inside its clone, relative to it.
const MADE: [&str; 7] = [
    "target/debug/deps/libx.rlib",
    "target/minimal-versions/debug/x",
    ".venv/bin/python",
    ".venv.lock",
    ".mcp-peers/node_modules/x.js",
    ".mcp-peers.lock",
    ".ci-tmp/toolnexus-nginx-1-2/nginx.conf",
];

/// A fake clone: `.ci/run` and `scripts/ci_clean.sh` as committed, stand-ins for the setup
/// scripts and for `cargo`, and a source file that must survive.
struct Tree {
    dir: PathBuf,
}

impl Tree {
    fn new(name: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("toolnexus-ci-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        for sub in [".ci", "scripts", "bin", "src"] {
            fs::create_dir_all(dir.join(sub)).unwrap();
        }
        fs::copy(root().join(".ci/run"), dir.join(".ci/run")).unwrap();
        let clean = Path::new("scripts").join("ci_clean.sh");
        fs::copy(root().join(&clean), dir.join(&clean)).unwrap();
        fs::write(dir.join("src/lib.rs"), "// the user's source\n").unwrap();
        // The setup scripts make what the real ones do; the nginx scratch goes to TMPDIR, as
        // the scale-out test's does (std::env::temp_dir).
        let setup = [
            ("venv", "mkdir -p .venv/bin && touch .venv/bin/python .venv.lock"),
            ("mcp_peers", "mkdir -p .mcp-peers/node_modules && touch .mcp-peers/node_modules/x.js .mcp-peers.lock"),
            ("nginx", "d=${TMPDIR:-/tmp}/toolnexus-nginx-1-2; mkdir -p \"$d\" && touch \"$d/nginx.conf\""),
            ("minimal_versions", "mkdir -p target/minimal-versions/debug && touch target/minimal-versions/debug/x"),
        ];
        for (name, body) in setup {
            let script = Path::new("scripts").join(format!("{name}.sh"));
            fs::write(
                dir.join(script),
                format!("cd \"$(dirname \"$0\")/..\"\n{body}\n"),
            )
            .unwrap();
        }
        // `cargo`: records each call; makes target/ as a build would; `FAKE_CARGO_FAIL=fmt`
        // fails the call whose first argument is `fmt`, `FAKE_CARGO_HANG=clippy` sleeps there.
        let cargo = r#"#!/usr/bin/env bash
echo "cargo $*" >>"$FAKE_CARGO_LOG"
mkdir -p target/debug/deps && touch target/debug/deps/libx.rlib
[ "${FAKE_CARGO_HANG:-}" = "$1" ] && { touch "$FAKE_CARGO_LOG.hanging"; exec sleep 60; }
[ "${FAKE_CARGO_FAIL:-}" = "$1" ] && exit 7
exit 0
"#;
        let fake = dir.join("bin/cargo");
        fs::write(&fake, cargo).unwrap();
        fs::set_permissions(&fake, fs::Permissions::from_mode(0o755)).unwrap();
        // The machine's own temp dir, for a run without CI.
        fs::create_dir_all(dir.join("machine-tmp")).unwrap();
        Tree { dir }
    }

    fn log(&self) -> PathBuf {
        self.dir.join("cargo.log")
    }

    /// `.ci/run` in the tree with `env` set (and `CI` removed unless `env` sets it).
    fn command(&self, env: &[(&str, &str)]) -> Command {
        let mut run = Command::new("bash");
        run.arg(self.dir.join(".ci/run"))
            .env_remove("CI")
            .env_remove("CARGO_TARGET_DIR")
            .env_remove("CARGO_INCREMENTAL")
            .env("TMPDIR", self.dir.join("machine-tmp"))
            .env("FAKE_CARGO_LOG", self.log())
            .env(
                "PATH",
                format!(
                    "{}:{}",
                    self.dir.join("bin").display(),
                    std::env::var("PATH").unwrap()
                ),
            )
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        for (key, value) in env {
            run.env(key, value);
        }
        run
    }

    fn run(&self, env: &[(&str, &str)]) -> Output {
        self.command(env).output().unwrap()
    }

    /// What of [`MADE`] is still there.
    fn left(&self) -> Vec<&'static str> {
        MADE.into_iter()
            .filter(|p| self.dir.join(p).exists())
            .collect()
    }

    fn assert_clean(&self, out: &Output) {
        assert_eq!(
            self.left(),
            Vec::<&str>::new(),
            "left behind; {}",
            text(out)
        );
        for dir in ["target", ".venv", ".mcp-peers", ".ci-tmp"] {
            assert!(!self.dir.join(dir).exists(), "{dir} left behind");
        }
        assert!(
            self.dir.join("src/lib.rs").is_file(),
            "the clean-up took the source too"
        );
        assert!(self.dir.join(".ci/run").is_file());
    }
}

impl Drop for Tree {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.dir);
    }
}

fn text(out: &Output) -> String {
    format!(
        "status {:?}\nstdout:\n{}\nstderr:\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

#[test]
fn a_passing_ci_run_removes_everything_it_made_and_builds_without_incremental_state() {
    let tree = Tree::new("pass");
    // The cargo stand-in reports the variable, so the one-shot build is seen from inside.
    let cargo = fs::read_to_string(tree.dir.join("bin/cargo")).unwrap();
    let cargo = cargo.replace(
        "echo \"cargo $*\"",
        "echo \"cargo $* [incremental=${CARGO_INCREMENTAL:-} tmp=${TMPDIR:-}]\"",
    );
    fs::write(tree.dir.join("bin/cargo"), cargo).unwrap();
    let out = tree.run(&[("CI", "true")]);
    assert!(out.status.success(), "{}", text(&out));
    tree.assert_clean(&out);
    let log = fs::read_to_string(tree.log()).unwrap();
    let tmp = tree.dir.canonicalize().unwrap().join(".ci-tmp");
    for line in log.lines() {
        assert!(line.contains("[incremental=0 "), "{line}");
        assert!(line.contains(&format!("tmp={}]", tmp.display())), "{line}");
    }
    assert!(
        log.contains("cargo test --workspace --test macro_ui"),
        "{log}"
    );
    // Each step's line says the seconds and the target's disk.
    let stdout = String::from_utf8_lossy(&out.stdout);
    let fmt = stdout
        .lines()
        .find(|l| l.ends_with("] cargo fmt --check"))
        .unwrap_or_else(|| panic!("no fmt step line: {stdout}"));
    assert!(
        fmt.starts_with("== [") && fmt.contains("s, target "),
        "{fmt}"
    );
}

#[test]
fn a_failing_ci_run_removes_everything_it_made_and_keeps_its_status() {
    let tree = Tree::new("fail");
    let out = tree.run(&[("CI", "1"), ("FAKE_CARGO_FAIL", "clippy")]);
    assert_eq!(out.status.code(), Some(7), "{}", text(&out));
    tree.assert_clean(&out);
}

#[test]
fn an_interrupted_ci_run_removes_everything_it_made() {
    use std::os::unix::process::CommandExt;
    let tree = Tree::new("interrupt");
    let child = tree
        .command(&[("CI", "true"), ("FAKE_CARGO_HANG", "doc")])
        .process_group(0)
        .spawn()
        .unwrap();
    let hanging = PathBuf::from(format!("{}.hanging", tree.log().display()));
    let start = Instant::now();
    while !hanging.exists() {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "the run never reached cargo doc"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    // The marker is made by `touch` just before `sleep`: a SIGINT that lands while `touch` is
    // still exiting finds no child to kill, and bash (which lets a child that exits normally
    // decide) goes on to sleep the whole minute. Give `sleep` time to start first.
    std::thread::sleep(Duration::from_millis(300));
    // Ctrl-C: SIGINT to the whole process group, as a terminal sends it.
    let group = format!("-{}", child.id());
    assert!(Command::new("kill")
        .args(["-INT", "--", &group])
        .status()
        .unwrap()
        .success());
    let out = child.wait_with_output().unwrap();
    assert!(!out.status.success(), "{}", text(&out));
    assert!(
        start.elapsed() < Duration::from_secs(30),
        "the run waited out the hung step"
    );
    tree.assert_clean(&out);
}

#[test]
fn without_ci_the_run_keeps_its_builds_and_setup_warm() {
    let tree = Tree::new("dev");
    let out = tree.run(&[("FAKE_CARGO_FAIL", "test")]);
    assert_eq!(out.status.code(), Some(7), "{}", text(&out));
    // Everything but the TMPDIR scratch, which is the machine's own /tmp here.
    let kept: Vec<&str> = MADE
        .into_iter()
        .filter(|p| !p.starts_with(".ci-tmp"))
        .collect();
    assert_eq!(tree.left(), kept, "{}", text(&out));
    for ci in ["false", "0", ""] {
        let tree = Tree::new(&format!("dev-ci-{}", ci.len()));
        let out = tree.run(&[("CI", ci)]);
        assert!(out.status.success(), "{}", text(&out));
        assert!(tree.dir.join("target").exists(), "CI={ci:?} is no CI");
    }
}

#[test]
fn a_target_dir_outside_the_clone_is_kept_and_one_inside_is_removed() {
    let tree = Tree::new("target-dir");
    let outside = std::env::temp_dir().join(format!("toolnexus-ci-outside-{}", std::process::id()));
    fs::create_dir_all(outside.join("debug")).unwrap();
    let out = tree.run(&[
        ("CI", "true"),
        ("CARGO_TARGET_DIR", outside.to_str().unwrap()),
    ]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(
        outside.join("debug").is_dir(),
        "the caller's target dir was removed"
    );
    fs::remove_dir_all(&outside).unwrap();
    // A relative one inside the clone is the run's own; and the clone itself is never removed.
    let tree = Tree::new("target-inside");
    fs::create_dir_all(tree.dir.join("build/debug")).unwrap();
    let out = tree.run(&[("CI", "true"), ("CARGO_TARGET_DIR", "build")]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(!tree.dir.join("build").exists(), "{}", text(&out));
    let tree = Tree::new("target-root");
    let out = tree.run(&[("CI", "true"), ("CARGO_TARGET_DIR", ".")]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(
        tree.dir.join("src/lib.rs").is_file(),
        "CARGO_TARGET_DIR=. removed the clone"
    );
}
