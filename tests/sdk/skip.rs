//! The SDK checks on a machine without Python's `venv`: skipped with one line outside CI,
//! required under CI. Each test runs this test binary again as a child process, with
//! `TOOLNEXUS_PYTHON` pointing at an interpreter that does not exist, and reads what the child
//! printed.

use std::process::{Command, Output};

/// What an SDK test does first: ask for the venv's Python, twice (as two SDK tests in one binary
/// would). Run only as the child of the tests below.
#[test]
#[ignore = "run by the other tests in this file, as a child process"]
fn child_asks_for_python() {
    let first = crate::venv::python();
    let second = crate::venv::python();
    assert_eq!(first, second);
    if let Some(python) = first {
        let out = Command::new(python)
            .args(["-c", "print('python ran')"])
            .output()
            .expect("the venv's python runs");
        println!("{}", String::from_utf8_lossy(&out.stdout).trim());
    }
}

fn run_child(python: &str, ci: Option<&str>) -> Output {
    // The child's name as libtest lists it: its path in this test binary, without the crate.
    let (_, module) = module_path!()
        .split_once("::")
        .expect("this file is a module of the `sdk` test binary");
    let name = format!("{module}::child_asks_for_python");
    let mut child = Command::new(std::env::current_exe().expect("the test binary's path"));
    child
        .args(["--ignored", "--exact", &name, "--nocapture"])
        .env("TOOLNEXUS_PYTHON", python)
        .env_remove("CI");
    if let Some(ci) = ci {
        child.env("CI", ci);
    }
    child.output().expect("the test binary runs")
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

const NO_PYTHON: &str = "/nonexistent/toolnexus-test/python3";

#[test]
fn without_python_outside_ci_the_sdk_checks_are_skipped_with_one_line() {
    let out = run_child(NO_PYTHON, None);
    let all = text(&out);
    assert!(out.status.success(), "the child failed:\n{all}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let skipped: Vec<_> = stderr.lines().filter(|l| l.contains("skipped")).collect();
    assert_eq!(skipped, [crate::venv::SKIPPED], "stderr:\n{stderr}");
    assert!(!all.contains("python ran"), "{all}");
    assert!(!all.contains("panicked"), "{all}");
}

#[test]
fn without_python_under_ci_the_sdk_checks_fail_and_say_why() {
    for ci in ["true", "1"] {
        let out = run_child(NO_PYTHON, Some(ci));
        let all = text(&out);
        assert!(!out.status.success(), "CI={ci}: the child passed:\n{all}");
        assert!(
            all.contains("the SDK checks are required under CI")
                && all.contains(NO_PYTHON)
                && all.contains("apt-get install python3-venv"),
            "CI={ci}:\n{all}"
        );
        assert!(!all.contains(crate::venv::SKIPPED), "CI={ci}:\n{all}");
    }
}

#[test]
fn ci_set_to_false_is_not_ci() {
    let out = run_child(NO_PYTHON, Some("false"));
    assert!(out.status.success(), "{}", text(&out));
    assert!(text(&out).contains(crate::venv::SKIPPED));
}

#[test]
fn an_interpreter_without_venv_counts_as_missing() {
    // `false` runs but exits non-zero, as a Python without its venv module does on the import.
    let out = run_child("false", None);
    assert!(out.status.success(), "{}", text(&out));
    assert!(text(&out).contains(crate::venv::SKIPPED), "{}", text(&out));
}

#[test]
fn with_python_the_sdk_checks_run_under_ci_too() {
    // On a machine without Python this test is itself skipped (one line, or a failure under CI).
    if crate::venv::python().is_none() {
        return;
    }
    let python = std::env::var("TOOLNEXUS_PYTHON").unwrap_or_else(|_| "python3".to_owned());
    for ci in [None, Some("true")] {
        let out = run_child(&python, ci);
        let all = text(&out);
        assert!(out.status.success(), "CI={ci:?}:\n{all}");
        assert!(all.contains("python ran"), "CI={ci:?}:\n{all}");
        assert!(!all.contains(crate::venv::SKIPPED), "CI={ci:?}:\n{all}");
    }
}
