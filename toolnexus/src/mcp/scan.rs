//! One pass over a JSON-RPC line from a server, without building any value: its size in
//! structural tokens, its depth, its `id`, and where each entry of a `tools/list` answer's
//! `result.tools` lies. What [`frame`](super::frame) decides from before the SDK parses a line.

use std::ops::Range;

/// The deepest nesting serde_json reads (its recursion limit); a message nested deeper is not
/// read at all, so one deep `tools/list` entry would lose the whole page.
pub(crate) const MAX_DEPTH: usize = 127;

/// The most bytes of an `id` kept (JSON-RPC ids are short numbers or strings).
const MAX_ID: usize = 128;

/// What one pass over a line found.
#[derive(Debug, Default)]
pub(crate) struct Scan {
    /// Bytes seen.
    pub(crate) bytes: usize,
    /// `{`, `[` and `,` outside strings: about one per JSON value, what parsing costs.
    pub(crate) tokens: usize,
    /// The deepest nesting seen.
    pub(crate) max_depth: usize,
    /// The raw bytes of the top-level `id`, when it was short.
    pub(crate) id: Vec<u8>,
    /// Each entry of `result.tools` (a `tools/list` answer), with its deepest nesting and the
    /// raw span of its `name` string.
    pub(crate) entries: Vec<ScannedEntry>,
    /// A string holds a `\uD800`–`\uDFFF` escape: half of a surrogate pair, maybe alone
    /// (which no reader can decode), so the line is worth a parse to find out.
    pub(crate) surrogate: bool,
    depth: usize,
    in_string: bool,
    escaped: bool,
    /// Inside a `\u` escape: 1 before its first hex digit, 2 before its second when the first
    /// was `d`, else 0.
    unicode: u8,
    /// The kind (`{` or `[`) of the containers at depths 1 to 4.
    kinds: [u8; 5],
    /// The current key at depths 1, 2 and 4 (up to 8 bytes; longer keys are none of ours).
    keys: [[u8; 8]; 5],
    key_len: [usize; 5],
    /// Where a key string is being read: its depth.
    reading_key: Option<usize>,
    expect_key: bool,
    /// Whether the top-level `id`'s value is being captured.
    capturing_id: bool,
    id_too_long: bool,
    /// An entry of `result.tools` is open (a value at depth 3 of that array began).
    entry_open: bool,
    /// Where the `name` string of the open entry began.
    name_start: Option<usize>,
}

/// One entry of a `tools/list` page, located.
#[derive(Debug, Clone)]
pub(crate) struct ScannedEntry {
    pub(crate) span: Range<usize>,
    /// Its deepest nesting in the message.
    pub(crate) max_depth: usize,
    pub(crate) name: Option<Range<usize>>,
    /// Its structural tokens (counted as [`Scan::tokens`] counts them).
    pub(crate) tokens: usize,
}

impl Scan {
    fn key_is(&self, depth: usize, key: &[u8]) -> bool {
        self.key_len[depth] == key.len() && &self.keys[depth][..key.len()] == key
    }

    /// Whether a value at depth 3 is an entry of `result.tools`.
    fn in_tools(&self) -> bool {
        self.depth == 3
            && self.kinds[1] == b'{'
            && self.kinds[2] == b'{'
            && self.kinds[3] == b'['
            && self.key_is(1, b"result")
            && self.key_is(2, b"tools")
    }

    /// Notes a value beginning at `at` (the byte that starts it).
    fn value_begins(&mut self, at: usize) {
        if self.in_tools() && !self.entry_open {
            self.entry_open = true;
            self.name_start = None;
            self.entries.push(ScannedEntry {
                span: at..at,
                max_depth: self.depth,
                name: None,
                tokens: 0,
            });
        }
    }

    fn entry_ends(&mut self, at: usize) {
        if self.entry_open {
            self.entry_open = false;
            if let Some(entry) = self.entries.last_mut() {
                entry.span.end = at;
            }
        }
    }

    /// Feeds the next bytes of the line; `keep_entries` is false once the line is too long to be
    /// kept (then only the counts and the `id` matter).
    pub(crate) fn feed(&mut self, bytes: &[u8], keep_entries: bool) {
        for (i, &b) in bytes.iter().enumerate() {
            let at = self.bytes + i;
            if self.capturing_id {
                let ends = !self.in_string && self.depth == 1 && matches!(b, b',' | b'}');
                if ends {
                    self.capturing_id = false;
                } else if self.id.len() < MAX_ID {
                    self.id.push(b);
                } else {
                    self.id_too_long = true;
                }
            }
            if self.in_string {
                if self.unicode != 0 {
                    self.unicode = match (self.unicode, b) {
                        (1, b'd' | b'D') => 2,
                        (2, b'8'..=b'9' | b'a'..=b'f' | b'A'..=b'F') => {
                            self.surrogate = true;
                            0
                        }
                        _ => 0,
                    };
                }
                if self.escaped {
                    self.escaped = false;
                    if b == b'u' {
                        self.unicode = 1;
                    }
                } else if b == b'\\' {
                    self.escaped = true;
                } else if b == b'"' {
                    self.in_string = false;
                    if self.reading_key.take().is_some() {
                        self.expect_key = false;
                    }
                    if self.entry_open && self.depth == 4 {
                        if let Some(start) = self.name_start.take() {
                            if let Some(entry) = self.entries.last_mut() {
                                entry.name = Some(start..at + 1);
                            }
                        }
                    }
                } else if let Some(d) = self.reading_key {
                    let len = self.key_len[d];
                    if len < 8 {
                        self.keys[d][len] = b;
                    }
                    self.key_len[d] = len.saturating_add(1);
                }
                continue;
            }
            match b {
                b'{' | b'[' => {
                    self.value_begins(at);
                    self.tokens += 1;
                    self.depth += 1;
                    self.max_depth = self.max_depth.max(self.depth);
                    if self.entry_open {
                        if let Some(entry) = self.entries.last_mut() {
                            entry.max_depth = entry.max_depth.max(self.depth);
                            entry.tokens += 1;
                        }
                    }
                    if self.depth < self.kinds.len() {
                        self.kinds[self.depth] = b;
                        self.key_len[self.depth] = 0;
                    }
                    self.expect_key = b == b'{';
                }
                b'}' | b']' => {
                    if self.depth == 3 && self.in_tools() {
                        self.entry_ends(at);
                    }
                    self.depth = self.depth.saturating_sub(1);
                    self.expect_key = false;
                }
                b',' => {
                    self.tokens += 1;
                    if self.depth == 3 && self.in_tools() {
                        self.entry_ends(at);
                    } else if self.entry_open {
                        if let Some(entry) = self.entries.last_mut() {
                            entry.tokens += 1;
                        }
                    }
                    self.expect_key =
                        self.depth < self.kinds.len() && self.kinds[self.depth] == b'{';
                }
                b'"' => {
                    self.in_string = true;
                    let d = self.depth;
                    if self.expect_key && matches!(d, 1 | 2 | 4) {
                        self.reading_key = Some(d);
                        self.key_len[d] = 0;
                    } else {
                        self.value_begins(at);
                        if self.entry_open && d == 4 && self.key_is(4, b"name") {
                            self.name_start = Some(at);
                        }
                    }
                }
                b':' => {
                    if self.depth == 1 && self.key_is(1, b"id") {
                        self.capturing_id = true;
                        self.id.clear();
                    }
                }
                b' ' | b'\t' | b'\r' | b'\n' => {}
                _ => self.value_begins(at),
            }
        }
        if !keep_entries {
            self.entries.clear();
            self.entry_open = false;
        }
        self.bytes += bytes.len();
    }

    /// The `id` as JSON (a number or a string), when it was one and short.
    pub(crate) fn id(&self) -> Option<serde_json::Value> {
        if self.id_too_long {
            return None;
        }
        let id: serde_json::Value = serde_json::from_slice(&self.id).ok()?;
        (id.is_number() || id.is_string()).then_some(id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scan(line: &str) -> Scan {
        let mut scan = Scan::default();
        // In pieces, as a pipe delivers them.
        for piece in line.as_bytes().chunks(3) {
            scan.feed(piece, true);
        }
        scan
    }

    #[test]
    fn finds_the_id_the_tokens_and_the_entries_of_a_tools_page() {
        let line = r#"{"jsonrpc":"2.0","id":7,"result":{"tools":[{"name":"a,b","inputSchema":{"type":"object"}} , {"inputSchema":{"p":[[[]]]},"name":"c\"d"}],"nextCursor":"x"}}"#;
        let s = scan(line);
        assert_eq!(s.id(), Some(serde_json::json!(7)));
        assert_eq!(s.entries.len(), 2);
        assert_eq!(
            &line[s.entries[0].span.clone()],
            r#"{"name":"a,b","inputSchema":{"type":"object"}} "#
        );
        assert_eq!(&line[s.entries[0].name.clone().unwrap()], r#""a,b""#);
        assert_eq!(&line[s.entries[1].name.clone().unwrap()], r#""c\"d""#);
        assert_eq!(s.entries[1].max_depth, 8);
        assert_eq!(s.max_depth, 8);
        // `{`, `,`, `{` in the first; `{`, `{`, `[`, `[`, `[`, `,` in the second.
        assert_eq!((s.entries[0].tokens, s.entries[1].tokens), (3, 6));
        assert!(s.tokens >= 10);
    }

    #[test]
    fn a_string_id_anywhere_and_no_entries_outside_tools() {
        let s = scan(
            r#"{"result":{"content":[{"type":"text","text":"x"}]},"id":"a-1","jsonrpc":"2.0"}"#,
        );
        assert_eq!(s.id(), Some(serde_json::json!("a-1")));
        assert!(s.entries.is_empty());
        let s = scan(r#"{"method":"notifications/tools/list_changed","jsonrpc":"2.0"}"#);
        assert_eq!(s.id(), None);
    }

    #[test]
    fn a_surrogate_escape_is_seen_in_any_string_and_nothing_else_is() {
        for line in [
            r#"{"id":1,"result":{"text":"bad \ud800 text"}}"#,
            r#"{"id":1,"result":{"text":"\uDFFF"}}"#,
            r#"{"id":1,"result":{"te\uD834\uDD1Ext":1}}"#,
        ] {
            assert!(scan(line).surrogate, "{line}");
        }
        for line in [
            r#"{"id":1,"result":{"text":"\u00e9 \\ud800 \ud7ff"}}"#,
            r#"{"id":1,"result":{"text":"plain"},"d800":1}"#,
        ] {
            assert!(!scan(line).surrogate, "{line}");
        }
    }
}
