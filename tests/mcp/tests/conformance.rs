//! The official MCP conformance suite (`@modelcontextprotocol/conformance`, pinned in
//! scripts/mcp-peers/ and installed by scripts/mcp_peers.sh) against our server: every server
//! scenario, active and pending, passes but for those `conformance/expected-failures.yml`
//! lists with their reasons; a listed one that passes fails the run too, so the list stays
//! true. Node 20 runs the suite through `js/conformance/register.mjs` (see there). Without
//! node the test is skipped with one line (under `CI` it fails instead).

use std::io::BufRead;
use std::process::{Command, Stdio};

use toolnexus_mcp_tests::{everything, root};

const SERVER: &str = env!("CARGO_BIN_EXE_conformance_server");

/// Kills the server when the test ends, pass or fail.
struct Running(std::process::Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn the_official_conformance_suite_passes_against_our_server_but_for_the_listed_scenarios() {
    if everything().is_none() {
        return;
    }
    let mut child = Command::new(SERVER)
        .args(["--http", "127.0.0.1:0"])
        .stdout(Stdio::piped())
        .spawn()
        .expect("conformance_server starts");
    let stdout = child.stdout.take().expect("piped stdout");
    let server = Running(child);
    let mut url = String::new();
    std::io::BufReader::new(stdout)
        .read_line(&mut url)
        .expect("conformance_server prints its URL");

    // The suite writes nothing we need; its working directory is a scratch one.
    let scratch =
        std::env::temp_dir().join(format!("toolnexus-conformance-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).unwrap();
    let suite =
        root().join(".mcp-peers/node_modules/@modelcontextprotocol/conformance/dist/index.js");
    let out = Command::new("node")
        .current_dir(&scratch)
        .arg("--import")
        .arg(root().join("tests/mcp/js/conformance/register.mjs"))
        .arg(suite)
        .args([
            "server",
            "--suite",
            "all",
            "--url",
            url.trim(),
            "--expected-failures",
        ])
        .arg(root().join("tests/mcp/conformance/expected-failures.yml"))
        .output()
        .expect("node runs the conformance suite");
    drop(server);
    let _ = std::fs::remove_dir_all(&scratch);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let summary = stdout
        .rsplit_once("=== SUMMARY ===")
        .map_or(&*stdout, |(_, s)| s);
    // The totals, for whoever reads the test's output (`--nocapture`).
    eprintln!("conformance suite, server:{summary}");
    assert!(
        out.status.success(),
        "the conformance suite failed (a scenario not in expected-failures.yml failed, or one \
         listed there passed):\n{summary}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(summary.contains("Total: "), "no summary: {stdout}");
}
