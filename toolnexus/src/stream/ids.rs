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

use std::collections::{BTreeMap, BTreeSet, HashMap};

/// What the stream knows of each place's id, indexed so that every step costs O(log n) in the
/// calls, whatever order their ids and completions arrive in: a server that withholds place 0's
/// id while a thousand calls complete costs no rescan of the waiting ones.
#[derive(Debug, Default)]
pub(super) struct Ids {
    /// By place among the response's calls (past its end: nothing known yet).
    known: Vec<Known>,
    /// The places each id is known at.
    places: HashMap<String, BTreeSet<usize>>,
    /// The places below `known.len()` not named yet (every place past it is unnamed too).
    unnamed: BTreeSet<usize>,
    /// The complete calls whose repeat is not settled yet, by place, with their ids.
    waiting: BTreeMap<usize, String>,
    /// The same, by id.
    waiting_by_id: HashMap<String, BTreeSet<usize>>,
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
    /// The call at `position` carries `id` (`None`: it is complete and has none). The places
    /// of the waiting calls this may settle (see [`Ids::wait`]), taken out of the waiting ones:
    /// those after `position` that carry `id`, and those every earlier place of which is named
    /// now. Empty when it told nothing new.
    pub(super) fn know(&mut self, position: usize, id: Option<&str>) -> Vec<usize> {
        if self.known.len() <= position {
            let from = self.known.len();
            self.known.resize(position + 1, Known::Unknown);
            self.unnamed.extend(from..=position);
        }
        let same = match (&self.known[position], id) {
            (Known::Id(have), Some(id)) => have == id,
            (Known::Absent, None) => true,
            _ => false,
        };
        if same {
            return Vec::new();
        }
        let first_unnamed = self.first_unnamed();
        let now = id.map_or(Known::Absent, |id| Known::Id(id.to_owned()));
        match std::mem::replace(&mut self.known[position], now) {
            Known::Unknown => {
                self.unnamed.remove(&position);
            }
            Known::Id(old) => remove(&mut self.places, &old, position),
            Known::Absent => {}
        }
        let mut settled = Vec::new();
        if let Some(id) = id {
            self.places
                .entry(id.to_owned())
                .or_default()
                .insert(position);
            if let Some(after) = self.waiting_by_id.get(id) {
                settled.extend(after.range(position + 1..).copied());
            }
        }
        let now_unnamed = self.first_unnamed();
        if now_unnamed > first_unnamed {
            settled.extend(self.waiting.range(..=now_unnamed).map(|(&place, _)| place));
        }
        settled.sort_unstable();
        settled.dedup();
        for place in &settled {
            if let Some(id) = self.waiting.remove(place) {
                remove(&mut self.waiting_by_id, &id, *place);
            }
        }
        settled
    }

    /// The complete call at `position`, carrying `id`, waits: its repeat is not settled yet.
    pub(super) fn wait(&mut self, position: usize, id: &str) {
        self.waiting.insert(position, id.to_owned());
        self.waiting_by_id
            .entry(id.to_owned())
            .or_default()
            .insert(position);
    }

    /// Whether the call at `position`, carrying `id`, repeats an earlier place's id: `Some`
    /// once that is settled, `None` while an earlier place is not named yet (and none named
    /// carries `id`).
    pub(super) fn repeats(&self, position: usize, id: Option<&str>) -> Option<bool> {
        let Some(id) = id else {
            return Some(false);
        };
        let first = self.places.get(id).and_then(BTreeSet::first);
        if first.is_some_and(|&first| first < position) {
            return Some(true);
        }
        (self.first_unnamed() >= position).then_some(false)
    }

    /// The first place not named yet.
    fn first_unnamed(&self) -> usize {
        self.unnamed.first().copied().unwrap_or(self.known.len())
    }
}

/// Takes `place` out of `id`'s set in `map`, and the set when it empties.
fn remove(map: &mut HashMap<String, BTreeSet<usize>>, id: &str, place: usize) {
    if let Some(set) = map.get_mut(id) {
        set.remove(&place);
        if set.is_empty() {
            map.remove(id);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_call_is_judged_once_every_earlier_place_is_named() {
        let mut ids = Ids::default();
        // Place 1 completes first: place 0 is not named yet, so it waits.
        assert_eq!(ids.know(1, Some("a")), [0usize; 0]);
        assert_eq!(ids.repeats(1, Some("a")), None);
        ids.wait(1, "a");
        // Place 0 is named `a`: place 1 repeats it, and is handed back to be judged.
        assert_eq!(ids.know(0, Some("a")), [1]);
        assert_eq!(ids.repeats(1, Some("a")), Some(true));
        assert_eq!(ids.repeats(0, Some("a")), Some(false), "the first by place");
        assert_eq!(ids.know(0, Some("a")), [0usize; 0], "nothing new");
        // An earlier place carrying the id settles it even while another is unknown.
        assert_eq!(ids.know(3, Some("b")), [0usize; 0]);
        assert_eq!(ids.repeats(3, Some("b")), None, "place 2 unknown");
        ids.wait(3, "b");
        assert_eq!(ids.repeats(3, Some("a")), Some(true));
        assert_eq!(ids.know(2, None), [3], "every place before 3 is named now");
        assert_eq!(ids.repeats(3, Some("b")), Some(false));
        // No id: never a repeat, whatever is unknown.
        assert_eq!(ids.repeats(9, None), Some(false));
        assert_eq!(ids.repeats(9, Some("c")), None, "places 4 to 8 unknown");
        // A place renamed (a server contradicting itself) is what counts from then on.
        assert_eq!(ids.know(0, Some("z")), [0usize; 0]);
        assert_eq!(ids.repeats(1, Some("a")), Some(false));
    }

    #[test]
    fn a_withheld_first_id_settles_every_waiting_call_once_it_comes() {
        let mut ids = Ids::default();
        let n = 1000;
        for place in 1..n {
            assert_eq!(ids.know(place, Some(&format!("c{place}"))), [0usize; 0]);
            ids.wait(place, &format!("c{place}"));
        }
        // Place 0 reuses place 500's id: 500 repeats it; every other is settled as new.
        let settled = ids.know(0, Some("c500"));
        assert_eq!(settled, (1..n).collect::<Vec<_>>());
        for place in 1..n {
            let repeats = ids.repeats(place, Some(&format!("c{place}")));
            assert_eq!(repeats, Some(place == 500), "{place}");
        }
        assert!(ids.waiting.is_empty() && ids.waiting_by_id.is_empty());
    }
}
