//! How many calls an [`McpServer`](super::McpServer) runs at once: a cap for the whole server
//! and one for each session, and the token that ends a session's work when the session ends.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio_util::sync::{CancellationToken, DropGuard};

use super::shares::{Share, Shares};

/// The call slots of a server and of one of its sessions.
#[derive(Clone)]
pub(crate) struct Slots {
    server: Arc<Semaphore>,
    per_session: usize,
    /// `None` for a stateless request: it is its own session of one call.
    session: Option<Arc<Semaphore>>,
    /// Cancelled when the last handle on this session's server is dropped (the session ended).
    _life: Option<Arc<DropGuard>>,
    /// `None` for a stateless request (it has no session to end, and shares no token).
    ended: Option<CancellationToken>,
}

/// The slots a running call holds, given back when it ends.
pub(crate) struct Held {
    _session: Option<OwnedSemaphorePermit>,
    _client: Option<Share>,
    _server: OwnedSemaphorePermit,
}

/// A call's client, for its share of the server's slots: the shares and the client's key.
pub(crate) type Client = (Arc<Shares>, String);

impl Slots {
    pub(crate) fn new(per_server: usize, per_session: usize) -> Self {
        let ended = CancellationToken::new();
        Self {
            server: Arc::new(Semaphore::new(per_server.max(1))),
            per_session: per_session.max(1),
            session: Some(Arc::new(Semaphore::new(per_session.max(1)))),
            _life: Some(Arc::new(ended.clone().drop_guard())),
            ended: Some(ended),
        }
    }

    /// The same server slots, and fresh ones for a new session.
    pub(crate) fn for_session(&self) -> Self {
        let ended = CancellationToken::new();
        Self {
            server: Arc::clone(&self.server),
            per_session: self.per_session,
            session: Some(Arc::new(Semaphore::new(self.per_session))),
            _life: Some(Arc::new(ended.clone().drop_guard())),
            ended: Some(ended),
        }
    }

    /// The same server slots, for one stateless request (no session of its own to cap or end).
    #[cfg(feature = "mcp-http")]
    pub(crate) fn for_request(&self) -> Self {
        Self {
            server: Arc::clone(&self.server),
            per_session: self.per_session,
            session: None,
            _life: None,
            ended: None,
        }
    }

    /// Cancelled once this session's server is gone (its session ended); `None` for a
    /// stateless request.
    pub(crate) fn ended(&self) -> Option<CancellationToken> {
        self.ended.clone()
    }

    /// A slot of this session, then one of `client`'s share, then one of the server, waiting
    /// at most `wait` for them (`None`: as long as it takes); `None` when none came free in
    /// time. In this order, a call waiting for its session or its client holds no slot the
    /// others could use.
    pub(crate) async fn take(
        &self,
        wait: Option<Duration>,
        client: Option<&Client>,
    ) -> Option<Held> {
        // Most calls find all free: no timer for them.
        if let Some(held) = self.try_take(client) {
            return Some(held);
        }
        let all = async {
            let session = match &self.session {
                Some(session) => Some(Arc::clone(session).acquire_owned().await.ok()?),
                None => None,
            };
            let client = match client {
                Some((shares, key)) => Some(shares.take(key).await?),
                None => None,
            };
            let server = Arc::clone(&self.server).acquire_owned().await.ok()?;
            Some(Held {
                _session: session,
                _client: client,
                _server: server,
            })
        };
        match wait {
            Some(wait) => tokio::time::timeout(wait, all).await.ok().flatten(),
            None => all.await,
        }
    }

    fn try_take(&self, client: Option<&Client>) -> Option<Held> {
        let session = match &self.session {
            Some(session) => Some(Arc::clone(session).try_acquire_owned().ok()?),
            None => None,
        };
        let client = match client {
            Some((shares, key)) => Some(shares.try_take(key)?),
            None => None,
        };
        let server = Arc::clone(&self.server).try_acquire_owned().ok()?;
        Some(Held {
            _session: session,
            _client: client,
            _server: server,
        })
    }
}

impl std::fmt::Debug for Slots {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Slots")
            .field("per_session", &self.per_session)
            .finish_non_exhaustive()
    }
}
