//! The official MCP conformance suite (`@modelcontextprotocol/conformance`, pinned in
//! scripts/mcp-peers/ and installed by scripts/mcp_peers.sh) against our server and our
//! client: every scenario, active and pending, passes but for those
//! `conformance/expected-failures.yml` lists with their reasons; a listed one that passes fails
//! the run too, so the list stays true. Node 20 runs the suite through
//! `js/conformance/register.mjs` (see there). Without node the tests are skipped with one line
//! (under `CI` they fail instead).

use std::io::BufRead;
use std::process::{Command, Stdio};

use toolnexus_mcp_tests::{everything, root};

const SERVER: &str = env!("CARGO_BIN_EXE_conformance_server");
const CLIENT: &str = env!("CARGO_BIN_EXE_conformance_client");

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

    let summary = suite(&["server", "--url", url.trim()]);
    drop(server);
    eprintln!("conformance suite, server:{summary}");
    assert!(summary.contains("Total: "), "no summary: {summary}");
}

#[test]
fn the_official_conformance_suite_passes_against_our_client_but_for_the_listed_scenarios() {
    if everything().is_none() {
        return;
    }
    let summary = suite(&["client", "--command", CLIENT]);
    eprintln!("conformance suite, client:{summary}");
    assert!(summary.contains("Total: "), "no summary: {summary}");
}

/// Runs the suite with `args` (`server …` or `client …`), all scenarios and the expected
/// failures, in a scratch directory; its summary, after checking that it passed.
fn suite(args: &[&str]) -> String {
    let scratch = std::env::temp_dir().join(format!(
        "toolnexus-conformance-{}-{}",
        args[0],
        std::process::id()
    ));
    std::fs::create_dir_all(&scratch).unwrap();
    let suite =
        root().join(".mcp-peers/node_modules/@modelcontextprotocol/conformance/dist/index.js");
    let out = Command::new("node")
        .current_dir(&scratch)
        .arg("--import")
        .arg(root().join("tests/mcp/js/conformance/register.mjs"))
        .arg(suite)
        .args(args)
        .args(["--suite", "all", "--expected-failures"])
        .arg(root().join("tests/mcp/conformance/expected-failures.yml"))
        .output()
        .expect("node runs the conformance suite");
    let _ = std::fs::remove_dir_all(&scratch);
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let summary = stdout
        .rsplit_once("SUMMARY ===")
        .map_or(stdout.as_str(), |(_, s)| s)
        .to_owned();
    assert!(
        out.status.success(),
        "the conformance suite failed (a scenario not in expected-failures.yml failed, or one \
         listed there passed):\n{summary}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    summary
}
