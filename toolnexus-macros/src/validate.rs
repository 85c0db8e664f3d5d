//! Step 2: the rules a `#[tool]` fn must follow, each broken rule an error spanned on the
//! user's offending token (never on `#[tool]` itself), with the fix in the message.

use proc_macro2::Span;
use syn::{FnArg, GenericArgument, Pat, PathArguments, Type};

use crate::ast::{Kind, Name, Param, Tool};
use crate::errors::Errors;

/// The longest tool name every provider accepts (mirrors `toolnexus::name::MAX_LEN`).
const MAX_NAME_LEN: usize = 64;

/// Checks everything the parse produced; every broken rule goes to `errors`.
pub(crate) fn tool(tool: &Tool, errors: &mut Errors) {
    if tool.attr_ok {
        name(tool, errors);
        description(tool, errors);
    }
    signature(tool, errors);
    params(tool, errors);
}

fn name(tool: &Tool, errors: &mut Errors) {
    let Name {
        value: name,
        span,
        from_fn,
    } = &tool.name;
    let span = *span;
    let fix = if *from_fn {
        "; set the name the model sees with `#[tool(name = \"...\")]`"
    } else {
        ""
    };
    if name.is_empty() {
        errors.push(syn::Error::new(span, "a tool name must not be empty"));
    } else if let Some(c) = name
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || *c == '_' || *c == '-'))
    {
        errors.push(syn::Error::new(
            span,
            format!(
                "invalid tool name `{name}`: `{c}` is not allowed; use only A-Z, a-z, 0-9, `_` and `-`{fix}"
            ),
        ));
    } else if name.len() > MAX_NAME_LEN {
        errors.push(syn::Error::new(
            span,
            format!(
                "invalid tool name: it has {} characters; the limit is {MAX_NAME_LEN}{fix}",
                name.len()
            ),
        ));
    }
}

fn description(tool: &Tool, errors: &mut Errors) {
    match &tool.description {
        Some(lit) if lit.value().trim().is_empty() => errors.push(syn::Error::new(
            lit.span(),
            "the description must not be empty: the model reads it to decide when to call the tool",
        )),
        Some(_) => {}
        None if tool.doc.is_none() => errors.push(syn::Error::new(
            tool.func.sig.ident.span(),
            "this tool has no description, and the model needs one to decide when to call it; \
             add a /// doc comment to the fn or #[tool(description = \"...\")]",
        )),
        None => {}
    }
}

fn signature(tool: &Tool, errors: &mut Errors) {
    let sig = &tool.func.sig;
    if let syn::Safety::Unsafe(token) = &sig.safety {
        errors.push(syn::Error::new(
            token.span,
            "a tool fn cannot be `unsafe`: the model decides when it runs; \
             make the fn safe and use `unsafe` blocks inside",
        ));
    }
    if let Some(abi) = &sig.abi {
        errors.push(syn::Error::new_spanned(
            abi,
            "a tool fn cannot have an `extern` ABI; wrap the extern fn in an ordinary one",
        ));
    }
    if !sig.generics.params.is_empty() {
        errors.push(syn::Error::new_spanned(
            &sig.generics,
            "a tool fn cannot be generic: its argument schema is generated from concrete types; \
             use concrete types (or write one `#[tool]` fn per type)",
        ));
    }
    if let Some(clause) = &sig.generics.where_clause {
        errors.push(syn::Error::new_spanned(
            clause,
            "a tool fn cannot have a `where` clause: its parameters need concrete types",
        ));
    }
    if let Some(variadic) = &sig.variadic {
        errors.push(syn::Error::new_spanned(
            variadic,
            "a tool fn cannot be variadic",
        ));
    }
    for input in &sig.inputs {
        if let FnArg::Receiver(receiver) = input {
            errors.push(syn::Error::new(
                receiver.self_token.span,
                "a tool cannot take `self`: write a free fn, and pass what `self` held as a \
                 `#[state]` parameter (it becomes a field of the generated tool type)",
            ));
        }
    }
}

fn params(tool: &Tool, errors: &mut Errors) {
    let args = tool
        .params
        .iter()
        .filter(|p| matches!(p.kind, Kind::Args(_)))
        .count();
    let mut args_seen = 0;
    let mut contexts_seen = 0;
    for param in &tool.params {
        pattern(param, errors);
        if !matches!(param.kind, Kind::Context) && crate::known::context(&param.ty) {
            errors.push(syn::Error::new_spanned(
                &param.ty,
                "a `CallContext` parameter takes no `#[state]` or `#[args]`: it is recognised \
                 by its type, and each call hands the tool its own; remove the attribute",
            ));
            continue;
        }
        match param.kind {
            Kind::Context => {
                contexts_seen += 1;
                context(param, contexts_seen, errors);
            }
            Kind::Arg => {
                if args > 0 {
                    errors.push(syn::Error::new_spanned(
                        &param.pat,
                        "`#[args]` takes the whole argument object, so there can be no other \
                         argument parameter; move this one into the `#[args]` struct as a field \
                         (or mark it `#[state]` if it is application state)",
                    ));
                } else {
                    argument_type(&param.ty, errors);
                }
            }
            Kind::Args(span) => {
                args_seen += 1;
                if args_seen > 1 {
                    errors.push(syn::Error::new(
                        span,
                        "only one parameter can be `#[args]`: it is the whole argument object, and an earlier parameter already is",
                    ));
                }
                if let Some(doc_span) = param.doc_span {
                    errors.push(syn::Error::new(
                        doc_span,
                        "docs on an `#[args]` parameter would be lost: document the struct's \
                         fields (they become the properties' descriptions) or the fn",
                    ));
                }
                argument_type(&param.ty, errors);
            }
            Kind::State => state_type(&param.ty, errors),
        }
    }
}

/// The call's context: one per fn, by value or `&`, and no docs (it is not in the schema).
fn context(param: &Param, seen: usize, errors: &mut Errors) {
    if seen > 1 {
        errors.push(syn::Error::new_spanned(
            &param.ty,
            "only one parameter can be the `CallContext`: each call has one, and an earlier \
             parameter already takes it; remove this one (the context is `Clone`)",
        ));
    }
    if let Type::Reference(r) = &param.ty {
        if let Some(m) = &r.mutability {
            errors.push(syn::Error::new(
                m.span,
                "a `CallContext` cannot be taken by `&mut`: there is nothing in it to change; \
                 take `CallContext` (or `&CallContext`)",
            ));
        }
    }
    if let Some(doc_span) = param.doc_span {
        errors.push(syn::Error::new(
            doc_span,
            "docs on a `CallContext` parameter would be lost: it is not an argument the model \
             sees; document the fn",
        ));
    }
}

fn pattern(param: &Param, errors: &mut Errors) {
    match &param.pat {
        Pat::Ident(p) => {
            if let Some(by_ref) = &p.by_ref {
                errors.push(syn::Error::new(
                    by_ref.span,
                    "a tool parameter cannot be bound with `ref`; take it by value",
                ));
            }
            if let Some((at, _)) = &p.subpat {
                errors.push(syn::Error::new(
                    at.span,
                    "a tool parameter must be a plain name (it is the property's name); \
                     destructure it inside the fn",
                ));
            }
        }
        other => errors.push(syn::Error::new_spanned(
            other,
            "a tool parameter must be a plain name, which becomes the property's name; \
             take e.g. `point: (i32, i32)` and destructure it inside the fn",
        )),
    }
}

/// Argument types are decoded from JSON the tool does not keep, so they cannot borrow.
fn argument_type(ty: &Type, errors: &mut Errors) {
    if let Some(span) = find_impl_trait(ty) {
        errors.push(syn::Error::new(
            span,
            "a tool parameter cannot be `impl Trait`: its schema is generated from a concrete type; \
             name the type",
        ));
        return;
    }
    if let Some(reference) = find_reference(ty) {
        let owned = match &*reference.elem {
            Type::Path(p) if p.path.is_ident("str") => "`String` instead of `&str`".to_owned(),
            Type::Slice(s) => {
                let elem = &s.elem;
                format!("`Vec<{}>` instead of a slice", quote::quote!(#elem))
            }
            elem => format!("the owned type (`{}`)", quote::quote!(#elem)),
        };
        errors.push(syn::Error::new_spanned(
            reference,
            format!(
                "a tool parameter cannot borrow: it is decoded from the model's JSON, which the \
                 tool does not keep; take {owned} (or mark the parameter `#[state]` if it is \
                 application state)"
            ),
        ));
        return;
    }
    if let Some(span) = find_infer(ty) {
        errors.push(syn::Error::new(
            span,
            "write the parameter's type out in full",
        ));
    }
}

fn state_type(ty: &Type, errors: &mut Errors) {
    if let Some(span) = find_impl_trait(ty) {
        errors.push(syn::Error::new(
            span,
            "`#[state]` cannot be `impl Trait`: it is a field of the tool type; name the type",
        ));
        return;
    }
    if let Type::Reference(r) = ty {
        if let Some(m) = &r.mutability {
            errors.push(syn::Error::new(
                m.span,
                "`#[state]` cannot be `&mut`: calls share the tool and may run concurrently; \
                 take `&T` and put the mutable part behind a `Mutex`",
            ));
        }
    }
}

fn find_impl_trait(ty: &Type) -> Option<Span> {
    walk(ty, &mut |t| match t {
        Type::ImplTrait(i) => Some(i.impl_token.span),
        _ => None,
    })
}

fn find_reference(ty: &Type) -> Option<&syn::TypeReference> {
    let mut found = None;
    walk_ref(ty, &mut found);
    found
}

fn walk_ref<'a>(ty: &'a Type, found: &mut Option<&'a syn::TypeReference>) {
    if found.is_some() {
        return;
    }
    match ty {
        Type::Reference(r) => *found = Some(r),
        _ => children(ty).into_iter().for_each(|c| walk_ref(c, found)),
    }
}

fn find_infer(ty: &Type) -> Option<Span> {
    walk(ty, &mut |t| match t {
        Type::Infer(i) => Some(i.underscore_token.span),
        _ => None,
    })
}

/// The first `Some` that `f` gives for `ty` or a type nested in it.
fn walk(ty: &Type, f: &mut dyn FnMut(&Type) -> Option<Span>) -> Option<Span> {
    if let Some(found) = f(ty) {
        return Some(found);
    }
    children(ty).into_iter().find_map(|c| walk(c, f))
}

fn children(ty: &Type) -> Vec<&Type> {
    match ty {
        Type::Array(a) => vec![&a.elem],
        Type::Group(g) => vec![&g.elem],
        Type::Paren(p) => vec![&p.elem],
        Type::Ptr(p) => vec![&p.elem],
        Type::Reference(r) => vec![&r.elem],
        Type::Slice(s) => vec![&s.elem],
        Type::Tuple(t) => t.elems.iter().collect(),
        Type::Path(p) => {
            let mut out = Vec::new();
            if let Some(q) = &p.qself {
                out.push(&*q.ty);
            }
            for seg in &p.path.segments {
                if let PathArguments::AngleBracketed(args) = &seg.arguments {
                    for arg in &args.args {
                        match arg {
                            GenericArgument::Type(t) => out.push(t),
                            GenericArgument::AssocType(a) => out.push(&a.ty),
                            _ => {}
                        }
                    }
                }
            }
            out
        }
        _ => Vec::new(),
    }
}
