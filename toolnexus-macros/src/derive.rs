//! `#[derive(ToolArgs)]`: only a struct with named fields can be a tool's whole argument
//! object, because every provider needs that object to be a JSON object.

use proc_macro2::TokenStream;
use quote::quote;
use syn::{Data, DeriveInput, Fields};

pub(crate) fn tool_args(input: TokenStream) -> TokenStream {
    let input: DeriveInput = match syn::parse2(input) {
        Ok(input) => input,
        Err(e) => return e.to_compile_error(),
    };
    let refused = match &input.data {
        Data::Struct(s) => match &s.fields {
            Fields::Named(_) => None,
            Fields::Unnamed(fields) => Some(syn::Error::new_spanned(
                fields,
                "a tuple struct cannot be the whole argument object: it is a JSON array, and \
                 providers need a JSON object; give the fields names",
            )),
            Fields::Unit => Some(syn::Error::new(
                input.ident.span(),
                "a unit struct cannot be the whole argument object: it is JSON `null`, and \
                 providers need a JSON object; write `struct Name {}` (or take no parameter)",
            )),
        },
        Data::Enum(e) => Some(syn::Error::new(
            e.enum_token.span,
            "an enum cannot be the whole argument object: providers need a JSON object; \
             wrap it in a struct field",
        )),
        Data::Union(u) => Some(syn::Error::new(
            u.union_token.span,
            "a union cannot be the whole argument object: providers need a JSON object; \
             use a struct with named fields",
        )),
    };
    if let Some(error) = refused {
        return error.to_compile_error();
    }
    let krate = match krate(&input.attrs) {
        Ok(Some(path)) => quote!(#path),
        Ok(None) => quote!(::toolnexus),
        Err(e) => return e.to_compile_error(),
    };
    let ident = &input.ident;
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    quote! {
        impl #impl_generics #krate::ToolArgs for #ident #ty_generics #where_clause {}
    }
}

/// `#[tool_args(crate = "path")]`, for a renamed `toolnexus` dependency; nothing else is accepted.
fn krate(attrs: &[syn::Attribute]) -> syn::Result<Option<syn::Path>> {
    let mut found = None;
    for attr in attrs.iter().filter(|a| a.path().is_ident("tool_args")) {
        attr.parse_nested_meta(|meta| {
            if !meta.path.is_ident("crate") {
                return Err(
                    meta.error("unknown `#[tool_args]` key; the only one is `crate = \"path\"`")
                );
            }
            if found.is_some() {
                return Err(meta.error("duplicate `crate`: give it once"));
            }
            let lit: syn::LitStr = meta.value()?.parse()?;
            found = Some(lit.parse::<syn::Path>()?);
            Ok(())
        })?;
    }
    Ok(found)
}
