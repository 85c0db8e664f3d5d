//! Every bound of our server, attacked: over HTTP with a raw client, a flood of sessions, an
//! oversize body, a body of too many values, a slow body, too many connections, many hanging
//! calls, and a `DELETE` that must end its session's calls; over stdio, an oversize line.
//! Memory is the server process's peak (`VmHWM` in /proc), against its idle size.

use std::time::Duration;

use serde_json::json;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt};
use toolnexus_mcp_tests::raw::{self, initialize, memory_mib, post, session};
use toolnexus_mcp_tests::{fixture_over_http, log_file, logged};

const SERVER: &str = env!("CARGO_BIN_EXE_bounded_server");

/// Polls `done` every 50 ms for at most `seconds`.
async fn eventually(what: &str, seconds: u64, mut done: impl FnMut() -> bool) {
    for _ in 0..seconds * 20 {
        if done() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("{what} did not happen within {seconds} s");
}

#[tokio::test]
async fn sessions_past_the_cap_get_503_and_idle_ones_expire() {
    let log = log_file("bounds-sessions.log");
    let (url, _server) = fixture_over_http(
        SERVER,
        &log,
        &[
            "--max-sessions",
            "3",
            "--max-sessions-per-client",
            "3",
            "--idle-ms",
            "1000",
        ],
    );
    for _ in 0..3 {
        session(&url).await;
    }
    let (reply, id) = initialize(&url, &[]).await;
    assert_eq!(reply.status, 503, "{reply:?}");
    assert_eq!(reply.header("retry-after"), Some("5"));
    assert!(
        reply.body.contains("maximum of 3 sessions"),
        "{}",
        reply.body
    );
    assert_eq!(id, None);

    // Idle for a second, the sessions are closed and their slots free again.
    let mut reopened = None;
    for _ in 0..60 {
        tokio::time::sleep(Duration::from_millis(250)).await;
        let (reply, id) = initialize(&url, &[]).await;
        if reply.status == 200 {
            reopened = id;
            break;
        }
        assert_eq!(reply.status, 503, "{reply:?}");
    }
    assert!(
        reopened.is_some(),
        "a slot came free after the idle timeout"
    );
}

#[tokio::test]
async fn a_flood_of_sessions_is_refused_past_the_cap_in_bounded_memory() {
    let log = log_file("bounds-flood.log");
    // All from one address: its share is the whole cap here.
    let (url, server) = fixture_over_http(SERVER, &log, &["--max-sessions-per-client", "1000"]);
    let pid = server.0.id();
    session(&url).await;
    let idle = memory_mib(pid, "VmRSS");
    // 5000 sessions, 8 clients at once: the first 1000 (the default cap) are made.
    let mut made = 0;
    let mut refused = 0;
    let mut tasks = tokio::task::JoinSet::new();
    for client in 0..8 {
        let url = url.clone();
        tasks.spawn(async move {
            let mut statuses = Vec::new();
            for _ in (client..5000).step_by(8) {
                statuses.push(initialize(&url, &[]).await.0.status);
            }
            statuses
        });
    }
    while let Some(statuses) = tasks.join_next().await {
        for status in statuses.unwrap() {
            match status {
                200 => made += 1,
                503 => refused += 1,
                other => panic!("status {other}"),
            }
        }
    }
    assert_eq!((made, refused), (999, 4001), "one session was made before");
    let peak = memory_mib(pid, "VmHWM");
    eprintln!("5000-session flood: idle {idle} MiB, peak {peak} MiB");
    assert!(
        peak <= idle + 150,
        "5000 sessions asked for: peak {peak} MiB, idle {idle} MiB"
    );
}

#[tokio::test]
async fn an_oversize_body_is_refused_before_it_is_parsed() {
    let log = log_file("bounds-body.log");
    let (url, server) = fixture_over_http(SERVER, &log, &[]);
    let pid = server.0.id();
    let id = session(&url).await;
    let idle = memory_mib(pid, "VmRSS");

    // 4 MiB of small values: refused by its size, before a byte of it is parsed.
    let zeros = vec!["0"; 2 * 1024 * 1024].join(",");
    let body = format!(
        r#"{{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{{"name":"echo","arguments":{{"text":"x","pad":[{zeros}]}}}}}}"#
    );
    let reply = post(&url, Some(&id), body.as_bytes()).await;
    assert_eq!(reply.status, 413, "{}", reply.body);
    assert!(
        reply.body.contains("exceeds 1114112 bytes"),
        "{}",
        reply.body
    );

    // Under the byte bound but more values than the default 100,000: refused unparsed too.
    let zeros = vec!["0"; 200_000].join(",");
    let body = format!(
        r#"{{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{{"name":"echo","arguments":{{"text":"x","pad":[{zeros}]}}}}}}"#
    );
    let reply = post(&url, Some(&id), body.as_bytes()).await;
    assert_eq!(reply.status, 413, "{}", reply.body);
    assert!(reply.body.contains("100000 JSON values"), "{}", reply.body);

    // A body under both bounds (90,000 values) runs, and the server still answers.
    let zeros = vec!["0"; 90_000].join(",");
    let body = format!(
        r#"{{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{{"name":"count","arguments":{{"numbers":[{zeros}]}}}}}}"#
    );
    let reply = post(&url, Some(&id), body.as_bytes()).await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert!(reply.body.contains(r#""text":"90000""#), "{}", reply.body);
    assert_eq!(logged(&log), ["count"], "only the body let in ran");

    let peak = memory_mib(pid, "VmHWM");
    eprintln!("4 MiB body, 200k values, 90k values: idle {idle} MiB, peak {peak} MiB");
    assert!(peak <= idle + 64, "peak {peak} MiB, idle {idle} MiB");
}

#[tokio::test]
async fn a_body_without_a_length_is_cut_at_the_bound_too() {
    let log = log_file("bounds-chunked.log");
    let (url, _server) = fixture_over_http(SERVER, &log, &["--max-request-bytes", "4096"]);
    let id = session(&url).await;
    let exchange = async {
        let mut stream = tokio::net::TcpStream::connect(raw::authority(&url))
            .await
            .unwrap();
        let head = format!(
            "POST /mcp HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\n\
             Accept: application/json, text/event-stream\r\nMcp-Session-Id: {id}\r\n\
             Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n",
            raw::authority(&url)
        );
        stream.write_all(head.as_bytes()).await.unwrap();
        // Chunks of 1 KiB until the server answers and closes (at most 64 of them).
        for _ in 0..64 {
            let chunk = format!("400\r\n{}\r\n", " ".repeat(1024));
            if stream.write_all(chunk.as_bytes()).await.is_err() {
                break;
            }
        }
        raw::read_reply(&mut stream).await
    };
    let reply = tokio::time::timeout(raw::EXCHANGE_TIMEOUT, exchange)
        .await
        .unwrap();
    assert_eq!(reply.status, 413, "{reply:?}");
    assert!(reply.body.contains("exceeds 4096 bytes"), "{}", reply.body);
}

#[tokio::test]
async fn slow_bodies_hold_no_session_slot_while_they_come() {
    let log = log_file("bounds-slow-slot.log");
    let (url, _server) = fixture_over_http(
        SERVER,
        &log,
        &["--max-sessions", "2", "--max-sessions-per-client", "2"],
    );
    // Four requests that may each open a session send their heads and ten bytes of a body,
    // then nothing more (the read timeout is 30 s): before issue 39 the first two took both
    // slots, and every new client got 503 for as long as they hung.
    let mut slow = Vec::new();
    for _ in 0..4 {
        let mut stream = tokio::net::TcpStream::connect(raw::authority(&url))
            .await
            .unwrap();
        let head = raw::head(&url, "POST", &raw::MCP_POST, 1000);
        stream.write_all(head.as_bytes()).await.unwrap();
        stream.write_all(br#"{"jsonrpc""#).await.unwrap();
        slow.push(stream);
    }
    tokio::time::sleep(Duration::from_millis(200)).await;
    for _ in 0..2 {
        let (reply, session) = initialize(&url, &[]).await;
        assert_eq!(reply.status, 200, "{reply:?}");
        assert!(session.is_some());
    }
    // The cap itself still holds.
    let (reply, _) = initialize(&url, &[]).await;
    assert_eq!(reply.status, 503, "{reply:?}");
    drop(slow);
}

#[tokio::test]
async fn a_slow_body_is_cut_at_the_read_timeout() {
    let log = log_file("bounds-slow.log");
    let (url, _server) = fixture_over_http(SERVER, &log, &["--read-timeout-ms", "500"]);
    let id = session(&url).await;
    let exchange = async {
        let mut stream = tokio::net::TcpStream::connect(raw::authority(&url))
            .await
            .unwrap();
        let headers = [
            raw::MCP_POST[0],
            raw::MCP_POST[1],
            ("Mcp-Session-Id", id.as_str()),
        ];
        let head = raw::head(&url, "POST", &headers, 1000);
        stream.write_all(head.as_bytes()).await.unwrap();
        // Ten bytes of the thousand promised, then nothing more.
        stream.write_all(br#"{"jsonrpc""#).await.unwrap();
        raw::read_reply(&mut stream).await
    };
    let reply = tokio::time::timeout(raw::EXCHANGE_TIMEOUT, exchange)
        .await
        .unwrap();
    assert_eq!(reply.status, 408, "{reply:?}");
    assert!(
        reply.body.contains("did not arrive within 500ms"),
        "{}",
        reply.body
    );
}

/// One client cannot take every connection (issue 39): from 127.0.0.1, twelve idle sockets
/// against a cap of eight; only its share (half) is held, and a client from another address
/// (127.0.0.2) is still served.
#[tokio::test]
async fn one_client_cannot_take_every_connection() {
    let log = log_file("bounds-per-client.log");
    let (url, _server) = fixture_over_http(SERVER, &log, &["--max-connections", "8"]);
    let mut held = Vec::new();
    for _ in 0..12 {
        let stream = tokio::net::TcpStream::connect(raw::authority(&url))
            .await
            .unwrap();
        held.push(stream);
    }
    tokio::time::sleep(Duration::from_millis(200)).await;
    let (reply, _) = initialize(&url, &[]).await;
    assert_eq!(reply.status, 503, "{reply:?}");
    assert!(reply.body.contains("from this client"), "{}", reply.body);

    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.bind("127.0.0.2:0".parse().unwrap()).unwrap();
    let mut other = socket
        .connect(raw::authority(&url).parse().unwrap())
        .await
        .expect("127.0.0.2 reaches the loopback server");
    let mut headers = raw::MCP_POST.to_vec();
    headers.push(("Connection", "close"));
    let head = raw::head(&url, "POST", &headers, raw::INITIALIZE.len());
    other.write_all(head.as_bytes()).await.unwrap();
    other.write_all(raw::INITIALIZE.as_bytes()).await.unwrap();
    let reply = tokio::time::timeout(raw::EXCHANGE_TIMEOUT, raw::read_reply(&mut other))
        .await
        .expect("the other client is answered");
    assert_eq!(reply.status, 200, "{reply:?}");
    drop(held);
}

#[tokio::test]
async fn connections_past_the_cap_get_503() {
    let log = log_file("bounds-connections.log");
    let (url, _server) = fixture_over_http(SERVER, &log, &["--max-connections", "2"]);
    // Two connections held open (a request head half-sent on each).
    let mut held = Vec::new();
    for _ in 0..2 {
        let mut stream = tokio::net::TcpStream::connect(raw::authority(&url))
            .await
            .unwrap();
        stream.write_all(b"POST /mcp HTTP/1.1\r\n").await.unwrap();
        held.push(stream);
    }
    // The server takes a moment to accept both; then a third is refused at once.
    let mut refused = None;
    for _ in 0..100 {
        let (reply, _) = initialize(&url, &[]).await;
        if reply.status == 503 {
            refused = Some(reply);
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let reply = refused.expect("a third connection is refused");
    assert_eq!(reply.header("retry-after"), Some("5"));
    assert!(
        reply.body.contains("too many connections"),
        "{}",
        reply.body
    );
    drop(held);
    let mut answered = false;
    for _ in 0..100 {
        if initialize(&url, &[]).await.0.status == 200 {
            answered = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(answered, "closed connections give their slots back");
}

#[tokio::test]
async fn hanging_calls_wait_for_their_slots_and_delete_ends_a_session_s_calls() {
    let log = log_file("bounds-calls.log");
    let (url, _server) = fixture_over_http(
        SERVER,
        &log,
        &[
            "--max-calls",
            "5",
            "--max-session-calls",
            "3",
            "--max-calls-per-client",
            "5",
        ],
    );
    let started = || logged(&log).iter().filter(|l| *l == "slow").count();
    let a = session(&url).await;
    let b = session(&url).await;
    // Twenty calls that would hang a minute each, ten in each session: three run in A (its
    // cap), then two in B (the server's five); the rest wait.
    let mut calls = Vec::new();
    for (id, running) in [(&a, 3), (&b, 5)] {
        for n in 0..10 {
            let (url, id) = (url.clone(), id.clone());
            let body = raw::call(10 + n, "slow", &json!({"ms": 60_000}));
            calls.push(tokio::spawn(
                async move { post(&url, Some(&id), &body).await },
            ));
        }
        eventually("the calls starting", 15, || started() == running).await;
        tokio::time::sleep(Duration::from_millis(300)).await;
        assert_eq!(started(), running, "no more run at once");
    }

    // Closing session A ends its calls, running and waiting: their slots go to B's calls.
    let mut headers = vec![("Mcp-Session-Id", a.as_str())];
    headers.push(("MCP-Protocol-Version", "2025-06-18"));
    let reply = raw::send(&url, "DELETE", &headers, b"").await;
    assert!(reply.status < 300, "{reply:?}");
    // At once: rmcp alone would end them only after its 5 s drain of a closed session.
    eventually("B's third call starting", 3, || started() >= 6).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(started(), 6, "B runs at most its three; none of A's start");
    assert!(!logged(&log).contains(&"slow-done".to_owned()));
    for call in calls {
        call.abort();
    }
}

/// One client (an address, by default) holds at most its share of the sessions, half of the
/// cap: past it that client gets `503` and another still gets in (issue 39: one client could
/// take every session).
#[tokio::test]
async fn one_address_cannot_take_every_session() {
    let log = log_file("bounds-client-sessions.log");
    let (url, _server) = fixture_over_http(SERVER, &log, &["--max-sessions", "4"]);
    for _ in 0..2 {
        session(&url).await;
    }
    let (reply, id) = initialize(&url, &[]).await;
    assert_eq!(reply.status, 503, "{reply:?}");
    assert_eq!(reply.header("retry-after"), Some("5"));
    assert!(
        reply
            .body
            .contains("this client holds its share of 2 sessions"),
        "{}",
        reply.body
    );
    assert_eq!(id, None);
    let reply = raw::send_from(
        Some("127.0.0.2"),
        &url,
        "POST",
        &raw::MCP_POST,
        raw::INITIALIZE.as_bytes(),
    )
    .await;
    assert_eq!(
        reply.status, 200,
        "another address gets a session: {reply:?}"
    );
    assert!(reply.header("mcp-session-id").is_some());
}

/// With the host's key (here a header, as an auth layer's principal would be), each client
/// holds at most its share of sessions and of call slots: one that fills its share with
/// hanging calls waits for its own, and another client's call runs at once.
#[tokio::test]
async fn a_client_named_by_the_host_holds_its_share_of_sessions_and_calls() {
    let log = log_file("bounds-client-calls.log");
    let (url, _server) = fixture_over_http(
        SERVER,
        &log,
        &[
            "--client-header",
            "x-tenant",
            "--max-sessions",
            "6",
            "--max-sessions-per-client",
            "2",
            "--max-calls",
            "4",
            "--max-calls-per-client",
            "2",
        ],
    );
    let started = || logged(&log).iter().filter(|l| *l == "slow").count();
    let tenant = |name: &'static str| [("x-tenant", name)];
    let mut a = Vec::new();
    for _ in 0..2 {
        let (reply, id) = initialize(&url, &tenant("a")).await;
        assert_eq!(reply.status, 200, "{reply:?}");
        a.push(id.expect("a session"));
    }
    let (reply, _) = initialize(&url, &tenant("a")).await;
    assert_eq!(reply.status, 503, "a holds its share: {reply:?}");
    // The same address, another tenant: its own share.
    let (reply, b) = initialize(&url, &tenant("b")).await;
    assert_eq!(reply.status, 200, "{reply:?}");
    let b = b.expect("b's session");
    // A's six hanging calls over its two sessions: two run (its share of the server's four).
    let mut calls = Vec::new();
    for n in 0..6 {
        let (url, id) = (url.clone(), a[n % 2].clone());
        let body = raw::call(10 + n as u64, "slow", &json!({"ms": 60_000}));
        calls.push(tokio::spawn(async move {
            raw::post_with(&url, Some(&id), &[("x-tenant", "a")], &body).await
        }));
    }
    eventually("a's calls starting", 15, || started() == 2).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(started(), 2, "a runs at most its share");
    // B's call runs at once, though a's calls wait.
    let body = raw::call(1, "echo", &json!({"text": "b ran"}));
    let reply = raw::post_with(&url, Some(&b), &[("x-tenant", "b")], &body).await;
    assert_eq!(reply.status, 200, "{reply:?}");
    assert!(reply.body.contains("b ran"), "{}", reply.body);
    for call in calls {
        call.abort();
    }
}

/// The bounded server over stdio: the child (killed when dropped), its pid, its stdin, and its
/// stdout's lines.
fn stdio_server() -> (
    tokio::process::Child,
    u32,
    tokio::process::ChildStdin,
    tokio::io::Lines<tokio::io::BufReader<tokio::process::ChildStdout>>,
) {
    let mut child = tokio::process::Command::new(SERVER)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("the server starts");
    let pid = child.id().expect("a pid");
    let stdin = child.stdin.take().unwrap();
    let lines = tokio::io::BufReader::new(child.stdout.take().unwrap()).lines();
    (child, pid, stdin, lines)
}

/// The handshake over stdio; the server's resident memory, in MiB, once it answered.
async fn initialized(
    stdin: &mut tokio::process::ChildStdin,
    lines: &mut tokio::io::Lines<tokio::io::BufReader<tokio::process::ChildStdout>>,
    pid: u32,
) -> u64 {
    let initialized = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
    for line in [raw::INITIALIZE, initialized] {
        stdin
            .write_all(format!("{line}\n").as_bytes())
            .await
            .unwrap();
    }
    let answer = lines.next_line().await.unwrap().unwrap();
    assert!(answer.contains(r#""id":1"#), "{answer}");
    memory_mib(pid, "VmRSS")
}

#[tokio::test]
async fn a_stdio_line_of_too_many_values_is_dropped_unread() {
    let (_child, pid, mut stdin, mut lines) = stdio_server();
    let exchange = async {
        let idle = initialized(&mut stdin, &mut lines, pid).await;
        // 1 MiB of zeros on one line: under the byte bound, 512k values past the value
        // bound (before issue 39 parsed whole: +127 MiB). Eight of them, one after another.
        let zeros = vec!["0"; 500 * 1024].join(",");
        let big = format!(
            r#"{{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{{"name":"count","arguments":{{"numbers":[{zeros}]}}}}}}"#
        );
        assert!(big.len() < toolnexus::mcp::DEFAULT_MAX_REQUEST_BYTES);
        for _ in 0..8 {
            stdin.write_all(big.as_bytes()).await.unwrap();
            stdin.write_all(b"\n").await.unwrap();
        }
        let echo = raw::call(3, "echo", &json!({"text": "still here"}));
        stdin.write_all(&echo).await.unwrap();
        stdin.write_all(b"\n").await.unwrap();
        let answer = lines.next_line().await.unwrap().unwrap();
        assert!(
            answer.contains(r#""id":3"#),
            "the line of too many values got an answer, or the next none: {answer}"
        );
        assert!(answer.contains("still here"), "{answer}");
        let peak = memory_mib(pid, "VmHWM");
        assert!(peak <= idle + 48, "peak {peak} MiB, idle {idle} MiB");
    };
    tokio::time::timeout(raw::EXCHANGE_TIMEOUT, exchange)
        .await
        .expect("the server answers in time");
}

#[tokio::test]
async fn an_oversize_stdio_line_is_dropped_unread() {
    let (_child, pid, mut stdin, mut lines) = stdio_server();
    let exchange = async {
        let idle = initialized(&mut stdin, &mut lines, pid).await;
        // 15 MiB of small values on one line: past the 1.06 MiB bound, never buffered whole.
        let zeros = vec!["0"; 15 * 512 * 1024].join(",");
        let big = format!(
            r#"{{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{{"name":"count","arguments":{{"numbers":[{zeros}]}}}}}}"#
        );
        stdin.write_all(big.as_bytes()).await.unwrap();
        stdin.write_all(b"\n").await.unwrap();
        let echo = raw::call(3, "echo", &json!({"text": "still here"}));
        stdin.write_all(&echo).await.unwrap();
        stdin.write_all(b"\n").await.unwrap();
        let answer = lines.next_line().await.unwrap().unwrap();
        assert!(
            answer.contains(r#""id":3"#),
            "the oversize line got no answer: {answer}"
        );
        assert!(answer.contains("still here"), "{answer}");
        let peak = memory_mib(pid, "VmHWM");
        eprintln!("15 MiB stdio line: idle {idle} MiB, peak {peak} MiB");
        assert!(peak <= idle + 64, "peak {peak} MiB, idle {idle} MiB");
    };
    tokio::time::timeout(raw::EXCHANGE_TIMEOUT, exchange)
        .await
        .expect("the server answers in time");
}
