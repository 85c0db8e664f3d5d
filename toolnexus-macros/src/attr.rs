//! The attribute grammar: the arguments of `#[tool(...)]` (`name`, `description`, `crate`; each
//! at most once; string literals) and the markers on parameters (`#[state]`, `#[args]`, next to
//! `///` docs). Nothing is silently ignored: anything else is an error on its own tokens.

use proc_macro2::TokenStream;
use syn::spanned::Spanned;
use syn::{Attribute, Ident, LitStr, Meta};

use crate::ast::Kind;
use crate::docs;
use crate::errors::Errors;

/// What `#[tool(...)]` set.
#[derive(Default)]
pub struct ToolAttr {
    /// `name = "..."`.
    pub name: Option<LitStr>,
    /// `description = "..."`.
    pub description: Option<LitStr>,
    /// `crate = "..."`, parsed as a path.
    pub krate: Option<syn::Path>,
    /// Whether the whole attribute parsed. When it did not, what was read before the mistake
    /// is still here (so the fallback honours a renamed crate).
    pub ok: bool,
}

/// Reads the arguments of `#[tool(...)]`; the first mistake goes to `errors`.
pub fn tool(attr: TokenStream, errors: &mut Errors) -> ToolAttr {
    let mut name: Option<LitStr> = None;
    let mut description = None;
    let mut krate = None;

    let parser = syn::meta::parser(|meta| {
        let key = if meta.path.is_ident("name") {
            &mut name
        } else if meta.path.is_ident("description") {
            &mut description
        } else if meta.path.is_ident("crate") {
            let lit: LitStr = string_value(&meta)?;
            if krate.is_some() {
                return Err(meta.error("duplicate `crate`: give it once"));
            }
            krate = Some(lit.parse::<syn::Path>()?);
            return Ok(());
        } else {
            let shown = meta
                .path
                .get_ident()
                .map_or_else(|| "this key".to_owned(), |i| format!("`{i}`"));
            return Err(meta.error(format!(
                "unknown `#[tool]` key {shown}; expected `name = \"...\"`, \
                 `description = \"...\"` or `crate = \"...\"`"
            )));
        };
        let lit = string_value(&meta)?;
        if key.is_some() {
            let which = meta
                .path
                .get_ident()
                .map(Ident::to_string)
                .unwrap_or_default();
            return Err(meta.error(format!("duplicate `{which}`: give it once")));
        }
        *key = Some(lit);
        Ok(())
    });
    let starts_with_literal = matches!(
        attr.clone().into_iter().next(),
        Some(proc_macro2::TokenTree::Literal(_))
    );
    let mut ok = true;
    if let Err(e) = syn::parse::Parser::parse2(parser, attr) {
        ok = false;
        errors.push(if starts_with_literal {
            syn::Error::new(
                e.span(),
                "`#[tool]` takes `key = value` pairs: `#[tool(name = \"...\")]`, \
                 `#[tool(description = \"...\")]`",
            )
        } else {
            e
        });
    }
    ToolAttr {
        name,
        description,
        krate,
        ok,
    }
}

/// `key = "text"`, with an error on the value otherwise.
fn string_value(meta: &syn::meta::ParseNestedMeta) -> syn::Result<LitStr> {
    let key = meta
        .path
        .get_ident()
        .map(Ident::to_string)
        .unwrap_or_default();
    let value = meta
        .value()
        .map_err(|_| meta.error(format!("`{key}` needs a value: `{key} = \"...\"`")))?;
    let expr: syn::Expr = value.parse()?;
    match expr {
        syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(s),
            ..
        }) => Ok(s),
        other => Err(syn::Error::new_spanned(
            other,
            format!("`{key}` takes a string literal: `{key} = \"...\"`"),
        )),
    }
}

/// What the attributes on a parameter mark it as; every mistake goes to `errors`. A marker
/// given with arguments still counts, so the fallback declares the same `#[state]` fields the
/// user meant.
pub fn param_kind(attrs: &[Attribute], errors: &mut Errors) -> Kind {
    let mut kind = Kind::Arg;
    for attr in attrs {
        if docs::is_doc(attr) {
            continue;
        }
        let marker = if attr.path().is_ident("state") {
            Some(Kind::State)
        } else if attr.path().is_ident("args") {
            Some(Kind::Args(attr.path().span()))
        } else {
            None
        };
        let Some(marker) = marker else {
            errors.push(syn::Error::new_spanned(
                attr,
                "unsupported attribute on a tool parameter: only `///` docs, `#[state]` \
                 and `#[args]` are allowed here",
            ));
            continue;
        };
        if !matches!(attr.meta, Meta::Path(_)) {
            errors.push(syn::Error::new_spanned(
                &attr.meta,
                format!(
                    "`#[{}]` takes no arguments",
                    attr.path()
                        .get_ident()
                        .map(Ident::to_string)
                        .unwrap_or_default()
                ),
            ));
        }
        if !matches!(kind, Kind::Arg) {
            errors.push(syn::Error::new_spanned(
                attr,
                "a parameter is either a property, `#[state]` or `#[args]`: mark it once",
            ));
            continue;
        }
        kind = marker;
    }
    kind
}
