//! [`RanCalls`]: the calls of a streamed response that had already run when it ended, as a
//! [`ResponseError`](super::ResponseError) names them.

use std::fmt;

use crate::values::call::ToolCall;
use crate::values::text::echo_name;

/// How many calls an error text names; past it, it counts the rest.
const NAMED: usize = 8;

/// The calls of a streamed response that had already run (or been answered) when the stream
/// ended: a [`ResponseError`](super::ResponseError) from a stream carries them, so its own text
/// (what `?` converts a [`StreamError`](crate::stream::StreamError) to, what a log prints) says exactly
/// which calls ran. Empty for a whole response, none of whose calls run when it is refused.
///
/// ```
/// use toolnexus::{Dialect, ResponseError, RunOptions, Toolkit};
/// use toolnexus::stream::StreamTurn;
///
/// let toolkit = Toolkit::new();
/// # tokio::runtime::Builder::new_current_thread().enable_time().build().unwrap().block_on(async {
/// let mut turn = StreamTurn::new(&toolkit, Dialect::OpenAiChat, RunOptions::default());
/// let _ = turn.feed_bytes(b"data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hel\"}}]}\n\n");
/// let err: ResponseError = turn.finish().await.unwrap_err().into();
/// assert!(matches!(&err, ResponseError::Dropped { ran, .. } if ran.is_empty()));
/// assert!(err.to_string().ends_with("no call was run"));
/// # });
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RanCalls {
    /// Each call's name and id, in call order.
    calls: Vec<(String, Option<String>)>,
}

impl RanCalls {
    /// The calls `calls` (a stream's, in call order).
    pub(crate) fn of(calls: &[ToolCall]) -> Self {
        Self {
            calls: calls
                .iter()
                .map(|c| (c.name.clone(), c.id.clone()))
                .collect(),
        }
    }

    /// How many calls had run.
    #[must_use]
    pub fn len(&self) -> usize {
        self.calls.len()
    }

    /// Whether no call had run.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.calls.is_empty()
    }

    /// Each call's name and id (Gemini's may have none), in call order.
    #[must_use]
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (&str, Option<&str>)> + '_ {
        self.calls
            .iter()
            .map(|(name, id)| (name.as_str(), id.as_deref()))
    }
}

impl fmt::Display for RanCalls {
    /// ``the 1 call whose arguments had completed ran: `get_weather` (`call_1`); its result is
    /// attached``: names are escaped and cut as every echoed name is, and past 8 calls the rest
    /// are counted.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.calls.len();
        let (calls, them) = match n {
            1 => ("call", "its result is attached"),
            _ => ("calls", "their results are attached"),
        };
        write!(
            f,
            "only the {n} {calls} whose arguments had completed ran: "
        )?;
        for (i, (name, id)) in self.calls.iter().take(NAMED).enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "`{}`", echo_name(name))?;
            if let Some(id) = id {
                write!(f, " (`{}`)", echo_name(id))?;
            }
        }
        if n > NAMED {
            write!(f, " and {} more", n - NAMED)?;
        }
        write!(f, "; {them}")
    }
}
