//! Small text helpers: what a model or provider sent, echoed at a bounded size; how a JSON value
//! is named in messages; the text a result carries to the model.

use std::borrow::Cow;

use serde_json::Value;

use crate::values::media::Media;
use crate::values::result::ToolResult;

/// The longest provider-supplied text (an error message, a finish reason) echoed in a
/// [`ResponseError`](crate::ResponseError); a hostile or broken server may send anything.
const MAX_ECHO: usize = 300;

/// Provider or model text (an error message, a finish reason, a call id) for an error message:
/// cut to [`MAX_ECHO`] characters and [neutralised](neutralise).
pub(crate) fn echo(text: &str) -> String {
    neutralise(&shorten(text, MAX_ECHO)).into_owned()
}

/// A tool name a model sent, for an error message (`Unknown tool: NAME`): cut to
/// [`MAX_PIECE`] characters and [neutralised](neutralise).
pub(crate) fn echo_name(name: &str) -> String {
    neutralise(&shorten(name, MAX_PIECE)).into_owned()
}

/// `text` cut to `max` characters (an ellipsis marks the cut), so what a model or provider sent
/// is echoed back at a bounded size.
pub(crate) fn shorten(text: &str, max: usize) -> String {
    if text.chars().count() > max {
        text.chars().take(max).chain(['…']).collect()
    } else {
        text.to_owned()
    }
}

/// The longest piece of model input (a tool name, a key, a string, an enum variant) echoed
/// inside an error text.
pub(crate) const MAX_PIECE: usize = 100;

/// Whether `c` would act on a reader rather than be read: a control character (ANSI escapes
/// start with one, NUL ends C strings), a bidirectional control that reorders what follows
/// (U+202E shows `exe.txt` as `txt.exe`), a line or paragraph separator, an interlinear
/// annotation mark, or any character Unicode makes invisible (its `Default_Ignorable_Code_Point`
/// set: zero-width and joiner marks, the soft hyphen, Hangul fillers, variation selectors and
/// tag characters, with which text a model may still read is hidden or smuggled).
fn acts_on_reader(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{00ad}'
                | '\u{034f}'
                | '\u{061c}'
                | '\u{115f}'..='\u{1160}'
                | '\u{17b4}'..='\u{17b5}'
                | '\u{180b}'..='\u{180f}'
                | '\u{200b}'..='\u{200f}'
                | '\u{2028}'..='\u{202e}'
                | '\u{2060}'..='\u{206f}'
                | '\u{3164}'
                | '\u{fe00}'..='\u{fe0f}'
                | '\u{feff}'
                | '\u{ffa0}'
                | '\u{fff0}'..='\u{fffb}'
                | '\u{1bca0}'..='\u{1bca3}'
                | '\u{1d173}'..='\u{1d17a}'
                | '\u{e0000}'..='\u{e0fff}'
        )
}

/// `text` with every character that [acts on a reader](acts_on_reader) written as its Rust
/// escape (`\n`, `\0`, `\u{1b}`, `\u{202e}`), so echoed model or provider text cannot recolour a
/// terminal, reorder a log line or hide text; everything else is kept as it is.
pub(crate) fn neutralise(text: &str) -> Cow<'_, str> {
    if !text.chars().any(acts_on_reader) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if acts_on_reader(c) {
            match c {
                '\n' => out.push_str("\\n"),
                '\r' => out.push_str("\\r"),
                '\t' => out.push_str("\\t"),
                '\0' => out.push_str("\\0"),
                c => out.extend(c.escape_unicode()),
            }
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// serde's message about model input (`unknown field `KEY``, `invalid type: string "VALUE"`,
/// `unknown variant `X``) with every quoted piece cut to [`MAX_PIECE`] characters and the whole
/// [neutralised](neutralise): the pieces are what the model sent, which may be a megabyte.
///
/// A piece is the text between two backticks, or between two double quotes (serde writes a
/// string with Rust's escapes, so `\"` does not end it). What lies outside pieces (the
/// expectation: `expected u8`, `expected one of `a`, `b``) comes from the tool's own types and
/// stays whole.
pub(crate) fn cut_pieces(message: &str) -> String {
    let mut out = String::with_capacity(message.len().min(4 * MAX_PIECE + 256));
    let mut rest = message;
    // serde quotes an unknown key or variant between backticks without escaping it, so a key
    // that holds a backtick would end its piece early and leave the rest of it (a megabyte)
    // whole. What follows the model's piece comes from the tool's types (`, expected ...` or
    // `, there are no fields`): the piece ends at the last such ending.
    for quoting in ["unknown field `", "unknown variant `"] {
        let Some(body) = message.strip_prefix(quoting) else {
            continue;
        };
        let close = ["`, expected ", "`, there are no "]
            .into_iter()
            .filter_map(|ending| body.rfind(ending))
            .max()
            .or_else(|| body.strip_suffix('`').map(str::len));
        if let Some(close) = close {
            out.push_str(quoting);
            out.push_str(&shorten(&body[..close], MAX_PIECE));
            out.push('`');
            rest = &body[close + 1..];
        }
        break;
    }
    while let Some(open) = rest.find(['`', '"']) {
        let quote = rest.as_bytes()[open];
        out.push_str(&rest[..=open]);
        let body = &rest[open + 1..];
        let close = if quote == b'"' {
            // The first `"` not escaped by a backslash.
            let mut escaped = false;
            body.char_indices()
                .find(|&(_, c)| match c {
                    _ if escaped => {
                        escaped = false;
                        false
                    }
                    '\\' => {
                        escaped = true;
                        false
                    }
                    c => c == '"',
                })
                .map(|(i, _)| i)
        } else {
            body.find('`')
        };
        let Some(close) = close else {
            // No closing mark: the rest is one piece.
            out.push_str(&shorten(body, MAX_PIECE));
            return neutralise(&out).into_owned();
        };
        out.push_str(&shorten(&body[..close], MAX_PIECE));
        out.push(quote as char);
        rest = &body[close + 1..];
    }
    out.push_str(rest);
    neutralise(&out).into_owned()
}

/// The text a result carries to the model; an error's is never empty (Anthropic rejects empty
/// error content, and an empty error helps no model).
pub(crate) fn result_text(result: &ToolResult) -> &str {
    if result.is_error && result.output.trim().is_empty() {
        "the tool failed without a message"
    } else {
        &result.output
    }
}

/// `a string`, `an array`, ...: how a JSON value is named in messages.
pub(crate) fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// The length of `s` as a JSON string the way serde_json writes it: quotes, `\"` and `\\`,
/// the short escapes `\b \f \n \r \t`, and `\u00XX` for the other control characters.
pub(crate) fn quoted_len(s: &str) -> usize {
    /// Bytes each byte adds beyond itself.
    const EXTRA: [u8; 256] = {
        let mut extra = [0u8; 256];
        let mut b = 0;
        while b < 0x20 {
            extra[b] = 5;
            b += 1;
        }
        extra[0x08] = 1;
        extra[0x09] = 1;
        extra[0x0a] = 1;
        extra[0x0c] = 1;
        extra[0x0d] = 1;
        extra[b'"' as usize] = 1;
        extra[b'\\' as usize] = 1;
        extra
    };
    s.len()
        + 2
        + s.bytes()
            .map(|b| usize::from(EXTRA[usize::from(b)]))
            .sum::<usize>()
}

/// The note that stands in for media a message cannot carry: its name, type and size.
pub(crate) fn unshown_note(media: &Media) -> String {
    let name = media
        .name()
        .map_or_else(|| media.default_name(), str::to_owned);
    format!(
        "(a file that cannot be shown here: `{}`, {}, {} bytes)",
        echo(&name),
        echo(media.mime_type()),
        media.len()
    )
}
