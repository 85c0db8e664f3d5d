//! A call's [`CallContext`] over MCP, both ways: a served call's progress goes to the client as
//! `notifications/progress` (`forwarded`), and a call sent to a server gets that server's
//! progress and, dropped before its answer, tells the server with `notifications/cancelled`
//! (`Routes`, `Outgoing`). A served call's `notifications/cancelled` drops the call (see
//! `McpServer::call_tool`), which fires its signal.

use std::collections::HashMap;
use std::future::Future;
use std::pin::pin;
use std::sync::{Arc, Mutex, PoisonError};

use futures::future::{select, Either};
use rmcp::model::{
    CancelledNotificationParam, ProgressNotificationParam, ProgressToken, RequestId,
};
use rmcp::{Peer, RoleClient, RoleServer};
use tokio::sync::mpsc;

use crate::tool::context::{CallContext, Listener, Progress};
use crate::values::result::ToolResult;

/// How many reports of one served call wait to be sent; past that, new ones are dropped
/// (progress is a hint, and a tool must not be slowed down by a slow client).
const QUEUE: usize = 64;

/// A listener for a served call's progress, and the queue it fills.
pub(crate) fn listener() -> (Listener, mpsc::Receiver<Progress>) {
    let (sender, receiver) = mpsc::channel(QUEUE);
    let listener: Listener = Arc::new(move |report| {
        let _ = sender.try_send(report);
    });
    (listener, receiver)
}

/// `running`, a served call, with its progress sent to the client under `token` while it runs;
/// what was reported before it finished goes out before its answer.
pub(crate) async fn forwarded(
    running: impl Future<Output = ToolResult>,
    mut reports: mpsc::Receiver<Progress>,
    peer: &Peer<RoleServer>,
    token: ProgressToken,
) -> ToolResult {
    let send = |report: Progress| {
        let mut param = ProgressNotificationParam::new(token.clone(), report.done);
        param.total = report.total;
        param.message = report.message;
        peer.notify_progress(param)
    };
    let mut running = pin!(running);
    loop {
        let next = match select(running.as_mut(), pin!(reports.recv())).await {
            Either::Left((result, _)) => Err(result),
            Either::Right((report, _)) => Ok(report),
        };
        match next {
            Err(result) => {
                while let Ok(report) = reports.try_recv() {
                    let _ = send(report).await;
                }
                return result;
            }
            Ok(Some(report)) => {
                let _ = send(report).await;
            }
            // Every listener is gone (the context and its clones dropped): only the call left.
            Ok(None) => return running.await,
        }
    }
}

/// The contexts of the calls a connection has sent and not yet seen answered, by the progress
/// token each went out with: the server's `notifications/progress` for one reaches its context.
/// At most one entry per call in flight.
#[derive(Default)]
pub(crate) struct Routes(Mutex<HashMap<ProgressToken, CallContext>>);

impl Routes {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<ProgressToken, CallContext>> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A server's progress report, handed to the context of the call it names (none: dropped).
    pub(crate) fn report(&self, param: ProgressNotificationParam) {
        let context = self.lock().get(&param.progress_token).cloned();
        if let Some(context) = context {
            context.progress(param.progress, param.total, param.message.as_deref());
        }
    }

    /// Routes the progress sent under `token` to `context` until the returned guard is dropped.
    pub(crate) fn route(
        &self,
        token: ProgressToken,
        context: CallContext,
        peer: Peer<RoleClient>,
        id: RequestId,
    ) -> Outgoing<'_> {
        if context.has_listener() {
            self.lock().insert(token.clone(), context);
        }
        Outgoing {
            routes: self,
            token,
            peer,
            id: Some(id),
        }
    }
}

/// A call sent to a server, until its answer came: its progress routed to its context; dropped
/// before the answer (the turn dropped, the call cut off by a timeout), it sends the server
/// `notifications/cancelled` for the request, so the server stops working on it.
pub(crate) struct Outgoing<'a> {
    routes: &'a Routes,
    token: ProgressToken,
    peer: Peer<RoleClient>,
    /// `None` once the answer came.
    id: Option<RequestId>,
}

impl Outgoing<'_> {
    /// The answer came: nothing to cancel.
    pub(crate) fn answered(&mut self) {
        self.id = None;
    }

    /// The call was given up by its own timeout: the server is told now, with the reason.
    pub(crate) fn cancel(&mut self, reason: &str) {
        if let Some(id) = self.id.take() {
            self.send_cancel(id, reason);
        }
    }

    fn send_cancel(&self, id: RequestId, reason: &str) {
        // From a `Drop`, so not awaited: sent by a task of the current runtime, if there is one
        // (without one, the transport's task is gone too).
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        let peer = self.peer.clone();
        let param = CancelledNotificationParam::new(Some(id), Some(reason.to_owned()));
        runtime.spawn(async move {
            let _ = peer.notify_cancelled(param).await;
        });
    }
}

impl Drop for Outgoing<'_> {
    fn drop(&mut self) {
        self.routes.lock().remove(&self.token);
        if let Some(id) = self.id.take() {
            self.send_cancel(id, "the caller gave up the call");
        }
    }
}
