//! The model of a `#[tool]` fn: what `parse` reads, `validate` checks and `expand` (or
//! `fallback`) turns into code. Plain data, no logic.

use proc_macro2::{Span, TokenStream};
use syn::{Ident, ItemFn, LitStr, Pat, Type};

/// A `#[tool]` fn, read.
pub(crate) struct Tool {
    /// The fn as written, minus the parameter attributes the macro consumes.
    pub func: ItemFn,
    /// The name the model calls.
    pub name: Name,
    /// `#[tool(description = "...")]`.
    pub description: Option<LitStr>,
    /// `#[tool(title = "...")]`: the name people see (MCP's `title`).
    pub title: Option<LitStr>,
    /// The hint keys of `#[tool(...)]`.
    pub hints: Hints,
    /// The path of the `toolnexus` crate: `#[tool(crate = "...")]`, `::toolnexus` if absent.
    pub krate: TokenStream,
    /// The fn's own doc comments, joined (see [`docs`](crate::docs)).
    pub doc: Option<String>,
    /// The generated tool type: the fn's name in PascalCase, spanned on the fn's name.
    pub type_ident: Ident,
    /// `false` when the fn's name has no usable PascalCase form: an error says so, and
    /// `type_ident` is only a placeholder that the fallback does not declare.
    pub type_named: bool,
    /// Whether the attribute and the fn's docs parsed, so that what they set can be checked
    /// (after a malformed attribute a missing description would be a false alarm).
    pub attr_ok: bool,
    /// The parameters that parsed, in declaration order.
    pub params: Vec<Param>,
}

/// The tool's name: `#[tool(name = "...")]` or the fn's name without `r#`.
pub(crate) struct Name {
    /// The name.
    pub value: String,
    /// Where it was written.
    pub span: Span,
    /// Whether it comes from the fn's name (the fix then mentions `#[tool(name = "...")]`).
    pub from_fn: bool,
}

/// The hint keys of `#[tool(...)]` (MCP's tool annotations): each `None` unless given, `true`
/// when given bare.
#[derive(Clone, Copy, Default)]
pub(crate) struct Hints {
    /// `read_only`.
    pub read_only: Option<bool>,
    /// `destructive`.
    pub destructive: Option<bool>,
    /// `idempotent`.
    pub idempotent: Option<bool>,
    /// `open_world`.
    pub open_world: Option<bool>,
}

/// One parameter of the fn.
pub(crate) struct Param {
    /// The pattern as written; validation accepts only a plain name.
    pub pat: Pat,
    /// That name (a placeholder spanned on the pattern when it is not a plain name).
    pub ident: Ident,
    /// Its type.
    pub ty: Type,
    /// What it is for.
    pub kind: Kind,
    /// Its `///` docs, joined.
    pub doc: Option<String>,
    /// The span of its `///` docs, for errors about them.
    pub doc_span: Option<Span>,
}

/// What a parameter is for.
#[derive(Clone, Copy)]
pub(crate) enum Kind {
    /// A property of the argument object.
    Arg,
    /// `#[state]`: a field of the tool type, not part of the schema.
    State,
    /// `#[args]`: the whole argument object.
    Args(Span),
    /// A `CallContext` (recognised by its type): the call's context, not part of the schema.
    Context,
}
