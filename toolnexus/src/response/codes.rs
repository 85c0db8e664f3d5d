//! The error kinds providers name (`type`, `status`, `code`) and what each says about a retry.

/// Error kinds (a `type`, `status` or `code`) that say the provider is passing through a bad
/// moment: the same request may succeed after a pause.
const PASSING: &[&str] = &[
    "overloaded_error",
    "rate_limit_error",
    "api_error",
    "server_error",
    "rate_limit_exceeded",
    "internal_server_error",
    "service_unavailable",
    "timeout",
    "throttlingException",
    "serviceUnavailableException",
    "internalServerException",
    "modelStreamErrorException",
    "ThrottlingException",
    "ServiceUnavailableException",
    "InternalServerException",
    "RESOURCE_EXHAUSTED",
    "UNAVAILABLE",
    "INTERNAL",
    "DEADLINE_EXCEEDED",
    "408",
    "409",
    "429",
    "500",
    "502",
    "503",
    "504",
    "529",
];

/// Error kinds that refuse the request itself: it must change before it is sent again.
pub(super) const REFUSED_REQUEST: &[&str] = &[
    "invalid_request_error",
    "invalid_request",
    "context_length_exceeded",
    "request_too_large",
    "INVALID_ARGUMENT",
    "validationException",
    "ValidationException",
    "FAILED_PRECONDITION",
    "OUT_OF_RANGE",
    "400",
    "413",
    "422",
];

/// Whether any of an error object's kinds (`type`, `status`, `code`) is a passing one.
pub(crate) fn passing<'k>(mut kinds: impl Iterator<Item = &'k str>) -> bool {
    kinds.any(|k| PASSING.contains(&k))
}
