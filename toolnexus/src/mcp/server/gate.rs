//! The checks a request passes before rmcp sees it (feature `mcp-http`): its `Host` and
//! `Origin` against [`HttpOptions`], and how many JSON values its body holds.

use http::HeaderMap;

use super::http_options::HttpOptions;

/// The names that always pass as a `Host` or an `Origin`'s host.
const LOOPBACK: [&str; 3] = ["localhost", "127.0.0.1", "[::1]"];

/// Why a request is refused with `403`, said in the response body.
pub(crate) fn refusal(
    headers: &HeaderMap,
    authority: Option<&str>,
    options: &HttpOptions,
) -> Option<String> {
    if !options.any_host {
        if headers.get_all(http::header::HOST).iter().nth(1).is_some() {
            return Some("Forbidden: a request carries one Host header".to_owned());
        }
        let host = headers
            .get(http::header::HOST)
            .map(|h| h.to_str().unwrap_or(""))
            .or(authority)
            .unwrap_or("");
        if !host_allowed(host, &options.hosts) {
            return Some(format!(
                "Forbidden: the Host `{}` is not allowed (HttpOptions::with_allowed_hosts)",
                printable(host)
            ));
        }
    }
    if !options.any_origin {
        for origin in headers.get_all(http::header::ORIGIN) {
            let origin = origin.to_str().unwrap_or("");
            if !origin_allowed(origin, &options.origins) {
                return Some(format!(
                    "Forbidden: the Origin `{}` is not allowed (HttpOptions::with_allowed_origins)",
                    printable(origin)
                ));
            }
        }
    }
    None
}

/// `host[:port]` split, the name lowercased; IPv6 literals keep their brackets.
fn split_authority(authority: &str) -> (String, Option<&str>) {
    let authority = authority.trim();
    let (name, port) = match authority.rfind(':') {
        Some(at) if !authority[at..].contains(']') => {
            (&authority[..at], Some(&authority[at + 1..]))
        }
        _ => (authority, None),
    };
    (name.to_ascii_lowercase(), port)
}

fn host_allowed(host: &str, allowed: &[String]) -> bool {
    let (name, port) = split_authority(host);
    // A name and an optional port of digits, nothing else: `127.0.0.1:80@evil.example` has
    // userinfo, which a Host never carries, and is no loopback name.
    let name_chars =
        |c: char| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_' | '[' | ']' | ':');
    if name.is_empty()
        || !name.chars().all(name_chars)
        || port.is_some_and(|p| p.is_empty() || !p.bytes().all(|b| b.is_ascii_digit()))
    {
        return false;
    }
    if LOOPBACK.contains(&name.as_str()) {
        return true;
    }
    allowed.iter().any(|entry| {
        let (entry_name, entry_port) = split_authority(entry);
        entry_name == name && (entry_port.is_none() || entry_port == port)
    })
}

fn origin_allowed(origin: &str, allowed: &[String]) -> bool {
    let origin = origin.trim().to_ascii_lowercase();
    if let Some((scheme, rest)) = origin.split_once("://") {
        let (name, _) = split_authority(rest);
        if matches!(scheme, "http" | "https") && LOOPBACK.contains(&name.as_str()) {
            return true;
        }
    }
    allowed.iter().any(|entry| same_origin(entry, &origin))
}

/// Whether two origins are the same, a port the scheme implies written or not.
fn same_origin(a: &str, b: &str) -> bool {
    fn normal(origin: &str) -> String {
        let origin = origin.trim().trim_end_matches('/');
        for (scheme, port) in [("http://", ":80"), ("https://", ":443")] {
            if let Some(rest) = origin.strip_prefix(scheme) {
                return format!("{scheme}{}", rest.strip_suffix(port).unwrap_or(rest));
            }
        }
        origin.to_owned()
    }
    normal(a) == normal(b)
}

/// A header's text as it may appear in a response: control characters escaped, at most 200
/// characters.
fn printable(text: &str) -> String {
    text.chars()
        .take(200)
        .flat_map(char::escape_debug)
        .collect()
}

/// An upper bound of how many JSON values `body` holds (each opening bracket and each comma
/// outside strings starts one), without parsing it; counting stops past `max`.
pub(crate) fn values_over(body: &[u8], max: usize) -> bool {
    // The root value counts too (a bound of 0 refused even a lone `null`).
    let mut count = 1usize;
    if count > max {
        return true;
    }
    let mut in_string = false;
    let mut escaped = false;
    for &byte in body {
        if in_string {
            match byte {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match byte {
            b'"' => in_string = true,
            b',' | b'[' | b'{' => {
                count += 1;
                if count > max {
                    return true;
                }
            }
            _ => {}
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_are_loopback_or_listed() {
        let listed = vec!["mcp.example.com".to_owned(), "lan.example:8443".to_owned()];
        for host in ["localhost", "LOCALHOST:8000", "127.0.0.1:1", "[::1]:9"] {
            assert!(host_allowed(host, &[]), "{host}");
        }
        assert!(host_allowed("mcp.example.com:443", &listed));
        assert!(host_allowed("lan.example:8443", &listed));
        for host in [
            "",
            "evil.example",
            "lan.example:80",
            "localhost.evil.example",
            // Userinfo and other tricks around a loopback or listed name.
            "127.0.0.1:8000@evil.example",
            "localhost@evil.example",
            "user@localhost",
            "mcp.example.com:443@evil.example",
            "localhost:",
            "localhost:80x",
            "localhost/evil",
            "localhost evil",
        ] {
            assert!(!host_allowed(host, &listed), "{host}");
        }
    }

    #[test]
    fn a_second_host_header_is_refused() {
        let options = HttpOptions::default();
        let mut headers = HeaderMap::new();
        headers.insert(http::header::HOST, "127.0.0.1:8000".parse().unwrap());
        assert_eq!(refusal(&headers, None, &options), None);
        headers.append(http::header::HOST, "evil.example".parse().unwrap());
        let refused = refusal(&headers, None, &options).expect("two Host headers refused");
        assert!(refused.contains("one Host header"), "{refused}");
    }

    #[test]
    fn origins_are_loopback_or_listed() {
        let listed = vec!["https://app.example.com".to_owned()];
        for origin in [
            "http://localhost:5173",
            "https://127.0.0.1",
            "http://[::1]:3000",
        ] {
            assert!(origin_allowed(origin, &[]), "{origin}");
        }
        assert!(origin_allowed("https://app.example.com:443", &listed));
        for origin in [
            "null",
            "http://evil.example",
            "https://app.example.com:8443",
            "file://",
        ] {
            assert!(!origin_allowed(origin, &listed), "{origin}");
        }
        assert!(origin_allowed("null", &["null".to_owned()]));
    }

    #[test]
    fn values_over_never_undercounts_any_json() {
        /// A small xorshift: the same cases on every run, no dependency.
        struct Rng(u64);
        impl Rng {
            fn below(&mut self, n: u64) -> u64 {
                self.0 ^= self.0 << 13;
                self.0 ^= self.0 >> 7;
                self.0 ^= self.0 << 17;
                self.0 % n
            }
        }
        /// Strings made of what could fool a scan: quotes, escapes, brackets, commas.
        fn text(rng: &mut Rng) -> String {
            const PIECES: [&str; 10] = ["\\", "\"", "[", "{", ",", "]", "}", "é", "a", "\\\""];
            (0..rng.below(6))
                .map(|_| PIECES[rng.below(PIECES.len() as u64) as usize])
                .collect()
        }
        /// A value, and how many JSON values it holds (itself included).
        fn value(rng: &mut Rng, depth: u32) -> (serde_json::Value, usize) {
            use serde_json::Value;
            let kind = if depth > 4 {
                rng.below(4)
            } else {
                rng.below(6)
            };
            match kind {
                0 => (Value::Null, 1),
                1 => (Value::from(rng.below(1000)), 1),
                2 => (Value::from(text(rng)), 1),
                3 => (Value::Bool(rng.below(2) == 1), 1),
                4 => {
                    let (items, counts): (Vec<_>, Vec<_>) =
                        (0..rng.below(5)).map(|_| value(rng, depth + 1)).unzip();
                    (Value::Array(items), 1 + counts.iter().sum::<usize>())
                }
                _ => {
                    let mut map = serde_json::Map::new();
                    let mut count = 1;
                    for _ in 0..rng.below(5) {
                        let (item, n) = value(rng, depth + 1);
                        if map.insert(text(rng), item).is_none() {
                            count += n;
                        } else {
                            count = 1 + map.values().map(counted).sum::<usize>();
                        }
                    }
                    (Value::Object(map), count)
                }
            }
        }
        fn counted(value: &serde_json::Value) -> usize {
            match value {
                serde_json::Value::Array(items) => 1 + items.iter().map(counted).sum::<usize>(),
                serde_json::Value::Object(map) => 1 + map.values().map(counted).sum::<usize>(),
                _ => 1,
            }
        }
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        for case in 0..20_000 {
            let (value, count) = value(&mut rng, 0);
            assert_eq!(count, counted(&value));
            for text in [
                serde_json::to_string(&value).unwrap(),
                serde_json::to_string_pretty(&value).unwrap(),
            ] {
                // An upper bound: a body of `count` values is over any bound below `count`.
                assert!(
                    values_over(text.as_bytes(), count - 1),
                    "case {case}: {text}"
                );
            }
        }
    }

    #[test]
    fn values_are_counted_outside_strings() {
        // The object, the string, the array and its two numbers.
        assert!(!values_over(br#"{"a":"[,,,{{{","b":[1,2]}"#, 5));
        assert!(values_over(br#"{"a":"[,,,{{{","b":[1,2]}"#, 4));
        assert!(!values_over(br#"{"a":"\",[,"}"#, 2));
    }
}
