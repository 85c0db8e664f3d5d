//! MCP's logging, server side: the level a session's client set (`logging/setLevel`) and a
//! tool's message sent as `notifications/message`.
//!
//! rmcp marks its logging types deprecated (SEP-2577 drops logging after protocol 2025-11-25),
//! but every client of 2025-11-25 and before, the one this crate's client asks for among them,
//! has it, and the MCP conformance suite checks it: hence the `allow` on this module alone.
#![allow(deprecated)]

use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::Arc;

use rmcp::model::{LoggingLevel, LoggingMessageNotificationParam};
use rmcp::{Peer, RoleServer};

use crate::tool::logging::{LogLevel, LogMessage};

/// The level one session's client set with `logging/setLevel` (`info` until it sets one),
/// shared by its calls.
#[derive(Clone, Debug)]
pub(crate) struct SessionLevel(Arc<AtomicU8>);

impl Default for SessionLevel {
    fn default() -> Self {
        Self(Arc::new(AtomicU8::new(LogLevel::Info as u8)))
    }
}

impl SessionLevel {
    pub(crate) fn get(&self) -> LogLevel {
        let at = self.0.load(Ordering::Relaxed);
        LogLevel::ALL[usize::from(at).min(LogLevel::ALL.len() - 1)]
    }

    pub(crate) fn set(&self, level: LogLevel) {
        self.0.store(level as u8, Ordering::Relaxed);
    }
}

/// A level as rmcp spells it.
fn level(level: LogLevel) -> LoggingLevel {
    match level {
        LogLevel::Debug => LoggingLevel::Debug,
        LogLevel::Info => LoggingLevel::Info,
        LogLevel::Notice => LoggingLevel::Notice,
        LogLevel::Warning => LoggingLevel::Warning,
        LogLevel::Error => LoggingLevel::Error,
        LogLevel::Critical => LoggingLevel::Critical,
        LogLevel::Alert => LoggingLevel::Alert,
        LogLevel::Emergency => LoggingLevel::Emergency,
    }
}

/// A level rmcp read from a client.
pub(crate) fn from_rmcp(level: LoggingLevel) -> LogLevel {
    match level {
        LoggingLevel::Debug => LogLevel::Debug,
        LoggingLevel::Info => LogLevel::Info,
        LoggingLevel::Notice => LogLevel::Notice,
        LoggingLevel::Warning => LogLevel::Warning,
        LoggingLevel::Error => LogLevel::Error,
        LoggingLevel::Critical => LogLevel::Critical,
        LoggingLevel::Alert => LogLevel::Alert,
        LoggingLevel::Emergency => LogLevel::Emergency,
    }
}

/// Sends `message` to the client as `notifications/message`.
pub(crate) async fn send(peer: &Peer<RoleServer>, message: LogMessage) {
    let mut param = LoggingMessageNotificationParam::new(level(message.level), message.data);
    param.logger = message.logger;
    let _ = peer.notify_logging_message(param).await;
}
