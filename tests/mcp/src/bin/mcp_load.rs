//! The load generator of the scale-out measurement: `CLIENTS` clients, each on a keep-alive
//! connection, call `echo` statelessly at `URL` (through the load balancer) for `SECONDS`;
//! each call is answered (`ok`), fails with an error status or a broken connection (`errors`),
//! or passes `TIMEOUT_MS` (`timeouts`: a call that would hang). Prints one JSON line.
//!
//! Usage: `mcp_load URL CLIENTS SECONDS TIMEOUT_MS`.

use std::time::{Duration, Instant};

use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;

enum Outcome {
    Ok,
    Error,
}

/// One call on `connection` (opened if there is none); the connection is kept if it can be.
async fn call(authority: &str, connection: &mut Option<BufReader<TcpStream>>, n: u64) -> Outcome {
    let body = format!(
        r#"{{"jsonrpc":"2.0","id":{n},"method":"tools/call","params":{{"name":"echo","arguments":{{"text":"hi {n}"}}}}}}"#
    );
    let request = format!(
        "POST /mcp HTTP/1.1\r\nHost: {authority}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    if connection.is_none() {
        match TcpStream::connect(authority).await {
            Ok(stream) => *connection = Some(BufReader::new(stream)),
            Err(_) => return Outcome::Error,
        }
    }
    let Some(stream) = connection.as_mut() else {
        return Outcome::Error;
    };
    let answer = async {
        stream.get_mut().write_all(request.as_bytes()).await.ok()?;
        let mut status = String::new();
        stream.read_line(&mut status).await.ok()?;
        let mut length = 0usize;
        loop {
            let mut line = String::new();
            stream.read_line(&mut line).await.ok()?;
            if line == "\r\n" || line.is_empty() {
                break;
            }
            if let Some((name, value)) = line.split_once(':') {
                if name.eq_ignore_ascii_case("content-length") {
                    length = value.trim().parse().ok()?;
                }
            }
        }
        let mut body = vec![0; length];
        stream.read_exact(&mut body).await.ok()?;
        Some((status, String::from_utf8_lossy(&body).into_owned()))
    };
    match answer.await {
        Some((status, body)) if status.contains(" 200 ") && body.contains(&format!("hi {n}")) => {
            Outcome::Ok
        }
        _ => {
            *connection = None;
            Outcome::Error
        }
    }
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    let url = &args[1];
    let authority = url
        .trim_start_matches("http://")
        .split('/')
        .next()
        .unwrap()
        .to_owned();
    let clients: u64 = args[2].parse().unwrap();
    let seconds: u64 = args[3].parse().unwrap();
    let timeout = Duration::from_millis(args[4].parse().unwrap());
    let end = Instant::now() + Duration::from_secs(seconds);
    let started = Instant::now();
    let mut tasks = tokio::task::JoinSet::new();
    for client in 0..clients {
        let authority = authority.clone();
        tasks.spawn(async move {
            let (mut ok, mut errors, mut timeouts, mut latencies) = (0u64, 0u64, 0u64, Vec::new());
            let mut connection = None;
            let mut n = client * 1_000_000;
            while Instant::now() < end {
                n += 1;
                let at = Instant::now();
                match tokio::time::timeout(timeout, call(&authority, &mut connection, n)).await {
                    Ok(Outcome::Ok) => {
                        ok += 1;
                        latencies.push(at.elapsed());
                    }
                    Ok(Outcome::Error) => errors += 1,
                    Err(_) => {
                        timeouts += 1;
                        connection = None;
                    }
                }
            }
            (ok, errors, timeouts, latencies)
        });
    }
    let (mut ok, mut errors, mut timeouts, mut latencies) = (0, 0, 0, Vec::new());
    while let Some(Ok((o, e, t, l))) = tasks.join_next().await {
        ok += o;
        errors += e;
        timeouts += t;
        latencies.extend(l);
    }
    let elapsed = started.elapsed().as_secs_f64();
    latencies.sort();
    let at = |q: f64| {
        latencies
            .get(((latencies.len() as f64 * q) as usize).min(latencies.len().saturating_sub(1)))
            .map_or(0.0, |d| d.as_secs_f64() * 1000.0)
    };
    let mut stdout = std::io::stdout();
    let line = serde_json::json!({
        "calls": ok + errors + timeouts, "ok": ok, "errors": errors, "timeouts": timeouts,
        "calls_per_s": (ok as f64 / elapsed).round(),
        "p50_ms": (at(0.5) * 100.0).round() / 100.0, "p99_ms": (at(0.99) * 100.0).round() / 100.0,
    });
    use std::io::Write as _;
    let _ = writeln!(stdout, "{line}");
}
