//! [`Toolkit`]: the tools an application offers, found by name and executed (`tools`; declared
//! first, so rustdoc lists `new` and `with` first), rendered per provider (`render`), its round
//! trip (`respond`), subsets (`selection`), and the policy and hooks on its one call path
//! (`gate`).

use std::borrow::Cow;

use serde_json::Value;

// First, and apart (rustfmt sorts a group of `mod`s): rustdoc lists `Toolkit`'s methods part by
// part in this order, and its page should open with `new` and `with`. The type is defined there
// too, next to that impl, so rustc's notes name `Toolkit::with` rather than a module path.
mod tools;

mod gate;
mod render;
mod respond;
pub(crate) mod selection;
#[cfg(test)]
mod tests;
pub(crate) use gate::{refused, Approved};
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
