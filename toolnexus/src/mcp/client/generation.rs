//! [`Generation`]: a count of changes that tasks can wait on.

/// How many times something changed (the tools listed, a live toolkit made); waiters watch it.
pub(crate) struct Generation(tokio::sync::watch::Sender<u64>);

impl Generation {
    pub(crate) fn new() -> Self {
        Self(tokio::sync::watch::channel(0).0)
    }

    pub(crate) fn get(&self) -> u64 {
        *self.0.borrow()
    }

    /// One change more; wakes the waiters.
    pub(crate) fn bump(&self) {
        self.0.send_modify(|g| *g += 1);
    }

    /// Waits until the count has passed `seen`, and returns it.
    pub(crate) async fn after(&self, seen: u64) -> u64 {
        let mut watch = self.0.subscribe();
        // The sender is `self`, borrowed for the whole wait: never closed while waiting.
        let now = match watch.wait_for(|g| *g > seen).await {
            Ok(g) => *g,
            Err(_) => seen,
        };
        now
    }
}
