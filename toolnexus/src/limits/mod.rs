//! [`Limits`]: the bounds on one call's arguments (size and nesting), checked before anything
//! is decoded, in one pass and without recursion; and on the media results carry back.

pub(crate) mod admit;

use serde_json::Value;

use crate::values::result::{Failure, ToolResult};

/// Bounds on what one call's arguments may cost, checked before anything is decoded, and on the
/// media (images, files) results may carry back to the model.
///
/// A [`Toolkit`](crate::Toolkit) applies them to every call it executes; exceeding an argument
/// bound gives an error result and the tool does not run. The defaults (1 MiB, 64 levels) are far
/// above what a real tool call needs and far below what could hurt the host.
///
/// The media bounds are applied by [`Toolkit::respond`](crate::Toolkit::respond) and the
/// streaming turn (or by [`Dialect::admit_media`](crate::Dialect::admit_media)): a result past
/// one becomes an error result that says so. Their defaults keep a turn's request under every
/// provider's cap once base64 adds its third: 3 MiB per result (4 MiB encoded, under Anthropic's
/// 5 MB per image) and 12 MiB per turn (16 MiB encoded, under Gemini's 20 MB of inline data per
/// request).
///
/// ```
/// use serde_json::json;
/// use toolnexus::{Limits, NativeTool, Toolkit};
///
/// let echo = NativeTool::of("echo", "Echoes", json!({"type": "object"}), |args| async move { args.to_string() })?;
/// let limits = Limits::default().with_max_bytes(64 * 1024).with_max_depth(2);
/// let toolkit = Toolkit::new().with(echo)?.with_limits(limits);
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// assert!(!toolkit.execute_json("echo", r#"{"a":[1]}"#).await.is_error);
/// assert!(toolkit.execute_json("echo", r#"{"a":[[1]]}"#).await.is_error); // level 3
/// # });
/// assert_eq!(Limits::default().max_bytes, 1024 * 1024);
/// assert_eq!(Limits::default().max_media_bytes, 3 * 1024 * 1024);
/// # Ok::<(), toolnexus::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Limits {
    /// The most bytes of argument JSON (text as sent, or the size of an object as it would be
    /// sent) one call may carry.
    pub max_bytes: usize,
    /// The deepest nesting of arrays and objects; the argument object itself is level 1.
    pub max_depth: usize,
    /// The most bytes of media (images and files, counted before base64) one result may carry.
    pub max_media_bytes: usize,
    /// The most bytes of media all results of one turn may carry together, counted in call order.
    pub max_turn_media_bytes: usize,
    /// The most calls one response may hold (1024 by default): a response with more, whole or
    /// streamed, is refused before any of them runs (a stream fails at the first call past it;
    /// those before it may have run), as [`ResponseError::Malformed`](crate::ResponseError)
    /// naming this limit. What a server sends costs the toolkit memory and time per call.
    pub max_calls: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_bytes: 1024 * 1024,
            max_depth: 64,
            max_media_bytes: 3 * 1024 * 1024,
            max_turn_media_bytes: 12 * 1024 * 1024,
            max_calls: 1024,
        }
    }
}

impl Limits {
    /// These limits with [`max_calls`](Limits::max_calls) set (at least 1).
    #[must_use]
    pub const fn with_max_calls(mut self, max_calls: usize) -> Self {
        self.max_calls = if max_calls == 0 { 1 } else { max_calls };
        self
    }

    /// The refusal of a `dialect` response holding more than [`Limits::max_calls`] calls.
    pub(crate) fn too_many_calls(&self, dialect: crate::Dialect) -> crate::ResponseError {
        crate::ResponseError::Malformed {
            dialect,
            path: format!("(its calls: more than {})", self.max_calls),
            expected: "at most `Limits::max_calls` calls",
            found: "more calls",
            ran: Default::default(),
        }
    }

    /// `Err` when `count` calls of a `dialect` response are more than [`Limits::max_calls`].
    pub(crate) fn check_calls(
        &self,
        dialect: crate::Dialect,
        count: usize,
    ) -> Result<(), crate::ResponseError> {
        if count > self.max_calls {
            return Err(self.too_many_calls(dialect));
        }
        Ok(())
    }

    /// These limits with [`max_bytes`](Limits::max_bytes) set.
    #[must_use]
    pub const fn with_max_bytes(mut self, max_bytes: usize) -> Self {
        self.max_bytes = max_bytes;
        self
    }

    /// These limits with [`max_depth`](Limits::max_depth) set.
    #[must_use]
    pub const fn with_max_depth(mut self, max_depth: usize) -> Self {
        self.max_depth = max_depth;
        self
    }

    /// These limits with [`max_media_bytes`](Limits::max_media_bytes) set.
    #[must_use]
    pub const fn with_max_media_bytes(mut self, max_media_bytes: usize) -> Self {
        self.max_media_bytes = max_media_bytes;
        self
    }

    /// These limits with [`max_turn_media_bytes`](Limits::max_turn_media_bytes) set.
    #[must_use]
    pub const fn with_max_turn_media_bytes(mut self, max_turn_media_bytes: usize) -> Self {
        self.max_turn_media_bytes = max_turn_media_bytes;
        self
    }

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

    /// Checks an argument value without recursion: its depth, and its size as compact JSON as
    /// serde_json would write it, escapes included (counted, not built), so a value and the same
    /// arguments sent as text meet the same limit.
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

    /// The answer to a call of `tool` whose arguments went past `max_bytes`, `size` bytes
    /// counted when they did (counting stops there, hence "at least"). The streaming turn gives
    /// the same answer for arguments that grew past the limit.
    pub(crate) fn too_large(&self, tool: &str, size: usize) -> ToolResult {
        ToolResult::failed(format!(
            "invalid arguments for `{tool}`: the arguments are larger than {} bytes ({}{size} bytes); send less data",
            self.max_bytes,
            if size > self.max_bytes { "at least " } else { "" },
        ), Failure::Limit)
    }

    /// Whether `result` is one of the limits' answers to a call of `tool` ([`Limits::too_large`]
    /// for some size, or too deep): how a stored pending turn's call answered without running
    /// is told from a forged result.
    pub(crate) fn refused(&self, tool: &str, result: &ToolResult) -> bool {
        if !result.is_error || !result.media.is_empty() {
            return false;
        }
        let large = self.too_large(tool, 0).output;
        let prefix = large.split(" (").next().unwrap_or_default();
        result.output == self.too_deep(tool).output
            || result
                .output
                .strip_prefix(prefix)
                .and_then(|rest| rest.strip_prefix(" ("))
                .is_some_and(|rest| rest.ends_with(" bytes); send less data"))
    }

    fn too_deep(&self, tool: &str) -> ToolResult {
        ToolResult::failed(
            format!(
                "invalid arguments for `{tool}`: the arguments are nested deeper than {} levels",
                self.max_depth
            ),
            Failure::Limit,
        )
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

/// What `value` adds to the size of compact JSON by itself: a scalar's text (a string quoted
/// and escaped), a container's brackets, commas and (for an object) quoted keys and colons.
fn node_size(value: &Value) -> usize {
    match value {
        Value::Null => 4,
        Value::Bool(b) => 4 + usize::from(!*b),
        Value::Number(n) => number_len(n),
        Value::String(s) => crate::values::text::quoted_len(s),
        Value::Array(items) => 2 + items.len().saturating_sub(1),
        Value::Object(map) => {
            2 + map.len().saturating_sub(1)
                + map
                    .keys()
                    .map(|k| crate::values::text::quoted_len(k) + 1)
                    .sum::<usize>()
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

#[cfg(test)]
mod tests {
    use super::*;

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

    /// What a limit check should say, worked out independently of the scans above: the size is
    /// the length of the compact JSON text (serde_json writes it), the depth the nesting depth of
    /// the parsed value (a scalar is 0, a container one more than its deepest element).
    #[derive(Debug, PartialEq)]
    enum Verdict {
        Fits,
        TooLarge,
        TooDeep,
    }

    fn depth(value: &Value) -> usize {
        match value {
            Value::Array(items) => 1 + items.iter().map(depth).max().unwrap_or(0),
            Value::Object(map) => 1 + map.values().map(depth).max().unwrap_or(0),
            _ => 0,
        }
    }

    fn expected(limits: &Limits, size: usize, depth: usize) -> Vec<Verdict> {
        let mut broken = Vec::new();
        if size > limits.max_bytes {
            broken.push(Verdict::TooLarge);
        }
        if depth > limits.max_depth {
            broken.push(Verdict::TooDeep);
        }
        if broken.is_empty() {
            broken.push(Verdict::Fits);
        }
        broken
    }

    fn verdict(limits: &Limits, outcome: Result<(), ToolResult>) -> Verdict {
        match outcome {
            Ok(()) => Verdict::Fits,
            Err(refused) if refused.output == limits.too_deep("t").output => Verdict::TooDeep,
            Err(refused) => {
                let larger = format!("larger than {} bytes", limits.max_bytes);
                assert!(refused.output.contains(&larger), "{}", refused.output);
                Verdict::TooLarge
            }
        }
    }

    #[test]
    fn check_value_agrees_with_the_written_text_and_the_tree_depth() {
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
            json!({"q\"\\": "\u{0}\u{1f}\u{7f}\n\t\r\u{8}\u{c}\"\\é/<>", "x": ["\u{1b}[31m"]}),
        ];
        for value in &values {
            let size = serde_json::to_string(value).unwrap().len();
            for max_bytes in 0..80 {
                for max_depth in 0..5 {
                    let limits = Limits {
                        max_bytes,
                        max_depth,
                        ..Limits::default()
                    };
                    let got = verdict(&limits, limits.check_value("t", value));
                    // Past both limits, either refusal is right.
                    assert!(
                        expected(&limits, size, depth(value)).contains(&got),
                        "{value} {limits:?}: {got:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn check_text_agrees_with_the_text_length_and_the_tree_depth() {
        // (text, its nesting depth): brackets inside strings do not nest. For JSON the depth is
        // also read from the parsed value, so a wrong number here fails too; the last two are not
        // JSON, and their depth counts the brackets by hand.
        let texts = [
            ("", 0),
            ("{}", 1),
            ("[[[1]]]", 3),
            (r#"{"a":"[[[[[[["}"#, 1),
            (r#"{"a":{"b":[{"c":[]}]}}"#, 5),
            (r#"{"s":"\\\"[[[["}"#, 1),
            (r#"{"city":"Chennai","days":3}"#, 1),
            ("[][][][][][]", 1),
            ("{{{{{{{{{{{{", 12),
        ];
        for (text, deepest) in texts {
            if let Ok(value) = serde_json::from_str::<Value>(text) {
                assert_eq!(depth(&value), deepest, "{text}");
            }
            for max_depth in 0..14 {
                for max_bytes in [0, 4, 16, 1024] {
                    let limits = Limits {
                        max_bytes,
                        max_depth,
                        ..Limits::default()
                    };
                    let got = verdict(&limits, limits.check_text("t", text));
                    // The size is checked first, in one comparison.
                    let want = expected(&limits, text.len(), deepest).remove(0);
                    assert_eq!(got, want, "{text} {limits:?}");
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
