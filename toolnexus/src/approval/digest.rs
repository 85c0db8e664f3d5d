//! The digest an answer is bound to: SHA-256 over a call's canonical argument text.
//!
//! The canonical text: `{}` for absent arguments; JSON text (OpenAI) exactly as the model sent
//! it; a JSON value (Anthropic, Gemini, Bedrock) written compactly with every object's keys
//! sorted (by their UTF-8 bytes), strings and numbers as serde_json writes them. Sorted keys keep
//! the digest of a value the same after a store that reorders keys (PostgreSQL `jsonb`, say).

use std::io;

use serde_json::Value;
use sha2::{Digest as _, Sha256};

use crate::values::call::Arguments;

/// A SHA-256 digest of a call's canonical argument text.
pub(crate) type Digest = [u8; 32];

/// The digest of `arguments`.
pub(crate) fn of(arguments: &Arguments) -> Digest {
    let mut hasher = Hasher(Sha256::new());
    match arguments {
        Arguments::Absent => hasher.0.update(b"{}"),
        Arguments::Text(text) => hasher.0.update(text.as_bytes()),
        Arguments::Value(value) => canonical(value, &mut hasher),
    }
    hasher.0.finalize().into()
}

/// Writes `value`'s canonical text into `out`.
fn canonical(value: &Value, out: &mut Hasher) {
    match value {
        Value::Object(map) => {
            let mut members: Vec<_> = map.iter().collect();
            members.sort_unstable_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
            out.0.update(b"{");
            for (i, (key, member)) in members.into_iter().enumerate() {
                if i > 0 {
                    out.0.update(b",");
                }
                write_json(out, key);
                out.0.update(b":");
                canonical(member, out);
            }
            out.0.update(b"}");
        }
        Value::Array(items) => {
            out.0.update(b"[");
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.0.update(b",");
                }
                canonical(item, out);
            }
            out.0.update(b"]");
        }
        scalar => write_json(out, scalar),
    }
}

/// A string or scalar as serde_json writes it (writing into a hasher cannot fail).
fn write_json<T: serde::Serialize + ?Sized>(out: &mut Hasher, value: &T) {
    let _ = serde_json::to_writer(&mut *out, value);
}

/// A digest as 64 lowercase hex digits.
pub(crate) fn hex(digest: &Digest) -> String {
    String::from_utf8(hex_digits(digest).to_vec()).unwrap_or_default()
}

/// A digest's 64 lowercase hex digits, on the stack (the JSON form writes them without a
/// `String` per call).
pub(crate) fn hex_digits(digest: &Digest) -> [u8; 64] {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut text = [0; 64];
    for (pair, byte) in text.chunks_exact_mut(2).zip(digest) {
        pair[0] = DIGITS[usize::from(byte >> 4)];
        pair[1] = DIGITS[usize::from(byte & 15)];
    }
    text
}

/// Whether `text` is the hex form of `digest` (upper or lower case), compared digit by digit
/// without building the hex text.
pub(crate) fn matches(digest: &Digest, text: &str) -> bool {
    fn value(digit: u8) -> Option<u8> {
        match digit {
            b'0'..=b'9' => Some(digit - b'0'),
            b'a'..=b'f' => Some(digit - b'a' + 10),
            b'A'..=b'F' => Some(digit - b'A' + 10),
            _ => None,
        }
    }
    text.len() == 64
        && text
            .as_bytes()
            .chunks_exact(2)
            .zip(digest)
            .all(|(pair, byte)| value(pair[0]).zip(value(pair[1])) == Some((byte >> 4, byte & 15)))
}

/// serde_json writes into the hasher through this.
struct Hasher(Sha256);

impl io::Write for &mut Hasher {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.0.update(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_value_digest_ignores_key_order_and_equals_its_sorted_compact_text() {
        let a = of(&Arguments::Value(
            json!({"b": [1, {"d": "x", "c": null}], "a": 1.5}),
        ));
        let b = of(&Arguments::Value(
            json!({"a": 1.5, "b": [1, {"c": null, "d": "x"}]}),
        ));
        let text = of(&Arguments::Text(
            r#"{"a":1.5,"b":[1,{"c":null,"d":"x"}]}"#.into(),
        ));
        assert_eq!((a, a), (b, text));
        assert_ne!(a, of(&Arguments::Value(json!({"a": 1.5}))));
        assert_eq!(of(&Arguments::Absent), of(&Arguments::Text("{}".into())));
        // SHA-256("{}"), as `printf '{}' | sha256sum` gives it.
        assert_eq!(
            hex(&of(&Arguments::Absent)),
            "44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a"
        );
        assert!(matches(&a, &hex(&a).to_uppercase()));
        assert!(!matches(&a, &hex(&[0; 32])));
        let mut other = hex(&a).into_bytes();
        other[63] = if other[63] == b'0' { b'1' } else { b'0' };
        assert!(!matches(&a, std::str::from_utf8(&other).unwrap()));
        assert!(!matches(&a, &hex(&a)[..62]));
        assert!(!matches(&a, &format!("{}zz", &hex(&a)[..62])));
    }
}
