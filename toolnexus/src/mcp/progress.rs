//! A call's [`CallContext`] over MCP, both ways: a served call's progress goes to the client as
//! `notifications/progress` (`forwarded`), and a call sent to a server gets that server's
//! progress and, dropped before its answer, tells the server with `notifications/cancelled`
//! (`Routes`, `Outgoing`). A served call's `notifications/cancelled` drops the call (see
//! `McpServer::call_tool`), which fires its signal.

use std::collections::{HashMap, VecDeque};
use std::future::Future;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use rmcp::model::{
    CancelledNotificationParam, ProgressNotificationParam, ProgressToken, RequestId,
};
use rmcp::{Peer, RoleClient, RoleServer};
use tokio::sync::Notify;

use crate::tool::context::{CallContext, Listener, Progress};
use crate::values::result::ToolResult;

/// How many reports of one served call wait to be sent; past that, the oldest is dropped
/// (progress is a hint, the newest says the most, and a tool must not be slowed down by a slow
/// client).
const QUEUE: usize = 64;

/// How long a finished call's answer waits for the reports made before it to go out: a client
/// that stopped reading gets the answer (or the slot back) after this, not never.
const FLUSH: Duration = Duration::from_secs(1);

/// The reports of one served call waiting to be sent: at most [`QUEUE`], the oldest dropped.
#[derive(Default)]
pub(crate) struct Reports {
    queue: Mutex<Queue>,
    ready: Notify,
}

#[derive(Default)]
struct Queue {
    reports: VecDeque<Progress>,
    closed: bool,
}

impl Reports {
    fn lock(&self) -> std::sync::MutexGuard<'_, Queue> {
        self.queue.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Queues `report`, never waiting: the oldest waiting one goes when the queue is full.
    fn push(&self, report: Progress) {
        {
            let mut queue = self.lock();
            if queue.reports.len() == QUEUE {
                queue.reports.pop_front();
            }
            queue.reports.push_back(report);
        }
        self.ready.notify_one();
    }

    /// No more reports come: the sender sends what waits, then ends.
    fn close(&self) {
        self.lock().closed = true;
        self.ready.notify_one();
    }

    /// The next report to send; `None` once closed and empty.
    async fn next(&self) -> Option<Progress> {
        loop {
            {
                let mut queue = self.lock();
                if let Some(report) = queue.reports.pop_front() {
                    return Some(report);
                }
                if queue.closed {
                    return None;
                }
            }
            // `notify_one` keeps a permit when no one waits, so no report is missed.
            self.ready.notified().await;
        }
    }
}

/// A listener for a served call's progress, and the queue it fills.
pub(crate) fn listener() -> (Listener, Arc<Reports>) {
    let reports = Arc::new(Reports::default());
    let queued = Arc::clone(&reports);
    let listener: Listener = Arc::new(move |report| queued.push(report));
    (listener, reports)
}

/// `running`, a served call, with its progress sent to the client under `token` by a task of
/// its own while it runs, so a client that stops reading never holds the call up: what was
/// reported before it finished goes out before its answer, for at most [`FLUSH`].
pub(crate) async fn forwarded(
    running: impl Future<Output = ToolResult>,
    reports: Arc<Reports>,
    peer: &Peer<RoleServer>,
    token: ProgressToken,
) -> ToolResult {
    let peer = peer.clone();
    let send = move |report: Progress| {
        let mut param = ProgressNotificationParam::new(token.clone(), report.done);
        param.total = report.total;
        param.message = report.message;
        let peer = peer.clone();
        async move {
            let _ = peer.notify_progress(param).await;
        }
    };
    sent_beside(running, reports, send).await
}

/// `running`, with each report of `reports` sent by `send` on a task of its own; the reports
/// left when it finishes are sent within [`FLUSH`], then the task is ended.
async fn sent_beside<S, F>(
    running: impl Future<Output = ToolResult>,
    reports: Arc<Reports>,
    send: S,
) -> ToolResult
where
    S: Fn(Progress) -> F + Send + 'static,
    F: Future<Output = ()> + Send,
{
    let queued = Arc::clone(&reports);
    let mut sender = tokio::spawn(async move {
        while let Some(report) = queued.next().await {
            send(report).await;
        }
    });
    let result = running.await;
    reports.close();
    if tokio::time::timeout(FLUSH, &mut sender).await.is_err() {
        sender.abort();
    }
    result
}

/// The contexts of the calls a connection has sent and not yet seen answered, by the progress
/// token each went out with: the server's `notifications/progress` for one reaches its context.
/// At most one entry per call in flight, with the last progress handed on.
#[derive(Default)]
pub(crate) struct Routes(Mutex<HashMap<ProgressToken, (CallContext, f64)>>);

impl Routes {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<ProgressToken, (CallContext, f64)>> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A server's progress report, handed to the context of the call it names (none: dropped).
    /// rmcp hands each notification to the handler in a task of its own, so two reports can
    /// arrive out of order on a multi-threaded runtime; progress must grow (MCP says so), so a
    /// report that does not is a stale one and is dropped: the context sees progress only grow.
    /// Handed on under the lock, so no two reports of a call cross.
    pub(crate) fn report(&self, param: ProgressNotificationParam) {
        let mut routes = self.lock();
        let Some((context, last)) = routes.get_mut(&param.progress_token) else {
            return;
        };
        if param.progress <= *last {
            return;
        }
        *last = param.progress;
        context.progress(param.progress, param.total, param.message.as_deref());
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
            self.lock()
                .insert(token.clone(), (context, f64::NEG_INFINITY));
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

#[cfg(test)]
mod tests {
    use super::*;

    fn report(done: f64) -> Progress {
        Progress {
            done,
            total: None,
            message: None,
        }
    }

    #[tokio::test]
    async fn a_client_that_stops_reading_never_holds_the_call() {
        let (listener, reports) = listener();
        // A tool that reports a thousand times and answers; the client reads nothing, so
        // every send waits forever.
        let running = async move {
            for step in 0..1000 {
                listener(report(f64::from(step)));
                tokio::task::yield_now().await;
            }
            ToolResult::ok("done")
        };
        let send = |_report: Progress| std::future::pending::<()>();
        // Answered after at most FLUSH; before issue 39 the call waited on the first send.
        let bound = Duration::from_secs(30);
        let result = tokio::time::timeout(bound, sent_beside(running, reports, send))
            .await
            .expect("the call answers though its progress cannot be sent");
        assert_eq!(result.output, "done");
    }

    #[tokio::test]
    async fn a_full_queue_drops_the_oldest_and_the_newest_goes_out() {
        let (listener, reports) = listener();
        for step in 0..1000 {
            listener(report(f64::from(step)));
        }
        assert_eq!(reports.lock().reports.len(), QUEUE);
        let sent = Arc::new(Mutex::new(Vec::new()));
        let seen = Arc::clone(&sent);
        let send = move |report: Progress| {
            seen.lock().unwrap().push(report.done);
            async {}
        };
        let result = sent_beside(async { ToolResult::ok("done") }, reports, send).await;
        assert_eq!(result.output, "done");
        let sent = sent.lock().unwrap().clone();
        let expected: Vec<f64> = (1000 - QUEUE..1000).map(|s| s as f64).collect();
        assert_eq!(
            sent, expected,
            "the newest {QUEUE}, in order, before the answer"
        );
    }
}
