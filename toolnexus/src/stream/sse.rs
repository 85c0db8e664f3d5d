//! Server-sent events framing (the WHATWG "event stream" format), as every provider streams.
//!
//! Bytes arrive in chunks cut anywhere, even inside a line or a UTF-8 character. Lines end with
//! `\n`, `\r\n` or `\r`; a line starting with `:` is a comment (`: ping`); `data:` lines of one
//! event are joined with `\n`; a blank line ends the event. Only `data` matters here: every
//! provider's event JSON names its own type, so the `event:` field adds nothing (`id` and
//! `retry` are for reconnecting browsers). Memory is bounded: a line or an event longer
//! than the decoder's bound is an error, and nothing past it is buffered.

/// One event's `data`, raw bytes: the JSON parser checks their UTF-8.
#[derive(Debug)]
pub(crate) struct SseEvent<'b> {
    pub(crate) data: &'b [u8],
}

/// The stream holds an event (or a line) longer than the bound.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct TooLarge;

/// An incremental SSE decoder.
#[derive(Debug)]
pub(crate) struct Decoder {
    /// The bytes of an unfinished line, carried to the next chunk.
    line: Vec<u8>,
    /// The current event's `data`, lines joined with `\n`.
    data: Vec<u8>,
    /// Whether the current event has a `data` field at all (an empty one counts).
    has_data: bool,
    /// The last chunk ended with `\r`: a `\n` starting the next one belongs to that line end.
    after_cr: bool,
    /// Nothing has been read yet: a UTF-8 byte order mark is skipped.
    at_start: bool,
    max: usize,
}

impl Decoder {
    /// A decoder refusing lines and events longer than `max` bytes.
    pub(crate) fn new(max: usize) -> Self {
        Self {
            line: Vec::new(),
            data: Vec::new(),
            has_data: false,
            after_cr: false,
            at_start: true,
            max,
        }
    }

    /// Reads `chunk`, calling `on_event` for every event it completes, in order. After
    /// [`TooLarge`] the decoder must not be fed again.
    pub(crate) fn feed(
        &mut self,
        mut chunk: &[u8],
        on_event: &mut dyn FnMut(SseEvent<'_>),
    ) -> Result<(), TooLarge> {
        if self.at_start && !chunk.is_empty() {
            // A byte order mark may itself be cut; only a whole one is skipped.
            let bom = b"\xEF\xBB\xBF";
            let have = self.line.len();
            let wanted = (bom.len() - have).min(chunk.len());
            if bom[have..have + wanted] == chunk[..wanted] {
                if have + wanted == bom.len() {
                    self.line.clear();
                    self.at_start = false;
                } else {
                    self.line.extend_from_slice(&chunk[..wanted]);
                }
                chunk = &chunk[wanted..];
            } else {
                self.at_start = false;
                // Bytes held as a possible BOM prefix were ordinary bytes after all.
            }
            if self.at_start {
                return Ok(());
            }
        }
        if self.after_cr {
            self.after_cr = false;
            if let Some(rest) = chunk.strip_prefix(b"\n") {
                chunk = rest;
            }
        }
        while !chunk.is_empty() {
            let Some(end) = memchr::memchr2(b'\n', b'\r', chunk) else {
                if self.line.len() + chunk.len() > self.max {
                    return Err(TooLarge);
                }
                self.line.extend_from_slice(chunk);
                return Ok(());
            };
            let terminator = chunk[end];
            let mut next = end + 1;
            if terminator == b'\r' {
                match chunk.get(next) {
                    Some(b'\n') => next += 1,
                    Some(_) => {}
                    None => self.after_cr = true,
                }
            }
            if self.line.is_empty() {
                self.line_done(&chunk[..end], on_event)?;
            } else {
                if self.line.len() + end > self.max {
                    return Err(TooLarge);
                }
                let mut line = std::mem::take(&mut self.line);
                line.extend_from_slice(&chunk[..end]);
                let result = self.line_done(&line, on_event);
                line.clear();
                self.line = line;
                result?;
            }
            chunk = &chunk[next..];
        }
        Ok(())
    }

    fn line_done(
        &mut self,
        line: &[u8],
        on_event: &mut dyn FnMut(SseEvent<'_>),
    ) -> Result<(), TooLarge> {
        if line.is_empty() {
            if self.has_data {
                on_event(SseEvent { data: &self.data });
            }
            self.data.clear();
            self.has_data = false;
            return Ok(());
        }
        let (field, value) = match line.iter().position(|&b| b == b':') {
            Some(0) => return Ok(()), // a comment
            Some(colon) => {
                let value = &line[colon + 1..];
                (&line[..colon], value.strip_prefix(b" ").unwrap_or(value))
            }
            None => (line, &b""[..]),
        };
        if field == b"data" {
            {
                let added = value.len() + usize::from(self.has_data);
                if self.data.len() + added > self.max {
                    return Err(TooLarge);
                }
                if self.has_data {
                    self.data.push(b'\n');
                }
                self.data.extend_from_slice(value);
                self.has_data = true;
            }
        }
        Ok(())
    }

    /// Whether bytes of an unfinished event are held. A body that stops there was cut off; its
    /// last event is not dispatched (as browsers do).
    pub(crate) fn has_partial_event(&self) -> bool {
        self.has_data || !self.line.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn events(chunks: &[&[u8]]) -> Vec<String> {
        let mut decoder = Decoder::new(1 << 20);
        let mut out = Vec::new();
        for chunk in chunks {
            decoder
                .feed(chunk, &mut |e| {
                    out.push(String::from_utf8(e.data.to_vec()).unwrap())
                })
                .unwrap();
        }
        out
    }

    #[test]
    fn fields_comments_and_line_ends() {
        let body = b"\xEF\xBB\xBF: ping\r\nevent: message_start\r\ndata: {\"a\":1}\r\n\r\nid: 7\ndata:x\ndata\ndata:  y\n\n\rdata: [DONE]\r\r";
        let expected = ["{\"a\":1}", "x\n\n y", "[DONE]"];
        assert_eq!(events(&[body]), expected);
        // Cut at every byte: the same events.
        let bytes: Vec<&[u8]> = body.chunks(1).collect();
        assert_eq!(events(&bytes), expected);
        for cut in 0..body.len() {
            assert_eq!(
                events(&[&body[..cut], &body[cut..]]),
                expected,
                "cut at {cut}"
            );
        }
    }

    #[test]
    fn an_event_without_data_is_not_dispatched() {
        assert!(events(&[b"event: ping\n\n: x\n\n"]).is_empty());
        assert_eq!(events(&[b"data:\n\n"]), [""]);
    }

    #[test]
    fn a_body_cut_mid_event_leaves_it_pending() {
        let mut decoder = Decoder::new(100);
        let mut n = 0;
        decoder
            .feed(b"data: {\"a\":1}\n\ndata: {\"b\"", &mut |_| n += 1)
            .unwrap();
        assert_eq!(n, 1);
        assert!(decoder.has_partial_event());
        decoder.feed(b":2}\n", &mut |_| n += 1).unwrap();
        assert_eq!(n, 1, "no blank line yet");
        assert!(decoder.has_partial_event());
        decoder.feed(b"\n", &mut |_| n += 1).unwrap();
        assert_eq!(n, 2);
        assert!(!decoder.has_partial_event());
    }

    #[test]
    fn lines_and_events_are_bounded() {
        let mut decoder = Decoder::new(16);
        assert_eq!(
            decoder.feed(&[b'x'; 17], &mut |_| {}),
            Err(TooLarge),
            "an unfinished line"
        );
        let mut decoder = Decoder::new(16);
        assert_eq!(
            decoder.feed(b"data: 0123456789\ndata: 0123456789\n", &mut |_| {}),
            Err(TooLarge),
            "an event of several lines"
        );
        let mut decoder = Decoder::new(16);
        decoder.feed(b"data: 0123456", &mut |_| {}).unwrap();
        assert_eq!(decoder.feed(b"789abcdef", &mut |_| {}), Err(TooLarge));
    }
}
