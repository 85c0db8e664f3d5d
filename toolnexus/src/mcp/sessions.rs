//! The sessions of [`McpHttpService`](super::McpHttpService): rmcp's in-memory ones, at most a
//! given number, and each session's calls ended at once when it is closed (a `DELETE`, or it
//! was idle too long).

use std::collections::{HashMap, HashSet};
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

/// rmcp's [`LocalSessionManager`], capped, with a token per session that its calls watch.
pub(crate) struct Sessions {
    inner: LocalSessionManager,
    max: usize,
    count: Mutex<Count>,
    /// A token for each session that has had a call; cancelled when the session closes.
    calls: Mutex<HashMap<SessionId, CancellationToken>>,
}

/// The sessions open, and the requests under way that may each open one.
#[derive(Default)]
struct Count {
    open: HashSet<SessionId>,
    reserved: usize,
}

/// A slot for one more session, held while a request that may open it is answered.
pub(crate) struct Reservation(Arc<Sessions>);

impl Drop for Reservation {
    fn drop(&mut self) {
        self.0.count().reserved -= 1;
    }
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
    pub(crate) fn new(max: usize, idle: Option<Duration>) -> Self {
        let mut inner = LocalSessionManager::default();
        inner.session_config.keep_alive = idle;
        Self {
            inner,
            max,
            count: Mutex::new(Count::default()),
            calls: Mutex::new(HashMap::new()),
        }
    }

    fn count(&self) -> std::sync::MutexGuard<'_, Count> {
        self.count.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A slot for a request that may open a session; `None` when the sessions open and the
    /// slots held already reach the cap.
    pub(crate) fn reserve(self: &Arc<Self>) -> Option<Reservation> {
        let mut count = self.count();
        if count.open.len() + count.reserved >= self.max {
            return None;
        }
        count.reserved += 1;
        Some(Reservation(Arc::clone(self)))
    }

    /// The token the calls of session `id` watch: cancelled when the session closes.
    pub(crate) fn call_token(&self, id: &str) -> CancellationToken {
        let mut calls = self.calls.lock().unwrap_or_else(PoisonError::into_inner);
        calls.entry(id.into()).or_default().clone()
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
            let mut calls = self.calls.lock().unwrap_or_else(PoisonError::into_inner);
            calls.remove(id)
        };
        if let Some(token) = token {
            token.cancel();
        }
        self.count().open.remove(id);
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
