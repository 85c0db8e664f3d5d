//! Scale-out, bounded: three stateless instances of our server behind nginx (from Debian, on
//! 127.0.0.1), twenty clients calling for three seconds, one instance killed after one. Every
//! call is answered or fails with an error within its timeout; none hangs, and the others keep
//! serving. (scripts/mcp_scale.sh is the full measurement, with the rmcp floor.)

use std::io::BufRead;
use std::process::{Command, Stdio};
use std::time::Duration;

use serde_json::Value;
use toolnexus_mcp_tests::{balancer, Child};

const SERVER: &str = env!("CARGO_BIN_EXE_scale_server");
const LOAD: &str = env!("CARGO_BIN_EXE_mcp_load");

/// A port free a moment ago, for nginx, which binds the port its configuration names and
/// cannot report one the system picked.
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port()
}

fn instance() -> (String, Child) {
    let mut child = Command::new(SERVER)
        .args(["ours", "127.0.0.1:0"])
        .stdout(Stdio::piped())
        .spawn()
        .expect("an instance starts");
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .expect("it prints its URL");
    let authority = line
        .trim()
        .trim_start_matches("http://")
        .trim_end_matches("/mcp");
    (authority.to_owned(), Child(child))
}

#[test]
fn killing_one_instance_behind_nginx_fails_calls_fast_and_hangs_none() {
    let Some(nginx) = balancer::nginx() else {
        return;
    };
    let (authorities, mut instances): (Vec<String>, Vec<Child>) =
        (0..3).map(|_| instance()).unzip();
    // nginx binds the port itself; a port taken meanwhile fails the start, and the test says so.
    let port = free_port();
    let _nginx = balancer::start(&nginx, port, &authorities);
    let url = format!("http://127.0.0.1:{port}/mcp");
    let mut ready = false;
    for _ in 0..100 {
        if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
            ready = true;
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(ready, "nginx listens on {port}");

    let load = Command::new(LOAD)
        .args([url.as_str(), "20", "3", "3000"])
        .stdout(Stdio::piped())
        .spawn()
        .expect("the load generator starts");
    let load = Child(load);
    std::thread::sleep(Duration::from_secs(1));
    let killed = instances.remove(0);
    drop(killed); // SIGKILL, mid-run
    let mut load = load;
    let mut out = String::new();
    std::io::BufReader::new(load.0.stdout.take().unwrap())
        .read_line(&mut out)
        .expect("a report");
    let report: Value = serde_json::from_str(&out).expect("a JSON report");
    eprintln!("{report}");
    assert_eq!(report["timeouts"], 0, "no call hangs: {report}");
    let ok = report["ok"].as_u64().unwrap();
    let errors = report["errors"].as_u64().unwrap();
    assert!(ok > 100, "the other instances keep serving: {report}");
    // Only the calls in flight on the killed instance's connections may fail (nginx does not
    // send a POST it already sent to another instance: a tool may have run): a few per client.
    assert!(errors <= 2 * 20, "{report}");
}
