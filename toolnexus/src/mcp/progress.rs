//! A call's [`CallContext`] over MCP, both ways: a served call's progress and log messages go
//! to the client as `notifications/progress` and `notifications/message` (`Outbox`), and a call sent to a server gets that server's
//! progress and, dropped before its answer, tells the server with `notifications/cancelled`
//! (`Routes`, `Outgoing`). A served call's `notifications/cancelled` drops the call (see
//! `McpServer::call_tool`), which fires its signal.

use std::collections::{HashMap, VecDeque};
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use rmcp::model::{
    CancelledNotificationParam, ProgressNotificationParam, ProgressToken, RequestId,
};
use rmcp::{Peer, RoleClient, RoleServer};
use tokio::sync::Notify;
use tokio::task::JoinHandle;

use crate::mcp::logging::{self, SessionLevel};
use crate::tool::context::{CallContext, Listener, Progress};
use crate::tool::logging::{LogListener, LogMessage};

/// How many notes of one served call wait to be sent; past that, the oldest is dropped
/// (progress is a hint and the newest says the most, a log flood must not hold memory, and a
/// tool must not be slowed down by a slow client).
const QUEUE: usize = 64;

/// How long a finished call's answer waits for the notes made before it to go out: a client
/// that stopped reading gets the answer (or the slot back) after this, not never.
const FLUSH: Duration = Duration::from_secs(1);

/// What a served call sends its client beside its answer.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Note {
    /// A progress report, for a client that sent a progress token.
    Progress(Progress),
    /// A message the tool logged, at or above the session's level.
    Log(LogMessage),
}

/// How a note goes out (to the client's transport; to a test's record).
type Sender = Box<dyn Fn(Note) -> Pin<Box<dyn Future<Output = ()> + Send>> + Send + Sync>;

/// The notes of one served call waiting to be sent: at most [`QUEUE`], the oldest dropped, sent
/// in order by a task of their own, started by the first note (a call that reports nothing
/// starts none).
pub(crate) struct Outbox {
    queue: Mutex<Queue>,
    ready: Notify,
    send: Sender,
    runtime: tokio::runtime::Handle,
    sender: Mutex<Option<JoinHandle<()>>>,
}

#[derive(Default)]
struct Queue {
    notes: VecDeque<Note>,
    closed: bool,
}

impl Outbox {
    /// An outbox whose notes go out through `send`, on the current runtime.
    fn new(send: Sender) -> Arc<Self> {
        Arc::new(Self {
            queue: Mutex::default(),
            ready: Notify::new(),
            send,
            runtime: tokio::runtime::Handle::current(),
            sender: Mutex::new(None),
        })
    }

    /// The outbox of a call served to `peer`: progress under `token`, log messages as
    /// `notifications/message`.
    pub(crate) fn to_peer(peer: &Peer<RoleServer>, token: Option<ProgressToken>) -> Arc<Self> {
        let peer = peer.clone();
        Self::new(Box::new(move |note| {
            let peer = peer.clone();
            let token = token.clone();
            Box::pin(async move {
                match note {
                    Note::Progress(report) => {
                        let Some(token) = token else { return };
                        let mut param = ProgressNotificationParam::new(token, report.done);
                        param.total = report.total;
                        param.message = report.message;
                        let _ = peer.notify_progress(param).await;
                    }
                    Note::Log(message) => logging::send(&peer, message).await,
                }
            })
        }))
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Queue> {
        self.queue.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Queues `note`, never waiting (the oldest waiting one goes when the queue is full), and
    /// starts the sender if this is the first; after [`Outbox::close`], drops it.
    fn push(self: &Arc<Self>, note: Note) {
        {
            let mut queue = self.lock();
            if queue.closed {
                return;
            }
            if queue.notes.len() == QUEUE {
                queue.notes.pop_front();
            }
            queue.notes.push_back(note);
        }
        self.ready.notify_one();
        let mut sender = self.sender.lock().unwrap_or_else(PoisonError::into_inner);
        if sender.is_none() {
            let outbox = Arc::clone(self);
            *sender = Some(self.runtime.spawn(async move {
                while let Some(note) = outbox.next().await {
                    (outbox.send)(note).await;
                }
            }));
        }
    }

    /// A listener that queues the call's progress.
    pub(crate) fn progress(self: &Arc<Self>) -> Listener {
        let outbox = Arc::clone(self);
        Arc::new(move |report| outbox.push(Note::Progress(report)))
    }

    /// A listener that queues what the tool logs at or above the session's `level` (read at
    /// each message: the client may change it while the call runs).
    pub(crate) fn log(self: &Arc<Self>, level: SessionLevel) -> LogListener {
        let outbox = Arc::clone(self);
        Arc::new(move |message: LogMessage| {
            if message.level >= level.get() {
                outbox.push(Note::Log(message));
            }
        })
    }

    /// No more notes come: the sender sends what waits, then ends.
    fn close(&self) {
        self.lock().closed = true;
        self.ready.notify_one();
    }

    /// The next note to send; `None` once closed and empty.
    async fn next(&self) -> Option<Note> {
        loop {
            {
                let mut queue = self.lock();
                if let Some(note) = queue.notes.pop_front() {
                    return Some(note);
                }
                if queue.closed {
                    return None;
                }
            }
            // `notify_one` keeps a permit when no one waits, so no note is missed.
            self.ready.notified().await;
        }
    }

    /// The call answered: what it sent before goes out first, for at most [`FLUSH`]; then the
    /// sender is ended.
    pub(crate) async fn finish(&self) {
        self.close();
        let sender = self
            .sender
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        if let Some(mut sender) = sender {
            if tokio::time::timeout(FLUSH, &mut sender).await.is_err() {
                sender.abort();
            }
        }
    }

    /// The call was dropped before it answered: nothing more goes out.
    pub(crate) fn abandon(&self) {
        self.close();
        if let Some(sender) = self
            .sender
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take()
        {
            sender.abort();
        }
    }
}

/// Abandons its outbox when dropped (a served call dropped before it answered: cancelled, its
/// session closed), so no sender task outlives the call.
pub(crate) struct Abandon<'a>(pub(crate) &'a Outbox);

impl Drop for Abandon<'_> {
    fn drop(&mut self) {
        self.0.abandon();
    }
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
    use crate::tool::logging::LogLevel;
    use crate::values::result::ToolResult;

    fn report(done: f64) -> Note {
        Note::Progress(Progress {
            done,
            total: None,
            message: None,
        })
    }

    #[tokio::test]
    async fn a_client_that_stops_reading_never_holds_the_call() {
        // Every send waits forever: the client reads nothing.
        let outbox = Outbox::new(Box::new(|_note| Box::pin(std::future::pending::<()>())));
        let listener = outbox.progress();
        let log = outbox.log(SessionLevel::default());
        // A tool that reports and logs a thousand times each, and answers.
        let running = async move {
            for step in 0..1000 {
                listener(Progress {
                    done: f64::from(step),
                    total: None,
                    message: None,
                });
                log(LogMessage::new(LogLevel::Info, "step"));
                tokio::task::yield_now().await;
            }
            ToolResult::ok("done")
        };
        // Answered after at most FLUSH; before issue 39 the call waited on the first send.
        let bound = Duration::from_secs(30);
        let result = tokio::time::timeout(bound, async {
            let result = running.await;
            outbox.finish().await;
            result
        })
        .await
        .expect("the call answers though its notes cannot be sent");
        assert_eq!(result.output, "done");
        assert!(outbox.lock().notes.len() <= QUEUE);
    }

    #[tokio::test]
    async fn a_full_queue_drops_the_oldest_and_the_newest_goes_out() {
        let sent = Arc::new(Mutex::new(Vec::new()));
        let seen = Arc::clone(&sent);
        // The sender cannot run before the test yields: every note is queued first.
        let outbox = Outbox::new(Box::new(move |note| {
            seen.lock().unwrap().push(note);
            Box::pin(async {})
        }));
        for step in 0..1000 {
            outbox.push(report(f64::from(step)));
        }
        assert_eq!(outbox.lock().notes.len(), QUEUE);
        outbox.finish().await;
        let sent = sent.lock().unwrap().clone();
        let expected: Vec<Note> = (1000 - QUEUE..1000).map(|s| report(s as f64)).collect();
        assert_eq!(
            sent, expected,
            "the newest {QUEUE}, in order, before the answer"
        );
    }

    #[tokio::test]
    async fn messages_below_the_sessions_level_are_not_sent_and_a_quiet_call_starts_no_sender() {
        let sent = Arc::new(Mutex::new(Vec::new()));
        let seen = Arc::clone(&sent);
        let outbox = Outbox::new(Box::new(move |note| {
            seen.lock().unwrap().push(note);
            Box::pin(async {})
        }));
        let level = SessionLevel::default();
        let log = outbox.log(level.clone());
        log(LogMessage::new(LogLevel::Debug, "hidden at info"));
        assert!(
            outbox.sender.lock().unwrap().is_none(),
            "nothing to send, no task"
        );
        log(LogMessage::new(LogLevel::Info, "sent").with_logger("copy"));
        level.set(LogLevel::Error);
        log(LogMessage::new(LogLevel::Warning, "hidden at error"));
        log(LogMessage::new(LogLevel::Emergency, "sent too"));
        level.set(LogLevel::Debug);
        log(LogMessage::new(LogLevel::Debug, "sent at debug"));
        outbox.finish().await;
        // After the call answered, nothing more goes out.
        log(LogMessage::new(LogLevel::Emergency, "too late"));
        let texts: Vec<String> = sent
            .lock()
            .unwrap()
            .iter()
            .map(|note| match note {
                Note::Log(message) => format!("{} {}", message.level, message.data),
                Note::Progress(_) => "progress".into(),
            })
            .collect();
        assert_eq!(
            texts,
            [
                r#"info "sent""#,
                r#"emergency "sent too""#,
                r#"debug "sent at debug""#
            ]
        );
    }

    #[tokio::test]
    async fn an_abandoned_call_ends_its_sender() {
        let outbox = Outbox::new(Box::new(|_note| Box::pin(std::future::pending::<()>())));
        outbox.push(report(1.0));
        // The sender takes the note and waits on its send forever.
        tokio::task::yield_now().await;
        assert_eq!(Arc::strong_count(&outbox), 2);
        drop(Abandon(&outbox));
        assert!(outbox.sender.lock().unwrap().is_none() && outbox.lock().closed);
        // The task is gone, and with it its hold on the outbox.
        for _ in 0..100 {
            if Arc::strong_count(&outbox) == 1 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        assert_eq!(Arc::strong_count(&outbox), 1);
    }
}
