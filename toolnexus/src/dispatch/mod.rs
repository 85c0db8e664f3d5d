//! The round trip per [`Dialect`]: reading calls out of a response, repeating the model's turn
//! and rendering results, dispatched to the provider module that speaks the dialect.
//!
//! | dialect | module | results go back as |
//! |---|---|---|
//! | [`Dialect::OpenAiChat`] | [`openai::chat`](crate::openai::chat) | one `{"role":"tool"}` message per call |
//! | [`Dialect::OpenAiResponses`] | [`openai::responses`](crate::openai::responses) | one `function_call_output` item per call |
//! | [`Dialect::Anthropic`] | [`anthropic`](crate::anthropic) | one `user` message of `tool_result` blocks |
//! | [`Dialect::Gemini`] | [`gemini`](crate::gemini) | one `user` content of `functionResponse` parts |
//! | [`Dialect::Bedrock`] | [`bedrock`](crate::bedrock) | one `user` message of `toolResult` blocks |
//! | [`Dialect::Cohere`] | [`cohere`](crate::cohere) | one `{"role":"tool"}` message of a document per call |

pub(crate) mod tools_array;

use std::fmt;
use std::sync::Arc;

use serde_json::{Map, Value};

use crate::limits::admit;
use crate::limits::Limits;
use crate::response::{RanCalls, ResponseError};
use crate::tool::Tool;
use crate::values::call::ToolCall;
use crate::values::dialect::Dialect;
use crate::values::error::Error;
use crate::values::ids::IdRule;
use crate::values::media::{Media, MediaSupport};
use crate::values::result::ToolResult;
use crate::values::warning::Warning;
use crate::wire::choice::ToolChoice;
use crate::wire::{Facts, ModelTurn, Part, Wire};
use crate::{anthropic, bedrock, gemini, openai};

impl Dialect {
    /// Every dialect, in declaration order: to render, test or offer each in turn.
    ///
    /// ```
    /// use toolnexus::Dialect;
    ///
    /// assert!(Dialect::ALL.contains(&Dialect::Bedrock));
    /// let names: Vec<&str> = Dialect::ALL.iter().map(|d| d.api_name()).collect();
    /// assert_eq!(names[0], "OpenAI Chat Completions");
    /// ```
    // A new dialect joins here and in `Dialect::wire`, in declaration order (the render cache
    // indexes by `dialect as usize`).
    pub const ALL: [Self; 6] = [
        Self::OpenAiChat,
        Self::OpenAiResponses,
        Self::Anthropic,
        Self::Gemini,
        Self::Bedrock,
        Self::Cohere,
    ];

    /// The variant's name (`"Cohere"`): how a stored pending turn names its dialect.
    pub(crate) fn variant_name(self) -> &'static str {
        match self {
            Self::OpenAiChat => "OpenAiChat",
            Self::OpenAiResponses => "OpenAiResponses",
            Self::Anthropic => "Anthropic",
            Self::Gemini => "Gemini",
            Self::Bedrock => "Bedrock",
            Self::Cohere => "Cohere",
        }
    }

    /// The wire format of this dialect: the one place a dialect picks its implementation.
    pub(crate) fn wire(self) -> &'static dyn Wire {
        match self {
            Self::OpenAiChat => &openai::ChatWire,
            Self::OpenAiResponses => &openai::ResponsesWire,
            Self::Anthropic => &anthropic::AnthropicWire,
            Self::Gemini => &gemini::GeminiWire,
            Self::Bedrock => &bedrock::BedrockWire,
            Self::Cohere => &crate::cohere::CohereWire,
        }
    }

    /// The API's name, as error messages say it.
    ///
    /// ```
    /// assert_eq!(toolnexus::Dialect::Gemini.api_name(), "Gemini generateContent");
    /// ```
    #[must_use]
    pub fn api_name(self) -> &'static str {
        self.facts().api_name
    }

    /// Parses a response body; text that is not JSON gives [`ResponseError::NotJson`].
    ///
    /// ```
    /// use toolnexus::Dialect;
    ///
    /// let err = Dialect::OpenAiChat.parse_body(r#"{"choices":[{"message":"#).unwrap_err();
    /// assert_eq!(
    ///     err.to_string(),
    ///     "the OpenAI Chat Completions response is not valid JSON: EOF while parsing a value at line 1 column 23"
    /// );
    /// ```
    pub fn parse_body(self, body: &str) -> Result<Value, ResponseError> {
        serde_json::from_str(body).map_err(|e| ResponseError::NotJson {
            ran: Default::default(),
            dialect: self,
            detail: e.to_string(),
        })
    }

    /// The tool calls in a response, in the order the model made them. A response without calls
    /// (the model answered in text) gives an empty list.
    ///
    /// Each dialect reads under its provider's stop rule: a response cut off by a token limit is
    /// [`ResponseError::Truncated`], one stopped for safety [`ResponseError::Stopped`], an error
    /// object instead of a response [`ResponseError::Provider`] (the provider modules say which
    /// fields and reasons).
    pub fn parse_calls(self, response: &Value) -> Result<Vec<ToolCall>, ResponseError> {
        self.read(response).map(|(calls, _)| calls)
    }

    /// [`Wire::read`], with a response that does not read as this dialect's but has the shape
    /// of another's named: [`ResponseError::OtherDialect`].
    fn read(self, response: &Value) -> Result<(Vec<ToolCall>, Part<'_>), ResponseError> {
        self.wire().read(response).map_err(|e| match e {
            ResponseError::Malformed { .. } => {
                self.looks_like(response)
                    .map_or(e, |other| ResponseError::OtherDialect {
                        dialect: self,
                        looks_like: other,
                        ran: RanCalls::default(),
                    })
            }
            e => e,
        })
    }

    /// The other dialect whose shape `response` has, if one has.
    fn looks_like(self, response: &Value) -> Option<Self> {
        let root = response.as_object()?;
        Self::ALL.into_iter().find(|other| {
            *other != self && {
                let shape = other.facts().shape;
                !shape.is_empty() && shape.iter().all(|key| root.contains_key(*key))
            }
        })
    }

    /// The model's own turn, as the next request repeats it before the results: the assistant
    /// message (Chat Completions: `role`, `content`, `tool_calls` and a non-null `refusal`, without
    /// response-only fields such as `annotations`), all `output` items (Responses: reasoning items
    /// included, as the API wants them back), `{"role":"assistant","content":[...]}` (Anthropic:
    /// the blocks as sent, thinking blocks included), `candidates[0].content` (Gemini, thought
    /// signatures included), `{"role":"assistant","content":[...]}` (Bedrock: the blocks as sent)
    /// or the assistant message (Cohere: `tool_plan`, `tool_calls`, `content`, `citations`).
    ///
    /// One repair only: a call's arguments of a type the provider would refuse in a request (not
    /// a string for OpenAI, not an object for Anthropic and Gemini) are replaced by their JSON
    /// text or `{}`; such a call was answered with an error anyway.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolnexus::Dialect;
    ///
    /// let response = json!({"type": "message", "role": "assistant", "stop_reason": "tool_use",
    ///     "content": [{"type": "tool_use", "id": "toolu_01A", "name": "ping", "input": {}}]});
    /// assert_eq!(
    ///     Dialect::Anthropic.model_turn(&response)?,
    ///     [json!({"role": "assistant", "content": response["content"]})]
    /// );
    /// # Ok::<(), toolnexus::ResponseError>(())
    /// ```
    pub fn model_turn(self, response: &Value) -> Result<Vec<Value>, ResponseError> {
        let wire = self.wire();
        self.read(response).map(|(_, part)| wire.model_turn(part))
    }

    /// The calls of `response` and the checked part its model turn is built from: what
    /// [`Dialect::parse_calls`] and [`Dialect::model_turn`] give, from one reading of it. The
    /// turn is built later ([`ModelTurn::build`]), so a toolkit can start the calls first.
    pub(crate) fn read_calls(
        self,
        response: &Value,
    ) -> Result<(Vec<ToolCall>, ModelTurn<'_>), ResponseError> {
        let wire = self.wire();
        self.read(response)
            .map(|(calls, part)| (calls, ModelTurn::new(wire, part)))
    }

    /// The model's text in `model_turn`, a turn of this dialect: what [`Turn::text`](crate::Turn::text) gives.
    pub(crate) fn text_of(self, model_turn: &[Value]) -> String {
        self.wire().text(model_turn)
    }

    /// The members of a request body of this dialect that say `choice`: what
    /// [`ToolChoice::request_part`] gives.
    pub(crate) fn choice_part(self, choice: &ToolChoice) -> Result<Map<String, Value>, Error> {
        self.wire().tool_choice(choice)
    }

    /// This dialect's facts (the seam through which the layers below reach them).
    pub(crate) fn facts(self) -> &'static Facts {
        self.wire().facts()
    }

    /// What the text of [`ResponseError::NotEventStream`] adds for a body of this dialect that
    /// starts with `start` (Gemini's JSON array from `streamGenerateContent` without `?alt=sse`).
    pub(crate) fn not_a_stream_hint(self, start: &str) -> Option<&'static str> {
        let (prefix, hint) = self.facts().not_a_stream?;
        start.starts_with(prefix).then_some(hint)
    }

    /// The next request's message(s) carrying `results`, each paired with its call, in order.
    /// No calls give an empty list (never an empty message).
    ///
    /// [`Toolkit::execute_calls`](crate::Toolkit::execute_calls) returns one result per call in
    /// call order, so `calls.iter().zip(&results)` pairs them.
    pub fn render_results<'a>(
        self,
        answered: impl IntoIterator<Item = (&'a ToolCall, &'a ToolResult)>,
    ) -> Vec<Value> {
        self.wire().render_results(&mut answered.into_iter())
    }

    /// The user's next message in this dialect, to append to the conversation (`messages`,
    /// `input` or `contents`): `{"role": "user", "content": text}`, and for Gemini
    /// `{"role": "user", "parts": [{"text": text}]}`.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolnexus::Dialect;
    ///
    /// assert_eq!(Dialect::Anthropic.user_message("Weather in Paris?"),
    ///            json!({"role": "user", "content": "Weather in Paris?"}));
    /// assert_eq!(Dialect::Gemini.user_message("Weather in Paris?"),
    ///            json!({"role": "user", "parts": [{"text": "Weather in Paris?"}]}));
    /// ```
    #[must_use]
    pub fn user_message(self, text: &str) -> Value {
        self.user_message_with_media(text, &[])
    }

    /// The user's next message with images and files after its text, each in the shape the
    /// dialect's API takes in a user message:
    ///
    /// | dialect | image | file |
    /// |---|---|---|
    /// | OpenAI Chat | `image_url` part (data URL) | `file` part (`filename`, `file_data`) |
    /// | OpenAI Responses | `input_image` | `input_file` |
    /// | Anthropic | `image` block | `document` block (`title`: the name) |
    /// | Gemini | `inlineData` part | `inlineData` part (`displayName`: the name) |
    /// | Bedrock | `image` block | `document` block (`name`: the name, made to fit) |
    /// | Cohere | `image_url` item (data URL) | a note naming it after the text (a Cohere message takes no file) |
    ///
    /// A medium of a type the dialect's user messages do not take
    /// ([`Dialect::accepted_user_media`]) is not sent: a note naming it (its name, type and
    /// size) follows the text instead, so the request is not refused for it.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolnexus::{Dialect, Media};
    ///
    /// let photo = Media::image("image/png", vec![0x89, b'P', b'N', b'G']);
    /// assert_eq!(
    ///     Dialect::OpenAiResponses.user_message_with_media("What is in this picture?", &[photo]),
    ///     json!({"role": "user", "content": [
    ///         {"type": "input_text", "text": "What is in this picture?"},
    ///         {"type": "input_image", "image_url": "data:image/png;base64,iVBORw==",
    ///          "detail": "auto"}]})
    /// );
    /// ```
    #[must_use]
    pub fn user_message_with_media(self, text: &str, media: &[Media]) -> Value {
        self.wire().user_message(text, media)
    }

    /// The MIME types this dialect takes in a user message
    /// ([`Dialect::user_message_with_media`]):
    ///
    /// | dialect | images | documents, audio, video |
    /// |---|---|---|
    /// | OpenAI Chat | jpeg, png, gif, webp | `application/pdf` |
    /// | OpenAI Responses | jpeg, png, gif, webp | `application/pdf` |
    /// | Anthropic | jpeg, png, gif, webp | `application/pdf`, `text/plain` |
    /// | Gemini | png, jpeg, webp, heic, heif | pdf, plain text, html, csv, markdown, xml, rtf; wav, mp3, aiff, aac, ogg, flac; mp4, mpeg, mov, avi, flv, mpg, webm, wmv, 3gpp |
    /// | Bedrock | jpeg, png, gif, webp | pdf, csv, doc(x), xls(x), html, `text/plain`, markdown |
    /// | Cohere | jpeg, png, gif, webp | none |
    ///
    /// ```
    /// use toolnexus::Dialect;
    ///
    /// assert!(Dialect::Gemini.accepted_user_media().accepts("audio/wav"));
    /// assert!(!Dialect::Anthropic.accepted_user_media().accepts("audio/wav"));
    /// ```
    #[must_use]
    pub fn accepted_user_media(self) -> MediaSupport {
        self.facts().user_media
    }

    /// The MIME types this dialect takes inside a tool result:
    ///
    /// | dialect | images | documents |
    /// |---|---|---|
    /// | OpenAI Chat | jpeg, png, gif, webp | any (a text note naming the file) |
    /// | OpenAI Responses | jpeg, png, gif, webp | `application/pdf` |
    /// | Anthropic | jpeg, png, gif, webp | `application/pdf`, `text/plain` (UTF-8) |
    /// | Gemini | jpeg, png, webp | `application/pdf`, `text/plain` |
    /// | Bedrock | jpeg, png, gif, webp | pdf, csv, doc(x), xls(x), html, `text/plain`, markdown |
    /// | Cohere | none | none (a `tool` message holds text and documents only) |
    #[must_use]
    pub fn accepted_media(self) -> MediaSupport {
        self.facts().media
    }

    /// Holds a turn's media to `limits` and to what this dialect accepts, in call order: a
    /// result whose media the provider does not take ([`Dialect::accepted_media`]), whose media
    /// together exceed [`Limits::max_media_bytes`], or that would bring the turn's media past
    /// [`Limits::max_turn_media_bytes`] becomes an error result that says so (its media are not
    /// sent; its metadata stays). Results without media are not touched and do not count.
    ///
    /// [`Toolkit::respond`](crate::Toolkit::respond) does this for you with the toolkit's
    /// limits; call it yourself between [`Toolkit::execute_calls`](crate::Toolkit::execute_calls)
    /// and [`Dialect::render_results`] (which checks MIME types only, having no limits).
    ///
    /// ```
    /// use toolnexus::{Arguments, Dialect, Limits, ToolCall, ToolResult};
    ///
    /// let calls = [ToolCall::new("c1", "shot", Arguments::Absent)];
    /// let mut results = [ToolResult::ok("page").with_image("image/png", vec![0; 2048])];
    /// let limits = Limits::default().with_max_media_bytes(1024);
    /// Dialect::Anthropic.admit_media(&calls, &mut results, &limits);
    /// assert!(results[0].is_error && results[0].media.is_empty());
    /// assert_eq!(
    ///     results[0].output,
    ///     "the result of `shot` was not sent: its media total 2048 bytes, more than the \
    ///      1024 bytes one result may carry; return smaller or fewer images or files"
    /// );
    /// ```
    pub fn admit_media(self, calls: &[ToolCall], results: &mut [ToolResult], limits: &Limits) {
        admit::admit(self, &self.accepted_media(), limits, calls, results);
    }
}

impl fmt::Display for Dialect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.api_name())
    }
}

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
    /// The adapters (`tools_for`, `to_openai()`, ...) render whatever they are given; check first with
    /// [`Dialect::check_tools`] (or [`Dialect::check_tool_count`] for a count), and send a subset
    /// with [`Toolkit::select`](crate::Toolkit::select).
    ///
    /// ```
    /// assert_eq!(toolnexus::Dialect::OpenAiChat.max_tools(), 128);
    /// ```
    #[must_use]
    pub fn max_tools(self) -> usize {
        self.facts().max_tools
    }

    /// The call ids this dialect's API takes back (a call's id, and its result's): what
    /// [`IdMap`](crate::transcript::IdMap) fits a conversation's ids to when it moves here. See
    /// [`IdRule`](crate::transcript::IdRule) for each dialect's.
    #[must_use]
    pub fn id_rule(self) -> IdRule {
        self.facts().id_rule
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
    /// `Ok` when `tools` (a [`Toolkit`](crate::Toolkit)'s or a
    /// [`Selection`](crate::Selection)'s `tools()`) fit in one request of this dialect
    /// ([`Dialect::max_tools`]), with what the provider may still refuse that other servers of
    /// its API take ([`Warning`]: a description over OpenAI's 1024 characters); otherwise
    /// [`Error::TooManyTools`]. Send a subset with [`Toolkit::select`](crate::Toolkit::select).
    ///
    /// ```
    /// use serde_json::json;
    /// use toolnexus::{Dialect, NativeTool, Toolkit, Warning};
    ///
    /// let long = "Looks things up. ".repeat(100);
    /// let lookup = NativeTool::of("lookup", long, json!({"type": "object", "properties": {}}),
    ///     |_| async { "found" })?;
    /// let toolkit = Toolkit::new().with(lookup)?;
    /// let warnings = Dialect::OpenAiChat.check_tools(toolkit.tools())?;
    /// assert!(matches!(&warnings[..], [Warning::LongDescription { chars: 1700, max: 1024, .. }]));
    /// assert!(Dialect::Anthropic.check_tools(toolkit.tools())?.is_empty());
    /// # Ok::<(), toolnexus::Error>(())
    /// ```
    pub fn check_tools(self, tools: &[Arc<dyn Tool>]) -> Result<Vec<Warning>, Error> {
        self.check_tool_count(tools.len())?;
        Ok(self.warnings(tools))
    }

    /// What a provider may refuse in a request of `tools` that other servers of its API take:
    /// each description past the API's documented most ([`Warning::LongDescription`]).
    pub(crate) fn warnings(self, tools: &[Arc<dyn Tool>]) -> Vec<Warning> {
        let Some(max) = self.facts().max_description else {
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

#[cfg(test)]
mod tests {
    use super::Dialect;

    #[test]
    fn a_variant_name_is_its_debug_text_and_names_one_dialect() {
        for dialect in Dialect::ALL {
            assert_eq!(dialect.variant_name(), format!("{dialect:?}"));
            let named = Dialect::ALL
                .iter()
                .filter(|d| d.variant_name() == dialect.variant_name());
            assert_eq!(named.count(), 1);
        }
    }
}
