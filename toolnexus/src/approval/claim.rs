//! Once only: the nonces of the pending turns this process has resumed, so that resuming one a
//! second time (a double click, a retried request, the same stored text read twice) runs
//! nothing. Bounded: the oldest claims are forgotten past [`REMEMBERED`], and a host that
//! resumes in several processes claims the stored turn itself (the approval guide's recipe).

use std::collections::{HashSet, VecDeque};
use std::sync::Mutex;

use super::digest::Nonce;

/// How many resumed turns a process remembers (16 bytes each, twice: about 2 MiB at most).
pub(crate) const REMEMBERED: usize = 65_536;

#[derive(Default)]
struct Claimed {
    set: HashSet<Nonce>,
    order: VecDeque<Nonce>,
}

static CLAIMED: Mutex<Option<Claimed>> = Mutex::new(None);

/// Claims `nonce` for one resume: `false` when this process already resumed that turn.
pub(crate) fn claim(nonce: &Nonce) -> bool {
    // A panic elsewhere while the lock was held leaves a set that is still whole.
    let mut claimed = CLAIMED
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let claimed = claimed.get_or_insert_with(Claimed::default);
    if !claimed.set.insert(*nonce) {
        return false;
    }
    claimed.order.push_back(*nonce);
    if claimed.order.len() > REMEMBERED {
        if let Some(oldest) = claimed.order.pop_front() {
            claimed.set.remove(&oldest);
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_nonce_is_claimed_once() {
        let nonce = super::super::digest::nonce();
        assert!(claim(&nonce));
        assert!(!claim(&nonce));
        assert!(claim(&super::super::digest::nonce()));
    }
}
