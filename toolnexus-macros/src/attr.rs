//! The attribute grammar: the arguments of `#[tool(...)]` and the markers on parameters
//! (`#[state]`, `#[args]`, next to `///` docs). The arguments, each at most once: `name`,
//! `description`, `title` and `crate`, string literals; the hints `read_only`, `destructive`,
//! `idempotent` and `open_world`, bare (`true`) or `= true` / `= false`. Nothing is silently
//! ignored: anything else is an error on its own tokens.

use proc_macro2::TokenStream;
use syn::meta::ParseNestedMeta;
use syn::spanned::Spanned;
use syn::{Attribute, Ident, LitStr, Meta, Token};

use crate::ast::{Hints, Kind};
use crate::docs;
use crate::errors::Errors;

/// What `#[tool(...)]` set.
#[derive(Default)]
pub(crate) struct ToolAttr {
    /// `name = "..."`.
    pub name: Option<LitStr>,
    /// `description = "..."`.
    pub description: Option<LitStr>,
    /// `title = "..."`.
    pub title: Option<LitStr>,
    /// `crate = "..."`, parsed as a path.
    pub krate: Option<syn::Path>,
    /// `read_only`, `destructive`, `idempotent`, `open_world`.
    pub hints: Hints,
    /// Whether the whole attribute parsed. When it did not, what was read before and after the
    /// mistakes is still here (so the fallback honours a renamed crate).
    pub ok: bool,
}

/// Reads the arguments of `#[tool(...)]`; every mistake goes to `errors`. A wrong value or a
/// repeated key is recorded and reading goes on with the next key; after anything else (an
/// unknown key, a value that does not parse) the rest of the attribute cannot be read.
pub(crate) fn tool(attr: TokenStream, errors: &mut Errors) -> ToolAttr {
    let mut out = ToolAttr::default();
    let mut found = Errors::default();

    let parser = syn::meta::parser(|meta| {
        let key = key_name(&meta);
        let result = if let Some(slot) = string_slot(&mut out, &key) {
            string_value(&meta, &key).and_then(|lit| once(slot, lit, &meta, &key))
        } else if let Some(slot) = hint_slot(&mut out.hints, &key) {
            bool_value(&meta, &key).and_then(|yes| once(slot, yes, &meta, &key))
        } else if key == "crate" {
            string_value(&meta, &key)
                .and_then(|lit| lit.parse::<syn::Path>())
                .and_then(|path| once(&mut out.krate, path, &meta, &key))
        } else {
            let shown = meta
                .path
                .get_ident()
                .map_or_else(|| "this key".to_owned(), |i| format!("`{i}`"));
            return Err(meta.error(format!(
                "unknown `#[tool]` key {shown}; expected `name = \"...\"`, \
                 `description = \"...\"`, `title = \"...\"`, `crate = \"...\"` or a hint: \
                 `read_only`, `destructive`, `idempotent`, `open_world` (alone for `true`, \
                 or `= false`)"
            )));
        };
        match result {
            // The value was read whole, so the next key can still be.
            Err(e) if meta.input.is_empty() || meta.input.peek(Token![,]) => {
                found.push(e);
                Ok(())
            }
            other => other,
        }
    });
    let starts_with_literal = matches!(
        attr.clone().into_iter().next(),
        Some(proc_macro2::TokenTree::Literal(_))
    );
    let stopped = syn::parse::Parser::parse2(parser, attr).err();
    let found = found.finish();
    out.ok = found.is_ok() && stopped.is_none();
    if let Err(e) = found {
        errors.push(e);
    }
    if let Some(e) = stopped {
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
    out
}

/// The key as written (empty for a path such as `a::b`, which no key matches).
fn key_name(meta: &ParseNestedMeta) -> String {
    meta.path
        .get_ident()
        .map(Ident::to_string)
        .unwrap_or_default()
}

/// Where a string-valued key goes (`crate` is read as a path, apart).
fn string_slot<'a>(attr: &'a mut ToolAttr, key: &str) -> Option<&'a mut Option<LitStr>> {
    match key {
        "name" => Some(&mut attr.name),
        "description" => Some(&mut attr.description),
        "title" => Some(&mut attr.title),
        _ => None,
    }
}

/// Where a hint key goes.
fn hint_slot<'a>(hints: &'a mut Hints, key: &str) -> Option<&'a mut Option<bool>> {
    match key {
        "read_only" => Some(&mut hints.read_only),
        "destructive" => Some(&mut hints.destructive),
        "idempotent" => Some(&mut hints.idempotent),
        "open_world" => Some(&mut hints.open_world),
        _ => None,
    }
}

/// Fills `slot`, or says the key was already given.
fn once<T>(slot: &mut Option<T>, value: T, meta: &ParseNestedMeta, key: &str) -> syn::Result<()> {
    if slot.is_some() {
        return Err(meta.error(format!("duplicate `{key}`: give it once")));
    }
    *slot = Some(value);
    Ok(())
}

/// `key = "text"`, with an error on the value otherwise.
fn string_value(meta: &ParseNestedMeta, key: &str) -> syn::Result<LitStr> {
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

/// A hint: `key` alone (`true`), `key = true` or `key = false`, with an error on anything else.
fn bool_value(meta: &ParseNestedMeta, key: &str) -> syn::Result<bool> {
    let fix =
        format!("`{key}` takes `true` or `false`: `{key} = false`, or `{key}` alone for `true`");
    if meta.input.is_empty() || meta.input.peek(Token![,]) {
        return Ok(true);
    }
    if !meta.input.peek(Token![=]) {
        // `read_only(true)`, say: skipped up to the next key, which can still be read.
        let mut stray = TokenStream::new();
        while !meta.input.is_empty() && !meta.input.peek(Token![,]) {
            stray.extend([meta.input.parse::<proc_macro2::TokenTree>()?]);
        }
        return Err(syn::Error::new_spanned(stray, fix));
    }
    let expr: syn::Expr = meta.value()?.parse()?;
    match expr {
        syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Bool(b),
            ..
        }) => Ok(b.value),
        other => Err(syn::Error::new_spanned(other, fix)),
    }
}

/// What the attributes on a parameter mark it as; every mistake goes to `errors`. A marker
/// given with arguments still counts, so the fallback declares the same `#[state]` fields the
/// user meant.
pub(crate) fn param_kind(attrs: &[Attribute], errors: &mut Errors) -> Kind {
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
