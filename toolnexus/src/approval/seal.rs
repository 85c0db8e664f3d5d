//! The sealed form of a pending turn: its JSON text with a last member `"seal"`, an
//! HMAC-SHA-256 under the host's [`SealKey`] of a domain string and the text without the seal.
//! The text is sealed as written: verifying it needs no parse, and reading it then is the
//! unsealed reader's, over the same bytes.

use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;

use super::digest;
use crate::values::approval::ApprovalError;

/// What every seal starts with, so that no other HMAC the host makes with the same key (of
/// another format, another version) is a seal.
const DOMAIN: &[u8] = b"toolnexus sealed pending turn v2\n";

/// The member a sealed text ends with, before the 64 hex digits and `"}`.
const MEMBER: &str = ",\"seal\":\"";

/// How many bytes the seal adds at the end: the member, 64 hex digits, `"` and the `}` of the
/// object (which the unsealed text ends with too, so one byte less than that).
const TAIL: usize = MEMBER.len() + 64 + 2;

/// The host's key for [`PendingTurn::to_sealed_json`](crate::approval::PendingTurn::to_sealed_json) and
/// [`PendingTurn::from_sealed_json`](crate::approval::PendingTurn::from_sealed_json): any bytes (32
/// random ones from the host's secret store are right; HMAC-SHA-256 gains nothing past 64).
/// Its `Debug` shows no key material.
///
/// ```
/// use toolnexus::approval::SealKey;
///
/// let key = SealKey::new(b"32 random bytes from a vault....");
/// assert_eq!(format!("{key:?}"), "SealKey(..)");
/// ```
#[derive(Clone)]
pub struct SealKey(Hmac<Sha256>);

impl SealKey {
    /// A key of `bytes`.
    pub fn new(bytes: impl AsRef<[u8]>) -> Self {
        // HMAC takes a key of any length: this cannot fail.
        let mac = Hmac::<Sha256>::new_from_slice(bytes.as_ref())
            .unwrap_or_else(|_| unreachable!("HMAC takes keys of any length"));
        Self(mac)
    }

    /// The MAC of the unsealed text whose bytes before its last `}` are `body`.
    fn mac(&self, body: &[u8]) -> Hmac<Sha256> {
        let mut mac = self.0.clone();
        mac.update(DOMAIN);
        mac.update(body);
        mac.update(b"}");
        mac
    }
}

impl std::fmt::Debug for SealKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SealKey(..)")
    }
}

/// `text` (a pending turn's JSON object) sealed with `key`.
pub(super) fn seal(mut text: String, key: &SealKey) -> String {
    // `to_json` writes an object: its last byte is its `}`.
    let body = text.len().saturating_sub(1);
    let tag = key.mac(&text.as_bytes()[..body]).finalize().into_bytes();
    text.truncate(body);
    text.reserve(TAIL);
    text.push_str(MEMBER);
    text.push_str(&digest::hex(&tag));
    text.push_str("\"}");
    text
}

/// Checks the seal of `text` under `key`: `Ok` when it holds (the text is then read as it is,
/// its `seal` member included).
pub(super) fn open(text: &str, key: &SealKey) -> Result<(), ApprovalError> {
    let bytes = text.as_bytes();
    let Some(body) = bytes.len().checked_sub(TAIL) else {
        return Err(ApprovalError::BadSeal);
    };
    let (head, tail) = bytes.split_at(body);
    let Some(digits) = tail
        .strip_prefix(MEMBER.as_bytes())
        .and_then(|rest| rest.strip_suffix(b"\"}"))
    else {
        return Err(ApprovalError::BadSeal);
    };
    let Some(tag) = std::str::from_utf8(digits)
        .ok()
        .and_then(digest::parse_hex::<32>)
    else {
        return Err(ApprovalError::BadSeal);
    };
    // A constant-time comparison: how much of a tag matched does not show in the time.
    key.mac(head)
        .verify_slice(&tag)
        .map_err(|_| ApprovalError::BadSeal)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sealed_text_opens_under_its_key_only_and_not_once_edited() {
        let key = SealKey::new([1; 32]);
        let sealed = seal("{\"version\":2}".to_owned(), &key);
        assert!(sealed.starts_with("{\"version\":2,\"seal\":\""), "{sealed}");
        assert!(sealed.ends_with("\"}"));
        assert_eq!(open(&sealed, &key), Ok(()));
        assert_eq!(
            open(&sealed, &SealKey::new([2; 32])),
            Err(ApprovalError::BadSeal)
        );
        let edited = sealed.replace("2,", "3,");
        assert_eq!(open(&edited, &key), Err(ApprovalError::BadSeal));
        for cut in 0..sealed.len() {
            assert_eq!(open(&sealed[..cut], &key), Err(ApprovalError::BadSeal));
        }
        assert_eq!(
            open("{\"version\":2}", &key),
            Err(ApprovalError::BadSeal),
            "an unsealed text"
        );
    }
}
