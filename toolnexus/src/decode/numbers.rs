//! Whole-number floats for integer parameters.
//!
//! Gemini sends every number as a double (its `args` is a protobuf Struct), and other models
//! write `2.0` too; serde refuses a float for an integer type even when it is whole. So when
//! arguments fail to decode and hold a whole-number float, they are decoded once more with each
//! such float written as its integer: `2.0` reaches an `i64` as 2 on every path, while `2.5`
//! (or `1e20` for an `i64`) is still refused, naming the field. Arguments that decode never get
//! here, so a `serde_json::Value` or `f64` parameter sees its numbers exactly as sent.

use serde_json::{Number, Value};

/// `text` (JSON arguments that failed to decode) with every float that is a whole number within
/// i64 or u64 (`2.0`, `-7.0`, `1e3`) written as that integer; `None` when it is not JSON or has
/// no such float.
pub(super) fn whole_floats_as_integers(text: &str) -> Option<String> {
    let mut value: Value = serde_json::from_str(text).ok()?;
    let mut changed = false;
    // Without recursion: the text is bounded by `Limits`, its nesting by serde_json's parser.
    let mut stack = vec![&mut value];
    while let Some(v) = stack.pop() {
        match v {
            Value::Array(items) => stack.extend(items.iter_mut()),
            Value::Object(map) => stack.extend(map.values_mut()),
            Value::Number(n) if n.is_f64() => {
                if let Some(whole) = n.as_f64().and_then(whole_number) {
                    *n = whole;
                    changed = true;
                }
            }
            _ => {}
        }
    }
    changed.then(|| value.to_string())
}

/// `f` as an integer [`Number`], when it is one that i64 or u64 holds exactly.
fn whole_number(f: f64) -> Option<Number> {
    // 2^63 and 2^64 are exact as f64; `as` saturates, so the range is checked first.
    const I64_END: f64 = 9_223_372_036_854_775_808.0;
    const U64_END: f64 = 18_446_744_073_709_551_616.0;
    if !f.is_finite() || f.fract() != 0.0 {
        return None;
    }
    if (-I64_END..I64_END).contains(&f) {
        Some((f as i64).into())
    } else if (0.0..U64_END).contains(&f) {
        Some((f as u64).into())
    } else {
        None
    }
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
            Some(r#"{"a":1.8446744073709552e+19,"b":10000000000000000000,"c":-1e+19}"#.to_owned())
        );
        assert_eq!(whole_floats_as_integers(r#"{"a":2.5,"b":1}"#), None);
        assert_eq!(whole_floats_as_integers(r#"{"a":"#), None);
    }
}
