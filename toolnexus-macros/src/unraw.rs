//! Identifier handling: a name as written without `r#`, and the generated tool type's name.

use syn::Ident;

/// An identifier as written, without `r#`.
pub(crate) fn unraw(ident: &Ident) -> String {
    let s = ident.to_string();
    s.strip_prefix("r#").map(str::to_owned).unwrap_or(s)
}

/// The name of the generated tool type: the fn's name in PascalCase (`get_weather` ->
/// `GetWeather`), spanned on the fn's name so "go to definition" lands there.
pub(crate) fn type_name(fn_ident: &Ident) -> syn::Result<Ident> {
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
