//! The terms of a text for [`Bm25`](super::Bm25): words split at anything that is not a
//! letter or a digit and at a lower-to-upper case change (`getWeather`, `get_weather` and
//! `get weather` are the same two terms), lower-cased, a plural's `s` taken off, and the
//! commonest English words left out.

/// Words too common to tell tools apart.
const STOP: &[&str] = &[
    "a", "an", "and", "are", "as", "at", "be", "by", "can", "do", "for", "from", "how", "i", "if",
    "in", "into", "is", "it", "its", "me", "my", "of", "on", "or", "please", "that", "the", "this",
    "to", "was", "what", "when", "where", "which", "who", "will", "with", "you", "your",
];

/// Calls `each` with every term of `text`, in order.
pub(super) fn each_term(text: &str, mut each: impl FnMut(String)) {
    let mut word = String::new();
    let mut previous_lower = false;
    let mut flush = |word: &mut String| {
        if let Some(term) = term(word) {
            each(term);
        }
        word.clear();
    };
    for c in text.chars() {
        if c.is_alphanumeric() {
            if c.is_uppercase() && previous_lower {
                flush(&mut word);
            }
            previous_lower = c.is_lowercase() || c.is_ascii_digit();
            word.extend(c.to_lowercase());
        } else {
            previous_lower = false;
            flush(&mut word);
        }
    }
    flush(&mut word);
}

/// `word` (lower-cased) as a term: `None` for a stop word or a single letter.
fn term(word: &str) -> Option<String> {
    if word.chars().count() < 2 || STOP.contains(&word) {
        return None;
    }
    // A plural's `s` (files, emails), not a word's own (class, status, this).
    let stem = match word.strip_suffix('s') {
        Some(stem) if stem.len() >= 3 && !stem.ends_with(['s', 'u', 'i']) => stem,
        _ => word,
    };
    Some(stem.to_owned())
}

#[cfg(test)]
mod tests {
    use super::each_term;

    fn terms(text: &str) -> Vec<String> {
        let mut out = Vec::new();
        each_term(text, |t| out.push(t));
        out
    }

    #[test]
    fn words_split_at_punctuation_and_case_and_lose_plurals_and_stop_words() {
        assert_eq!(terms("getWeather"), ["get", "weather"]);
        assert_eq!(terms("get_weather"), ["get", "weather"]);
        assert_eq!(terms("What's the weather in Paris?"), ["weather", "paris"]);
        assert_eq!(
            terms("Lists files in a directory"),
            ["list", "file", "directory"]
        );
        assert_eq!(terms("status of the class"), ["status", "class"]);
        assert_eq!(terms("HTTPServer v2 s3"), ["httpserver", "v2", "s3"]);
        assert_eq!(terms("Größe ÄNDERN"), ["größe", "ändern"]);
        assert!(terms("").is_empty());
    }
}
