//! The JSON Pointer a local `$ref` holds (`#`, `#/$defs/Name`, percent-decoded), and the schema
//! it points at.

use std::borrow::Cow;

use serde_json::Value;

/// The decoded JSON Pointer of a reference inside this schema (`""` for `#`), or `None` when
/// the reference is not a `#` fragment holding a pointer.
pub(crate) fn pointer(reference: &str) -> Option<Cow<'_, str>> {
    let fragment = reference.strip_prefix('#')?;
    if !(fragment.is_empty() || fragment.starts_with('/')) {
        return None;
    }
    if !fragment.contains('%') {
        return Some(Cow::Borrowed(fragment));
    }
    // A URI fragment percent-encodes what it cannot hold (`#/$defs/My%20Type`).
    let bytes = fragment.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        match (bytes[i], bytes.get(i + 1), bytes.get(i + 2)) {
            (b'%', Some(&h), Some(&l)) if hex(h).is_some() && hex(l).is_some() => {
                out.push((hex(h)? * 16 + hex(l)?) as u8);
                i += 3;
            }
            (b, _, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8(out).ok().map(Cow::Owned)
}

/// The schema a reference points at in `root`, if it is inside `root`.
pub(crate) fn resolve<'a>(root: &'a Value, reference: &str) -> Option<&'a Value> {
    let p = pointer(reference)?;
    if p.is_empty() {
        Some(root)
    } else {
        root.pointer(&p)
    }
}
