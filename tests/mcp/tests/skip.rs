//! The interop tests on a machine without node or Python: skipped with one line each outside
//! CI, a failure under CI. Each test runs this binary again as a child, with `PATH` and
//! `TOOLNEXUS_PYTHON` pointing nowhere, and reads what the child printed.

use std::process::{Command, Output};

use toolnexus_mcp_tests::{everything, python, SKIPPED_NODE, SKIPPED_PYTHON};

#[test]
#[ignore = "run by the other tests in this file, as a child process"]
fn child_asks_for_the_peers() {
    // Twice each, as two interop tests in one binary would.
    assert_eq!(everything(), everything());
    assert_eq!(python(), python());
    println!("child done");
}

fn run_child(ci: Option<&str>) -> Output {
    let mut child = Command::new(std::env::current_exe().expect("the test binary's path"));
    child
        .args([
            "--ignored",
            "--exact",
            "child_asks_for_the_peers",
            "--nocapture",
        ])
        .env("PATH", "/nonexistent/toolnexus-test")
        .env("TOOLNEXUS_PYTHON", "/nonexistent/toolnexus-test/python3")
        .env_remove("CI");
    if let Some(ci) = ci {
        child.env("CI", ci);
    }
    child.output().expect("the test binary runs")
}

#[test]
fn without_node_and_python_outside_ci_the_interop_tests_are_skipped_with_one_line_each() {
    let out = run_child(None);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "the child failed:\n{stderr}");
    let skipped: Vec<_> = stderr.lines().filter(|l| l.contains("skipped")).collect();
    assert_eq!(skipped, [SKIPPED_NODE, SKIPPED_PYTHON], "stderr:\n{stderr}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("child done"));
}

#[test]
fn without_node_under_ci_the_interop_tests_fail_and_say_why() {
    let out = run_child(Some("true"));
    let all = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!out.status.success(), "the child passed:\n{all}");
    assert!(
        all.contains("required under CI") && all.contains("node or npm does not run"),
        "{all}"
    );
    assert!(!all.contains(SKIPPED_NODE), "{all}");
}
