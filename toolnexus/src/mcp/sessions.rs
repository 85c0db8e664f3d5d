//! The sessions of [`McpHttpService`](super::McpHttpService): rmcp's in-memory ones, at most a
//! given number, and each session's calls ended at once when it is closed (a `DELETE`, or it
//! was idle too long).

use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};
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
    /// A token for each session that has had a call; cancelled when the session closes.
    calls: Mutex<HashMap<SessionId, CancellationToken>>,
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
            calls: Mutex::new(HashMap::new()),
        }
    }

    /// How many sessions are open.
    pub(crate) async fn len(&self) -> usize {
        self.inner.sessions.read().await.len()
    }

    /// Whether another session would pass the cap.
    pub(crate) async fn full(&self) -> bool {
        self.len().await >= self.max
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
        // The service checks the cap before it reads a body; this holds it under a race.
        if self.full().await {
            return Err(SessionsError::Full(self.max));
        }
        Ok(self.inner.create_session().await?)
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
        if self.full().await {
            return Err(SessionsError::Full(self.max));
        }
        Ok(self.inner.restore_session(id).await?)
    }
}
