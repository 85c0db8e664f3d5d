//! Parameter types whose `Deserialize` and `JsonSchema` impls are known from their tokens alone:
//! the primitives, `String`, and `Option`/`Vec`/`Box` of those.
//!
//! The generated argument struct is generic over every other parameter type, so that a type
//! without those impls gives the one spanned error of the check fn and no follow-on errors
//! inside the generated impls. A generic struct costs compile time (its impls carry
//! `where` bounds that are proved for every use, and its MIR is exported for downstream
//! instantiation), so a field whose type is known to have both impls is written with that type.
//! A crate that shadows one of these names with a type of its own still fails to compile when
//! that type lacks the impls; the check fn's message is then joined by serde's.

use syn::{GenericArgument, PathArguments, Type};

/// The single-segment names that are always `Deserialize + JsonSchema`.
const LEAVES: &[&str] = &[
    "bool", "char", "i8", "i16", "i32", "i64", "i128", "isize", "u8", "u16", "u32", "u64", "u128",
    "usize", "f32", "f64", "String",
];

/// The single-segment wrappers that are `Deserialize + JsonSchema` when their argument is.
const WRAPPERS: &[&str] = &["Option", "Vec", "Box"];

/// Whether `ty` is built only from [`LEAVES`] and [`WRAPPERS`], written without a path.
pub(crate) fn deserialize_and_schema(ty: &Type) -> bool {
    let Type::Path(path) = ty else {
        return false;
    };
    if path.qself.is_some() || path.path.leading_colon.is_some() || path.path.segments.len() != 1 {
        return false;
    }
    let segment = &path.path.segments[0];
    let name = segment.ident.to_string();
    match &segment.arguments {
        PathArguments::None => LEAVES.contains(&name.as_str()),
        PathArguments::AngleBracketed(args) if WRAPPERS.contains(&name.as_str()) => {
            args.args.len() == 1
                && matches!(&args.args[0], GenericArgument::Type(inner) if deserialize_and_schema(inner))
        }
        _ => false,
    }
}

/// Whether `ty` is the call context: a path ending in `CallContext` without generic
/// arguments (`CallContext`, `toolnexus::CallContext`), or a reference to one. Recognised by
/// name, as a macro sees only tokens: a type of the user's own by that name is taken as the
/// context too (and fails to compile as one).
pub(crate) fn context(ty: &Type) -> bool {
    match ty {
        Type::Reference(r) => context(&r.elem),
        Type::Path(path) if path.qself.is_none() => path
            .path
            .segments
            .last()
            .is_some_and(|s| s.ident == "CallContext" && s.arguments.is_none()),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::{context, deserialize_and_schema};

    #[test]
    fn the_context_is_known_by_its_last_segment() {
        for (ty, is) in [
            ("CallContext", true),
            ("toolnexus::CallContext", true),
            ("::toolnexus::CallContext", true),
            ("&CallContext", true),
            ("&mut CallContext", true),
            ("CallContext<u8>", false),
            ("Option<CallContext>", false),
            ("Context", false),
        ] {
            assert_eq!(context(&syn::parse_str(ty).expect("a type")), is, "{ty}");
        }
    }

    fn known(ty: &str) -> bool {
        deserialize_and_schema(&syn::parse_str(ty).expect("a type"))
    }

    #[test]
    fn primitives_strings_and_their_wrappers_are_known() {
        for ty in [
            "u8",
            "f64",
            "String",
            "Option<u8>",
            "Vec<String>",
            "Option<Vec<Box<i64>>>",
        ] {
            assert!(known(ty), "{ty}");
        }
    }

    #[test]
    fn user_types_paths_and_references_are_not() {
        for ty in [
            "City",
            "Option<City>",
            "Vec<Option<City>>",
            "std::string::String",
            "::std::string::String",
            "&str",
            "[u8; 4]",
            "(u8, u8)",
            "Option<u8, u8>",
            "HashMap<String, u8>",
            "Vec<'a>",
            "Result<u8, String>",
        ] {
            assert!(!known(ty), "{ty}");
        }
    }
}
