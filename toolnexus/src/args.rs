//! Turning what a model sent into arguments: the rules for every dialect, in one place.
//!
//! Absent, `null`, `""` or whitespace mean `{}`. Anything that is not JSON, or JSON that is not
//! an object, is refused before the tool runs, with a message the model can act on.

use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use crate::schema::kind;
use crate::ToolResult;

/// Bounds on what one call's arguments may cost, checked before anything is decoded.
///
/// A [`Toolkit`](crate::Toolkit) applies them to every call it executes; exceeding one gives an
/// error result and the tool does not run. The defaults (1 MiB, 64 levels) are far above what a
/// real tool call needs and far below what could hurt the host.
///
/// ```
/// use toolnexus::{Limits, Toolkit};
///
/// let toolkit = Toolkit::new().with_limits(Limits { max_bytes: 64 * 1024, max_depth: 16 });
/// assert_eq!(toolkit.limits().max_depth, 16);
/// assert_eq!(Limits::default(), Limits { max_bytes: 1024 * 1024, max_depth: 64 });
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// The most bytes of argument JSON (text as sent, or the size of an object as it would be
    /// sent) one call may carry.
    pub max_bytes: usize,
    /// The deepest nesting of arrays and objects; the argument object itself is level 1.
    pub max_depth: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_bytes: 1024 * 1024,
            max_depth: 64,
        }
    }
}

impl Limits {
    /// Checks argument text, with one pass over its bytes.
    pub(crate) fn check_text(&self, tool: &str, text: &str) -> Result<(), ToolResult> {
        if text.len() > self.max_bytes {
            return Err(self.too_large(tool, text.len()));
        }
        // Nesting needs an opening bracket per level, so text with no more brackets in all
        // (strings included) than the limit, or no more bytes, cannot be too deep. Counting them
        // is a cheap pass, 8 bytes at a time; the exact scan below runs only when the count says
        // the text might be.
        if text.len() <= self.max_depth || count_brackets(text.as_bytes()) <= self.max_depth {
            return Ok(());
        }
        let (mut depth, mut in_string, mut escaped) = (0usize, false, false);
        for &b in text.as_bytes() {
            if in_string {
                match b {
                    _ if escaped => escaped = false,
                    b'\\' => escaped = true,
                    b'"' => in_string = false,
                    _ => {}
                }
                continue;
            }
            match b {
                b'"' => in_string = true,
                b'{' | b'[' => {
                    depth += 1;
                    if depth > self.max_depth {
                        return Err(self.too_deep(tool));
                    }
                }
                b'}' | b']' => depth = depth.saturating_sub(1),
                _ => {}
            }
        }
        Ok(())
    }

    /// Checks an argument value without recursion: its depth, and its size as compact JSON
    /// (counted, not built; escapes inside strings are not counted).
    pub(crate) fn check_value(&self, tool: &str, value: &Value) -> Result<(), ToolResult> {
        // Fast path for the usual flat argument object: the walk below, step for step (the
        // object, then its values last to first), without its stack.
        if let Value::Object(map) = value {
            if map.values().all(|v| !(v.is_object() || v.is_array())) {
                if self.max_depth < 1 {
                    return Err(self.too_deep(tool));
                }
                let mut size = 0usize;
                for v in std::iter::once(value).chain(map.values().rev()) {
                    size += node_size(v);
                    if size > self.max_bytes {
                        return Err(self.too_large(tool, size));
                    }
                }
                return Ok(());
            }
        }
        let mut size = 0usize;
        let mut stack: Vec<(&Value, usize)> = vec![(value, 1)];
        while let Some((v, depth)) = stack.pop() {
            match v {
                Value::Array(_) | Value::Object(_) if depth > self.max_depth => {
                    return Err(self.too_deep(tool));
                }
                Value::Array(items) => stack.extend(items.iter().map(|i| (i, depth + 1))),
                Value::Object(map) => stack.extend(map.values().map(|i| (i, depth + 1))),
                _ => {}
            }
            size += node_size(v);
            if size > self.max_bytes {
                return Err(self.too_large(tool, size));
            }
        }
        Ok(())
    }

    fn too_large(&self, tool: &str, size: usize) -> ToolResult {
        ToolResult::error(format!(
            "invalid arguments for `{tool}`: the arguments are larger than {} bytes ({}{size} bytes); send less data",
            self.max_bytes,
            if size > self.max_bytes { "at least " } else { "" },
        ))
    }

    fn too_deep(&self, tool: &str) -> ToolResult {
        ToolResult::error(format!(
            "invalid arguments for `{tool}`: the arguments are nested deeper than {} levels",
            self.max_depth
        ))
    }
}

/// How many `{` and `[` bytes `bytes` holds, 8 bytes at a time.
fn count_brackets(bytes: &[u8]) -> usize {
    const LOW7: u64 = u64::from_ne_bytes([0x7f; 8]);
    // `[` is 0x5B and `{` is 0x7B: with bit 0x20 set both are 0x7B, and no other byte is.
    let in_word = |word: u64| {
        let x = (word | u64::from_ne_bytes([0x20; 8])) ^ u64::from_ne_bytes([b'{'; 8]);
        // The high bit of each byte of `x` that is zero (no carries cross bytes)...
        let zero = !(((x & LOW7) + LOW7) | x | LOW7);
        // ...summed into the top byte by one multiply (`count_ones` is no instruction on
        // baseline x86-64).
        ((zero >> 7).wrapping_mul(u64::from_ne_bytes([1; 8])) >> 56) as usize
    };
    let mut words = bytes.chunks_exact(8);
    let mut count = 0;
    for word in &mut words {
        let mut buf = [0; 8];
        buf.copy_from_slice(word);
        count += in_word(u64::from_ne_bytes(buf));
    }
    count
        + words
            .remainder()
            .iter()
            .filter(|&&b| b | 0x20 == b'{')
            .count()
}

/// What `value` adds to the size of compact JSON by itself: a scalar's text (escapes inside
/// strings not counted), a container's brackets, commas and (for an object) quoted keys and colons.
fn node_size(value: &Value) -> usize {
    match value {
        Value::Null => 4,
        Value::Bool(b) => 4 + usize::from(!*b),
        Value::Number(n) => number_len(n),
        Value::String(s) => s.len() + 2,
        Value::Array(items) => 2 + items.len().saturating_sub(1),
        Value::Object(map) => {
            2 + map.len().saturating_sub(1) + map.keys().map(|k| k.len() + 3).sum::<usize>()
        }
    }
}

/// The length of a number's JSON text; integers are counted without formatting them.
fn number_len(n: &serde_json::Number) -> usize {
    let digits = |u: u64| u.checked_ilog10().map_or(1, |log| log as usize + 1);
    if let Some(u) = n.as_u64() {
        digits(u)
    } else if let Some(i) = n.as_i64() {
        1 + digits(i.unsigned_abs())
    } else {
        display_len(n)
    }
}

/// The length of `value`'s `Display` text, counted without building it.
fn display_len(value: &impl std::fmt::Display) -> usize {
    struct Count(usize);
    impl std::fmt::Write for Count {
        fn write_str(&mut self, s: &str) -> std::fmt::Result {
            self.0 += s.len();
            Ok(())
        }
    }
    let mut count = Count(0);
    // Writing into `Count` cannot fail, and a number's `Display` does not either.
    let _ = std::fmt::write(&mut count, format_args!("{value}"));
    count.0
}

/// Parses argument text into an object [`Value`] (see the module rules).
pub(crate) fn parse_object(tool: &str, text: &str) -> Result<Value, ToolResult> {
    let text = text.trim();
    if text.is_empty() || text == "null" {
        return Ok(Value::Object(Map::new()));
    }
    match serde_json::from_str::<Value>(text) {
        Ok(value) => object(tool, value),
        Err(e) => Err(not_json(tool, &e)),
    }
}

/// Checks that an argument value is an object; `null` becomes `{}`.
pub(crate) fn object(tool: &str, value: Value) -> Result<Value, ToolResult> {
    match value {
        Value::Object(_) => Ok(value),
        Value::Null => Ok(Value::Object(Map::new())),
        other => Err(not_object(tool, &other)),
    }
}

/// Decodes argument text straight into `T`, without an intermediate [`Value`].
///
/// On an error the field path for the message (``invalid arguments for `t`: `days`: ...``) is
/// read off the text at the position serde_json reports, so decoding itself tracks nothing: only
/// the call of `T::deserialize` is generic, and everything around it is one shared function,
/// so each tool compiles one decoder of its own and little else.
pub fn decode_str<T: DeserializeOwned>(tool: &str, text: &str) -> Result<T, ToolResult> {
    let mut decoded = None;
    decode_text(tool, text, &mut |de| {
        decoded = Some(T::deserialize(de)?);
        Ok(())
    })?;
    decoded.ok_or_else(|| ToolResult::error(format!("invalid arguments for `{tool}`")))
}

/// Decodes an argument value into `T`; `null` means `{}`.
///
/// The value is written out as JSON text and decoded by [`decode_str`]: one decoder per tool
/// instead of two, for a text the size of the arguments (bounded by `Limits`).
pub fn decode_value<T: DeserializeOwned>(tool: &str, value: Value) -> Result<T, ToolResult> {
    let text = value_text(tool, value)?;
    decode_str(tool, &text)
}

/// The JSON text of an argument value, which must be an object (`null` is `{}`).
fn value_text(tool: &str, value: Value) -> Result<String, ToolResult> {
    match object(tool, value)? {
        Value::Object(map) if map.is_empty() => Ok("{}".to_owned()),
        value => Ok(value.to_string()),
    }
}

/// `T::deserialize` over a text deserializer, storing what it decoded.
type Decoder<'d> = dyn FnMut(
        &mut serde_json::Deserializer<serde_json::de::StrRead<'_>>,
    ) -> Result<(), serde_json::Error>
    + 'd;

/// The rules of [`decode_str`] around one `decode`.
fn decode_text(tool: &str, text: &str, decode: &mut Decoder<'_>) -> Result<(), ToolResult> {
    // `{...}` as models send it has nothing to trim (checking both ends is all `trim` would do).
    let text = if text.starts_with('{') && text.ends_with('}') {
        text
    } else {
        let trimmed = text.trim();
        if trimmed.is_empty() || trimmed == "null" {
            "{}"
        } else {
            trimmed
        }
    };
    if !text.starts_with('{') {
        // Not an object: find out what it is, only to say so.
        return Err(match serde_json::from_str::<Value>(text) {
            Ok(value) => not_object(tool, &value),
            Err(e) => not_json(tool, &e),
        });
    }
    let mut de = serde_json::Deserializer::from_str(text);
    if let Err(e) = decode(&mut de) {
        return Err(decode_error(tool, text, &e));
    }
    // Text after the object (`{"a":1} x`) is as malformed as text before it.
    de.end().map_err(|e| not_json(tool, &e))
}

/// The message for a decoding error, with the path of the field it is about.
#[cold]
fn decode_error(tool: &str, text: &str, e: &serde_json::Error) -> ToolResult {
    // An unknown variant of `{"Variant": ...}` is about the enum, and a duplicate field about
    // the object: neither about the key just read (serde raises them between key and value).
    let message = e.to_string();
    let about_object =
        message.starts_with("unknown variant") || message.starts_with("duplicate field");
    let mut offset = error_offset(text, e);
    let expected_value = message.starts_with("expected value");
    // An enum given an object with more than one key: serde_json stops at the `,` after the
    // first, and the error is about that object.
    let extra_keys = expected_value && text.as_bytes().get(offset) == Some(&b',');
    if expected_value && !extra_keys {
        // serde_json counts the byte it peeked at: the value starts there, unread.
        offset = offset.saturating_sub(1);
    }
    let mut path = path_at(text, offset, about_object);
    if extra_keys && matches!(path.last(), Some(Segment::Key(_))) {
        path.pop();
    }
    if !(e.is_syntax() || e.is_eof()) {
        return invalid(tool, &path, e);
    }
    // serde_json reports some type mismatches in valid JSON as syntax errors (an enum given
    // `false` is "expected value"), which would tell the model its valid JSON is not JSON.
    // Read the text as a value to find out: either say where the JSON really is broken, or
    // say what was found where.
    let parsed = match serde_json::from_str::<Value>(text) {
        Ok(parsed) => parsed,
        Err(e) => return not_json(tool, &e),
    };
    let message = without_position(e);
    if message.starts_with("expected value") {
        let found = path
            .iter()
            .try_fold(&parsed, |value, segment| match segment {
                Segment::Key(key) => value.get(key),
                Segment::Index(index) => value.get(index),
            });
        // What serde_json's value decoder says of an enum given this value.
        if let Some(Err(found)) =
            found.map(|found| serde::Deserializer::deserialize_enum(found, "", &[], NoEnum))
        {
            return invalid(tool, &path, &found);
        }
    }
    if message.starts_with("trailing characters") {
        return with_path(tool, &path, "too many elements");
    }
    // Valid JSON all the same: never call it malformed.
    with_path(tool, &path, &message)
}

/// The byte offset serde_json's line and column point at.
fn error_offset(text: &str, e: &serde_json::Error) -> usize {
    let line_start: usize = text
        .split_inclusive('\n')
        .take(e.line().saturating_sub(1))
        .map(str::len)
        .sum();
    (line_start + e.column()).min(text.len())
}

/// A visitor that accepts no enum: only its caller's error message is wanted.
struct NoEnum;
impl<'de> serde::de::Visitor<'de> for NoEnum {
    type Value = ();
    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("string or map")
    }
}

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
enum Segment {
    Key(String),
    Index(usize),
}

/// The field path of what serde_json was reading when it stopped at byte `offset` of `text`:
/// the keys and indexes open there, each counted from the value it introduces being read to
/// the `,` or bracket that ends it. With `about_object`, a key read last without its `:` yet is
/// left out.
fn path_at(text: &str, offset: usize, about_object: bool) -> Vec<Segment> {
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
                let end = (i + 1).min(bytes.len());
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
fn path_text(path: &[Segment]) -> String {
    let mut text = String::new();
    for segment in path {
        match segment {
            Segment::Key(key) => {
                if !text.is_empty() {
                    text.push('.');
                }
                text.push_str(key);
            }
            Segment::Index(index) => text.push_str(&format!("[{index}]")),
        }
    }
    if text.is_empty() {
        text.push('.');
    }
    text
}

fn invalid(tool: &str, path: &[Segment], inner: &serde_json::Error) -> ToolResult {
    if inner.is_syntax() || inner.is_eof() {
        return not_json(tool, inner);
    }
    with_path(tool, path, &without_position(inner))
}

fn with_path(tool: &str, path: &[Segment], message: &str) -> ToolResult {
    let path = path_text(path);
    if path == "." {
        ToolResult::error(format!("invalid arguments for `{tool}`: {message}"))
    } else {
        ToolResult::error(format!(
            "invalid arguments for `{tool}`: `{path}`: {message}"
        ))
    }
}

fn not_json(tool: &str, e: &serde_json::Error) -> ToolResult {
    ToolResult::error(format!(
        "invalid arguments for `{tool}`: the arguments are not valid JSON ({e}); send one JSON object"
    ))
}

fn not_object(tool: &str, value: &Value) -> ToolResult {
    ToolResult::error(format!(
        "invalid arguments for `{tool}`: expected a JSON object, got {}",
        kind(value)
    ))
}

/// serde_json's message without its ` at line L column C` suffix, which says nothing to a model.
fn without_position(e: &serde_json::Error) -> String {
    let text = e.to_string();
    let suffix = format!(" at line {} column {}", e.line(), e.column());
    match text.strip_suffix(&suffix) {
        Some(head) if e.line() > 0 => head.to_owned(),
        _ => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    mod oracle {
        //! The decoding errors as serde_path_to_error reports them: the field path tracked while
        //! decoding, and for valid JSON that the text decoder calls malformed, the value decoder's
        //! error. A second implementation for `decode_str` to agree with.
        use serde::de::DeserializeOwned;
        use serde_json::Value;

        pub fn message<T: DeserializeOwned>(text: &str) -> Option<String> {
            let mut de = serde_json::Deserializer::from_str(text);
            let e = match serde_path_to_error::deserialize::<_, T>(&mut de) {
                Ok(_) => return de.end().err().map(|e| not_json(&e)),
                Err(e) => e,
            };
            let e = if e.inner().is_syntax() || e.inner().is_eof() {
                match serde_json::from_str::<Value>(text) {
                    Ok(value) => match serde_path_to_error::deserialize::<_, T>(value) {
                        Ok(_) => return Some("decodes as a value".to_owned()),
                        Err(e) => e,
                    },
                    Err(e) => return Some(not_json(&e)),
                }
            } else {
                e
            };
            let message = e.inner().to_string();
            let message = match message.rfind(" at line ") {
                Some(at) if e.inner().line() > 0 => message[..at].to_owned(),
                _ => message,
            };
            let path = e.path().to_string();
            Some(if path == "." {
                format!("invalid arguments for `t`: {message}")
            } else {
                format!("invalid arguments for `t`: `{path}`: {message}")
            })
        }

        fn not_json(e: &serde_json::Error) -> String {
            format!("invalid arguments for `t`: the arguments are not valid JSON ({e}); send one JSON object")
        }
    }

    #[derive(serde::Deserialize, Debug)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Args {
        city: String,
        days: Option<u8>,
        inner: Option<Inner>,
        tags: Option<Vec<u32>>,
        unit: Option<Unit>,
        pair: Option<(u8, bool)>,
        map: Option<std::collections::BTreeMap<String, u8>>,
        shape: Option<Shape>,
        list: Option<Vec<Inner>>,
    }

    #[derive(serde::Deserialize, Debug)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Inner {
        a: u8,
        b: Option<Vec<Leaf>>,
    }

    #[derive(serde::Deserialize, Debug)]
    #[allow(dead_code)]
    struct Leaf {
        x: bool,
    }

    #[derive(serde::Deserialize, Debug)]
    #[allow(dead_code)]
    enum Unit {
        Metric,
        Imperial,
    }

    #[derive(serde::Deserialize, Debug)]
    #[allow(dead_code)]
    enum Shape {
        Circle { r: f64 },
        Square(u8),
    }

    #[test]
    fn decode_errors_name_the_path_serde_path_to_error_names() {
        let bodies = [
            r#""city":1"#,
            r#""city":"x","days":"3""#,
            r#""city":"x","days":300"#,
            r#""days":3"#,
            r#""city":"x","country":"y""#,
            r#""city":"x","inner":{"a":1,"c":2}"#,
            r#""city":"x","inner":{"a":"1"}"#,
            r#""city":"x","inner":{"b":[]}"#,
            r#""city":"x","inner":{"a":1,"b":[{"x":true},{"x":1}]}"#,
            r#""city":"x","inner":{"a":1,"b":[{"x":true},{}]}"#,
            r#""city":"x","tags":[1,2,"3"]"#,
            r#""city":"x","tags":[1,-2]"#,
            r#""city":"x","tags":{}"#,
            r#""city":"x","unit":false"#,
            r#""city":"x","unit":"Kelvin""#,
            r#""city":"x","unit":[1]"#,
            r#""city":"x","unit":{}"#,
            r#""city":"x","unit":{"Metric":null,"Imperial":null}"#,
            r#""city":"x","shape":{}"#,
            r#""city":"x","shape":{"Circle":{"r":1},"Square":2}"#,
            r#""city":"x","unit":12"#,
            r#""city":"x","unit":null,"days":"q""#,
            r#""city":"x","pair":[1]"#,
            r#""city":"x","pair":[1,2]"#,
            r#""city":"x","map":{"a":1,"b":"2"}"#,
            r#""city":"x","map":{"a\"b":"2"}"#,
            r#""city":"x","shape":{"Circle":{"r":"1"}}"#,
            r#""city":"x","shape":{"Square":"1"}"#,
            r#""city":"x","shape":{"Oval":{}}"#,
            r#""city":"x","shape":true"#,
            r#""city":"x","list":[{"a":1},{"a":2,"b":[{"x":null}]}]"#,
            r#""city":"x","list":[{"a":1},{"a":2,"b":[{"x":true}],"z":0}]"#,
            r#""ci\u0074y":5"#,
            r#""city":"x",,"#,
            r#""city":"x","city":"y""#,
            r#""city":"x","inner":{"a":1,"a":2}"#,
            r#""city":"#,
            r#""city":"x","#,
            r#""city":"x
y""#,
            r#""city":"a\"b,c}","days":"x""#,
            r#""city":"ü→","days":-1"#,
            r#""city":"x","inner":{"a":1,"b":[]},"tags":[[]]"#,
            r#""city":"x","tags":[1, {}]"#,
            r#""city":"x","list":[{"a":1}, []]"#,
            r#""city":"x","list":[{"a":1}, {"a":1,"b":[[]]}]"#,
            r#""city":"x""#,
        ];
        for body in bodies {
            for text in [
                format!("{{{body}}}"),
                format!("{{ {} }}", body.replace(',', " ,\n  ").replace(':', " :\t")),
            ] {
                let ours = decode_str::<Args>("t", &text).err().map(|r| r.output);
                assert_eq!(ours, oracle::message::<Args>(&text), "{text}");
            }
        }
    }

    #[test]
    fn count_brackets_counts_every_opening_bracket_and_nothing_else() {
        let all: Vec<u8> = (0..=255).collect();
        assert_eq!(count_brackets(&all), 2);
        for len in 0..40 {
            let pattern = b"{a[\"}]{\x7b\xfb\xdb;";
            let text: Vec<u8> = (0..len).map(|i| pattern[i % pattern.len()]).collect();
            let slow = text.iter().filter(|&&b| b == b'{' || b == b'[').count();
            assert_eq!(count_brackets(&text), slow, "{len}");
        }
    }

    /// The walk as it was before the flat-object fast path and `node_size`, kept as the reference.
    fn check_value_reference(limits: &Limits, value: &Value) -> Result<(), ToolResult> {
        let mut size = 0usize;
        let mut stack: Vec<(&Value, usize)> = vec![(value, 1)];
        while let Some((v, depth)) = stack.pop() {
            size += match v {
                Value::Null => 4,
                Value::Bool(b) => 4 + usize::from(!*b),
                Value::Number(n) => n.to_string().len(),
                Value::String(s) => s.len() + 2,
                Value::Array(items) => {
                    if depth > limits.max_depth {
                        return Err(limits.too_deep("t"));
                    }
                    stack.extend(items.iter().map(|i| (i, depth + 1)));
                    2 + items.len().saturating_sub(1)
                }
                Value::Object(map) => {
                    if depth > limits.max_depth {
                        return Err(limits.too_deep("t"));
                    }
                    stack.extend(map.values().map(|i| (i, depth + 1)));
                    2 + map.len().saturating_sub(1) + map.keys().map(|k| k.len() + 3).sum::<usize>()
                }
            };
            if size > limits.max_bytes {
                return Err(limits.too_large("t", size));
            }
        }
        Ok(())
    }

    #[test]
    fn check_value_gives_what_the_reference_walk_gives() {
        use serde_json::json;
        let values = [
            json!({}),
            json!(null),
            json!([]),
            json!({"city": "Chennai", "days": 3, "units": "metric", "ok": true, "x": null}),
            json!({"a": -1.5, "b": false, "c": "ü\"q"}),
            json!({"a": [1, 2, {"b": [3]}], "c": "d", "e": {"f": {"g": 1}}}),
            json!([[[[1]]], "x", {"y": [2]}]),
            json!({"text": "a".repeat(50), "n": 123456789}),
        ];
        for value in &values {
            for max_bytes in 0..80 {
                for max_depth in 0..5 {
                    let limits = Limits {
                        max_bytes,
                        max_depth,
                    };
                    assert_eq!(
                        limits.check_value("t", value),
                        check_value_reference(&limits, value),
                        "{value} {limits:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn check_text_gives_what_the_exact_scan_gives() {
        // The exact scan alone, as it was before the bracket count in front of it.
        let exact = |limits: &Limits, text: &str| {
            if text.len() > limits.max_bytes {
                return Err(limits.too_large("t", text.len()));
            }
            let (mut depth, mut in_string, mut escaped) = (0usize, false, false);
            for &b in text.as_bytes() {
                if in_string {
                    match b {
                        _ if escaped => escaped = false,
                        b'\\' => escaped = true,
                        b'"' => in_string = false,
                        _ => {}
                    }
                    continue;
                }
                match b {
                    b'"' => in_string = true,
                    b'{' | b'[' => {
                        depth += 1;
                        if depth > limits.max_depth {
                            return Err(limits.too_deep("t"));
                        }
                    }
                    b'}' | b']' => depth = depth.saturating_sub(1),
                    _ => {}
                }
            }
            Ok(())
        };
        let texts = [
            "",
            "{}",
            "[[[1]]]",
            r#"{"a":"[[[[[[["}"#,
            r#"{"a":{"b":[{"c":[]}]}}"#,
            r#"{"s":"\\\"[[[["}"#,
            "[][][][][][]",
            "{{{{{{{{{{{{",
            r#"{"city":"Chennai","days":3}"#,
        ];
        for text in texts {
            for max_depth in 0..8 {
                for max_bytes in [0, 4, 16, 1024] {
                    let limits = Limits {
                        max_bytes,
                        max_depth,
                    };
                    assert_eq!(
                        limits.check_text("t", text),
                        exact(&limits, text),
                        "{text} {limits:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn number_len_is_the_length_of_the_text() {
        use serde_json::json;
        let numbers = [
            json!(0),
            json!(9),
            json!(10),
            json!(-1),
            json!(-12345),
            json!(1.5e300),
            json!(0.1),
            json!(-2.5),
            json!(u64::MAX),
            json!(i64::MIN),
            json!(1e15),
        ];
        for n in numbers {
            let Value::Number(n) = n else { unreachable!() };
            assert_eq!(number_len(&n), n.to_string().len(), "{n}");
            assert_eq!(display_len(&n), n.to_string().len(), "{n}");
        }
    }
}
