//! The field path of a decoding error, read off the argument text at the byte where serde_json
//! stopped (so decoding itself tracks nothing).

use crate::values::text::echo_name;

/// One level of the JSON being scanned by [`path_at`].
enum Level {
    /// An object, with the key whose value is being read (if one is), and whether its `:` was.
    Object {
        key: Option<String>,
        in_key: bool,
        colon: bool,
    },
    /// An array, with the index of the element being read (if one is).
    Array { index: usize, started: bool },
}

/// One step of a field path.
pub(super) enum Segment {
    Key(String),
    Index(usize),
}

/// The field path of what serde_json was reading when it stopped at byte `offset` of `text`:
/// the keys and indexes open there, each counted from the value it introduces being read to
/// the `,` or bracket that ends it. With `about_object`, a key read last without its `:` yet is
/// left out.
pub(super) fn path_at(text: &str, offset: usize, about_object: bool) -> Vec<Segment> {
    let bytes = &text.as_bytes()[..offset.min(text.len())];
    let mut levels: Vec<Level> = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        match b {
            b'"' => {
                // A string: find its end (or the end of what was read).
                let start = i;
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                // A backslash skips two bytes, which may end inside a multi-byte character of
                // text that is not JSON: slice on the next character boundary.
                let mut end = (i + 1).min(bytes.len());
                while !text.is_char_boundary(end) {
                    end += 1;
                }
                match levels.last_mut() {
                    Some(Level::Object { key, in_key, .. }) if !*in_key => {
                        let raw = &text[start..end];
                        *key = Some(
                            serde_json::from_str::<String>(raw)
                                .unwrap_or_else(|_| raw.trim_matches('"').to_owned()),
                        );
                        *in_key = true;
                    }
                    Some(Level::Array { started, .. }) => *started = true,
                    _ => {}
                }
            }
            b'{' | b'[' => {
                if let Some(Level::Array { started, .. }) = levels.last_mut() {
                    *started = true;
                }
                levels.push(if b == b'{' {
                    Level::Object {
                        key: None,
                        in_key: false,
                        colon: false,
                    }
                } else {
                    Level::Array {
                        index: 0,
                        started: false,
                    }
                });
            }
            b'}' | b']' => {
                levels.pop();
            }
            b',' => match levels.last_mut() {
                Some(Level::Object { key, in_key, colon }) => {
                    *key = None;
                    *in_key = false;
                    *colon = false;
                }
                Some(Level::Array { index, started }) => {
                    *index += 1;
                    *started = false;
                }
                None => {}
            },
            b':' => {
                if let Some(Level::Object { colon, .. }) = levels.last_mut() {
                    *colon = true;
                }
            }
            b' ' | b'\t' | b'\n' | b'\r' => {}
            _ => {
                if let Some(Level::Array { started, .. }) = levels.last_mut() {
                    *started = true;
                }
            }
        }
        i += 1;
    }
    // serde_json stops before a `[` or `{` of the wrong type: an element is read from there on.
    let next = text.as_bytes()[bytes.len()..]
        .iter()
        .find(|b| !b.is_ascii_whitespace());
    if let (Some(Level::Array { started, .. }), Some(next)) = (levels.last_mut(), next) {
        if !matches!(next, b']' | b',') {
            *started = true;
        }
    }
    if about_object {
        if let Some(Level::Object {
            key, colon: false, ..
        }) = levels.last_mut()
        {
            *key = None;
        }
    }
    levels
        .into_iter()
        .filter_map(|level| match level {
            Level::Object { key: Some(key), .. } => Some(Segment::Key(key)),
            Level::Array {
                index,
                started: true,
            } => Some(Segment::Index(index)),
            _ => None,
        })
        .collect()
}

/// A path as serde_path_to_error writes it: `a.b[2].c`, and `.` for the argument object itself.
pub(super) fn path_text(path: &[Segment]) -> String {
    let mut text = String::new();
    for segment in path {
        match segment {
            Segment::Key(key) => {
                if !text.is_empty() {
                    text.push('.');
                }
                // A key is the model's: cut and neutralised like every echoed piece.
                text.push_str(&echo_name(key));
            }
            Segment::Index(index) => text.push_str(&format!("[{index}]")),
        }
    }
    if text.is_empty() {
        text.push('.');
    }
    text
}
