//! Step 1: the attribute and the fn, read into the model ([`ast`](crate::ast)).
//!
//! Only syntax is checked here: the attribute grammar lives in [`attr`](crate::attr), the
//! identifiers in [`unraw`](crate::unraw). The names are resolved here, once: the tool's name
//! and the generated type's name.
//!
//! Parsing never stops at the first mistake: it records each in [`Errors`] and builds as much
//! of the model as it can, so validation still runs and every mistake is reported together.

use proc_macro2::{Delimiter, Group, Span, TokenStream, TokenTree};
use syn::spanned::Spanned;
use syn::{Attribute, FnArg, Ident, ItemFn, Pat, Type};

use crate::ast::{Kind, Name, Param, Tool};
use crate::errors::Errors;
use crate::unraw::{type_name, unraw};
use crate::{attr, docs, known};

/// Parses the annotated item; anything but a fn is refused, spanned on its keyword.
///
/// The body is kept as tokens, not parsed: the macro never looks inside it, and its statements
/// are most of what parsing a fn costs (in a debug build, which is how proc macros are built).
pub(crate) fn item_fn(item: TokenStream) -> syn::Result<ItemFn> {
    let mut tokens: Vec<TokenTree> = item.clone().into_iter().collect();
    if let Some(TokenTree::Group(body)) = tokens.pop() {
        if body.delimiter() == Delimiter::Brace {
            let empty = Group::new(Delimiter::Brace, TokenStream::new());
            tokens.push(TokenTree::Group(empty));
            if let Ok(syn::Item::Fn(mut func)) = syn::parse2(tokens.into_iter().collect()) {
                func.block = Box::new(syn::Block {
                    brace_token: syn::token::Brace(body.delim_span()),
                    stmts: vec![syn::Stmt::Item(syn::Item::Verbatim(body.stream()))],
                });
                return Ok(func);
            }
        }
    }
    // Not `... { body }`, or not a fn: parsed whole, to say what it is.
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

/// Reads the attribute arguments and the fn's parameters; every mistake goes to `errors`.
pub(crate) fn tool(attr: TokenStream, func: &ItemFn, errors: &mut Errors) -> Tool {
    let attr::ToolAttr {
        name,
        description,
        title,
        krate,
        hints,
        ok: mut attr_ok,
    } = attr::tool(attr, errors);

    let doc = match docs::text(&func.attrs) {
        Ok(doc) => doc,
        Err(e) => {
            attr_ok = false;
            errors.push(e);
            None
        }
    };

    let fn_ident = &func.sig.ident;
    let name = match name {
        Some(lit) => Name {
            value: lit.value(),
            span: lit.span(),
            from_fn: false,
        },
        None => Name {
            value: unraw(fn_ident),
            span: fn_ident.span(),
            from_fn: true,
        },
    };
    let (type_ident, type_named) = match type_name(fn_ident) {
        Ok(ident) => (ident, true),
        Err(e) => {
            errors.push(e);
            (Ident::new("__ToolnexusUnnamed", fn_ident.span()), false)
        }
    };
    let krate = match krate {
        Some(path) => quote::quote!(#path),
        None => quote::quote!(::toolnexus),
    };

    let mut func = func.clone();
    let mut params = Vec::new();
    for input in &mut func.sig.inputs {
        let FnArg::Typed(typed) = input else {
            // A receiver (`self`): refused by validation, with its span.
            continue;
        };
        params.push(param(&typed.attrs, &typed.pat, &typed.ty, errors));
        typed.attrs.clear();
    }

    Tool {
        func,
        name,
        description,
        title,
        hints,
        krate,
        doc,
        type_ident,
        type_named,
        attr_ok,
        params,
    }
}

/// One parameter, as far as it can be read.
fn param(attrs: &[Attribute], pat: &Pat, ty: &Type, errors: &mut Errors) -> Param {
    let kind = match attr::param_kind(attrs, errors) {
        // Known by its type; with `#[state]` or `#[args]` it stays what it is marked, and
        // validation refuses the mark.
        Kind::Arg if known::context(ty) => Kind::Context,
        kind => kind,
    };
    let doc_attrs: Vec<&Attribute> = attrs.iter().filter(|a| docs::is_doc(a)).collect();
    let doc_span = doc_attrs.first().map(|a| a.span());
    let doc = match docs::text(attrs) {
        Ok(doc) => doc,
        Err(e) => {
            errors.push(e);
            None
        }
    };
    let ident = match pat {
        Pat::Ident(p) => p.ident.clone(),
        other => Ident::new("__toolnexus_pattern", other.span()),
    };
    Param {
        ident,
        pat: pat.clone(),
        ty: ty.clone(),
        kind,
        doc,
        doc_span,
    }
}
