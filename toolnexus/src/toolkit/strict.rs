//! Which dialects' strict tools a toolkit handed out (`Toolkit::tools_for`,
//! `Selection::tools_for`): their calls are read as strict calls.

use std::sync::atomic::{AtomicU32, Ordering};

use crate::values::dialect::Dialect;
use crate::wire::options::ToolsOptions;

/// The dialects whose tools this toolkit (or one of its selections) has handed out in strict
/// mode where strict mode makes the model send `null` for an optional argument, one bit per
/// dialect: their calls are then read as strict calls (see
/// [`RunOptions::openai_strict`](crate::RunOptions::openai_strict)) without the host saying so
/// again. Kept when a tool is added; a clone starts with the same bits.
#[derive(Default)]
pub(super) struct StrictDialects(AtomicU32);

impl StrictDialects {
    /// Notes that tools for `dialect` under `options` were handed out.
    pub(crate) fn note(&self, dialect: Dialect, options: ToolsOptions) {
        if options.strict() && dialect.facts().strict_nulls {
            self.0.fetch_or(1 << dialect as u32, Ordering::Relaxed);
        }
    }

    pub(super) fn has(&self, dialect: Dialect) -> bool {
        self.0.load(Ordering::Relaxed) & (1 << dialect as u32) != 0
    }
}

impl Clone for StrictDialects {
    fn clone(&self) -> Self {
        Self(AtomicU32::new(self.0.load(Ordering::Relaxed)))
    }
}
