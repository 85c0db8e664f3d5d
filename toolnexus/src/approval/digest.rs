//! The digest an answer is bound to: SHA-256 over what identifies one call of one pending turn
//! (`bind`): the turn's nonce, the call's key, its tool name and kind, and its arguments'
//! canonical text, each but the last preceded by its length, so that no two different calls
//! (of one turn or of two) write the same bytes.
//!
//! The canonical argument text: `{}` for absent arguments; JSON text (OpenAI, Cohere) exactly as the
//! model sent it; a JSON value (Anthropic, Gemini, Bedrock) written compactly with every object's
//! keys sorted (by their UTF-8 bytes), strings and numbers as serde_json writes them. Sorted keys
//! keep the digest of a value the same after a store that reorders keys (PostgreSQL `jsonb`,
//! say).

use std::io;

use serde_json::Value;
use sha2::{Digest as _, Sha256};

use crate::values::call::{Arguments, CallKind, ToolCall};

/// A SHA-256 digest of a call's binding.
pub(crate) type Digest = [u8; 32];

/// A pending turn's nonce: 16 random bytes, made when the turn is.
pub(crate) type Nonce = [u8; 16];

/// What every binding starts with: the form's name and version, so that no other SHA-256 input
/// of this crate (or of version 1, which bound the arguments alone) collides with one.
const DOMAIN: &[u8] = b"toolnexus pending call v2\n";

/// The digest that binds an answer to the call `key` of the pending turn `nonce`: its tool
/// name, its kind and its arguments.
pub(crate) fn bind(nonce: &Nonce, key: &str, call: &ToolCall) -> Digest {
    let mut hasher = Hasher(Sha256::new());
    hasher.0.update(DOMAIN);
    hasher.0.update(nonce);
    let framed = |hasher: &mut Hasher, part: &[u8]| {
        hasher.0.update((part.len() as u64).to_be_bytes());
        hasher.0.update(part);
    };
    framed(&mut hasher, key.as_bytes());
    framed(&mut hasher, call.name.as_bytes());
    match &call.kind {
        CallKind::Function => hasher.0.update([0]),
        CallKind::Unsupported(kind) => {
            hasher.0.update([1]);
            framed(&mut hasher, kind.as_bytes());
        }
    }
    match &call.arguments {
        Arguments::Absent => hasher.0.update(b"{}"),
        Arguments::Text(text) => hasher.0.update(text.as_bytes()),
        Arguments::Value(value) => canonical(value, &mut hasher),
    }
    hasher.0.finalize().into()
}

/// A fresh nonce from the operating system's random source. Should that source fail (it does
/// not on the platforms Rust supports once the process runs), the nonce mixes the clock and a
/// process-wide counter instead, so that two turns still never share one.
pub(crate) fn nonce() -> Nonce {
    let mut nonce = [0; 16];
    if getrandom::fill(&mut nonce).is_err() {
        use std::sync::atomic::{AtomicU64, Ordering};
        static COUNTER: AtomicU64 = AtomicU64::new(0);
        let count = COUNTER.fetch_add(1, Ordering::Relaxed);
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let mut hasher = Sha256::new();
        hasher.update(count.to_be_bytes());
        hasher.update(now.to_be_bytes());
        hasher.update(std::process::id().to_be_bytes());
        nonce.copy_from_slice(&hasher.finalize()[..16]);
    }
    nonce
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

/// Bytes as lowercase hex digits.
pub(crate) fn hex(bytes: &[u8]) -> String {
    let mut text = String::with_capacity(2 * bytes.len());
    for byte in bytes {
        let [high, low] = hex_pair(*byte);
        text.push(char::from(high));
        text.push(char::from(low));
    }
    text
}

/// A digest's 64 lowercase hex digits, on the stack (the JSON form writes them without a
/// `String` per call).
pub(crate) fn hex_digits(digest: &Digest) -> [u8; 64] {
    let mut text = [0; 64];
    for (pair, byte) in text.chunks_exact_mut(2).zip(digest) {
        pair.copy_from_slice(&hex_pair(*byte));
    }
    text
}

fn hex_pair(byte: u8) -> [u8; 2] {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    [
        DIGITS[usize::from(byte >> 4)],
        DIGITS[usize::from(byte & 15)],
    ]
}

/// The bytes whose hex form (upper or lower case) `text` is, when it is that of exactly `N`.
pub(crate) fn parse_hex<const N: usize>(text: &str) -> Option<[u8; N]> {
    fn value(digit: u8) -> Option<u8> {
        match digit {
            b'0'..=b'9' => Some(digit - b'0'),
            b'a'..=b'f' => Some(digit - b'a' + 10),
            b'A'..=b'F' => Some(digit - b'A' + 10),
            _ => None,
        }
    }
    if text.len() != 2 * N {
        return None;
    }
    let mut bytes = [0; N];
    for (byte, pair) in bytes.iter_mut().zip(text.as_bytes().chunks_exact(2)) {
        *byte = value(pair[0])? << 4 | value(pair[1])?;
    }
    Some(bytes)
}

/// Whether `text` is the hex form of `digest` (upper or lower case), compared digit by digit
/// without building the hex text.
pub(crate) fn matches(digest: &Digest, text: &str) -> bool {
    parse_hex::<32>(text).is_some_and(|bytes| bytes == *digest)
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

    fn call(name: &str, arguments: Arguments) -> ToolCall {
        ToolCall::new("call_1", name, arguments)
    }

    #[test]
    fn a_value_binding_ignores_key_order_and_equals_its_sorted_compact_text() {
        let nonce = [7; 16];
        let of = |arguments| bind(&nonce, "call_1", &call("rm", arguments));
        let a = of(Arguments::Value(
            json!({"b": [1, {"d": "x", "c": null}], "a": 1.5}),
        ));
        let b = of(Arguments::Value(
            json!({"a": 1.5, "b": [1, {"c": null, "d": "x"}]}),
        ));
        let text = of(Arguments::Text(
            r#"{"a":1.5,"b":[1,{"c":null,"d":"x"}]}"#.into(),
        ));
        assert_eq!((a, a), (b, text));
        assert_ne!(a, of(Arguments::Value(json!({"a": 1.5}))));
        assert_eq!(of(Arguments::Absent), of(Arguments::Text("{}".into())));
        assert!(matches(&a, &hex(&a).to_uppercase()));
        assert!(!matches(&a, &hex(&[0; 32])));
        let mut other = hex(&a).into_bytes();
        other[63] = if other[63] == b'0' { b'1' } else { b'0' };
        assert!(!matches(&a, std::str::from_utf8(&other).unwrap()));
        assert!(!matches(&a, &hex(&a)[..62]));
        assert!(!matches(&a, &format!("{}zz", &hex(&a)[..62])));
    }

    #[test]
    fn the_turn_the_key_the_name_and_the_kind_each_change_the_binding() {
        let base = call("rm", Arguments::Absent);
        let at = |nonce: u8, key: &str, call: &ToolCall| bind(&[nonce; 16], key, call);
        let same = at(1, "#0", &base);
        assert_eq!(same, at(1, "#0", &base));
        assert_ne!(same, at(2, "#0", &base), "another turn");
        assert_ne!(same, at(1, "#1", &base), "another call");
        assert_ne!(
            same,
            at(1, "#0", &call("wipe", Arguments::Absent)),
            "another tool"
        );
        let mut custom = base.clone();
        custom.kind = CallKind::Unsupported("custom".into());
        assert_ne!(same, at(1, "#0", &custom), "another kind");
        // Lengths frame each part: moving bytes between the key and the name changes it.
        assert_ne!(
            at(1, "ab", &call("c", Arguments::Absent)),
            at(1, "a", &call("bc", Arguments::Absent))
        );
    }

    #[test]
    fn nonces_differ_and_hex_reads_back() {
        let (a, b) = (nonce(), nonce());
        assert_ne!(a, b);
        assert_eq!(parse_hex::<16>(&hex(&a)), Some(a));
        assert_eq!(parse_hex::<16>(&hex(&a)[..30]), None);
        assert_eq!(parse_hex::<16>("zz".repeat(16).as_str()), None);
    }
}
