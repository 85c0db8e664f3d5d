//! A stdio server's messages held to [`McpLimits`](super::McpLimits) before the SDK parses
//! them: a task reads the server's stdout line by line (never holding more than
//! `max_message_bytes` of a line), and hands the SDK each line that is within the limits; a
//! line past them is never parsed: an answer becomes a JSON-RPC error that says which limit,
//! so the request fails at once instead of after its timeout, and anything else is dropped.
//! A `tools/list` answer with entries serde_json cannot read (a lone surrogate, nesting past
//! its recursion limit) has each such entry replaced by a marker naming the tool and the
//! reason, so the other tools of the page still load (the catalog reads the marker).

use serde_json::{json, Value};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWriteExt, BufReader, DuplexStream};

use super::scan::{Scan, ScannedEntry, MAX_DEPTH};
use super::McpLimits;
use crate::values::text::echo;

/// The key of the marker that stands for an entry of a `tools/list` page no one can read; its
/// value is the reason.
pub(crate) const UNREADABLE: &str = "toolnexus/unreadable";

/// The server's stdout, bounded: the other end of the pipe this returns is what the SDK reads.
pub(crate) fn bounded<R>(stdout: R, limits: McpLimits) -> DuplexStream
where
    R: AsyncRead + Unpin + Send + 'static,
{
    pump(stdout, limits, judge)
}

/// What a client writes to our stdio server (`McpServer::serve_io`), held to the server's
/// bounds the same way before the SDK parses it: a line past `max_message_bytes` or with more
/// than `max_message_values` JSON values is dropped unread (the connection stays).
pub(crate) fn bounded_requests<R>(stdin: R, limits: McpLimits) -> DuplexStream
where
    R: AsyncRead + Unpin + Send + 'static,
{
    pump(stdin, limits, |_, scan, limits| {
        if scan.bytes > limits.max_message_bytes || scan.tokens > limits.max_message_values {
            Verdict::Drop
        } else {
            Verdict::Pass
        }
    })
}

/// A task that reads `input` line by line (never holding more than `max_message_bytes` of a
/// line, nor counting past `max_message_values`) and writes what `judge` says of each line to
/// the pipe it returns.
fn pump<R>(
    input: R,
    limits: McpLimits,
    judge: fn(&[u8], &Scan, &McpLimits) -> Verdict,
) -> DuplexStream
where
    R: AsyncRead + Unpin + Send + 'static,
{
    let (sdk, mut ours) = tokio::io::duplex(64 * 1024);
    tokio::spawn(async move {
        let mut read = BufReader::new(input);
        let mut line = Vec::new();
        loop {
            let mut scan = Scan::default();
            line.clear();
            loop {
                let available = match read.fill_buf().await {
                    Ok(available) => available,
                    Err(_) => return,
                };
                if available.is_empty() {
                    // The server closed its stdout; a last line without a newline is dropped.
                    return;
                }
                let newline = available.iter().position(|b| *b == b'\n');
                let take = newline.map_or(available.len(), |i| i + 1);
                let piece = &available[..take];
                let keep =
                    scan.bytes + take <= limits.max_message_bytes && worth_keeping(&scan, &limits);
                scan.feed(piece, keep);
                if keep {
                    line.extend_from_slice(piece);
                } else if !line.is_empty() {
                    line = Vec::new();
                }
                read.consume(take);
                if newline.is_some() {
                    break;
                }
            }
            let out = judge(line.as_slice(), &scan, &limits);
            let written = match out {
                Verdict::Pass => ours.write_all(&line).await,
                Verdict::Replace(text) => ours.write_all(text.as_bytes()).await,
                Verdict::Drop => Ok(()),
            };
            if written.is_err() {
                return; // The SDK's end is gone: the connection closed.
            }
            if line.capacity() > 1 << 20 {
                line = Vec::new(); // A large line's memory goes back.
            }
        }
    });
    sdk
}

/// Whether a message scanned so far is still worth keeping for `judge`: within the value count,
/// or a `tools/list` page past it (its bytes are bounded) whose largest entries `judge` can
/// leave out until it fits.
fn worth_keeping(scan: &Scan, limits: &McpLimits) -> bool {
    scan.tokens <= limits.max_message_values
        || (1..=limits.max_message_values).contains(&scan.entries.len())
}

/// What becomes of a message from the server.
pub(crate) enum Verdict {
    /// The SDK reads it as it is.
    Pass,
    /// The SDK reads this instead (an error for its id, a page with markers), one line.
    Replace(String),
    /// Nobody reads it.
    Drop,
}

/// What becomes of a whole message already in memory (an HTTP body, an event's data), judged
/// as a line of stdio is: scanned in pieces, its entries kept on the same terms.
#[cfg(feature = "mcp-http")]
pub(crate) fn judge_whole(message: &[u8], limits: &McpLimits) -> Verdict {
    let mut scan = Scan::default();
    for piece in message.chunks(64 * 1024) {
        let keep = worth_keeping(&scan, limits);
        scan.feed(piece, keep);
    }
    let kept = scan.tokens <= limits.max_message_values || !scan.entries.is_empty();
    judge(if kept { message } else { &[] }, &scan, limits)
}

/// What an entry of a `tools/list` page left out becomes costs this many tokens (`{` and `,`).
const MARKER_TOKENS: usize = 2;

/// What becomes of one whole line (`line` is empty when it was too long to keep).
fn judge(line: &[u8], scan: &Scan, limits: &McpLimits) -> Verdict {
    let over_values = scan.tokens > limits.max_message_values;
    let refused = if scan.bytes > limits.max_message_bytes {
        Some(format!(
            "the server's answer has more than {} bytes, the limit (McpLimits::max_message_bytes); \
             it was not read",
            limits.max_message_bytes
        ))
    } else if over_values && (scan.entries.is_empty() || line.is_empty()) {
        Some(values_refused(limits))
    } else {
        None
    };
    if let Some(reason) = refused {
        return refuse(scan, &reason);
    }
    if scan.entries.is_empty() {
        // An answer the SDK could not read would be dropped, and its request fail only at its
        // timeout: an error for its id instead, now, saying why.
        return match (scan.id(), undecodable(line, scan)) {
            (Some(id), Some(reason)) => Verdict::Replace(error_line(&id, &reason)),
            _ => Verdict::Pass,
        };
    }
    // A `tools/list` page: past the value count, its largest entries are left out until it
    // fits; then each entry serde_json cannot read becomes a marker too.
    let mut left_out: Vec<Option<String>> = vec![None; scan.entries.len()];
    if over_values {
        let mut largest: Vec<usize> = (0..scan.entries.len()).collect();
        // The largest first; of two alike, the later.
        largest.sort_by_key(|&i| std::cmp::Reverse((scan.entries[i].tokens, i)));
        let mut tokens = scan.tokens;
        for i in largest {
            if tokens <= limits.max_message_values {
                break;
            }
            let entry = &scan.entries[i];
            if entry.tokens <= MARKER_TOKENS {
                break; // A marker is no smaller: the page cannot be made to fit.
            }
            tokens = tokens - entry.tokens + MARKER_TOKENS;
            left_out[i] = Some(format!(
                "its entry in tools/list has {} JSON values, and with it the page would pass \
                 {} (McpLimits::max_message_values); it was not read",
                entry.tokens, limits.max_message_values
            ));
        }
        if tokens > limits.max_message_values {
            return refuse(scan, &values_refused(limits));
        }
    }
    let mut out: Option<Vec<u8>> = None;
    let mut copied = 0;
    for (entry, left_out) in scan.entries.iter().zip(left_out) {
        let Some(reason) = left_out.or_else(|| unreadable(line, entry)) else {
            continue;
        };
        let out = out.get_or_insert_with(|| Vec::with_capacity(line.len()));
        out.extend_from_slice(&line[copied..entry.span.start]);
        let name = entry
            .name
            .clone()
            .map(|span| {
                serde_json::from_slice::<String>(&line[span.clone()])
                    .unwrap_or_else(|_| String::from_utf8_lossy(&line[span]).into_owned())
            })
            .unwrap_or_else(|| "?".to_owned());
        let marker = json!({ "name": name, UNREADABLE: reason });
        out.extend_from_slice(marker.to_string().as_bytes());
        copied = entry.span.end;
    }
    match out {
        Some(mut out) => {
            out.extend_from_slice(&line[copied..]);
            Verdict::Replace(String::from_utf8_lossy(&out).into_owned())
        }
        None => Verdict::Pass,
    }
}

fn values_refused(limits: &McpLimits) -> String {
    format!(
        "the server's answer has more than {} JSON values, the limit \
         (McpLimits::max_message_values); it was not read",
        limits.max_message_values
    )
}

/// An error for the answer's id, or nothing when it has none.
fn refuse(scan: &Scan, reason: &str) -> Verdict {
    match scan.id() {
        Some(id) => Verdict::Replace(error_line(&id, reason)),
        None => Verdict::Drop,
    }
}

/// Why no reader can decode a whole answer, if none can: nesting past serde_json's limit, or
/// (parsed only when the scan saw a surrogate escape, which is rare) a lone surrogate.
fn undecodable(line: &[u8], scan: &Scan) -> Option<String> {
    if scan.max_depth > MAX_DEPTH {
        return Some(format!(
            "the server's answer is nested {} levels deep; JSON deeper than {MAX_DEPTH} levels \
             cannot be read",
            scan.max_depth
        ));
    }
    if !scan.surrogate {
        return None;
    }
    serde_json::from_slice::<serde::de::IgnoredAny>(line)
        .err()
        .or_else(|| serde_json::from_slice::<Value>(line).err())
        .map(|error| {
            format!(
                "the server's answer cannot be read: {}",
                echo(&error.to_string())
            )
        })
}

/// Why serde_json cannot read one entry of a `tools/list` page, if it cannot.
fn unreadable(line: &[u8], entry: &ScannedEntry) -> Option<String> {
    if entry.max_depth > MAX_DEPTH {
        return Some(format!(
            "its entry in tools/list is nested {} levels deep in the message; JSON deeper than \
             {MAX_DEPTH} levels cannot be read",
            entry.max_depth
        ));
    }
    let bytes = line.get(entry.span.clone())?;
    match serde_json::from_slice::<serde::de::IgnoredAny>(bytes) {
        Err(error) => Some(format!(
            "its entry in tools/list is not valid JSON: {}",
            echo(&error.to_string())
        )),
        // IgnoredAny skips strings without checking their escapes: a lone surrogate is found
        // only by reading the strings.
        Ok(_) => match serde_json::from_slice::<Value>(bytes) {
            Err(error) => Some(format!(
                "its entry in tools/list cannot be read: {}",
                echo(&error.to_string())
            )),
            Ok(_) => None,
        },
    }
}

/// A JSON-RPC error answer to request `id`, one line.
pub(crate) fn error_line(id: &Value, message: &str) -> String {
    let error = json!({
        "jsonrpc": "2.0",
        "id": id,
        "error": {"code": -32603, "message": message},
    });
    format!("{error}\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn judged(line: &str, limits: McpLimits) -> Verdict {
        let mut scan = Scan::default();
        scan.feed(line.as_bytes(), true);
        judge(line.as_bytes(), &scan, &limits)
    }

    #[test]
    fn a_page_past_the_value_count_loses_its_largest_entries_until_it_fits() {
        let line = format!(
            r#"{{"jsonrpc":"2.0","id":3,"result":{{"tools":[{{"name":"a","inputSchema":{{"enum":[{small}]}}}},{{"name":"b","inputSchema":{{"enum":[{big}]}}}},{{"name":"c","inputSchema":{{"enum":[{mid}]}}}}]}}}}"#,
            small = ["0"; 10].join(","),
            big = ["0"; 60].join(","),
            mid = ["0"; 40].join(","),
        );
        let judged_with = |max| judged(&line, McpLimits::default().with_max_message_values(max));
        assert!(matches!(judged_with(200), Verdict::Pass));
        // b alone must go for 100 to hold, then c too for 60; never the small one.
        for (max, out) in [(100, vec!["b"]), (60, vec!["b", "c"])] {
            let Verdict::Replace(page) = judged_with(max) else {
                panic!("{max}: replaced")
            };
            let mut scan = Scan::default();
            scan.feed(page.as_bytes(), true);
            assert!(scan.tokens <= max, "{max}: {} tokens", scan.tokens);
            let page: Value = serde_json::from_str(&page).unwrap();
            let tools = page["result"]["tools"].as_array().unwrap();
            let left_out: Vec<&str> = tools
                .iter()
                .filter(|t| t.get(UNREADABLE).is_some())
                .map(|t| t["name"].as_str().unwrap())
                .collect();
            assert_eq!(left_out, out, "{max}");
            assert_eq!(
                tools[0]["inputSchema"]["enum"].as_array().unwrap().len(),
                10
            );
        }
        // Not even the markers fit: the answer is an error for its id.
        let Verdict::Replace(error) = judged_with(8) else {
            panic!("an error")
        };
        assert!(error.contains(r#""id":3"#) && error.contains("max_message_values"));
    }

    #[test]
    fn an_unreadable_entry_becomes_a_marker_and_the_page_still_parses() {
        let deep = format!("{}{}", "[".repeat(130), "]".repeat(130));
        let line = format!(
            r#"{{"jsonrpc":"2.0","id":1,"result":{{"tools":[{{"name":"ok","inputSchema":{{}}}},{{"name":"lone","description":"\ud800","inputSchema":{{}}}},{{"name":"deep","inputSchema":{{"x":{deep}}}}}]}}}}"#
        );
        let Verdict::Replace(out) = judged(&line, McpLimits::default()) else {
            panic!("replaced")
        };
        let page: Value = serde_json::from_str(&out).unwrap();
        let tools = page["result"]["tools"].as_array().unwrap();
        assert_eq!(tools[0], json!({"name": "ok", "inputSchema": {}}));
        assert_eq!(tools[1]["name"], "lone");
        let why = tools[1][UNREADABLE].as_str().unwrap_or_default();
        assert!(why.contains("hex escape"), "{out}");
        assert_eq!(tools[2]["name"], "deep");
        assert!(tools[2][UNREADABLE]
            .as_str()
            .unwrap()
            .contains("levels deep"));
    }

    #[test]
    fn a_message_past_the_limits_is_an_error_for_its_id_or_dropped() {
        let limits = McpLimits::default().with_max_message_values(10);
        let line = format!(
            r#"{{"jsonrpc":"2.0","id":"c-9","result":{{"structuredContent":[{}0]}}}}"#,
            "0,".repeat(20)
        );
        let Verdict::Replace(out) = judged(&line, limits) else {
            panic!("replaced")
        };
        let error: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(error["id"], "c-9");
        assert!(error["error"]["message"]
            .as_str()
            .unwrap()
            .contains("max_message_values"));
        let note = format!(
            r#"{{"jsonrpc":"2.0","method":"x","params":[{}0]}}"#,
            "0,".repeat(20)
        );
        assert!(matches!(judged(&note, limits), Verdict::Drop));
        assert!(matches!(
            judged(r#"{"id":1,"result":{}}"#, limits),
            Verdict::Pass
        ));
    }
}
