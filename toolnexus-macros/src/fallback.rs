//! When something is wrong: the user's item is emitted again (minus the parameter attributes
//! the macro consumes) next to the `compile_error!`s, with a stub tool type where one can be
//! named, so the rest of the crate still resolves and the user sees only the real mistake.

use proc_macro2::TokenStream;
use quote::quote;
use syn::{FnArg, ItemFn, Type};

use crate::validate;

/// The item was not a fn (or not even an item): it is emitted as it was.
pub fn not_a_fn(item: TokenStream, error: syn::Error) -> TokenStream {
    let error = error.to_compile_error();
    quote! { #item #error }
}

/// The fn broke a rule: the fn, a stub tool type and the errors.
pub fn tool(func: &ItemFn, error: syn::Error) -> TokenStream {
    let mut func = func.clone();
    let mut state = Vec::new();
    for input in &mut func.sig.inputs {
        if let FnArg::Typed(typed) = input {
            let is_state = typed.attrs.iter().any(|a| a.path().is_ident("state"));
            typed.attrs.retain(|_| false);
            if let (true, syn::Pat::Ident(p)) = (is_state, &*typed.pat) {
                let ty = match &*typed.ty {
                    Type::Reference(r) => (*r.elem).clone(),
                    other => other.clone(),
                };
                state.push((p.ident.clone(), ty));
            }
        }
    }
    let error = error.to_compile_error();
    let vis = &func.vis;
    // A fn with `self` sits in an `impl` block, where no struct can be declared.
    let in_impl = func.sig.receiver().is_some();
    let stub = match validate::type_name(&func.sig.ident) {
        _ if in_impl => TokenStream::new(),
        Ok(ident) if state.is_empty() => quote! {
            #[allow(dead_code)]
            #vis struct #ident;
            #[::toolnexus::__private::async_trait]
            impl ::toolnexus::Tool for #ident {
                fn name(&self) -> &str { "" }
                fn description(&self) -> &str { "" }
                fn input_schema(&self) -> &::toolnexus::InputSchema { ::core::unreachable!() }
                async fn execute(&self, _: ::toolnexus::__private::Value) -> ::toolnexus::ToolResult {
                    ::core::unreachable!()
                }
            }
        },
        Ok(ident) => {
            let fields = state.iter().map(|(name, ty)| quote!(#vis #name: #ty));
            quote! {
                #[allow(dead_code)]
                #vis struct #ident { #(#fields),* }
            }
        }
        Err(_) => TokenStream::new(),
    };
    quote! {
        #func
        #stub
        #error
    }
}
