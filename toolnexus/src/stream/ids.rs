//! Repeated call ids in a stream, judged by position as a whole response judges them
//! ([`Toolkit::respond`](crate::Toolkit::respond)): the first call of an id BY POSITION runs,
//! each later one is answered "duplicate call id" without running.
//!
//! A stream's calls may complete out of order (OpenAI Chat's `index`es and Responses'
//! `output_index`es interleave), so the order calls complete in says nothing. What the stream
//! knows instead is each place's id, as soon as the format names the call (most name it when
//! it begins, `Signal::Began`; every call is named once it is complete). A complete call is
//! judged once no earlier place can still turn out to carry its id: an earlier place known to
//! carry it makes it a repeat at once; every earlier place known and none carrying it makes it
//! none; else it waits (at the latest for the end of the stream, which judges the whole
//! response's calls by position).

/// What the stream knows of each place's id.
#[derive(Debug, Default)]
pub(super) struct Ids {
    /// By place among the response's calls (past its end: nothing known yet).
    known: Vec<Known>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Known {
    /// Not named yet: it may still carry any id.
    Unknown,
    /// Complete without an id (Gemini may send none): it repeats nothing, nothing repeats it.
    Absent,
    Id(String),
}

impl Ids {
    /// The call at `position` carries `id` (`None`: it is complete and has none). Whether that
    /// told something new (a waiting call may then be judged).
    pub(super) fn know(&mut self, position: usize, id: Option<&str>) -> bool {
        if self.known.len() <= position {
            self.known.resize(position + 1, Known::Unknown);
        }
        let slot = &mut self.known[position];
        let same = match (&*slot, id) {
            (Known::Id(have), Some(id)) => have == id,
            (Known::Absent, None) => true,
            _ => false,
        };
        if !same {
            *slot = id.map_or(Known::Absent, |id| Known::Id(id.to_owned()));
        }
        !same
    }

    /// Whether the call at `position`, carrying `id`, repeats an earlier place's id: `Some`
    /// once that is settled, `None` while an earlier place is not named yet (and none named
    /// carries `id`).
    pub(super) fn repeats(&self, position: usize, id: Option<&str>) -> Option<bool> {
        let Some(id) = id else {
            return Some(false);
        };
        let earlier = &self.known[..position.min(self.known.len())];
        let mut open = earlier.len() < position;
        for known in earlier {
            match known {
                Known::Id(other) if other == id => return Some(true),
                Known::Unknown => open = true,
                Known::Id(_) | Known::Absent => {}
            }
        }
        (!open).then_some(false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_call_is_judged_once_every_earlier_place_is_named() {
        let mut ids = Ids::default();
        // Place 1 completes first: place 0 is not named yet.
        assert!(ids.know(1, Some("a")));
        assert_eq!(ids.repeats(1, Some("a")), None);
        // Place 0 is named `a`: place 1 repeats it.
        assert!(ids.know(0, Some("a")));
        assert_eq!(ids.repeats(1, Some("a")), Some(true));
        assert_eq!(ids.repeats(0, Some("a")), Some(false), "the first by place");
        assert!(!ids.know(0, Some("a")), "nothing new");
        // An earlier place carrying the id settles it even while another is unknown.
        assert!(ids.know(3, Some("b")));
        assert_eq!(ids.repeats(3, Some("b")), None, "place 2 unknown");
        assert_eq!(ids.repeats(3, Some("a")), Some(true));
        assert!(ids.know(2, None));
        assert_eq!(ids.repeats(3, Some("b")), Some(false));
        // No id: never a repeat, whatever is unknown.
        assert_eq!(ids.repeats(9, None), Some(false));
        assert_eq!(ids.repeats(9, Some("c")), None, "places 4 to 8 unknown");
        // A place renamed (a server contradicting itself) is what counts from then on.
        assert!(ids.know(0, Some("z")));
        assert_eq!(ids.repeats(1, Some("a")), Some(false));
    }
}
