//! Step 1: the attribute and the fn, read into a [`Tool`] model.
//!
//! Only syntax is checked here: the attribute grammar (`name`, `description`, `crate`; each at
//! most once; string literals) and the attributes on parameters (`///` docs, `#[state]`,
//! `#[args]`). Nothing is silently ignored: anything else is an error on its own tokens.

use proc_macro2::{Span, TokenStream};
use syn::spanned::Spanned;
use syn::{Attribute, FnArg, Ident, ItemFn, LitStr, Meta, Pat, Type};

use crate::docs;

/// A `#[tool]` fn, read.
pub struct Tool {
    /// The fn as written, minus the parameter attributes the macro consumes.
    pub func: ItemFn,
    /// `#[tool(name = "...")]`.
    pub name: Option<LitStr>,
    /// `#[tool(description = "...")]`.
    pub description: Option<LitStr>,
    /// `#[tool(crate = "...")]`: the path of the `toolnexus` crate, `::toolnexus` if absent.
    pub krate: Option<syn::Path>,
    /// The fn's own doc comments, joined (see [`docs`]).
    pub doc: Option<String>,
    /// The parameters, in declaration order.
    pub params: Vec<Param>,
}

/// One parameter of the fn.
pub struct Param {
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
pub enum Kind {
    /// A property of the argument object.
    Arg,
    /// `#[state]`: a field of the tool type, not part of the schema.
    State,
    /// `#[args]`: the whole argument object.
    Args(Span),
}

/// Collects every error found, so that all mistakes are reported at once.
#[derive(Default)]
pub struct Errors(Option<syn::Error>);

impl Errors {
    pub fn push(&mut self, error: syn::Error) {
        match &mut self.0 {
            Some(all) => all.combine(error),
            None => self.0 = Some(error),
        }
    }

    pub fn finish(self) -> syn::Result<()> {
        self.0.map_or(Ok(()), Err)
    }
}

/// Parses the annotated item; anything but a fn is refused, spanned on its keyword.
pub fn item_fn(item: TokenStream) -> syn::Result<ItemFn> {
    match syn::parse2::<syn::Item>(item)? {
        syn::Item::Fn(func) => Ok(func),
        syn::Item::Verbatim(tokens) => {
            let fn_token = tokens.into_iter().find_map(|t| match t {
                proc_macro2::TokenTree::Ident(i) if i == "fn" => Some(i.span()),
                _ => None,
            });
            Err(match fn_token {
                Some(span) => syn::Error::new(
                    span,
                    "`#[tool]` needs a fn with a body: it goes on a free fn, not on a \
                     declaration in a trait or an `extern` block",
                ),
                None => syn::Error::new(
                    Span::call_site(),
                    "`#[tool]` goes on a `fn` or `async fn`",
                ),
            })
        }
        other => Err(syn::Error::new(
            item_keyword_span(&other),
            "`#[tool]` goes on a `fn` or `async fn`: the fn becomes a tool and a tool type is generated next to it",
        )),
    }
}

fn item_keyword_span(item: &syn::Item) -> Span {
    match item {
        syn::Item::Struct(i) => i.struct_token.span,
        syn::Item::Enum(i) => i.enum_token.span,
        syn::Item::Union(i) => i.union_token.span,
        syn::Item::Impl(i) => i.impl_token.span,
        syn::Item::Trait(i) => i.trait_token.span,
        syn::Item::Mod(i) => i.mod_token.span,
        syn::Item::Const(i) => i.const_token.span,
        syn::Item::Static(i) => i.static_token.span,
        syn::Item::Type(i) => i.type_token.span,
        syn::Item::Use(i) => i.use_token.span,
        other => other.span(),
    }
}

/// Reads the attribute arguments and the fn's parameters.
pub fn tool(attr: TokenStream, func: &ItemFn) -> syn::Result<Tool> {
    let mut errors = Errors::default();
    let mut name = None;
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
    if let Err(e) = syn::parse::Parser::parse2(parser, attr) {
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

    let doc = match docs::text(&func.attrs) {
        Ok(doc) => doc,
        Err(e) => {
            errors.push(e);
            None
        }
    };

    let mut func = func.clone();
    let mut params = Vec::new();
    for input in &mut func.sig.inputs {
        let FnArg::Typed(typed) = input else {
            // A receiver (`self`): refused by validation, with its span.
            continue;
        };
        match param(&typed.attrs, &typed.pat, &typed.ty) {
            Ok(p) => params.push(p),
            Err(e) => errors.push(e),
        }
        typed.attrs.clear();
    }

    errors.finish()?;
    Ok(Tool {
        func,
        name,
        description,
        krate,
        doc,
        params,
    })
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

fn param(attrs: &[Attribute], pat: &Pat, ty: &Type) -> syn::Result<Param> {
    let mut errors = Errors::default();
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
            continue;
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
    let doc_attrs: Vec<&Attribute> = attrs.iter().filter(|a| docs::is_doc(a)).collect();
    let doc_span = doc_attrs.first().map(|a| a.span());
    let doc = match docs::text(attrs) {
        Ok(doc) => doc,
        Err(e) => {
            errors.push(e);
            None
        }
    };
    errors.finish()?;
    let ident = match pat {
        Pat::Ident(p) => p.ident.clone(),
        other => Ident::new("__toolnexus_pattern", other.span()),
    };
    Ok(Param {
        ident,
        pat: pat.clone(),
        ty: ty.clone(),
        kind,
        doc,
        doc_span,
    })
}
