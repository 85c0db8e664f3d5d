//! When something is wrong: the user's item is emitted again (minus the parameter attributes
//! the macro consumes) next to the `compile_error!`s, with a stub tool type and a stub
//! `impl Tool` where one can be named, so the rest of the crate still resolves and the user sees
//! only the real mistakes.

use proc_macro2::TokenStream;
use quote::quote;

use syn::Type;

use crate::ast::{Kind, Tool};

/// The item was not a fn (or not even an item): it is emitted as it was.
pub(crate) fn not_a_fn(item: TokenStream, error: syn::Error) -> TokenStream {
    let error = error.to_compile_error();
    quote! { #item #error }
}

/// The fn broke a rule: the fn, a stub tool type with its `impl Tool`, and the errors.
pub(crate) fn tool(tool: &Tool, error: syn::Error) -> TokenStream {
    let func = &tool.func;
    let error = error.to_compile_error();
    // A fn with `self` sits in an `impl` block, where no struct can be declared.
    let in_impl = func.sig.receiver().is_some();
    if in_impl || !tool.type_named {
        return quote! { #func #error };
    }
    let krate = &tool.krate;
    let vis = &func.vis;
    let ident = &tool.type_ident;
    let fields: Vec<TokenStream> = tool
        .params
        .iter()
        .filter(|p| matches!(p.kind, Kind::State))
        .map(|p| {
            let name = &p.ident;
            // `&T` and the refused `&mut T` are both held as `T`.
            let ty = match &p.ty {
                Type::Reference(r) => &*r.elem,
                other => other,
            };
            quote!(#vis #name: #ty)
        })
        .collect();
    let body = if fields.is_empty() {
        quote!(;)
    } else {
        quote!({ #(#fields),* })
    };
    quote! {
        #func

        #[allow(dead_code)]
        #vis struct #ident #body

        impl #krate::Tool for #ident {
            fn name(&self) -> &str {
                ""
            }
            fn description(&self) -> &str {
                ""
            }
            fn input_schema(&self) -> &#krate::InputSchema {
                ::core::unreachable!()
            }
            fn call<'__toolnexus_self, '__toolnexus_args, '__toolnexus_fut>(
                &'__toolnexus_self self,
                _: #krate::CallContext,
                _: #krate::CallArgs<'__toolnexus_args>,
            ) -> #krate::__private::ToolFuture<'__toolnexus_fut>
            where
                '__toolnexus_self: '__toolnexus_fut,
                '__toolnexus_args: '__toolnexus_fut,
                Self: '__toolnexus_fut,
            {
                ::core::unreachable!()
            }
        }

        #error
    }
}
