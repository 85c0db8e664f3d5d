//! Helpers for the MCP tests: where the fixture servers and the peers installed by the repo's
//! scripts are, and the skip rule (one line outside CI, a failure under CI).

pub mod balancer;
pub mod raw;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// The repository root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Whether a missing peer fails the run: under CI, where `CI` is set (not to `false`/`0`).
pub fn required() -> bool {
    std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0")
}

/// The line printed when the interop tests that need Node are skipped.
pub const SKIPPED_NODE: &str = "skipped: MCP interop tests need node and npm; see README";

/// `node_modules/.bin/mcp-server-everything` after `scripts/mcp_peers.sh` installed the pinned
/// npm peers; `None` (said once) when node or npm is missing outside CI.
///
/// # Panics
/// Under `CI` when node or npm is missing, and whenever the script fails.
pub fn everything() -> Option<PathBuf> {
    static READY: OnceLock<Option<PathBuf>> = OnceLock::new();
    READY
        .get_or_init(|| {
            let runs = |program: &str| {
                Command::new(program)
                    .arg("--version")
                    .output()
                    .is_ok_and(|o| o.status.success())
            };
            if !(runs("node") && runs("npm")) {
                assert!(
                    !required(),
                    "the MCP interop tests are required under CI, but node or npm does not run; \
                     install Node.js 20+ (Debian/Ubuntu: `apt-get install nodejs npm`)"
                );
                let _ = writeln!(std::io::stderr(), "{SKIPPED_NODE}");
                return None;
            }
            let status = Command::new("bash")
                .arg(root().join("scripts/mcp_peers.sh"))
                .status()
                .expect("bash runs scripts/mcp_peers.sh");
            assert!(status.success(), "scripts/mcp_peers.sh failed ({status})");
            Some(root().join(".mcp-peers/node_modules/.bin/mcp-server-everything"))
        })
        .clone()
}

/// The line printed when the interop tests that need Python are skipped.
pub const SKIPPED_PYTHON: &str = "skipped: MCP interop tests need python3 with venv; see README";

/// `.venv/bin/python` after `scripts/venv.sh` installed the pinned packages (the MCP SDK and
/// `mcp-server-time` among them); `None` (said once) when Python or its venv module is missing
/// outside CI.
///
/// # Panics
/// Under `CI` when Python is missing, and whenever the script fails.
pub fn python() -> Option<PathBuf> {
    static READY: OnceLock<Option<PathBuf>> = OnceLock::new();
    READY
        .get_or_init(|| {
            let interpreter =
                std::env::var_os("TOOLNEXUS_PYTHON").unwrap_or_else(|| "python3".into());
            let works = Command::new(&interpreter)
                .args(["-c", "import venv, ensurepip"])
                .output()
                .is_ok_and(|o| o.status.success());
            if !works {
                assert!(
                    !required(),
                    "the MCP interop tests are required under CI, but {} has no working venv \
                     module (Debian/Ubuntu: `apt-get install python3-venv`)",
                    Path::new(&interpreter).display()
                );
                let _ = writeln!(std::io::stderr(), "{SKIPPED_PYTHON}");
                return None;
            }
            let status = Command::new("bash")
                .arg(root().join("scripts/venv.sh"))
                .env("TOOLNEXUS_PYTHON", &interpreter)
                .status()
                .expect("bash runs scripts/venv.sh");
            assert!(status.success(), "scripts/venv.sh failed ({status})");
            Some(root().join(".venv/bin/python"))
        })
        .clone()
}

/// A fresh file under the tests' temporary directory for a fixture server's call log.
pub fn log_file(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("toolnexus-mcp-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let path = dir.join(name);
    let _ = std::fs::remove_file(&path);
    path
}

/// The lines a fixture server logged (one per call it received: the tool and its arguments).
pub fn logged(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .map(str::to_owned)
        .collect()
}

/// A child process that is killed when dropped (a test that fails never leaves it running).
pub struct Child(pub std::process::Child);

impl Drop for Child {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Our fixture server (the binary at `bin`) over streamable HTTP on a free port of 127.0.0.1,
/// logging to `log`; its URL and the process.
pub fn fixture_over_http(bin: &str, log: &Path, extra: &[&str]) -> (String, Child) {
    use std::io::BufRead;
    let mut child = Command::new(bin)
        .args(["--http", "127.0.0.1:0", "--log"])
        .arg(log)
        .args(extra)
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("the fixture server starts");
    let stdout = child.stdout.take().expect("piped stdout");
    let mut line = String::new();
    std::io::BufReader::new(stdout)
        .read_line(&mut line)
        .expect("the fixture server prints its URL");
    (line.trim().to_owned(), Child(child))
}

/// Installs ring as rustls's crypto provider, which the HTTP client needs when the workspace
/// build turned on reqwest's `rustls-no-provider` (see Cargo.toml); harmless otherwise.
pub fn http_client_ready() {
    let _ = rustls::crypto::ring::default_provider().install_default();
}

/// One line of `/proc/self/status` in KiB (`VmRSS`, `VmHWM`); 0 where there is none.
fn status_kib(key: &str) -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .unwrap_or_default()
        .lines()
        .find_map(|line| line.strip_prefix(key)?.strip_prefix(':'))
        .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

/// Resets this process's peak resident memory (Linux: `5` into `/proc/self/clear_refs`) and
/// returns the resident memory now, in KiB; [`peak_kib`] afterwards is the peak since.
pub fn reset_peak() -> u64 {
    let _ = std::fs::write("/proc/self/clear_refs", "5");
    status_kib("VmRSS")
}

/// The peak resident memory (`VmHWM`) since the last [`reset_peak`], in KiB.
pub fn peak_kib() -> u64 {
    status_kib("VmHWM")
}

/// The result (JSON text) of the two answers the hostile servers attack a client's memory with:
/// `blocks`, 500,000 empty content blocks; `zeros`, 15 MiB of zeros as `structuredContent`.
/// `None` for any other name.
pub fn flood_result(name: &str) -> Option<String> {
    match name {
        "blocks" => {
            let block = r#"{"type":"text","text":""},"#.repeat(500_000);
            Some(format!(
                r#"{{"content":[{}]}}"#,
                block.trim_end_matches(',')
            ))
        }
        "zeros" => {
            let zeros = "0,".repeat(15 << 19);
            Some(format!(
                r#"{{"content":[],"structuredContent":{{"z":[{}]}}}}"#,
                zeros.trim_end_matches(',')
            ))
        }
        _ => None,
    }
}

/// A status line, extra header lines (each ending `\r\n`) and a JSON body: one answer of a
/// [`scripted_http`] server.
pub type Reply = (&'static str, String, String);

/// An HTTP/1.1 server on a loopback port that answers each request with `answer(n, request)`
/// (`n` counts requests from 1, `request` is the whole request as text, its body read as far as
/// `Content-Length` says, even when a client sends it apart from its head). `script` is given
/// the server's base URL (`http://127.0.0.1:PORT`) and returns `answer`; the base URL is
/// returned too.
pub async fn scripted_http<F>(script: impl FnOnce(String) -> F) -> String
where
    F: FnMut(usize, &str) -> Reply + Send + 'static,
{
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://127.0.0.1:{}", listener.local_addr().unwrap().port());
    let mut answer = script(base.clone());
    tokio::spawn(async move {
        for n in 1.. {
            let Ok((mut socket, _)) = listener.accept().await else {
                return;
            };
            let mut request = Vec::new();
            let mut chunk = vec![0; 16 * 1024];
            loop {
                let read = socket.read(&mut chunk).await.unwrap_or(0);
                request.extend_from_slice(&chunk[..read]);
                let text = String::from_utf8_lossy(&request).into_owned();
                let Some((head, body)) = text.split_once("\r\n\r\n") else {
                    if read == 0 {
                        break;
                    }
                    continue;
                };
                let length = head
                    .lines()
                    .find_map(|l| {
                        let (name, value) = l.split_once(':')?;
                        name.eq_ignore_ascii_case("content-length")
                            .then(|| value.trim().parse::<usize>().ok())?
                    })
                    .unwrap_or(0);
                if read == 0 || body.len() >= length {
                    break;
                }
            }
            let request = String::from_utf8_lossy(&request).into_owned();
            let (status, headers, body) = answer(n, &request);
            let reply = format!(
                "HTTP/1.1 {status}\r\n{headers}Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                body.len()
            );
            let _ = socket.write_all(reply.as_bytes()).await;
        }
    });
    base
}

/// The path of a request (`/token`), and the value of its query parameter `name`.
pub fn target(request: &str) -> (String, impl Fn(&str) -> String + '_) {
    let target = request.split(' ').nth(1).unwrap_or_default();
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    let param = move |name: &str| {
        query
            .split('&')
            .find_map(|p| p.strip_prefix(&format!("{name}=")))
            .unwrap_or_default()
            .to_owned()
    };
    (path.to_owned(), param)
}

/// RFC 8414 metadata of an authorization server at `at` with the usual endpoints under it, PKCE
/// (S256) and public clients.
pub fn authorization_metadata(at: &str) -> String {
    serde_json::json!({"issuer": at, "authorization_endpoint": format!("{at}/authorize"),
        "token_endpoint": format!("{at}/token"),
        "registration_endpoint": format!("{at}/register"),
        "response_types_supported": ["code"],
        "code_challenge_methods_supported": ["S256"],
        "token_endpoint_auth_methods_supported": ["none"]})
    .to_string()
}

/// An authorization server that registers anyone, consents at once and issues `tok-N`; each
/// token request's form body goes to the returned list.
pub async fn authorization_server() -> (String, std::sync::Arc<std::sync::Mutex<Vec<String>>>) {
    let forms = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let log = forms.clone();
    let base = scripted_http(move |at| {
        move |n, request: &str| {
            let (path, param) = target(request);
            match path.as_str() {
                "/.well-known/oauth-authorization-server" => {
                    ("200 OK", String::new(), authorization_metadata(&at))
                }
                "/register" => (
                    "201 Created",
                    String::new(),
                    serde_json::json!({"client_id": "client-1", "redirect_uris": ["http://127.0.0.1:9/cb"]})
                        .to_string(),
                ),
                "/authorize" => {
                    let redirect = param("redirect_uri")
                        .replace("%3A", ":")
                        .replace("%2F", "/");
                    let location = format!("{redirect}?code=code-{n}&state={}", param("state"));
                    ("302 Found", format!("Location: {location}\r\n"), String::new())
                }
                "/token" => {
                    let form = request.split("\r\n\r\n").nth(1).unwrap_or_default();
                    log.lock().unwrap().push(form.to_owned());
                    (
                        "200 OK",
                        String::new(),
                        serde_json::json!({"access_token": format!("tok-{n}"), "token_type": "Bearer",
                            "expires_in": 3600, "scope": "tools"})
                        .to_string(),
                    )
                }
                _ => ("404 Not Found", String::new(), String::new()),
            }
        }
    })
    .await;
    (base, forms)
}
