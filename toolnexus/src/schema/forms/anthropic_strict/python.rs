//! Python's view of JSON values, as Anthropic's SDK has it: values written the way Python writes
//! the `dict` `json.loads` makes of them (what the SDK puts into a `description` when it moves
//! an unsupported keyword there, `f"{key}: {value}"`: `str` of the value, so a string bare and
//! anything else as `repr`), Python's truth and comparisons, and the SDK's `pop`.

use std::fmt::Write;

use serde_json::{Number, Value};

/// `str(value)`: a string as it is, anything else as [`repr`].
pub(super) fn str_of(value: &Value, out: &mut String) {
    match value {
        Value::String(s) => out.push_str(s),
        other => repr(other, out),
    }
}

/// `repr(value)`: `None`, `True`, `3`, `1.5`, `'text'`, `[1, 2]`, `{'a': 1}`.
pub(super) fn repr(value: &Value, out: &mut String) {
    match value {
        Value::Null => out.push_str("None"),
        Value::Bool(true) => out.push_str("True"),
        Value::Bool(false) => out.push_str("False"),
        Value::Number(n) => number(n, out),
        Value::String(s) => string(s, out),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                repr(item, out);
            }
            out.push(']');
        }
        Value::Object(map) => {
            out.push('{');
            for (i, (key, item)) in map.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                string(key, out);
                out.push_str(": ");
                repr(item, out);
            }
            out.push('}');
        }
    }
}

/// An `int` as its digits; a `float` as Python's shortest repr (`2.0`, `1e+16`, `1.5e-05`).
fn number(n: &Number, out: &mut String) {
    if n.is_f64() {
        if let Some(f) = n.as_f64() {
            float(f, out);
            return;
        }
    }
    let _ = write!(out, "{n}");
}

fn float(f: f64, out: &mut String) {
    if !f.is_finite() {
        out.push_str(if f.is_nan() {
            "nan"
        } else if f > 0.0 {
            "inf"
        } else {
            "-inf"
        });
        return;
    }
    // Rust's `{:e}` gives the shortest digits that round-trip, as Python's repr does.
    let sci = format!("{f:e}");
    let (mantissa, exponent) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exponent: i32 = exponent.parse().unwrap_or(0);
    let (sign, mantissa) = match mantissa.strip_prefix('-') {
        Some(m) => ("-", m),
        None => ("", mantissa),
    };
    let digits: String = mantissa.chars().filter(|c| *c != '.').collect();
    out.push_str(sign);
    if (-4..16).contains(&exponent) {
        let point = exponent + 1;
        if point <= 0 {
            out.push_str("0.");
            out.push_str(&"0".repeat(point.unsigned_abs() as usize));
            out.push_str(&digits);
        } else {
            let point = point as usize;
            if digits.len() <= point {
                out.push_str(&digits);
                out.push_str(&"0".repeat(point - digits.len()));
                out.push_str(".0");
            } else {
                out.push_str(&digits[..point]);
                out.push('.');
                out.push_str(&digits[point..]);
            }
        }
    } else {
        out.push_str(&digits[..1]);
        if digits.len() > 1 {
            out.push('.');
            out.push_str(&digits[1..]);
        }
        let _ = write!(
            out,
            "e{}{:02}",
            if exponent < 0 { '-' } else { '+' },
            exponent.unsigned_abs()
        );
    }
}

/// A `str`'s repr: single quotes unless the text holds `'` and no `"`.
fn string(s: &str, out: &mut String) {
    let quote = if s.contains('\'') && !s.contains('"') {
        '"'
    } else {
        '\''
    };
    out.push(quote);
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c if !printable(c) => {
                let _ = match c as u32 {
                    n @ 0..=0xff => write!(out, "\\x{n:02x}"),
                    n @ 0x100..=0xffff => write!(out, "\\u{n:04x}"),
                    n => write!(out, "\\U{n:08x}"),
                };
            }
            c => out.push(c),
        }
    }
    out.push(quote);
}

/// What is left of a subschema while the SDK's rules take its keywords, in order (borrowed:
/// the SDK's shallow copy).
pub(super) struct Rest<'a>(pub(super) Vec<(&'a str, &'a Value)>);

impl<'a> Rest<'a> {
    /// Takes `key` out (Python's `pop`).
    pub(super) fn take(&mut self, key: &str) -> Option<&'a Value> {
        let at = self.0.iter().position(|(k, _)| *k == key)?;
        Some(self.0.remove(at).1)
    }

    pub(super) fn get(&self, key: &str) -> Option<&'a Value> {
        self.0.iter().find(|(k, _)| *k == key).map(|(_, v)| *v)
    }

    pub(super) fn contains_key(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    /// Puts `key` back, last (Python's re-added key).
    pub(super) fn put(&mut self, key: &'a str, value: &'a Value) {
        self.0.push((key, value));
    }

    pub(super) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub(super) fn iter(&self) -> impl Iterator<Item = (&'a str, &'a Value)> + '_ {
        self.0.iter().copied()
    }
}

/// Python's truth of a JSON value (`""`, `0`, `[]`, `{}`, `None`, `False` are false).
pub(super) fn truthy(value: &Value) -> bool {
    match value {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64() != Some(0.0),
        Value::String(s) => !s.is_empty(),
        Value::Array(a) => !a.is_empty(),
        Value::Object(o) => !o.is_empty(),
    }
}

/// `minItems == 0 or minItems == 1`, as Python compares (`True == 1`).
pub(super) fn is_zero_or_one(value: &Value) -> bool {
    match value {
        Value::Number(n) => matches!(n.as_f64(), Some(f) if f == 0.0 || f == 1.0),
        Value::Bool(_) => true,
        _ => false,
    }
}

/// Python's `str.isprintable` for one character: not a control, format, separator (but the
/// ASCII space) or private-use character (unassigned code points, which Python also escapes,
/// are taken as printable).
fn printable(c: char) -> bool {
    let n = c as u32;
    !matches!(n,
        0..=0x1f | 0x7f..=0xa0 | 0xad | 0x600..=0x605 | 0x61c | 0x6dd | 0x70f | 0x1680
        | 0x180e | 0x2000..=0x200f | 0x2028..=0x202f | 0x205f..=0x2064 | 0x2066..=0x206f
        | 0x3000 | 0xe000..=0xf8ff | 0xfeff | 0xfff9..=0xfffb | 0xf0000..)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn r(v: Value) -> String {
        let mut out = String::new();
        repr(&v, &mut out);
        out
    }

    #[test]
    fn values_read_as_python_writes_them() {
        assert_eq!(r(json!(null)), "None");
        assert_eq!(r(json!([true, false, 3, -7])), "[True, False, 3, -7]");
        assert_eq!(r(json!({"a": "b", "c": [1.5]})), "{'a': 'b', 'c': [1.5]}");
        assert_eq!(r(json!("it's")), "\"it's\"");
        assert_eq!(r(json!("a'\"b\n")), "'a\\'\"b\\n'");
        assert_eq!(r(json!("tab\tnul\u{1}")), "'tab\\tnul\\x01'");
        assert_eq!(
            r(json!("nb\u{a0}zw\u{200b}ls\u{2028}é漢")),
            "'nb\\xa0zw\\u200bls\\u2028é漢'"
        );
        let mut out = String::new();
        str_of(&json!("uint8"), &mut out);
        assert_eq!(out, "uint8");
    }

    #[test]
    fn floats_use_pythons_shortest_repr() {
        for (f, want) in [
            (2.0, "2.0"),
            (0.1, "0.1"),
            (1.5, "1.5"),
            (-0.5, "-0.5"),
            (100.0, "100.0"),
            (1e15, "1000000000000000.0"),
            (1e16, "1e+16"),
            (1.5e17, "1.5e+17"),
            (0.0001, "0.0001"),
            (0.00001, "1e-05"),
            (1.25e-7, "1.25e-07"),
            (123.456, "123.456"),
            (0.0, "0.0"),
        ] {
            assert_eq!(r(json!(f)), want, "{f}");
        }
    }
}
