//! [`Turn`]: one answered model response — its calls, their results, and the messages the next
//! request appends (the model's own turn first, then the results).

pub(crate) mod batch;

use serde_json::Value;

use crate::values::call::ToolCall;
use crate::values::dialect::Dialect;
use crate::values::result::ToolResult;

/// One model response, answered: what [`Toolkit::respond`](crate::Toolkit::respond) returns.
///
/// `calls[i]` got `results[i]`. The next request appends [`Turn::messages`]: first
/// `model_turn` (the model's own message(s), as [`Dialect::model_turn`](crate::Dialect::model_turn)
/// gives them), then `result_messages` (as [`Dialect::render_results`](crate::Dialect::render_results)
/// renders the results). A turn without calls [`is_final`](Turn::is_final): the model answered
/// (so is one whose typed answer came through the output tool).
///
/// ```
/// use serde_json::json;
/// use toolnexus::{tool, Dialect, Toolkit};
///
/// /// Health check.
/// #[tool]
/// fn ping() -> &'static str {
///     "pong"
/// }
///
/// let toolkit = Toolkit::new().with(Ping)?;
/// let response = json!({"type": "message", "role": "assistant", "stop_reason": "tool_use",
///     "content": [{"type": "text", "text": "Checking."},
///                 {"type": "tool_use", "id": "toolu_01A", "name": "ping", "input": {}}]});
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let turn = toolkit.respond(&response, Dialect::Anthropic).await?;
/// assert!(!turn.is_final());
/// assert_eq!(turn.text(), "Checking.");
/// assert_eq!(turn.calls[0].name, "ping");
/// assert_eq!(turn.results[0].output, "pong");
/// assert_eq!(
///     turn.into_messages(),
///     [
///         json!({"role": "assistant", "content": response["content"]}),
///         json!({"role": "user", "content": [
///             {"type": "tool_result", "tool_use_id": "toolu_01A", "content": "pong"}]}),
///     ]
/// );
/// # Ok::<(), toolnexus::ResponseError>(()) }).unwrap();
/// # Ok::<(), toolnexus::Error>(())
/// ```
///
/// In a loop, keep the whole conversation: read `is_final` and `text` first, then append
/// [`into_messages`](Turn::into_messages), and stop once the model has answered.
///
/// ```
/// # use serde_json::Value;
/// # fn go(turn: toolnexus::Turn, history: &mut Vec<Value>) -> Option<String> {
/// let answered = turn.is_final();
/// let text = turn.text();
/// history.extend(turn.into_messages());
/// if answered {
///     return Some(text);
/// }
/// # None }
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Turn {
    /// The tool calls the model made, in order, as sent: ids, names and arguments (for a log or
    /// an audit trail of what the model asked for).
    pub calls: Vec<ToolCall>,
    /// One result per call, in call order.
    pub results: Vec<ToolResult>,
    /// The model's own turn, which the next request repeats before the results.
    pub model_turn: Vec<Value>,
    /// The results as the dialect's message(s); empty when there were no calls.
    pub result_messages: Vec<Value>,
    /// The dialect the response was read as.
    pub(crate) dialect: Dialect,
    /// A call of a final-answer tool ([`Tool::is_final_answer`](crate::Tool::is_final_answer))
    /// succeeded.
    pub(crate) answered: bool,
}

impl Turn {
    /// The dialect the response was read as.
    #[must_use]
    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    /// `true` when the model has answered, and the loop ends: it made no calls, or it called a
    /// final-answer tool (the output tool of a typed answer in tool mode,
    /// [`Output::tool`](crate::Output::tool)) and that call was accepted. A rejected answer (an
    /// error result) is not final: the model reads why and answers again.
    #[must_use]
    pub fn is_final(&self) -> bool {
        self.calls.is_empty() || self.answered
    }

    /// The messages the next request appends, in order: the model's turn, then the results.
    pub fn messages(&self) -> impl Iterator<Item = &Value> + '_ {
        self.model_turn.iter().chain(&self.result_messages)
    }

    /// [`Turn::messages`], taken out.
    #[must_use]
    pub fn into_messages(self) -> Vec<Value> {
        joined(self.model_turn, self.result_messages)
    }

    /// The model's text in this turn, in every dialect: the answer when the turn
    /// [`is_final`](Turn::is_final), or what the model wrote beside its calls. Empty when it
    /// wrote none. Thinking and reasoning are not part of it.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolnexus::{Dialect, Toolkit};
    ///
    /// let response = json!({"candidates": [{"finishReason": "STOP", "content": {"role": "model",
    ///     "parts": [{"text": "thinking...", "thought": true}, {"text": "It is sunny in Paris."}]}}]});
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// let turn = Toolkit::new().respond(&response, Dialect::Gemini).await?;
    /// assert!(turn.is_final());
    /// assert_eq!(turn.text(), "It is sunny in Paris.");
    /// # Ok::<(), toolnexus::ResponseError>(()) }).unwrap();
    /// ```
    #[must_use]
    pub fn text(&self) -> String {
        self.dialect.text_of(&self.model_turn)
    }
}

/// A model turn followed by its result messages: what a host appends to go on.
pub(crate) fn joined(mut model_turn: Vec<Value>, result_messages: Vec<Value>) -> Vec<Value> {
    model_turn.extend(result_messages);
    model_turn
}
