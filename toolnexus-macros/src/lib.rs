//! The `#[tool]` attribute and `#[derive(ToolArgs)]` of `toolnexus`. Depend on `toolnexus`,
//! which re-exports both and documents them with examples.
//!
//! The pipeline, one module per step: `parse` reads the attribute and the fn into a model,
//! `validate` checks it against the rules (every mistake spanned on the user's own token),
//! `expand` generates the tool type and its `impl Tool`, and `fallback` emits the user's fn
//! unchanged next to the `compile_error!`s when something is wrong, so one mistake gives one
//! error and the rest of the crate still resolves.
#![forbid(unsafe_code)]

use proc_macro::TokenStream;

mod derive;
mod docs;
mod expand;
mod fallback;
mod parse;
mod validate;

/// Turns an ordinary `fn` or `async fn` into a tool; see `toolnexus::tool` for the full guide.
#[proc_macro_attribute]
pub fn tool(attr: TokenStream, item: TokenStream) -> TokenStream {
    let attr = proc_macro2::TokenStream::from(attr);
    let item = proc_macro2::TokenStream::from(item);
    let func = match parse::item_fn(item.clone()) {
        Ok(func) => func,
        Err(error) => return fallback::not_a_fn(item, error).into(),
    };
    match parse::tool(attr, &func).and_then(|tool| {
        validate::tool(&tool)?;
        Ok(tool)
    }) {
        Ok(tool) => expand::tool(&tool).into(),
        Err(error) => fallback::tool(&func, error).into(),
    }
}

/// Derives `ToolArgs`, so a struct can be a `#[tool]`'s whole argument object.
///
/// The struct has named fields (an enum, a tuple or a unit struct is a compile error on it) and
/// is the type of a parameter marked `#[args]`. The `ToolArgs` trait's documentation has an
/// example.
#[proc_macro_derive(ToolArgs, attributes(tool_args))]
pub fn derive_tool_args(input: TokenStream) -> TokenStream {
    derive::tool_args(input.into()).into()
}
