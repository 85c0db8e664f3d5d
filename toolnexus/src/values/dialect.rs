//! [`Dialect`]: the wire dialects of the round trip, as a plain value (what a response was read
//! as). Each one's implementation is a `Wire` in its provider's folder, which `round_trip`
//! picks (`Dialect::wire`), above the providers.

/// The wire dialects of the round trip (every one: [`Dialect::ALL`]).
///
/// Each one reads calls out of a response ([`Dialect::parse_calls`]) and renders results as the
/// message(s) the provider expects in the next request ([`Dialect::render_results`]);
/// [`Toolkit::respond`](crate::Toolkit::respond) does both and runs the calls in between.
///
/// In JSON (a stored [`Transcript`](crate::transcript::Transcript)) a dialect is its variant's
/// name: `"OpenAiChat"`, `"Anthropic"`, ...
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[non_exhaustive]
pub enum Dialect {
    /// OpenAI Chat Completions (and the many servers compatible with it).
    OpenAiChat,
    /// The OpenAI Responses API.
    OpenAiResponses,
    /// The Anthropic Messages API.
    Anthropic,
    /// Gemini `generateContent` (Developer API and Vertex AI).
    Gemini,
    /// Amazon Bedrock's Converse API (`Converse`, `ConverseStream`).
    Bedrock,
    /// Cohere's v2 Chat API (`POST /v2/chat`).
    Cohere,
}
