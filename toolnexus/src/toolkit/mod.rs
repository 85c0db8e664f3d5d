//! [`Toolkit`]: the type and its public methods (`tools`), its crate-private call engine
//! (`engine`), and what those methods lean on: the policy's gate and the hooks on the one call
//! path (`gate`), the dialects whose strict tools were handed out (`strict`), subsets
//! (`selection`), a resumed turn's plans (`resume`).

use std::borrow::Cow;

use serde_json::Value;

use crate::values::call::Arguments;

mod engine;
mod gate;
mod resume;
pub(crate) mod selection;
mod strict;
#[cfg(test)]
mod tests;
mod tools;

pub use tools::Toolkit;

/// A call's arguments as they reach [`Toolkit::call`].
pub(crate) enum Input<'a> {
    /// None were sent: `{}`.
    Absent,
    /// JSON text, as OpenAI sends it.
    Text(Cow<'a, str>),
    /// A JSON value, as Anthropic and Gemini send it.
    Value(Value),
}

impl<'a> Input<'a> {
    /// A call's arguments as they reach the call path, borrowed (a value is copied for the tool
    /// that takes it).
    pub(crate) fn borrowed(arguments: &'a Arguments) -> Self {
        match arguments {
            Arguments::Absent => Self::Absent,
            Arguments::Text(text) => Self::Text(Cow::Borrowed(text)),
            Arguments::Value(value) => Self::Value(value.clone()),
        }
    }
}
