//! Each client's share of what an HTTP [`McpServer`](super::McpServer) runs at once: a
//! semaphore per client key, kept only while the client holds or waits for a slot, so the map
//! holds no more entries than there are calls under way.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// What an HTTP server needs to hold each client to its share of calls: who the client is,
/// and the shares.
#[cfg(feature = "mcp-http")]
#[derive(Clone)]
pub(crate) struct ClientCalls {
    pub(crate) key: Arc<super::ClientKey>,
    pub(crate) shares: Arc<Shares>,
}

/// The call slots of each client: at most `per_client` at once.
pub(crate) struct Shares {
    per_client: usize,
    clients: Mutex<HashMap<Arc<str>, Entry>>,
}

struct Entry {
    slots: Arc<Semaphore>,
    /// The calls that hold or wait for one of its slots.
    users: usize,
}

/// A call of one client, holding or waiting for its slot: counted until dropped.
struct User {
    shares: Arc<Shares>,
    key: Arc<str>,
}

/// One of a client's slots, given back when dropped.
pub(crate) struct Share {
    // Fields drop in order: the permit before the count that may remove its entry.
    _permit: OwnedSemaphorePermit,
    _user: User,
}

impl Shares {
    pub(crate) fn new(per_client: usize) -> Arc<Self> {
        Arc::new(Self {
            per_client: per_client.max(1),
            clients: Mutex::default(),
        })
    }

    /// How many calls one client may run at once.
    pub(crate) fn per_client(&self) -> usize {
        self.per_client
    }

    /// One of `key`'s slots if one is free now.
    pub(crate) fn try_take(self: &Arc<Self>, key: &str) -> Option<Share> {
        let (user, slots) = self.enter(key);
        let permit = slots.try_acquire_owned().ok()?;
        Some(Share {
            _permit: permit,
            _user: user,
        })
    }

    /// One of `key`'s slots, waiting as long as it takes (the caller bounds the wait).
    pub(crate) async fn take(self: &Arc<Self>, key: &str) -> Option<Share> {
        let (user, slots) = self.enter(key);
        let permit = slots.acquire_owned().await.ok()?;
        Some(Share {
            _permit: permit,
            _user: user,
        })
    }

    fn enter(self: &Arc<Self>, key: &str) -> (User, Arc<Semaphore>) {
        let mut clients = self.lock();
        let key: Arc<str> = match clients.get_key_value(key) {
            Some((key, _)) => Arc::clone(key),
            None => Arc::from(key),
        };
        let entry = clients.entry(Arc::clone(&key)).or_insert_with(|| Entry {
            slots: Arc::new(Semaphore::new(self.per_client)),
            users: 0,
        });
        entry.users += 1;
        let slots = Arc::clone(&entry.slots);
        let user = User {
            shares: Arc::clone(self),
            key,
        };
        (user, slots)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<Arc<str>, Entry>> {
        self.clients.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// How many clients hold or wait for a slot.
    #[cfg(test)]
    fn clients(&self) -> usize {
        self.lock().len()
    }
}

impl Drop for User {
    fn drop(&mut self) {
        let mut clients = self.shares.lock();
        if let Some(entry) = clients.get_mut(&self.key) {
            entry.users -= 1;
            if entry.users == 0 {
                clients.remove(&self.key);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[tokio::test]
    async fn a_client_at_its_share_waits_while_another_runs_and_nothing_is_kept_after() {
        let shares = Shares::new(2);
        let a1 = shares.take("a").await.expect("a's first");
        let a2 = shares.try_take("a").expect("a's second");
        assert!(shares.try_take("a").is_none(), "a is at its share");
        let waiting = tokio::time::timeout(Duration::from_millis(50), shares.take("a")).await;
        assert!(waiting.is_err(), "a waits");
        let b = shares.try_take("b");
        assert!(b.is_some(), "b still has room");
        drop(b);
        drop(a1);
        assert!(shares.try_take("a").is_some(), "a's slot came back");
        drop(a2);
        assert_eq!(shares.clients(), 0, "no entry once no call holds or waits");
    }

    #[tokio::test]
    async fn a_waiting_call_that_gives_up_leaves_no_entry() {
        let shares = Shares::new(1);
        let held = shares.take("a").await.unwrap();
        let gave_up = tokio::time::timeout(Duration::from_millis(20), shares.take("a")).await;
        assert!(gave_up.is_err());
        drop(held);
        assert_eq!(shares.clients(), 0);
        for n in 0..1000 {
            drop(shares.take(&format!("c{n}")).await);
        }
        assert_eq!(shares.clients(), 0);
    }
}
