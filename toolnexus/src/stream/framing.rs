//! Telling an event stream from a body that is none, by its first line: an HTML error page from
//! a proxy, a JSON error body, a whole (unstreamed) response, Gemini's JSON array, plain text.
//! Such a body is kept (up to [`KEPT`] bytes) to say what it was: the provider's error when it is
//! one, else [`ResponseError::NotEventStream`] with its first bytes.

use serde_json::Value;

use crate::response::Reader;
use crate::values::text::{neutralise, shorten};
use crate::{Dialect, ResponseError};

/// The most of a body that is not an event stream kept to read it as JSON.
const KEPT: usize = 64 * 1024;

/// Up to this many bytes are held to find the first line's end before deciding.
const FIRST_LINE: usize = 1024;

/// The body's characters quoted in [`ResponseError::NotEventStream`].
const QUOTED: usize = 200;

/// Where the reading of the body stands.
#[derive(Debug)]
pub(super) enum Framing {
    /// Nothing but blank space (and a byte order mark) has come yet, or the first line is not
    /// complete: the bytes so far.
    Checking(Vec<u8>),
    /// The body is an event stream: the SSE decoder reads it.
    Events,
    /// The body is not an event stream: its first bytes.
    NotEvents(Vec<u8>),
}

/// What [`Framing::feed`] decided about a chunk.
pub(super) enum Fed {
    /// Nothing for the SSE decoder yet.
    Held,
    /// The body is an event stream: these bytes (everything held, then the chunk) go to the
    /// decoder.
    Events(Vec<u8>),
    /// The chunk goes to the decoder as it is.
    Pass,
}

impl Framing {
    pub(super) fn new() -> Self {
        Self::Checking(Vec::new())
    }

    pub(super) fn feed(&mut self, chunk: &[u8]) -> Fed {
        match self {
            Self::Events => Fed::Pass,
            Self::NotEvents(kept) => {
                let room = KEPT.saturating_sub(kept.len());
                kept.extend_from_slice(&chunk[..room.min(chunk.len())]);
                Fed::Held
            }
            Self::Checking(held) => {
                held.extend_from_slice(chunk);
                if held.len() > FIRST_LINE && skip_blank(held).is_empty() {
                    // Blank lines before the first event mean nothing; only what follows counts.
                    held.clear();
                }
                match first_line(held) {
                    None if skip_blank(held).len() < FIRST_LINE => Fed::Held,
                    Some(true) => {
                        let held = std::mem::take(held);
                        *self = Self::Events;
                        Fed::Events(held)
                    }
                    _ => {
                        let mut held = std::mem::take(held);
                        held.truncate(KEPT);
                        *self = Self::NotEvents(held);
                        Fed::Held
                    }
                }
            }
        }
    }

    /// The body is over: the error of a body that was no event stream; `None` for an event
    /// stream or a body of blank space (which ends as dropped).
    pub(super) fn error(&self, dialect: Dialect) -> Option<ResponseError> {
        let body = match self {
            Self::Events => return None,
            Self::Checking(held) => {
                let start = skip_blank(held);
                if start.is_empty() || first_line_is_field(start) {
                    return None;
                }
                held
            }
            Self::NotEvents(kept) => kept,
        };
        let read = Reader { dialect };
        if let Ok(value) = serde_json::from_slice::<Value>(skip_blank(body)) {
            if let Err(error @ ResponseError::Provider { .. }) = read.root(&value) {
                return Some(error);
            }
        }
        let body = skip_blank(body);
        let text = String::from_utf8_lossy(&body[..body.len().min(4 * QUOTED)]);
        Some(ResponseError::NotEventStream {
            ran: Default::default(),
            dialect,
            start: neutralise(&shorten(&text, QUOTED)).into_owned(),
        })
    }
}

/// The body past a byte order mark and blank space.
fn skip_blank(body: &[u8]) -> &[u8] {
    let body = body.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(body);
    let start = body
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(body.len());
    &body[start..]
}

/// Whether the first line held so far is an event stream's (`Some(true)`), is not
/// (`Some(false)`), or cannot be told yet (`None`).
fn first_line(held: &[u8]) -> Option<bool> {
    let line = skip_blank(held);
    let end = line
        .iter()
        .position(|&b| matches!(b, b':' | b'\n' | b'\r'))?;
    Some(first_line_is_field(&line[..=end]))
}

/// Whether `line` starts with a comment or a field every provider's stream uses.
fn first_line_is_field(line: &[u8]) -> bool {
    let name_end = line
        .iter()
        .position(|&b| matches!(b, b':' | b'\n' | b'\r'))
        .unwrap_or(line.len());
    matches!(
        &line[..name_end],
        b"" | b"data" | b"event" | b"id" | b"retry"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decide(body: &[u8]) -> (bool, Option<ResponseError>) {
        let mut framing = Framing::new();
        let mut events = false;
        for byte in body.chunks(1) {
            events |= matches!(framing.feed(byte), Fed::Events(_));
        }
        (events, framing.error(Dialect::Anthropic))
    }

    #[test]
    fn event_streams_are_told_from_other_bodies_by_their_first_line() {
        for body in [
            &b"data: {}\n\n"[..],
            b"\xEF\xBB\xBF\r\n: ping\n\ndata: {}\n\n",
            b"event: message_start\ndata: {}\n\n",
            b"id: 1\n",
            b"retry: 10\n",
        ] {
            assert_eq!(
                decide(body),
                (true, None),
                "{:?}",
                String::from_utf8_lossy(body)
            );
        }
        let (events, error) = decide(b"<html>\n<h1>502 Bad Gateway</h1>\n</html>");
        assert!(!events);
        assert_eq!(
            error.unwrap().to_string(),
            "the body is not a Anthropic Messages event stream (it starts with `<html>\\n<h1>502 Bad Gateway</h1>\\n</html>`)"
        );
        // A JSON error body is the provider's error, with its kind.
        let (_, error) = decide(
            br#"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#,
        );
        assert!(matches!(
            error,
            Some(ResponseError::Provider { message, code: Some(code), retry: true, .. })
                if message == "Overloaded" && code == "overloaded_error"
        ));
        // Plain text without a line end: decided when the body is over.
        let (_, error) = decide(b"Bad Gateway");
        assert!(
            matches!(error, Some(ResponseError::NotEventStream { start, .. }) if start == "Bad Gateway")
        );
        // Blank space only: not this module's to judge (the stream ends as dropped).
        assert_eq!(decide(b" \n\n").1, None);
        // However much blank space comes first, the first line decides, in any chunks.
        let mut body = vec![b'\n'; 3000];
        body.extend_from_slice(b"data: {}\n\n");
        assert_eq!(decide(&body), (true, None));
    }

    #[test]
    fn what_is_kept_of_a_body_that_is_no_stream_is_bounded() {
        let mut framing = Framing::new();
        framing.feed(b"<");
        for _ in 0..100 {
            framing.feed(&[b'x'; 4096]);
        }
        let Framing::NotEvents(kept) = &framing else {
            panic!("{framing:?}");
        };
        assert_eq!(kept.len(), KEPT);
        let Some(ResponseError::NotEventStream { start, .. }) = framing.error(Dialect::Gemini)
        else {
            panic!()
        };
        assert_eq!(
            start.chars().count(),
            QUOTED + 1,
            "200 characters and the ellipsis"
        );
    }
}
