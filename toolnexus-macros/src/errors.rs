//! [`Errors`]: every mistake found by parsing and validation, reported together.

/// Collects every error found, so that all mistakes are reported at once (combined with
/// [`syn::Error::combine`], each keeping its own span).
#[derive(Default)]
pub(crate) struct Errors(Option<syn::Error>);

impl Errors {
    /// Records one more mistake.
    pub(crate) fn push(&mut self, error: syn::Error) {
        match &mut self.0 {
            Some(all) => all.combine(error),
            None => self.0 = Some(error),
        }
    }

    /// Every mistake recorded, combined; `Ok` when there was none.
    pub(crate) fn finish(self) -> syn::Result<()> {
        self.0.map_or(Ok(()), Err)
    }
}
