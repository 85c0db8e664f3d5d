//! Step 1: the attribute and the fn, read into a [`Tool`] model.
//!
//! Only syntax is checked here: the attribute grammar (`name`, `description`, `crate`; each at
//! most once; string literals) and the attributes on parameters (`///` docs, `#[state]`,
//! `#[args]`). Nothing is silently ignored: anything else is an error on its own tokens.
//! The names are resolved here, once: the tool's name and the generated type's name.
//!
//! Parsing never stops at the first mistake: it records each in [`Errors`] and builds as much
//! of the model as it can, so validation still runs and every mistake is reported together.

use proc_macro2::{Delimiter, Group, Span, TokenStream, TokenTree};
use syn::spanned::Spanned;
use syn::{Attribute, FnArg, Ident, ItemFn, LitStr, Meta, Pat, Type};

use crate::docs;

/// A `#[tool]` fn, read.
pub struct Tool {
    /// The fn as written, minus the parameter attributes the macro consumes.
    pub func: ItemFn,
    /// The name the model calls.
    pub name: Name,
    /// `#[tool(description = "...")]`.
    pub description: Option<LitStr>,
    /// The path of the `toolnexus` crate: `#[tool(crate = "...")]`, `::toolnexus` if absent.
    pub krate: TokenStream,
    /// The fn's own doc comments, joined (see [`docs`]).
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
pub struct Name {
    /// The name.
    pub value: String,
    /// Where it was written.
    pub span: Span,
    /// Whether it comes from the fn's name (the fix then mentions `#[tool(name = "...")]`).
    pub from_fn: bool,
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
    /// Records one more mistake.
    pub fn push(&mut self, error: syn::Error) {
        match &mut self.0 {
            Some(all) => all.combine(error),
            None => self.0 = Some(error),
        }
    }

    /// Every mistake recorded, combined; `Ok` when there was none.
    pub fn finish(self) -> syn::Result<()> {
        self.0.map_or(Ok(()), Err)
    }
}

/// Parses the annotated item; anything but a fn is refused, spanned on its keyword.
///
/// The body is kept as tokens, not parsed: the macro never looks inside it, and its statements
/// are most of what parsing a fn costs (in a debug build, which is how proc macros are built).
pub fn item_fn(item: TokenStream) -> syn::Result<ItemFn> {
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
pub fn tool(attr: TokenStream, func: &ItemFn, errors: &mut Errors) -> Tool {
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
    let mut attr_ok = true;
    if let Err(e) = syn::parse::Parser::parse2(parser, attr) {
        attr_ok = false;
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
        krate,
        doc,
        type_ident,
        type_named,
        attr_ok,
        params,
    }
}

/// The name of the generated tool type: the fn's name in PascalCase (`get_weather` ->
/// `GetWeather`), spanned on the fn's name so "go to definition" lands there.
pub fn type_name(fn_ident: &Ident) -> syn::Result<Ident> {
    let fn_name = unraw(fn_ident);
    let mut out = String::with_capacity(fn_name.len());
    for part in fn_name.split('_') {
        let mut chars = part.chars();
        if let Some(first) = chars.next() {
            out.extend(first.to_uppercase());
            out.push_str(chars.as_str());
        }
    }
    let starts_ok = out
        .chars()
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_');
    if out.is_empty() || out == fn_name || !starts_ok || syn::parse_str::<Ident>(&out).is_err() {
        return Err(syn::Error::new(
            fn_ident.span(),
            format!(
                "`#[tool]` names the generated tool type after the fn in PascalCase, \
                 which does not work for `{fn_name}`; give the fn a snake_case name \
                 (and `#[tool(name = \"...\")]` for the name the model sees)"
            ),
        ));
    }
    Ok(Ident::new(&out, fn_ident.span()))
}

/// An identifier as written, without `r#`.
pub fn unraw(ident: &Ident) -> String {
    let s = ident.to_string();
    s.strip_prefix("r#").map(str::to_owned).unwrap_or(s)
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

/// One parameter, as far as it can be read: a marker given with arguments still counts, so the
/// fallback declares the same `#[state]` fields the user meant.
fn param(attrs: &[Attribute], pat: &Pat, ty: &Type, errors: &mut Errors) -> Param {
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

#[cfg(test)]
mod tests {
    use proc_macro2::Span;
    use syn::Ident;

    use super::type_name;

    fn name(s: &str) -> Option<String> {
        let ident = if let Some(raw) = s.strip_prefix("r#") {
            Ident::new_raw(raw, Span::call_site())
        } else {
            Ident::new(s, Span::call_site())
        };
        type_name(&ident).ok().map(|i| i.to_string())
    }

    #[test]
    fn tool_type_names() {
        assert_eq!(name("get_weather").as_deref(), Some("GetWeather"));
        assert_eq!(name("ping").as_deref(), Some("Ping"));
        assert_eq!(name("v2_api").as_deref(), Some("V2Api"));
        assert_eq!(name("_private").as_deref(), Some("Private"));
        assert_eq!(name("r#match").as_deref(), Some("Match"));
        assert_eq!(name("getWeather").as_deref(), Some("GetWeather"));
        // No usable PascalCase form: refused with a hint rather than a clash.
        assert_eq!(name("Weather"), None);
        assert_eq!(name("__"), None);
    }
}
