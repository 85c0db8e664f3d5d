//! [`ToolChoice`]: which tools the model may or must call in its next turn, as a plain value
//! each provider folder renders in its own spelling (`Wire::tool_choice`). The members of a
//! request body come from `ToolChoice::request_part` and `ToolChoice::add_to`, through the
//! dialect's provider (`Dialect::choice_part`, in `dispatch`, which picks it).

use serde_json::{Map, Value};

use super::merge;
use crate::tool::validate_name;
use crate::values::dialect::Dialect;
use crate::values::error::Error;

/// Which tools the model may, or must, call in its next turn: `tool_choice` in every dialect.
///
/// One value for the six spellings of the providers, rendered into a request body's members by
/// [`ToolChoice::request_part`] and [`ToolChoice::add_to`] (merged one level deep, as
/// [`Output::add_to`](crate::Output::add_to) merges its part: Bedrock's `toolConfig` keeps its
/// `tools`, Gemini's `toolConfig` its other members):
///
/// | choice | OpenAI Chat `tool_choice` | OpenAI Responses `tool_choice` | Anthropic `tool_choice` | Gemini `toolConfig.functionCallingConfig` | Bedrock `toolConfig.toolChoice` | Cohere `tool_choice` |
/// |---|---|---|---|---|---|---|
/// | [`auto`](ToolChoice::auto) | `"auto"` | `"auto"` | `{"type": "auto"}` | `{"mode": "AUTO"}` | `{"auto": {}}` | left out |
/// | [`none`](ToolChoice::none) | `"none"` | `"none"` | `{"type": "none"}` | `{"mode": "NONE"}` | refused | `"NONE"` |
/// | [`required`](ToolChoice::required) | `"required"` | `"required"` | `{"type": "any"}` | `{"mode": "ANY"}` | `{"any": {}}` | `"REQUIRED"` |
/// | [`tool`](ToolChoice::tool) | `{"type": "function", "function": {"name"}}` | `{"type": "function", "name"}` | `{"type": "tool", "name"}` | `{"mode": "ANY", "allowedFunctionNames": [name]}` | `{"tool": {"name"}}` | refused |
/// | [`auto_among`](ToolChoice::auto_among) | `{"type": "allowed_tools", "allowed_tools": {"mode": "auto", "tools"}}` | `{"type": "allowed_tools", "mode": "auto", "tools"}` | refused | `{"mode": "VALIDATED", "allowedFunctionNames"}` | refused | refused |
/// | [`required_among`](ToolChoice::required_among) | the same, `"mode": "required"` | the same, `"mode": "required"` | refused | `{"mode": "ANY", "allowedFunctionNames"}` | refused | refused |
/// | [`one_at_a_time`](ToolChoice::one_at_a_time) | `parallel_tool_calls: false` | `parallel_tool_calls: false` | `"disable_parallel_tool_use": true` | refused | refused | refused |
///
/// A choice the provider's API has no member for is [`Error::UnsupportedChoice`], naming the
/// API and what to do instead, never a body that asks for something else. (Gemini's
/// `VALIDATED` is its mode for "text or one of these calls"; it also holds the calls to their
/// schemas.)
///
/// ```
/// use serde_json::json;
/// use toolnexus::{Dialect, Error, ToolChoice};
///
/// // Make the model call `get_weather`, and only once.
/// let choice = ToolChoice::tool("get_weather")?.one_at_a_time();
/// let mut body = json!({"model": "claude-sonnet-4-5", "max_tokens": 1024, "messages": []});
/// choice.add_to(Dialect::Anthropic, &mut body)?;
/// assert_eq!(body["tool_choice"],
///            json!({"type": "tool", "name": "get_weather", "disable_parallel_tool_use": true}));
///
/// let mut body = json!({"model": "gpt-4.1", "messages": []});
/// choice.add_to(Dialect::OpenAiChat, &mut body)?;
/// assert_eq!(body["tool_choice"], json!({"type": "function", "function": {"name": "get_weather"}}));
/// assert_eq!(body["parallel_tool_calls"], false);
///
/// // Bedrock's `toolConfig` keeps its tools.
/// let mut body = json!({"toolConfig": {"tools": []}});
/// ToolChoice::required().add_to(Dialect::Bedrock, &mut body)?;
/// assert_eq!(body, json!({"toolConfig": {"tools": [], "toolChoice": {"any": {}}}}));
///
/// // What a provider cannot say is an error, and the body is left as it was.
/// let err = ToolChoice::auto_among(["search", "fetch"])?
///     .add_to(Dialect::Anthropic, &mut body)
///     .unwrap_err();
/// assert!(matches!(err, Error::UnsupportedChoice { api: "Anthropic Messages", .. }));
/// assert_eq!(body, json!({"toolConfig": {"tools": [], "toolChoice": {"any": {}}}}));
/// # Ok::<(), Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ToolChoice {
    pick: Pick,
    one_at_a_time: bool,
}

/// What a [`ToolChoice`] lets the model call, as each provider folder reads it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) enum Pick {
    /// Text or calls, as the model decides (every provider's default).
    #[default]
    Auto,
    /// No calls.
    None,
    /// At least one call, of any tool.
    Required,
    /// A call of this tool.
    Tool(String),
    /// Calls of these tools only (in order, without repeats); `required`: at least one.
    Among { names: Vec<String>, required: bool },
}

impl ToolChoice {
    /// The model decides between text and calls: what every provider does when the request
    /// says nothing (also [`ToolChoice::default`]).
    #[must_use]
    pub fn auto() -> Self {
        Self::of(Pick::Auto)
    }

    /// The model calls no tool in this turn (its tools stay declared, so the conversation's
    /// earlier calls still make sense to it). Refused by Bedrock, whose `toolChoice` has no
    /// such member.
    #[must_use]
    pub fn none() -> Self {
        Self::of(Pick::None)
    }

    /// The model calls at least one tool, any of them.
    #[must_use]
    pub fn required() -> Self {
        Self::of(Pick::Required)
    }

    /// The model calls the tool `name`. The name is checked as tool names are
    /// ([`validate_name`]); [`ToolChoice::within`] checks that the request sends such a tool.
    ///
    /// ```
    /// assert!(toolnexus::ToolChoice::tool("get weather").is_err());
    /// ```
    pub fn tool(name: &str) -> Result<Self, Error> {
        validate_name(name)?;
        Ok(Self::of(Pick::Tool(name.to_owned())))
    }

    /// The model decides between text and calls of these tools only (the others stay declared,
    /// which keeps a prompt cache warm). Each name is checked as tool names are; a repeated one
    /// counts once; no names at all is refused ([`ToolChoice::none`] is that).
    pub fn auto_among<I, S>(names: I) -> Result<Self, Error>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        Self::among(names, false)
    }

    /// The model calls at least one of these tools, none of the others; the names as for
    /// [`ToolChoice::auto_among`].
    pub fn required_among<I, S>(names: I) -> Result<Self, Error>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        Self::among(names, true)
    }

    /// The same choice, with at most one call in the model's turn (exactly one where a call is
    /// required): no parallel calls. [`ToolChoice::none`] has no calls to limit and stays as
    /// it is. Refused by Gemini and Bedrock, whose APIs have no such member.
    #[must_use]
    pub fn one_at_a_time(mut self) -> Self {
        self.one_at_a_time = self.pick != Pick::None;
        self
    }

    /// The same choice, checked against the tools the request sends (`sent`: a toolkit's or a
    /// selection's [`names`](crate::Toolkit::names)): a tool it names that is not among them is
    /// [`Error::UnknownTool`], listing what is sent, instead of a request the provider answers
    /// with a 400. [`ToolChoice::tool`] and the `_among` constructors check names only as names,
    /// since they have no toolkit to look in; this is where a choice meets one.
    ///
    /// ```
    /// use toolnexus::{tool, Error, ToolChoice, Toolkit};
    ///
    /// /// Health check.
    /// #[tool]
    /// fn ping() -> &'static str {
    ///     "pong"
    /// }
    ///
    /// let toolkit = Toolkit::new().with(Ping)?;
    /// let choice = ToolChoice::tool("ping")?.within(toolkit.names())?;
    /// assert_eq!(choice, ToolChoice::tool("ping")?);
    ///
    /// let err = ToolChoice::required_among(["ping", "pong"])?
    ///     .within(toolkit.names())
    ///     .unwrap_err();
    /// assert!(matches!(err, Error::UnknownTool { ref name, .. } if name == "pong"));
    /// assert_eq!(err.to_string(), "no tool named `pong` in this toolkit; its tools are: ping");
    /// # Ok::<(), Error>(())
    /// ```
    pub fn within<'a, I>(self, sent: I) -> Result<Self, Error>
    where
        I: IntoIterator<Item = &'a str>,
    {
        let named: &[String] = match &self.pick {
            Pick::Tool(name) => std::slice::from_ref(name),
            Pick::Among { names, .. } => names,
            Pick::Auto | Pick::None | Pick::Required => return Ok(self),
        };
        let sent: Vec<&str> = sent.into_iter().collect();
        match named.iter().find(|name| !sent.contains(&name.as_str())) {
            None => Ok(self),
            Some(name) => Err(Error::UnknownTool {
                name: name.clone(),
                available: sent.into_iter().map(str::to_owned).collect(),
            }),
        }
    }

    /// The members of a request body of `dialect` that say this choice, in the provider's own
    /// spelling (the table on [`ToolChoice`]); [`Error::UnsupportedChoice`] when its API has no
    /// way to say it.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolnexus::{Dialect, ToolChoice};
    ///
    /// let choice = ToolChoice::required_among(["search", "fetch"])?;
    /// assert_eq!(
    ///     serde_json::to_value(choice.request_part(Dialect::Gemini)?)?,
    ///     json!({"toolConfig": {"functionCallingConfig":
    ///         {"mode": "ANY", "allowedFunctionNames": ["search", "fetch"]}}})
    /// );
    /// assert_eq!(
    ///     serde_json::to_value(choice.request_part(Dialect::OpenAiResponses)?)?,
    ///     json!({"tool_choice": {"type": "allowed_tools", "mode": "required", "tools": [
    ///         {"type": "function", "name": "search"}, {"type": "function", "name": "fetch"}]}})
    /// );
    /// assert_eq!(
    ///     choice.request_part(Dialect::Bedrock).unwrap_err().to_string(),
    ///     "Amazon Bedrock Converse has no tool choice for an allowed subset of tools; send only \
    ///      those tools (`Toolkit::select`) with `ToolChoice::auto()` or `ToolChoice::required()`"
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn request_part(&self, dialect: Dialect) -> Result<Map<String, Value>, Error> {
        dialect.choice_part(self)
    }

    /// Adds [`ToolChoice::request_part`] to `body` (a JSON object) as
    /// [`Output::add_to`](crate::Output::add_to) adds its part: a member `body` already has as
    /// an object is merged one level deep (Bedrock's and Gemini's `toolConfig`), any other is
    /// replaced. On an error `body` is left as it was.
    pub fn add_to(&self, dialect: Dialect, body: &mut Value) -> Result<(), Error> {
        merge(body, &self.request_part(dialect)?);
        Ok(())
    }

    /// What the model may call.
    pub(crate) fn pick(&self) -> &Pick {
        &self.pick
    }

    /// Whether the model makes at most one call ([`ToolChoice::one_at_a_time`]).
    pub(crate) fn is_one_at_a_time(&self) -> bool {
        self.one_at_a_time
    }

    fn of(pick: Pick) -> Self {
        Self {
            pick,
            one_at_a_time: false,
        }
    }

    fn among<I, S>(names: I, required: bool) -> Result<Self, Error>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let mut kept: Vec<String> = Vec::new();
        for name in names {
            let name = name.as_ref();
            validate_name(name)?;
            if !kept.iter().any(|k| k == name) {
                kept.push(name.to_owned());
            }
        }
        if kept.is_empty() {
            return Err(Error::InvalidName {
                name: String::new(),
                reason: "an allowed subset needs at least one tool name; \
                         `ToolChoice::none()` is the choice of no tool"
                    .to_owned(),
            });
        }
        Ok(Self::of(Pick::Among {
            names: kept,
            required,
        }))
    }
}

/// What the refusals say the model was asked for.
pub(crate) const AN_ALLOWED_SUBSET: &str = "an allowed subset of tools";
/// See [`AN_ALLOWED_SUBSET`].
pub(crate) const ONE_AT_A_TIME: &str = "one call at a time";
/// See [`AN_ALLOWED_SUBSET`].
pub(crate) const NO_TOOL: &str = "`none` (no tool calls)";

/// What to do instead of an allowed subset where the API has none.
pub(crate) const SEND_THE_SUBSET: &str = "send only those tools (`Toolkit::select`) with \
     `ToolChoice::auto()` or `ToolChoice::required()`";
/// What to do instead of one call at a time where the API has no such member.
pub(crate) const DROP_ONE_AT_A_TIME: &str = "leave out `one_at_a_time` (the model may then make \
     several calls in one turn; `RunOptions::with_concurrency(1)` runs them one after another)";

/// The refusal of `choice` (what the model was asked for) by `api`, with what to do instead.
pub(crate) fn unsupported(api: &'static str, choice: &'static str, instead: &'static str) -> Error {
    Error::UnsupportedChoice {
        api,
        choice,
        instead,
    }
}

#[cfg(test)]
mod tests;
