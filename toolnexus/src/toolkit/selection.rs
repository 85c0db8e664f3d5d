//! Many tools: each provider's documented limit on the functions of one request, and
//! [`Selection`], a chosen subset of a toolkit's tools for any adapter.

use std::collections::HashSet;
use std::sync::Arc;

use crate::dispatch::tools_array::Shape;
use crate::{Dialect, Error, Tool, Toolkit, ToolsArray, Warning};

impl Dialect {
    /// The most tools (function declarations) the provider documents for one request.
    ///
    /// | dialect | most tools | documented in |
    /// |---|---|---|
    /// | `OpenAiChat`, `OpenAiResponses` | 128 | the API reference of `tools`: "A max of 128 functions are supported" |
    /// | `Anthropic` | 10,000 | the tool search tool's limits: "Maximum tools: 10,000 tools in your catalog" (no smaller cap is documented; choosing gets harder past 30 to 50 tools) |
    /// | `Gemini` | 512 | google-genai's `types.Tool.function_declarations`: "Maximum 512 function declarations can be provided" (Vertex AI's function calling reference said 128 for Gemini 2.x) |
    /// | `Bedrock`, `Cohere` | 10,000 | none documented (botocore's model gives only `min: 1`; Cohere's API reference and SDK give none): Anthropic's |
    ///
    /// The adapters (`to_openai()`, ...) render whatever they are given; check first with
    /// [`Dialect::check_tool_count`] or [`Toolkit::check_tool_count`], and send a subset with
    /// [`Toolkit::select`].
    ///
    /// ```
    /// assert_eq!(toolnexus::Dialect::OpenAiChat.max_tools(), 128);
    /// ```
    pub fn max_tools(self) -> usize {
        self.wire().max_tools()
    }

    /// `Ok` when `count` tools fit in one request ([`Dialect::max_tools`]); otherwise
    /// [`Error::TooManyTools`].
    ///
    /// ```
    /// use toolnexus::{Dialect, Error};
    ///
    /// assert!(Dialect::OpenAiChat.check_tool_count(128).is_ok());
    /// assert_eq!(
    ///     Dialect::OpenAiChat.check_tool_count(129),
    ///     Err(Error::TooManyTools { api: "OpenAI Chat Completions", count: 129, max: 128 })
    /// );
    /// ```
    pub fn check_tool_count(self, count: usize) -> Result<(), Error> {
        let max = self.max_tools();
        if count > max {
            return Err(Error::TooManyTools {
                api: self.api_name(),
                count,
                max,
            });
        }
        Ok(())
    }
}

impl Dialect {
    /// What a provider may refuse in a request of `tools` that other servers of its API take:
    /// each description past the API's documented most ([`Warning::LongDescription`]).
    fn warnings(self, tools: &[Arc<dyn Tool>]) -> Vec<Warning> {
        let Some(max) = self.wire().max_description() else {
            return Vec::new();
        };
        tools
            .iter()
            .filter_map(|tool| {
                // Counted only past `max` bytes: a shorter text has fewer characters too.
                let description = tool.description();
                let chars = (description.len() > max).then(|| description.chars().count())?;
                (chars > max).then(|| Warning::LongDescription {
                    api: self.api_name(),
                    tool: tool.name().to_owned(),
                    chars,
                    max,
                })
            })
            .collect()
    }
}

impl Toolkit {
    /// `Ok` when this toolkit's tools fit in one request of `dialect`
    /// ([`Dialect::max_tools`]), with what the provider may still refuse that other servers of
    /// its API take ([`Warning`]: a description over OpenAI's 1024 characters); otherwise
    /// [`Error::TooManyTools`]. Send a subset with [`Toolkit::select`].
    pub fn check_tool_count(&self, dialect: Dialect) -> Result<Vec<Warning>, Error> {
        dialect.check_tool_count(self.len())?;
        Ok(dialect.warnings(&self.tools))
    }

    /// The tools called `names`, to render for one request, in the toolkit's order (not the
    /// order of `names`; a name given twice counts once).
    ///
    /// A view of the toolkit: choosing costs a pass over its tools and shares them (no schema
    /// is copied), and rendering costs what rendering those tools alone costs. The toolkit still answers calls to every one of its
    /// tools ([`Toolkit::respond`]), offered this turn or not. A name the toolkit does not have
    /// is [`Error::UnknownTool`].
    ///
    /// ```
    /// use serde_json::json;
    /// use toolnexus::{Dialect, NativeTool, Toolkit};
    ///
    /// let tool = |name: &str| NativeTool::of(name, "A tool", json!({"type": "object", "properties": {}}),
    ///     |_| async { "ok" });
    /// let toolkit = Toolkit::new().with(tool("search")?)?.with(tool("fetch")?)?.with(tool("send")?)?;
    ///
    /// let offered = toolkit.select(["send", "search"])?;
    /// offered.check_tool_count(Dialect::OpenAiChat)?;
    /// let body = json!({"model": "gpt-4o", "messages": [], "tools": offered.to_openai()});
    /// assert_eq!(body["tools"][0]["function"]["name"], "search");
    /// assert_eq!(body["tools"][1]["function"]["name"], "send");
    /// # Ok::<(), toolnexus::Error>(())
    /// ```
    pub fn select<I, S>(&self, names: I) -> Result<Selection<'_>, Error>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let mut wanted: HashSet<String> = HashSet::new();
        for name in names {
            let name = name.as_ref();
            if self.get(name).is_none() {
                return Err(Error::UnknownTool {
                    name: crate::values::text::shorten(name, 100),
                    available: self.names().map(str::to_owned).collect(),
                });
            }
            wanted.insert(name.to_owned());
        }
        let tools = self
            .tools()
            .iter()
            .filter(|t| wanted.contains(t.name()))
            .cloned()
            .collect();
        Ok(Selection {
            toolkit: self,
            tools,
        })
    }
}

/// Some of a [`Toolkit`]'s tools, in its order, made by [`Toolkit::select`]: the same adapters
/// as the toolkit's, over these tools only.
#[derive(Clone)]
pub struct Selection<'a> {
    toolkit: &'a Toolkit,
    /// Shared with the toolkit: choosing copies pointers, never schemas.
    tools: Arc<[Arc<dyn Tool>]>,
}

impl<'a> Selection<'a> {
    /// The toolkit the tools were chosen from; it answers calls to any of its tools.
    pub fn toolkit(&self) -> &'a Toolkit {
        self.toolkit
    }

    /// The chosen tools, in the toolkit's order.
    pub fn tools(&self) -> &[Arc<dyn Tool>] {
        &self.tools
    }

    /// The chosen tools' names, in the toolkit's order.
    pub fn names(&self) -> impl ExactSizeIterator<Item = &str> + '_ {
        self.tools.iter().map(|t| t.name())
    }

    /// How many tools were chosen.
    pub fn len(&self) -> usize {
        self.tools.len()
    }

    /// `true` when none were.
    pub fn is_empty(&self) -> bool {
        self.tools.is_empty()
    }

    /// `Ok` when the chosen tools fit in one request of `dialect`, with their [`Warning`]s;
    /// see [`Toolkit::check_tool_count`].
    pub fn check_tool_count(&self, dialect: Dialect) -> Result<Vec<Warning>, Error> {
        dialect.check_tool_count(self.len())?;
        Ok(dialect.warnings(&self.tools))
    }

    /// [`Toolkit::to_openai`] over the chosen tools.
    pub fn to_openai(&self) -> ToolsArray {
        ToolsArray::openai(Arc::clone(&self.tools), None)
    }

    /// [`to_openai_strict`](crate::to_openai_strict) over the chosen tools; the toolkit then
    /// reads Chat Completions calls as strict calls ([`Toolkit::to_openai_strict`]).
    pub fn to_openai_strict(&self) -> ToolsArray {
        self.toolkit.strict.mark(Dialect::OpenAiChat);
        ToolsArray::of(Shape::OpenAiStrict, Arc::clone(&self.tools))
    }

    /// [`to_openai_responses`](crate::to_openai_responses) over the chosen tools; with `strict`
    /// the toolkit then reads Responses calls as strict calls ([`Toolkit::to_openai_responses`]).
    pub fn to_openai_responses(&self, strict: bool) -> ToolsArray {
        if strict {
            self.toolkit.strict.mark(Dialect::OpenAiResponses);
        }
        ToolsArray::of(Shape::Responses(strict), Arc::clone(&self.tools))
    }

    /// [`Toolkit::to_anthropic`] over the chosen tools.
    pub fn to_anthropic(&self) -> ToolsArray {
        ToolsArray::anthropic(Arc::clone(&self.tools), None)
    }

    /// [`to_anthropic_strict`](crate::to_anthropic_strict) over the chosen tools.
    pub fn to_anthropic_strict(&self) -> ToolsArray {
        ToolsArray::of(Shape::AnthropicStrict, Arc::clone(&self.tools))
    }

    /// [`bedrock::to_bedrock_strict`](crate::bedrock::to_bedrock_strict) over the chosen tools.
    pub fn to_bedrock_strict(&self) -> ToolsArray {
        ToolsArray::of(Shape::BedrockStrict, Arc::clone(&self.tools))
    }

    /// [`Toolkit::to_gemini`] over the chosen tools.
    pub fn to_gemini(&self) -> ToolsArray {
        ToolsArray::gemini(Arc::clone(&self.tools), None)
    }

    /// [`to_gemini_json_schema`](crate::to_gemini_json_schema) over the chosen tools.
    pub fn to_gemini_json_schema(&self) -> ToolsArray {
        ToolsArray::of(Shape::GeminiJsonSchema, Arc::clone(&self.tools))
    }

    /// The chosen tools as `dialect` declares them; see [`Toolkit::tools_for`].
    pub fn tools_for(&self, dialect: Dialect) -> ToolsArray {
        ToolsArray::of(Shape::Dialect(dialect), Arc::clone(&self.tools))
    }
}

impl std::fmt::Debug for Selection<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Selection")
            .field("tools", &self.names().collect::<Vec<_>>())
            .finish()
    }
}
