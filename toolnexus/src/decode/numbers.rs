//! Whole-number floats for integer parameters.
//!
//! Gemini sends every number as a double (its `args` is a protobuf Struct), and other models
//! write `2.0` too; serde refuses a float for an integer type even when it is whole. So when
//! arguments fail to decode and hold a whole-number float, they are decoded once more with each
//! such float written as its integer: `2.0` reaches an `i64` as 2 on every path, while `2.5`
//! (or `1e20` for an `i64`) is still refused, naming the field. Arguments that decode never get
//! here, so a `serde_json::Value` or `f64` parameter of a tool whose arguments decode sees its
//! numbers exactly as sent.
//!
//! Only a number written as a float (with a `.` or an exponent) is rewritten: an integer
//! literal beyond i64/u64 (`-9223372036854775809`), which serde_json reads as the nearest f64,
//! is left as written and refused as it was, never moved into range. And since that nearest
//! f64 may be exactly -2^63 (every literal from i64::MIN − 1 down to about i64::MIN − 1024 lands
//! there), -2^63 is never taken as a whole number: arguments that come as a value, where the
//! literal is already gone, cannot smuggle it in either.

use serde_json::Number;

/// `text` (JSON arguments that failed to decode) with every number written as a float that is
/// a whole number within i64 or u64 (`2.0`, `-7.0`, `1e3`; see [`whole_number`]) written as
/// that integer, and everything else as it was; `None` when it is not JSON or has no such float.
pub(super) fn whole_floats_as_integers(text: &str) -> Option<String> {
    // Valid JSON only: anything else keeps the first error. Then a byte outside a string that
    // starts a number is a `-` or a digit (no literal or key has one).
    serde_json::from_str::<serde::de::IgnoredAny>(text).ok()?;
    let bytes = text.as_bytes();
    let mut out = String::new();
    let mut copied = 0;
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        match b {
            b'"' => i = string_end(bytes, i),
            b'-' | b'0'..=b'9' => {
                let start = i;
                let mut float = false;
                while let Some(&c) = bytes.get(i) {
                    match c {
                        b'0'..=b'9' | b'-' | b'+' => {}
                        b'.' | b'e' | b'E' => float = true,
                        _ => break,
                    }
                    i += 1;
                }
                let literal = &text[start..i];
                let whole = float
                    .then(|| literal.parse::<f64>().ok().and_then(whole_number))
                    .flatten();
                if let Some(whole) = whole {
                    out.push_str(&text[copied..start]);
                    out.push_str(&whole.to_string());
                    copied = i;
                }
            }
            _ => i += 1,
        }
    }
    if copied == 0 {
        return None;
    }
    out.push_str(&text[copied..]);
    Some(out)
}

/// The index just past the string that starts at `bytes[start]` (a `"`), in valid JSON.
fn string_end(bytes: &[u8], start: usize) -> usize {
    let mut i = start + 1;
    while let Some(&b) = bytes.get(i) {
        match b {
            // An escape's next byte is ASCII (`\"`, `\\`, `\u`...): skip it with the backslash.
            b'\\' => i += 2,
            b'"' => return i + 1,
            _ => i += 1,
        }
    }
    i
}

/// `f` as an integer [`Number`], when it is a whole number that i64 or u64 holds exactly and
/// that no integer literal beyond them reads as: -2^63 is left out, since serde_json reads every
/// literal from i64::MIN − 1 down to about i64::MIN − 1024 as that f64 (a literal of i64::MIN
/// itself is read as the integer). Past u64::MAX the nearest f64 is 2^64 or more, out of range.
pub(crate) fn whole_number(f: f64) -> Option<Number> {
    // 2^63 and 2^64 are exact as f64; `as` saturates, so the range is checked first.
    const I64_END: f64 = 9_223_372_036_854_775_808.0;
    const U64_END: f64 = 18_446_744_073_709_551_616.0;
    if !f.is_finite() || f.fract() != 0.0 {
        return None;
    }
    if f > -I64_END && f < I64_END {
        Some((f as i64).into())
    } else if (0.0..U64_END).contains(&f) {
        Some((f as u64).into())
    } else {
        None
    }
}

/// The number literal whose fraction or exponent starts at `text[offset - 1]` (where serde_json
/// stops reading an integer digit by digit), when there is one.
pub(super) fn float_before(text: &str, offset: usize) -> Option<&str> {
    let bytes = text.as_bytes();
    let at = offset.checked_sub(1)?;
    let digit_before = at.checked_sub(1).and_then(|i| bytes.get(i));
    if !matches!(bytes.get(at), Some(b'.' | b'e' | b'E')) || !digit_before?.is_ascii_digit() {
        return None;
    }
    let is_number = |b: &u8| matches!(b, b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E');
    let start = bytes[..at]
        .iter()
        .rposition(|b| !matches!(b, b'0'..=b'9' | b'-'))
        .map_or(0, |i| i + 1);
    let end = bytes[at..]
        .iter()
        .position(|b| !is_number(b))
        .map_or(bytes.len(), |i| at + i);
    Some(&text[start..end])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_whole_floats_within_64_bits_become_integers() {
        assert_eq!(
            whole_floats_as_integers(r#"{"a":2.0,"b":[-7.0,1e3,2.5],"c":{"d":-0.0},"e":1}"#),
            Some(r#"{"a":2,"b":[-7,1000,2.5],"c":{"d":0},"e":1}"#.to_owned())
        );
        assert_eq!(
            whole_floats_as_integers(r#"{"a":1.8446744073709552e19,"b":1e19,"c":-1e19}"#),
            Some(r#"{"a":1.8446744073709552e19,"b":10000000000000000000,"c":-1e19}"#.to_owned())
        );
        assert_eq!(whole_floats_as_integers(r#"{"a":2.5,"b":1}"#), None);
        assert_eq!(whole_floats_as_integers(r#"{"a":"#), None);
    }

    #[test]
    fn integer_literals_and_strings_stay_as_written() {
        // Beyond i64/u64, an integer literal is not a float the model wrote: it stays, exact
        // (an i128 parameter beside a `2.0` still gets every digit).
        assert_eq!(
            whole_floats_as_integers(
                r#"{"a":2.0,"min":-9223372036854775809,"big":100000000000000000000}"#
            ),
            Some(r#"{"a":2,"min":-9223372036854775809,"big":100000000000000000000}"#.to_owned())
        );
        assert_eq!(
            whole_floats_as_integers(r#"{"s":"3.0 \"4.0\" \\","k\"5.0":[6.0]}"#),
            Some(r#"{"s":"3.0 \"4.0\" \\","k\"5.0":[6]}"#.to_owned())
        );
        assert_eq!(
            whole_floats_as_integers(r#"{"min":-9223372036854775809}"#),
            None
        );
    }

    #[test]
    fn the_float_where_an_integer_reader_stopped() {
        let text = r#"{"a":[1, -12.5e3],"b":3e2}"#;
        assert_eq!(
            float_before(text, text.find(".5").unwrap() + 1),
            Some("-12.5e3")
        );
        assert_eq!(
            float_before(text, text.find("e2").unwrap() + 1),
            Some("3e2")
        );
        assert_eq!(float_before(text, text.find(',').unwrap() + 1), None);
        assert_eq!(float_before(r#"{"a.":1}"#, 4), None);
        assert_eq!(float_before("", 0), None);
    }

    #[test]
    fn minus_two_to_the_63_is_not_taken_as_a_whole_number() {
        // What `-9223372036854775809` (and ~1023 literals below it) reads as.
        let min_minus_one: f64 = "-9223372036854775809".parse().unwrap();
        assert_eq!(min_minus_one, -9_223_372_036_854_775_808.0);
        assert_eq!(whole_number(min_minus_one), None);
        assert_eq!(
            whole_number(-9_223_372_036_854_774_784.0),
            Some(Number::from(-9_223_372_036_854_774_784_i64))
        );
        assert_eq!(
            whole_number(9_223_372_036_854_775_808.0),
            Some(Number::from(9_223_372_036_854_775_808_u64))
        );
        assert_eq!(whole_number(18_446_744_073_709_551_616.0), None);
        assert_eq!(whole_number(2.5), None);
        assert_eq!(whole_number(f64::NAN), None);
    }
}
