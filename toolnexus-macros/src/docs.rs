//! Doc comments as description text.
//!
//! The rule, for the tool's description and each parameter's: every `///` line is trimmed; the
//! lines of one paragraph are joined with a single space; paragraphs (separated by blank
//! lines) are joined with a blank line (`"\n\n"`). No doc lines, or only blank ones, is `None`.

use syn::{Attribute, Expr, ExprLit, Lit};

/// Whether `attr` is a doc comment (`///`, `/** */` or `#[doc = ...]`).
pub(crate) fn is_doc(attr: &Attribute) -> bool {
    attr.path().is_ident("doc")
}

/// The description written in the doc comments among `attrs`.
///
/// A `#[doc = ...]` whose value is not a string literal (say `include_str!`) is an error spanned
/// on it: the macro cannot read it, so it would be silently lost.
pub(crate) fn text(attrs: &[Attribute]) -> syn::Result<Option<String>> {
    let mut lines = Vec::new();
    for attr in attrs.iter().filter(|a| is_doc(a)) {
        // `#[doc(hidden)]`, `#[doc(alias = "...")]`: not text.
        let syn::Meta::NameValue(meta) = &attr.meta else {
            continue;
        };
        let value = &meta.value;
        match literal(value) {
            Some(line) => lines.push(line),
            None => {
                return Err(syn::Error::new_spanned(
                    value,
                    "`#[tool]` can only read doc comments written as text; \
                     give the text with `#[tool(description = \"...\")]` instead",
                ))
            }
        }
    }
    Ok(join(&lines))
}

fn literal(expr: &Expr) -> Option<String> {
    match expr {
        Expr::Lit(ExprLit {
            lit: Lit::Str(s), ..
        }) => Some(s.value()),
        // A doc passed through a `macro_rules!` fragment arrives wrapped in an invisible group.
        Expr::Group(group) => literal(&group.expr),
        _ => None,
    }
}

/// Joins doc lines by the module's rule.
pub(crate) fn join(lines: &[String]) -> Option<String> {
    let mut paragraphs: Vec<String> = Vec::new();
    let mut current = String::new();
    for line in lines.iter().flat_map(|l| l.split('\n')) {
        let line = line.trim();
        if line.is_empty() {
            if !current.is_empty() {
                paragraphs.push(std::mem::take(&mut current));
            }
        } else {
            if !current.is_empty() {
                current.push(' ');
            }
            current.push_str(line);
        }
    }
    if !current.is_empty() {
        paragraphs.push(current);
    }
    if paragraphs.is_empty() {
        None
    } else {
        Some(paragraphs.join("\n\n"))
    }
}

#[cfg(test)]
mod tests {
    use super::join;

    fn lines(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn lines_of_a_paragraph_join_with_a_space_and_paragraphs_with_a_blank_line() {
        assert_eq!(
            join(&lines(&[
                " Current weather",
                "  for a city. ",
                "",
                " Second.",
                "",
                ""
            ])),
            Some("Current weather for a city.\n\nSecond.".to_owned())
        );
    }

    #[test]
    fn block_comments_and_blank_docs() {
        assert_eq!(
            join(&lines(&["\n Block\n text.\n\n More.\n"])),
            Some("Block text.\n\nMore.".to_owned())
        );
        assert_eq!(join(&lines(&["", "   "])), None);
        assert_eq!(join(&[]), None);
    }
}
