//! The `#[tool]` attribute and `#[derive(ToolArgs)]` of `toolnexus`. Depend on `toolnexus`,
//! which re-exports both and documents them with examples.
//!
//! The pipeline, one module per step: `parse` reads the attribute and the fn into the model
//! (`ast`) and resolves the names, `validate` checks it against the rules (every mistake spanned
//! on the user's own token; parse and validation errors are collected together in `errors`),
//! `expand` generates the tool type and its `impl Tool`, and `fallback` emits the user's fn
//! unchanged next to the `compile_error!`s when something is wrong, so one mistake gives one
//! error and the rest of the crate still resolves. Beside them: `attr`, the grammar of
//! `#[tool(...)]` and of the parameter markers; `unraw`, identifiers (`r#` and the generated
//! type's name); `docs`, doc comments as text; `known`, the types known to fit.
#![forbid(unsafe_code)]

use proc_macro::TokenStream;

mod ast;
mod attr;
mod derive;
mod docs;
mod errors;
mod expand;
mod fallback;
mod known;
mod parse;
mod unraw;
mod validate;

/// Turns an ordinary `fn` or `async fn` into a tool; see `toolnexus::tool` for the full guide.
#[proc_macro_attribute]
pub fn tool(attr: TokenStream, item: TokenStream) -> TokenStream {
    tool_tokens(attr.into(), item.into()).into()
}

/// [`tool`] on `proc_macro2` tokens, so unit tests can run it.
fn tool_tokens(
    attr: proc_macro2::TokenStream,
    item: proc_macro2::TokenStream,
) -> proc_macro2::TokenStream {
    let func = match parse::item_fn(item.clone()) {
        Ok(func) => func,
        Err(error) => return fallback::not_a_fn(item, error),
    };
    // Parse and validation both record into `errors`, so all mistakes are reported together.
    let mut errors = errors::Errors::default();
    let tool = parse::tool(attr, &func, &mut errors);
    validate::tool(&tool, &mut errors);
    match errors.finish() {
        Ok(()) => expand::tool(&tool),
        Err(error) => fallback::tool(&tool, error),
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

#[cfg(test)]
mod tests {
    use quote::quote;

    use super::tool_tokens;

    fn expand(attr: proc_macro2::TokenStream, item: proc_macro2::TokenStream) -> String {
        tool_tokens(attr, item).to_string()
    }

    #[test]
    fn the_fallback_honours_a_renamed_crate_and_stubs_tools_with_state() {
        let out = expand(
            quote!(crate = "tn", name = "find user"),
            quote! {
                /// Find a user.
                fn find_user(#[state] db: &Db, id: u64) -> String { String::new() }
            },
        );
        assert!(out.contains("compile_error"), "{out}");
        assert!(out.contains("struct FindUser { db : Db }"), "{out}");
        assert!(out.contains("impl tn :: Tool for FindUser"), "{out}");
        assert!(!out.contains("toolnexus ::"), "{out}");
    }

    #[test]
    fn the_expansion_uses_the_renamed_crate_only() {
        let out = expand(
            quote!(crate = "tn"),
            quote! {
                /// Find a user.
                fn find_user(#[state] db: std::sync::Arc<Db>, id: u64) -> String { String::new() }
            },
        );
        assert!(!out.contains("compile_error"), "{out}");
        assert!(
            out.contains("tn :: __private :: impl_tool ! (FindUser ,"),
            "{out}"
        );
        assert!(!out.contains("toolnexus ::"), "{out}");
    }

    #[test]
    fn title_and_hints_reach_impl_tool_only_when_given() {
        let out = expand(
            quote!(title = "Delete file", destructive, read_only = false),
            quote! {
                /// Delete a file.
                fn delete(path: String) -> String { path }
            },
        );
        assert!(
            out.contains(
                "[] , title = \"Delete file\" , hints = [read_only = false , destructive = true]) ;"
            ),
            "{out}"
        );

        let plain = expand(
            quote!(),
            quote! {
                /// Add.
                fn add(a: i64, b: i64) -> i64 { a + b }
            },
        );
        assert!(!plain.contains("title"), "{plain}");
        assert!(!plain.contains("hints"), "{plain}");
    }

    #[test]
    fn every_wrong_value_in_the_attribute_is_reported_once() {
        let item = quote! {
            /// Add.
            fn add(a: i64) -> i64 { a }
        };
        let two = expand(
            quote!(read_only = "yes", title = 1, destructive),
            item.clone(),
        );
        assert_eq!(two.matches("compile_error").count(), 2, "{two}");
        // A value that does not parse stops the reading: no follow-on error after it.
        let one = expand(quote!(name = =, destructive), item);
        assert_eq!(one.matches("compile_error").count(), 1, "{one}");
    }

    #[test]
    fn the_argument_struct_is_generic_only_over_types_not_known_to_fit() {
        let out = expand(
            quote!(),
            quote! {
                /// Find a city.
                fn find(name: String, near: Option<Vec<f64>>, city: City, alias: std::string::String) -> String { name }
            },
        );
        assert!(
            out.contains("struct __toolnexus_find_args < __ToolnexusP0 , __ToolnexusP1 > { name : String , near : Option < Vec < f64 > > , city : __ToolnexusP0 , alias : __ToolnexusP1 }"),
            "{out}"
        );
        // The check fn covers the parameters not known to fit; a known one needs none.
        assert!(
            out.contains("City : :: toolnexus :: __private :: ToolParam"),
            "{out}"
        );
        assert!(
            out.contains("std :: string :: String : :: toolnexus :: __private :: ParamSchema"),
            "{out}"
        );
        assert!(
            !out.contains("Option < Vec < f64 > > : :: toolnexus"),
            "{out}"
        );

        let known = expand(
            quote!(),
            quote! {
                /// Add.
                fn add(a: i64, b: i64) -> i64 { a + b }
            },
        );
        assert!(
            known.contains("struct __toolnexus_add_args { a : i64 , b : i64 }"),
            "{known}"
        );
        assert!(!known.contains("__toolnexus_check"), "{known}");
    }

    #[test]
    fn the_generated_code_leaves_panics_to_the_toolkit() {
        let out = expand(
            quote!(),
            quote! {
                /// Add.
                fn add(a: i64, b: i64) -> i64 { a + b }
            },
        );
        assert!(!out.contains("catches_panics"), "{out}");
        assert!(!out.contains("guard"), "{out}");
    }
}
