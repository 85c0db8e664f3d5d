//! [`Dialect`]: the four wire dialects of the round trip, as a plain value (what a response was
//! read as). Reading and rendering each dialect is in `round_trip`, above the providers.

use std::fmt;

/// The four wire dialects of the round trip.
///
/// Each one reads calls out of a response ([`Dialect::parse_calls`]) and renders results as the
/// message(s) the provider expects in the next request ([`Dialect::render_results`]);
/// [`Toolkit::respond`](crate::Toolkit::respond) does both and runs the calls in between.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
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
}

impl Dialect {
    /// The API's name, as error messages say it.
    ///
    /// ```
    /// assert_eq!(toolnexus::Dialect::Gemini.api_name(), "Gemini generateContent");
    /// ```
    pub fn api_name(self) -> &'static str {
        match self {
            Dialect::OpenAiChat => "OpenAI Chat Completions",
            Dialect::OpenAiResponses => "OpenAI Responses",
            Dialect::Anthropic => "Anthropic Messages",
            Dialect::Gemini => "Gemini generateContent",
        }
    }
}

impl fmt::Display for Dialect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.api_name())
    }
}
