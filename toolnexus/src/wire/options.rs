//! [`ToolsOptions`]: how a tools array is rendered, beside the dialect it is rendered for.

/// How [`Toolkit::tools_for`](crate::Toolkit::tools_for) (and
/// [`tools_json_for`](crate::Toolkit::tools_json_for), and the same two on a
/// [`Selection`](crate::Selection)) render a dialect's tools array. The default is each
/// dialect's plain array, what [`to_openai`](crate::to_openai), [`to_anthropic`](crate::to_anthropic)
/// and [`to_gemini`](crate::to_gemini) give; an option a dialect has no use for is ignored.
///
/// | option | OpenAI Chat | OpenAI Responses | Anthropic | Gemini | Bedrock | Cohere |
/// |---|---|---|---|---|---|---|
/// | [`with_strict`](ToolsOptions::with_strict) | `"strict": true` where a tool allows it | `"strict": true` where a tool allows it (`strict` is always sent) | `"strict": true` where a tool allows it | — | `"strict": true` in `toolSpec` where a tool allows it | — (its `strict_tools` is a member of the request, not of a tool) |
/// | [`with_json_schema`](ToolsOptions::with_json_schema) | — | — | — | `parametersJsonSchema` (JSON Schema as written) instead of `parameters` (the OpenAPI subset) | — | — |
///
/// A tool whose schema cannot be strict is sent as without the option (OpenAI's say
/// `"strict": false`); [`InputSchema::for_openai_strict`](crate::InputSchema::for_openai_strict)
/// and [`InputSchema::for_anthropic_strict`](crate::InputSchema::for_anthropic_strict) say why.
/// Under OpenAI's strict mode the model sends `null` for an optional argument it leaves out: a
/// toolkit that handed out such tools reads its calls in that dialect as strict calls from then
/// on (the `null` reaches the tool as "absent"; see
/// [`RunOptions::openai_strict`](crate::RunOptions::openai_strict)).
///
/// ```
/// use serde_json::json;
/// use toolnexus::{Dialect, NativeTool, Toolkit, ToolsOptions};
///
/// let search = NativeTool::of("search", "Search the docs",
///     json!({"type": "object", "properties": {"q": {"type": "string"}, "limit": {"type": "integer"}},
///            "required": ["q"]}),
///     |_| async { "no results" })?;
/// let toolkit = Toolkit::new().with(search)?;
///
/// let strict = toolkit.tools_for(Dialect::OpenAiChat, ToolsOptions::default().with_strict(true));
/// assert_eq!(strict[0], json!({"type": "function", "function": {"name": "search",
///     "description": "Search the docs", "parameters": {"type": "object",
///         "properties": {"q": {"type": "string"}, "limit": {"type": ["integer", "null"]}},
///         "required": ["q", "limit"], "additionalProperties": false},
///     "strict": true}}));
///
/// let gemini = toolkit.tools_for(Dialect::Gemini, ToolsOptions::default().with_json_schema(true));
/// assert!(gemini[0]["functionDeclarations"][0].get("parametersJsonSchema").is_some());
/// # Ok::<(), toolnexus::Error>(())
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct ToolsOptions {
    strict: bool,
    json_schema: bool,
}

impl ToolsOptions {
    /// How many distinct options there are: what a cache keyed by them holds per dialect.
    pub(crate) const COUNT: usize = 4;

    /// The same options with strict mode on (`true`) or off.
    #[must_use]
    pub fn with_strict(mut self, strict: bool) -> Self {
        self.strict = strict;
        self
    }

    /// The same options with each schema sent as JSON Schema where the dialect can take either
    /// (Gemini's `parametersJsonSchema`, the form
    /// [`InputSchema::for_gemini_json_schema`](crate::InputSchema::for_gemini_json_schema)
    /// gives), or in the dialect's own form (`false`, the default).
    #[must_use]
    pub fn with_json_schema(mut self, json_schema: bool) -> Self {
        self.json_schema = json_schema;
        self
    }

    /// Whether strict mode is on.
    #[must_use]
    pub fn strict(&self) -> bool {
        self.strict
    }

    /// Whether schemas are sent as JSON Schema where the dialect can take either.
    #[must_use]
    pub fn json_schema(&self) -> bool {
        self.json_schema
    }

    /// These options' place among the [`COUNT`](Self::COUNT) of them.
    pub(crate) fn index(self) -> usize {
        usize::from(self.strict) | usize::from(self.json_schema) << 1
    }
}
