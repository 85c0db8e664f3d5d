//! The sessions of [`McpHttpService`](super::McpHttpService): rmcp's in-memory ones, at most a
//! given number, and each session's calls ended at once when it is closed (a `DELETE`, or it
//! was idle too long).

use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use futures::Stream;
use rmcp::model::{ClientJsonRpcMessage, ServerJsonRpcMessage};
use rmcp::transport::streamable_http_server::session::local::{
    LocalSessionManager, LocalSessionManagerError,
};
use rmcp::transport::streamable_http_server::session::{
    RestoreOutcome, ServerSseMessage, SessionId, SessionManager,
};
use tokio_util::sync::CancellationToken;

/// How many closed session ids are remembered, so that a call looked up just after its
/// session's `DELETE` still ends at once (ids this server issued only; about 40 bytes each).
const REMEMBERED_CLOSED: usize = 1024;

/// rmcp's [`LocalSessionManager`], capped, with a token per session that its calls watch.
/// Only the sessions it issued hold state: an `Mcp-Session-Id` it never issued (a stateless
/// request may carry any) costs nothing.
pub(crate) struct Sessions {
    inner: LocalSessionManager,
    max: usize,
    /// How many sessions (open or reserved) one client may hold.
    per_client: usize,
    count: Mutex<Count>,
}

/// The sessions open, the requests under way that may each open one, and the call tokens: all
/// under one lock, so a call's lookup and its session's close cannot interleave.
#[derive(Default)]
struct Count {
    open: HashSet<SessionId>,
    reserved: usize,
    /// A token for each open session that has had a call; cancelled when the session closes.
    calls: HashMap<SessionId, CancellationToken>,
    /// The ids most recently closed, oldest first, at most [`REMEMBERED_CLOSED`].
    closed: VecDeque<SessionId>,
    /// The sessions, open or reserved, of each client that holds any.
    clients: HashMap<Arc<str>, usize>,
    /// The client of each open session made by a request that named one.
    owners: HashMap<SessionId, Arc<str>>,
}

impl Count {
    fn client_enters(&mut self, client: &Arc<str>) {
        *self.clients.entry(Arc::clone(client)).or_default() += 1;
    }

    fn client_leaves(&mut self, client: &str) {
        if let Some(held) = self.clients.get_mut(client) {
            *held -= 1;
            if *held == 0 {
                self.clients.remove(client);
            }
        }
    }
}

/// A slot for one more session, held while a request that may open it is answered.
pub(crate) struct Reservation {
    sessions: Arc<Sessions>,
    client: Option<Arc<str>>,
}

impl Reservation {
    /// The request opened session `id`: it stays its client's until it closes.
    pub(crate) fn opened(&self, id: &str) {
        let Some(client) = &self.client else { return };
        let mut count = self.sessions.count();
        let Some(id) = count.open.get(id).cloned() else {
            return; // Closed already, or never opened.
        };
        if !count.owners.contains_key(&id) {
            count.client_enters(client);
            count.owners.insert(id, Arc::clone(client));
        }
    }
}

impl Drop for Reservation {
    fn drop(&mut self) {
        let mut count = self.sessions.count();
        count.reserved -= 1;
        if let Some(client) = &self.client {
            count.client_leaves(client);
        }
    }
}

/// Why no session slot was given.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Refused {
    /// The server holds its maximum.
    Server,
    /// The client holds its share.
    Client,
}

/// Why a session was not made or reached.
#[derive(Debug)]
pub(crate) enum SessionsError {
    Full(usize),
    Local(LocalSessionManagerError),
}

impl std::fmt::Display for SessionsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Full(max) => write!(f, "the server holds its maximum of {max} sessions"),
            Self::Local(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for SessionsError {}

impl From<LocalSessionManagerError> for SessionsError {
    fn from(e: LocalSessionManagerError) -> Self {
        Self::Local(e)
    }
}

impl Sessions {
    pub(crate) fn new(max: usize, per_client: usize, idle: Option<Duration>) -> Self {
        let mut inner = LocalSessionManager::default();
        inner.session_config.keep_alive = idle;
        Self {
            inner,
            max,
            per_client,
            count: Mutex::new(Count::default()),
        }
    }

    fn count(&self) -> std::sync::MutexGuard<'_, Count> {
        self.count.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A slot for a request of `client` that may open a session; refused when the sessions
    /// open and the slots held already reach the cap, or the client's share.
    pub(crate) fn reserve(self: &Arc<Self>, client: Option<&str>) -> Result<Reservation, Refused> {
        let mut count = self.count();
        if count.open.len() + count.reserved >= self.max {
            return Err(Refused::Server);
        }
        let client = match client {
            Some(client) => {
                let (client, held) = match count.clients.get_key_value(client) {
                    Some((client, held)) => (Arc::clone(client), *held),
                    None => (Arc::from(client), 0),
                };
                if held >= self.per_client {
                    return Err(Refused::Client);
                }
                count.client_enters(&client);
                Some(client)
            }
            None => None,
        };
        count.reserved += 1;
        Ok(Reservation {
            sessions: Arc::clone(self),
            client,
        })
    }

    /// The token the calls of session `id` watch, cancelled when the session closes: `None`
    /// for an id this server never gave out (nothing is kept for it), one already cancelled for
    /// a session closed a moment ago (its `DELETE` won the race with the call).
    pub(crate) fn call_token(&self, id: &str) -> Option<CancellationToken> {
        let mut count = self.count();
        if let Some(open) = count.open.get(id).cloned() {
            return Some(count.calls.entry(open).or_default().clone());
        }
        count.closed.iter().any(|c| &**c == id).then(|| {
            let token = CancellationToken::new();
            token.cancel();
            token
        })
    }

    /// Whether `id` names a session this server issued and has not closed.
    pub(crate) fn is_open(&self, id: &str) -> bool {
        self.count().open.contains(id)
    }

    /// How many call tokens are held (one at most per open session).
    #[cfg(test)]
    fn tokens(&self) -> usize {
        self.count().calls.len()
    }
}

impl SessionManager for Sessions {
    type Error = SessionsError;
    type Transport = <LocalSessionManager as SessionManager>::Transport;

    async fn create_session(&self) -> Result<(SessionId, Self::Transport), Self::Error> {
        // Each request that may get here holds a reservation (the service takes it before it
        // reads the body), so the cap holds without a race; this is the last word.
        if self.count().open.len() >= self.max {
            return Err(SessionsError::Full(self.max));
        }
        let (id, transport) = self.inner.create_session().await?;
        self.count().open.insert(id.clone());
        Ok((id, transport))
    }

    async fn initialize_session(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<ServerJsonRpcMessage, Self::Error> {
        Ok(self.inner.initialize_session(id, message).await?)
    }

    async fn has_session(&self, id: &SessionId) -> Result<bool, Self::Error> {
        Ok(self.inner.has_session(id).await?)
    }

    async fn close_session(&self, id: &SessionId) -> Result<(), Self::Error> {
        let token = {
            let mut count = self.count();
            if count.open.remove(id) {
                if count.closed.len() == REMEMBERED_CLOSED {
                    count.closed.pop_front();
                }
                count.closed.push_back(id.clone());
            }
            if let Some(client) = count.owners.remove(id) {
                count.client_leaves(&client);
            }
            count.calls.remove(id)
        };
        if let Some(token) = token {
            token.cancel();
        }
        Ok(self.inner.close_session(id).await?)
    }

    async fn create_stream(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        Ok(self.inner.create_stream(id, message).await?)
    }

    async fn accept_message(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<(), Self::Error> {
        Ok(self.inner.accept_message(id, message).await?)
    }

    async fn create_standalone_stream(
        &self,
        id: &SessionId,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        Ok(self.inner.create_standalone_stream(id).await?)
    }

    async fn resume(
        &self,
        id: &SessionId,
        last_event_id: String,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        Ok(self.inner.resume(id, last_event_id).await?)
    }

    async fn restore_session(
        &self,
        id: SessionId,
    ) -> Result<RestoreOutcome<Self::Transport>, Self::Error> {
        if self.count().open.len() >= self.max {
            return Err(SessionsError::Full(self.max));
        }
        let restored = self.inner.restore_session(id.clone()).await?;
        if matches!(restored, RestoreOutcome::Restored(_)) {
            self.count().open.insert(id);
        }
        Ok(restored)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn ids_it_never_issued_leave_no_state() {
        let sessions = Sessions::new(4, 4, None);
        for n in 0..10_000 {
            let id = format!("invented-{n}-{}", "x".repeat(n % 300));
            assert!(sessions.call_token(&id).is_none());
            assert!(!sessions.is_open(&id));
        }
        assert_eq!(sessions.tokens(), 0);
    }

    #[tokio::test]
    async fn a_call_looked_up_after_its_sessions_close_is_cancelled_at_once() {
        let sessions = Sessions::new(4, 4, None);
        let (id, _transport) = sessions.create_session().await.unwrap();
        let running = sessions.call_token(&id).expect("an open session's token");
        assert_eq!(sessions.tokens(), 1);
        sessions.close_session(&id).await.unwrap();
        assert!(running.is_cancelled());
        // The race: the call's lookup comes just after the DELETE.
        let late = sessions
            .call_token(&id)
            .expect("a token for a session closed just now");
        assert!(late.is_cancelled());
        assert_eq!(sessions.tokens(), 0, "nothing re-inserted");
        assert!(!sessions.is_open(&id));
    }

    #[tokio::test]
    async fn a_client_holds_its_share_of_sessions_and_room_stays_for_others() {
        let sessions = Arc::new(Sessions::new(4, 2, None));
        let mut a_open = Vec::new();
        for _ in 0..2 {
            let reservation = sessions.reserve(Some("a")).expect("within a's share");
            let (id, _transport) = sessions.create_session().await.unwrap();
            reservation.opened(&id);
            a_open.push(id);
        }
        assert_eq!(sessions.reserve(Some("a")).err(), Some(Refused::Client));
        // Another client still gets in; one without a key meets the server's cap alone.
        let b = sessions.reserve(Some("b")).expect("b has room");
        let anonymous = sessions.reserve(None).expect("room left");
        assert_eq!(sessions.reserve(Some("c")).err(), Some(Refused::Server));
        drop((b, anonymous));
        // A request that opened nothing gives its slot back; a closed session gives a's back.
        drop(sessions.reserve(Some("c")).expect("c"));
        sessions.close_session(&a_open[0]).await.unwrap();
        assert!(sessions.reserve(Some("a")).is_ok(), "a's share came back");
        sessions.close_session(&a_open[1]).await.unwrap();
        let count = sessions.count();
        assert!(count.clients.is_empty() && count.owners.is_empty());
    }

    #[tokio::test]
    async fn the_closed_ids_remembered_are_bounded() {
        let sessions = Sessions::new(REMEMBERED_CLOSED + 8, REMEMBERED_CLOSED + 8, None);
        for _ in 0..REMEMBERED_CLOSED + 5 {
            let (id, _transport) = sessions.create_session().await.unwrap();
            sessions.close_session(&id).await.unwrap();
        }
        assert_eq!(sessions.count().closed.len(), REMEMBERED_CLOSED);
    }
}
