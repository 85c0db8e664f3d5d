//! The error kinds providers name (`type`, `status`, `code`) and what each says about a retry:
//! the HTTP statuses every provider shares here, each provider's own names in its folder's
//! `Facts` (`passing_errors`, `refused_errors`), any of which counts for every dialect (a
//! compatible server answers with the names of the API it copies).

use crate::values::dialect::Dialect;

/// HTTP statuses that say the provider is passing through a bad moment: the same request may
/// succeed after a pause.
const PASSING: &[&str] = &["408", "409", "429", "500", "502", "503", "504", "529"];

/// HTTP statuses that refuse the request itself: it must change before it is sent again.
const REFUSED_REQUEST: &[&str] = &["400", "413", "422"];

/// Whether any of an error object's kinds (`type`, `status`, `code`) is a passing one.
pub(crate) fn passing<'k>(mut kinds: impl Iterator<Item = &'k str>) -> bool {
    kinds.any(|k| {
        PASSING.contains(&k)
            || Dialect::ALL
                .iter()
                .any(|d| d.facts().passing_errors.contains(&k))
    })
}

/// Whether an error's kind refuses the request itself.
pub(super) fn refuses_request(kind: &str) -> bool {
    REFUSED_REQUEST.contains(&kind)
        || Dialect::ALL
            .iter()
            .any(|d| d.facts().refused_errors.contains(&kind))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::iter::once;

    #[test]
    fn each_providers_error_kinds_say_what_they_said_before() {
        // One kind from each provider's `Facts` and the shared statuses.
        for kind in [
            "overloaded_error",
            "rate_limit_exceeded",
            "RESOURCE_EXHAUSTED",
            "ThrottlingException",
            "503",
        ] {
            assert!(passing(once(kind)), "{kind}");
            assert!(!refuses_request(kind), "{kind}");
        }
        for kind in [
            "invalid_request_error",
            "context_length_exceeded",
            "INVALID_ARGUMENT",
            "ValidationException",
            "400",
        ] {
            assert!(refuses_request(kind), "{kind}");
            assert!(!passing(once(kind)), "{kind}");
        }
        assert!(!passing(once("authentication_error")));
        assert!(!refuses_request("authentication_error"));
    }
}
