//! The round trip per [`Dialect`]: reading calls out of a response, repeating the model's turn
//! and rendering results, dispatched to the provider module that speaks the dialect.
//!
//! | dialect | module | results go back as |
//! |---|---|---|
//! | [`Dialect::OpenAiChat`] | [`openai::chat`](crate::openai::chat) | one `{"role":"tool"}` message per call |
//! | [`Dialect::OpenAiResponses`] | [`openai::responses`](crate::openai::responses) | one `function_call_output` item per call |
//! | [`Dialect::Anthropic`] | [`anthropic`](crate::anthropic) | one `user` message of `tool_result` blocks |
//! | [`Dialect::Gemini`] | [`gemini`](crate::gemini) | one `user` content of `functionResponse` parts |

use serde_json::Value;

use crate::call::ToolCall;
use crate::dialect::Dialect;
use crate::response::ResponseError;
use crate::result::ToolResult;
use crate::{anthropic, gemini, openai};

impl Dialect {
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
            dialect: self,
            detail: e.to_string(),
        })
    }

    /// The tool calls in a response, in the order the model made them. A response without calls
    /// (the model answered in text) gives an empty list.
    ///
    /// See each dialect's `parse_calls` for the exact rules: [`openai::chat::parse_calls`],
    /// [`openai::responses::parse_calls`], [`anthropic::parse_calls`], [`gemini::parse_calls`].
    pub fn parse_calls(self, response: &Value) -> Result<Vec<ToolCall>, ResponseError> {
        match self {
            Dialect::OpenAiChat => openai::chat::parse_calls(response),
            Dialect::OpenAiResponses => openai::responses::parse_calls(response),
            Dialect::Anthropic => anthropic::parse_calls(response),
            Dialect::Gemini => gemini::parse_calls(response),
        }
    }

    /// The model's own turn, as the next request repeats it before the results: the assistant
    /// message (Chat Completions: `role`, `content`, `tool_calls` and a non-null `refusal`, without
    /// response-only fields such as `annotations`), all `output` items (Responses: reasoning items
    /// included, as the API wants them back), `{"role":"assistant","content":[...]}` (Anthropic:
    /// the blocks as sent, thinking blocks included) or `candidates[0].content` (Gemini, thought
    /// signatures included).
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
        match self {
            Dialect::OpenAiChat => openai::chat::model_turn(response),
            Dialect::OpenAiResponses => openai::responses::model_turn(response),
            Dialect::Anthropic => anthropic::model_turn(response),
            Dialect::Gemini => gemini::model_turn(response),
        }
    }

    /// The calls and the model's turn from one reading of `response`: what
    /// [`Dialect::parse_calls`] and [`Dialect::model_turn`] give, without reading it twice.
    pub(crate) fn read_turn(
        self,
        response: &Value,
    ) -> Result<(Vec<ToolCall>, Vec<Value>), ResponseError> {
        match self {
            Dialect::OpenAiChat => openai::chat::read_turn(response),
            Dialect::OpenAiResponses => openai::responses::read_turn(response),
            Dialect::Anthropic => anthropic::read_turn(response),
            Dialect::Gemini => gemini::read_turn(response),
        }
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
        match self {
            Dialect::OpenAiChat => openai::chat::render_results(answered),
            Dialect::OpenAiResponses => openai::responses::render_results(answered),
            Dialect::Anthropic => anthropic::render_results(answered),
            Dialect::Gemini => gemini::render_results(answered),
        }
    }
}
