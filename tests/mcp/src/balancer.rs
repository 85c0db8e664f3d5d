//! nginx (from Debian) as the load balancer in front of several server instances, on
//! 127.0.0.1 only, for the scale-out test (scripts/mcp_scale.sh writes the same configuration).

use std::io::Write;
use std::path::PathBuf;
use std::process::Command;

use crate::{required, Child};

/// The line printed when the scale-out test is skipped.
pub const SKIPPED_NGINX: &str = "skipped: the scale-out test needs nginx; see README";

/// The `nginx` program, or `None` (said once) when it is missing outside CI.
///
/// # Panics
/// Under `CI` when nginx is missing.
pub fn nginx() -> Option<PathBuf> {
    let found = ["/usr/sbin/nginx", "/usr/bin/nginx"]
        .into_iter()
        .map(PathBuf::from)
        .find(|p| p.exists());
    if found.is_none() {
        assert!(
            !required(),
            "the scale-out test is required under CI, but nginx is missing \
             (Debian/Ubuntu: `apt-get install nginx-light`)"
        );
        let _ = writeln!(std::io::stderr(), "{SKIPPED_NGINX}");
    }
    found
}

/// nginx in the foreground, one process, on `127.0.0.1:port`, balancing `/mcp` over
/// `upstreams` (`host:port` each); a failed upstream is taken out and the request that found it
/// refused goes to the next.
pub fn start(nginx: &std::path::Path, port: u16, upstreams: &[String]) -> Child {
    let dir = std::env::temp_dir().join(format!("toolnexus-nginx-{}-{port}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let d = dir.display();
    let servers: String = upstreams
        .iter()
        .map(|u| format!("server {u} max_fails=1 fail_timeout=30s; "))
        .collect();
    let conf = format!(
        "worker_processes 1; error_log {d}/error.log warn; pid {d}/nginx.pid;\n\
         events {{ worker_connections 1024; }}\n\
         http {{ access_log off; client_body_temp_path {d}; proxy_temp_path {d};\n\
           fastcgi_temp_path {d}; uwsgi_temp_path {d}; scgi_temp_path {d};\n\
           upstream mcp {{ {servers} keepalive 64; }}\n\
           server {{ listen 127.0.0.1:{port};\n\
             location /mcp {{ proxy_pass http://mcp; proxy_http_version 1.1;\n\
               proxy_set_header Connection \"\"; proxy_set_header Host $host;\n\
               proxy_buffering off; proxy_connect_timeout 1s; proxy_read_timeout 5s;\n\
               proxy_next_upstream error timeout; }} }} }}\n"
    );
    let path = dir.join("nginx.conf");
    std::fs::write(&path, conf).expect("the configuration is written");
    let child = Command::new(nginx)
        .arg("-c")
        .arg(&path)
        .args(["-g", "daemon off; master_process off;"])
        .spawn()
        .expect("nginx starts");
    Child(child)
}
