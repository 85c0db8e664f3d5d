//! Call ids moved between dialects: the ids a dialect takes back ([`IdRule`]) and one
//! conversation's ids mapped to a target's rule ([`IdMap`]).

use std::collections::{HashMap, HashSet};
use std::fmt::Write;

/// The call ids a dialect's API takes back in a request, where a call and its result carry the
/// same id: at most so many bytes, and which characters. Read it with
/// [`Dialect::id_rule`](crate::Dialect::id_rule).
///
/// | dialect | ids taken | from |
/// |---|---|---|
/// | `OpenAiChat` | any text, up to 40 bytes | the API refuses a longer `tool_call_id` |
/// | `OpenAiResponses`, `Gemini`, `Cohere` | any text (Gemini's may be left out) | no bound documented |
/// | `Anthropic` | `[A-Za-z0-9_-]`, up to 64 | the API's pattern `^[a-zA-Z0-9_-]+$` |
/// | `Bedrock` | `[A-Za-z0-9_.:-]`, up to 64 | botocore's `ToolUseId` (`min` 1, `max` 64, its `pattern`) |
///
/// ```
/// use toolnexus::Dialect;
///
/// assert!(Dialect::Anthropic.id_rule().accepts("toolu_01A"));
/// assert!(!Dialect::Anthropic.id_rule().accepts("functions.get_weather:0"));
/// assert!(Dialect::Bedrock.id_rule().accepts("functions.get_weather:0"));
/// assert!(!Dialect::OpenAiChat.id_rule().accepts(&"x".repeat(41)));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IdRule {
    /// The fewest bytes an id may have (1 unless the API wants more).
    min_len: usize,
    /// The most bytes an id may have, where the API bounds it.
    max_len: Option<usize>,
    /// The characters an id may have beside ASCII letters and digits; `None`: any character.
    punctuation: Option<&'static str>,
}

impl IdRule {
    /// Any non-empty text, as long as it likes.
    pub const ANY: Self = Self {
        min_len: 1,
        max_len: None,
        punctuation: None,
    };

    /// Ids of at most `max_len` bytes, of any characters.
    #[must_use]
    pub const fn up_to(max_len: usize) -> Self {
        Self {
            min_len: 1,
            max_len: Some(max_len),
            punctuation: None,
        }
    }

    /// Ids of at most `max_len` bytes of ASCII letters, digits and `punctuation`.
    #[must_use]
    pub const fn word(max_len: usize, punctuation: &'static str) -> Self {
        Self {
            min_len: 1,
            max_len: Some(max_len),
            punctuation: Some(punctuation),
        }
    }

    /// Ids of `min_len` to `max_len` ASCII letters and digits (Mistral's: exactly 9). An id
    /// made for such a rule is letters and digits from a hash of the id as sent.
    ///
    /// ```
    /// use toolnexus::transcript::{IdMap, IdRule};
    ///
    /// let mistral = IdRule::alphanumeric(9, 9);
    /// assert!(mistral.accepts("D681PevKs") && !mistral.accepts("call_0"));
    /// let id = IdMap::new(mistral).call(Some("call_0"), "get_weather");
    /// assert!(mistral.accepts(&id), "{id}");
    /// ```
    #[must_use]
    pub const fn alphanumeric(min_len: usize, max_len: usize) -> Self {
        Self {
            min_len: if min_len == 0 { 1 } else { min_len },
            max_len: Some(max_len),
            punctuation: Some(""),
        }
    }

    /// The most bytes an id may have, where the API bounds it.
    #[must_use]
    pub fn max_len(&self) -> Option<usize> {
        self.max_len
    }

    /// Whether the API takes `id` back as a call's id: not empty, not too long, and only the
    /// characters it allows.
    #[must_use]
    pub fn accepts(&self, id: &str) -> bool {
        id.len() >= self.min_len.max(1)
            && self.max_len.is_none_or(|max| id.len() <= max)
            && id.chars().all(|c| self.allows(c))
    }

    fn allows(&self, c: char) -> bool {
        self.punctuation
            .is_none_or(|extra| c.is_ascii_alphanumeric() || extra.contains(c))
    }

    /// `id` with every character the rule refuses made `_`, cut to the most bytes it allows
    /// (on a character boundary).
    fn fit(&self, id: &str) -> String {
        let mut out: String = id
            .chars()
            .map(|c| if self.allows(c) { c } else { '_' })
            .collect();
        if let Some(max) = self.max_len {
            let mut end = out.len().min(max);
            while !out.is_char_boundary(end) {
                end -= 1;
            }
            out.truncate(end);
        }
        out
    }
}

/// The call ids of one conversation, moved to a target's [`IdRule`]: every call gets an id the
/// target takes, no two calls get the same one, and each result gets the id of its call.
///
/// An id the rule takes and no earlier call has is kept as it is, so a conversation moved to
/// its own dialect keeps its ids. Any other is made to fit: each refused character becomes
/// `_`, and where that changes it, cuts it, or meets an id already given, a short hash of the
/// id as sent is put at the end (the same id always gets the same replacement, whatever ran
/// before in another map). A call without an id (older Gemini models) gets one made from its
/// place and its tool's name (`call_0_get_weather`).
///
/// Calls are given in conversation order, each result after its call: a source that reuses an
/// id (`call_0` in every turn) gets a new id for each call, and a result goes with the latest
/// call that had its id.
///
/// ```
/// use toolnexus::transcript::IdMap;
/// use toolnexus::Dialect;
///
/// let mut ids = IdMap::new(Dialect::Anthropic.id_rule());
/// assert_eq!(ids.call(Some("toolu_01A"), "search"), "toolu_01A"); // fits: kept
/// let kimi = ids.call(Some("functions.get_weather:0"), "get_weather");
/// assert!(kimi.starts_with("functions_get_weather_0_"));
/// assert_eq!(ids.result("functions.get_weather:0"), Some(kimi.as_str()));
/// assert_eq!(ids.call(None, "get_weather"), "call_2_get_weather");
/// assert_eq!(ids.result("never_called"), None);
/// ```
#[derive(Debug, Clone)]
pub struct IdMap {
    rule: IdRule,
    /// Each id as sent, to the id its latest call got.
    given: HashMap<String, String>,
    /// Every id given so far.
    taken: HashSet<String>,
    /// How many calls were given ids.
    calls: usize,
}

/// The bytes of the hash put at the end of a changed id: `_` and 8 hex digits.
const SUFFIX: usize = 9;

impl IdMap {
    /// A map to `rule` (a dialect's [`IdRule`]).
    #[must_use]
    pub fn new(rule: IdRule) -> Self {
        Self {
            rule,
            given: HashMap::new(),
            taken: HashSet::new(),
            calls: 0,
        }
    }

    /// The id the next call gets, from its id as sent (`None` or empty: it had none) and its
    /// tool's name.
    pub fn call(&mut self, id: Option<&str>, name: &str) -> String {
        let place = self.calls;
        self.calls += 1;
        let source = id.filter(|id| !id.is_empty());
        let id = match source {
            Some(id) if self.rule.accepts(id) && !self.taken.contains(id) => id.to_owned(),
            Some(id) => self.fitted(id),
            None => {
                let made = format!("call_{place}_{name}");
                if self.rule.accepts(&made) && !self.taken.contains(&made) {
                    made
                } else {
                    self.fitted(&made)
                }
            }
        };
        self.taken.insert(id.clone());
        if let Some(source) = source {
            self.given.insert(source.to_owned(), id.clone());
        }
        id
    }

    /// The id the latest call sent as `id` got, for that call's result; `None` when no call
    /// had it (a result without its call).
    #[must_use]
    pub fn result(&self, id: &str) -> Option<&str> {
        self.given.get(id).map(String::as_str)
    }

    /// `text` (which the rule refuses, or an earlier call has) made to fit the rule, with a hash
    /// of it at its end, and a counter in the hash should that too be taken.
    fn fitted(&self, text: &str) -> String {
        if !self.rule.allows('_') {
            return self.hashed(text);
        }
        let room = self
            .rule
            .max_len
            .map_or(usize::MAX, |max| max.saturating_sub(SUFFIX));
        let mut stem = self.rule.fit(text);
        if stem.len() > room {
            let mut end = room;
            while !stem.is_char_boundary(end) {
                end -= 1;
            }
            stem.truncate(end);
        }
        for round in 0u32.. {
            let mut id = stem.clone();
            let _ = write!(id, "_{:08x}", hash(text, round));
            if !self.taken.contains(&id) {
                return id;
            }
        }
        unreachable!("a u32 of rounds finds a free id among fewer calls")
    }
}

impl IdMap {
    /// An id of letters and digits only, for a rule that takes no `_`: base 62 of hashes of
    /// `text` (and a round, should the id be taken), as long as the rule wants (9 unless it
    /// says otherwise).
    fn hashed(&self, text: &str) -> String {
        const DIGITS: &[u8] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
        let len = 9usize
            .max(self.rule.min_len)
            .min(self.rule.max_len.unwrap_or(usize::MAX))
            .max(1);
        for round in 0u32.. {
            let mut id = String::with_capacity(len);
            let mut part = 0u32;
            while id.len() < len {
                let mut value = hash(text, round.wrapping_mul(31).wrapping_add(part));
                for _ in 0..5 {
                    if id.len() == len {
                        break;
                    }
                    id.push(DIGITS[(value % 62) as usize] as char);
                    value /= 62;
                }
                part += 1;
            }
            if !self.taken.contains(&id) {
                return id;
            }
        }
        unreachable!("a u32 of rounds finds a free id among fewer calls")
    }
}

/// FNV-1a (32 bits) of `text` and `round`: the same id gets the same suffix in every map and
/// every run (a `HashMap`'s hasher is seeded per process).
fn hash(text: &str, round: u32) -> u32 {
    let mut hash: u32 = 0x811c_9dc5;
    for byte in text.bytes().chain(round.to_le_bytes()) {
        hash ^= u32::from(byte);
        hash = hash.wrapping_mul(0x0100_0193);
    }
    hash
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_changed_id_keeps_a_readable_stem_and_fits() {
        let rule = IdRule::word(64, "_-");
        let mut ids = IdMap::new(rule);
        let long = "a".repeat(100);
        let got = ids.call(Some(&long), "t");
        assert_eq!(got.len(), 64);
        assert!(got.starts_with(&"a".repeat(55)));
        assert!(rule.accepts(&got));
        // "a.b" and "a_b" fit to the same text: the second gets the suffix.
        let first = ids.call(Some("a_b"), "t");
        let second = ids.call(Some("a.b"), "t");
        assert_eq!(first, "a_b");
        assert_ne!(first, second);
        assert!(second.starts_with("a_b_") && rule.accepts(&second));
    }

    #[test]
    fn a_reused_id_gets_a_new_id_per_call_and_its_result_the_latest() {
        let mut ids = IdMap::new(IdRule::up_to(40));
        let one = ids.call(Some("call_0"), "a");
        let two = ids.call(Some("call_0"), "b");
        assert_eq!(one, "call_0");
        assert_ne!(one, two);
        assert_eq!(ids.result("call_0"), Some(two.as_str()));
    }

    #[test]
    fn multibyte_text_is_cut_on_a_character_boundary() {
        let rule = IdRule::up_to(10);
        let mut ids = IdMap::new(rule);
        let got = ids.call(Some("ééééééééééé"), "t");
        assert!(rule.accepts(&got), "{got}");
    }
}
